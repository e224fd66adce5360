"""The one place ``graphframe.ensemble`` and ``graphframe.thicket`` import graphframe's
modules by their location.

Everything else in both packages imports ``Graph``, ``GraphFrame``, the archive
codecs and the query package from here, so a restructure of graphframe's
modules only has to change these lines.
"""

from .. import query as query_package  # offered as graphframe.thicket.query (Thicket's th.query)
from ..graph import Graph
from ..graphframe import GraphFrame
# the archive codecs: column <-> Arrow with exact pandas dtypes, tagged JSON values
from ..persist_codec import decode_column, encode_column, from_tagged, to_tagged

__all__ = ["Graph", "GraphFrame", "decode_column", "encode_column", "from_tagged",
           "query_package", "to_tagged"]
