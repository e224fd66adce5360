"""One query evaluation over one graph and dataframe.

A :class:`Session` owns the predicate evaluation context (per-row column
results and per-node masks, cached for the whole evaluation) and the graph
arrays the matcher needs. Compound queries evaluate all their subqueries in
one session, so a condition shared by subqueries is computed once.
"""

from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np
import pandas as pd

from .evaluate import EvalContext
from .matcher import Structure, match_path


class Session:
    """Evaluate queries on ``graph`` + ``dataframe``; results are boolean node masks.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.query import ObjectQuery
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> s = Session(gf.graph, gf.dataframe)
    >>> np.flatnonzero(s.mask(ObjectQuery([{"name": "b"}, "*"]))).tolist()
    [1, 2]
    """

    def __init__(self, graph: Any, dataframe: pd.DataFrame) -> None:
        self.graph = graph
        self.context = EvalContext.for_graph(graph, dataframe)
        self.structure = Structure(graph)

    @property
    def num_nodes(self) -> int:
        return self.structure.n

    def mask(self, query: Any) -> np.ndarray:
        """Boolean array over node ids: the nodes ``query`` matches."""
        return query._node_mask(self)

    def match(self, steps: Sequence[Tuple[str, Any]]) -> np.ndarray:
        """Nodes on any path matching ``steps`` (``(".", predicate)`` / ``("*", predicate)``)."""
        masks = [self.context.node_mask(predicate) for _, predicate in steps]
        stars = [quantifier == "*" for quantifier, _ in steps]
        return match_path(self.structure, masks, stars)
