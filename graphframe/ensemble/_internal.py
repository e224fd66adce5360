"""The one place ``graphframe.ensemble`` and ``graphframe.thicket`` import graphframe's
modules by their location.

Everything else in both packages imports ``Graph``, ``GraphFrame``, the archive
codecs, the diff and the query package from here, so a restructure of
graphframe's modules only has to change these lines.
"""

from typing import Any

from .. import query as query_package  # offered as graphframe.thicket.query (Thicket's th.query)
from ..graphframe import GraphFrame
# the archive codecs: column <-> Arrow with exact pandas dtypes, tagged JSON values
from ..io.codec import decode_column, encode_column, from_tagged, to_tagged
# the statistics core shared with GraphFrame.rank_stats (ens.stats, graphframe.thicket.stats)
from ..kernels.level_stats import BLOCK_CELLS, LevelPlan, group_arrays, level_stats
from ..model import Graph
# frames from column arrays, text arrays as text columns
from ..model.dataframe import frame_from_columns, plain_values
# the node index level type (ids stored, Node objects handed out)
from ..model.nodeindex import with_node_values
# text columns (codes into shared strings, behaving as object columns)
from ..model.text import as_text
from ..model.textarray import TextArray
# numpy reductions given to pandas' agg by pandas' names (graphframe.ops.reductions)
from ..ops.reductions import pandas_agg

__all__ = ["BLOCK_CELLS", "Graph", "GraphFrame", "LevelPlan", "TextArray", "as_text",
           "decode_column", "diff", "encode_column", "frame_from_columns", "from_tagged",
           "group_arrays", "level_stats", "pandas_agg", "plain_values", "query_package",
           "to_tagged", "with_node_values"]


def diff(before: Any, after: Any, *args: Any, **options: Any) -> Any:
    """:func:`graphframe.diff`, loaded with its first use (graphframe's fast start).

    Examples
    --------
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> diff(a, a).graph.num_nodes
    2
    """
    from ..diffing import diff as run  # the diff loads with its first use (fast start)
    return run(before, after, *args, **options)
