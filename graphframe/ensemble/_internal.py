"""The one place this package imports graphframe's modules by their location.

Everything else in ``graphframe.ensemble`` and ``graphframe.thicket`` imports
``Graph`` and ``GraphFrame`` (and the archive helpers) from here, so a
restructure of graphframe's modules only has to change these lines.
"""

from ..graph import Graph  # noqa: F401
from ..graphframe import GraphFrame  # noqa: F401

__all__ = ["Graph", "GraphFrame", "decode_column", "encode_column", "from_tagged", "to_tagged"]

# the archive codecs (column <-> Arrow with exact pandas dtypes, tagged JSON values)
from ..persist_codec import decode_column, encode_column, from_tagged, to_tagged  # noqa: E402,F401
