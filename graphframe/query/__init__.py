"""Call-path query language: the object and string dialects (Hatchet's ``hatchet.query``).

A query describes call paths; the result is every node on a matching path.

* object dialect: ``[{"name": "MPI_.*"}, "*", {"time (inc)": ">= 5"}]``;
* string dialect: ``MATCH (p)->("*")->(q) WHERE p."name" =~ "MPI_.*" AND q."time (inc)" >= 5``;
* query objects: :class:`Query` (``match``/``rel``), :class:`ObjectQuery`,
  :class:`StringQuery`, :class:`QueryMatcher`, combined with ``&``, ``|``,
  ``^`` and ``~``.

``GraphFrame.filter(query)`` keeps the rows of the matched nodes;
``GraphFrame.query(query)`` and ``query.apply(gf)`` return the nodes.
Semantics and the differences from Hatchet are in ``docs/query.md``.

Examples
--------
>>> from graphframe import GraphFrame
>>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
>>> matched_nodes(gf, [{"name": "MPI_.*"}, "*"]).tolist()
[1, 2, 4]
>>> matched_nodes(gf, 'MATCH (p)->(q) WHERE p."name" = "solve"').tolist()
[3, 4]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .api import (CompoundQuery, ConjunctionQuery, DisjunctionQuery, ExclusiveDisjunctionQuery,
                  NegationQuery, ObjectQuery, Query, QueryBase, StringQuery, coerce_query,
                  parse_string_dialect)
from .atoms import Atom
from .compat import (AbstractQuery, AndQuery, CypherQuery, IntersectionQuery, NaryQuery, NotQuery,
                     OrQuery, QueryEngine, QueryMatcher, SymDifferenceQuery, UnionQuery, XorQuery,
                     combine_via_conjunction, combine_via_disjunction,
                     combine_via_exclusive_disjunction, is_hatchet_query, negate_query,
                     parse_cypher_query)
from .errors import (BadNumberNaryQueryArgs, InvalidQueryFilter, InvalidQueryPath,
                     MultiIndexModeMismatch, QueryError, QuerySyntaxError,
                     RedundantQueryFilterWarning)
from .errors import QueryConditionError
from .predicates import CallablePredicate, Predicate, Vectorised, vectorised
from .rows import Row
from .session import Session
from ..model.fields import GraphFrameLike


def matched_nodes(gf: GraphFrameLike, query: Any, multi_index_mode: str = "off") -> np.ndarray:
    """Ids (ascending) of the nodes on any path matching ``query``.

    Parameters
    ----------
    gf : GraphFrame
        The data to query.
    query : list, str or query object
        An object-dialect list, a string-dialect query, or a query object
        (which keeps its own ``multi_index_mode``).
    multi_index_mode : {"off", "all", "any"}
        For lists and strings: how the rows of a node with rank/thread rows
        combine ("any" row / "all" rows satisfy a node's conditions).

    Returns
    -------
    numpy.ndarray
        int64 node ids, ascending (pre-order).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> matched_nodes(gf, [{"name": "b"}, "*"]).tolist()
    [1, 2]
    >>> matched_nodes(gf, "MATCH (p) WHERE p IS LEAF").tolist()
    [2, 3]
    """
    q = coerce_query(query, multi_index_mode)
    return np.flatnonzero(Session(gf.graph, gf.dataframe).mask(q)).astype(np.int64)


__all__ = [
    "AbstractQuery", "AndQuery", "Atom", "BadNumberNaryQueryArgs", "CallablePredicate",
    "combine_via_conjunction", "combine_via_disjunction", "combine_via_exclusive_disjunction",
    "CompoundQuery", "ConjunctionQuery", "CypherQuery", "DisjunctionQuery",
    "ExclusiveDisjunctionQuery", "IntersectionQuery", "InvalidQueryFilter", "InvalidQueryPath",
    "is_hatchet_query", "matched_nodes", "MultiIndexModeMismatch", "NaryQuery", "negate_query",
    "NegationQuery", "NotQuery", "ObjectQuery", "OrQuery", "parse_cypher_query",
    "parse_string_dialect", "Predicate", "Query", "QueryBase", "QueryConditionError",
    "QueryEngine", "QueryError", "QueryMatcher", "QuerySyntaxError",
    "RedundantQueryFilterWarning", "Row", "Session", "StringQuery", "SymDifferenceQuery",
    "UnionQuery", "vectorised", "Vectorised", "XorQuery",
]
