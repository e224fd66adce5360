"""The statsframe: a node-indexed table on the ensemble's graph for per-node statistics.

It is a plain DataFrame indexed by ``node`` (every node id of the graph, in
order) whose first column is ``name``; statistics over profiles are added as
further columns (``ens.statsframe["time_mean"] = ...``). Operations that
change the graph or the set of profiles reset it to ``name`` only, except
node selections on the statsframe itself (``filter_stats``, ``query_stats``),
which keep the rows of the kept nodes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

INT = np.int64


def empty_statsframe(graph) -> pd.DataFrame:
    """A statsframe with one row per node of ``graph`` and its ``name``.

    Examples
    --------
    >>> from graphframe import Graph
    >>> empty_statsframe(Graph.from_lists(("main", "solve")))
           name
    node
    0      main
    1     solve
    """
    names = graph.attr_values("name") if "name" in graph.attr_names() else \
        np.full(graph.num_nodes, None, dtype=object)
    index = pd.Index(np.arange(graph.num_nodes, dtype=INT), name="node")
    return pd.DataFrame({"name": pd.Series(names, index=index, dtype=object)}, index=index)
