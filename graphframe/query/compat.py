"""Hatchet's older query names: QueryMatcher, CypherQuery, AndQuery, ... and QueryEngine.

Hatchet keeps them (deprecated) next to the newer classes; here they are
thin subclasses of the same machinery, without deprecation warnings.
"""

from __future__ import annotations

from typing import Any, List, Union

import numpy as np
import pandas as pd

from ..model.node import Node
from .api import (CompoundQuery, ConjunctionQuery, DisjunctionQuery, ExclusiveDisjunctionQuery,
                  NegationQuery, Query, QueryBase, coerce_query, parse_string_dialect)
from .errors import InvalidQueryPath
from .object_dialect import compile_object_query
from .session import Session

#: Hatchet's names of the query base classes
AbstractQuery = QueryBase
NaryQuery = CompoundQuery


class QueryMatcher(Query):
    """Hatchet's classic query builder: ``QueryMatcher().match(...).rel(...)``.

    ``QueryMatcher(path_list)`` compiles an object-dialect list directly.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> q = QueryMatcher().match(".", lambda row: row["name"] == "a").rel("*")
    >>> [n.frame["name"] for n in q.apply(gf)]
    ['a', 'b', 'c', 'd']
    """

    def __init__(self, query: Any = None, multi_index_mode: str = "off") -> None:
        super().__init__(multi_index_mode)
        if query is None:
            return
        if not isinstance(query, list):
            raise InvalidQueryPath("QueryMatcher takes an object-dialect query (a list)")
        self.query_pattern = compile_object_query(query, self.multi_index_mode)
        self._num_nodes = len(query)

    def match(self, wildcard_spec: Union[str, int] = ".", filter_func: Any = None
              ) -> "QueryMatcher":
        """Start the path with one query node (Hatchet's argument names).

        Parameters
        ----------
        wildcard_spec : {".", "*", "+"} or int
            The quantifier (see :meth:`Query.match`).
        filter_func : callable, dict or None
            The predicate (see :meth:`Query.match`).

        Returns
        -------
        QueryMatcher
            ``self``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
        >>> [int(n) for n in QueryMatcher().match("+", lambda row: row["name"] < "c").apply(gf)]
        [0, 1]
        """
        super().match(wildcard_spec, filter_func)
        return self

    def rel(self, wildcard_spec: Union[str, int] = ".", filter_func: Any = None
            ) -> "QueryMatcher":
        """Append a query node (Hatchet's argument names; see :meth:`Query.rel`).

        Parameters
        ----------
        wildcard_spec : {".", "*", "+"} or int
            The quantifier.
        filter_func : callable, dict or None
            The predicate.

        Returns
        -------
        QueryMatcher
            ``self``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
        >>> [int(n) for n in QueryMatcher().match(".", {"name": "b"}).rel().apply(gf)]
        [1, 2]
        """
        super().rel(wildcard_spec, filter_func)
        return self

    relation = rel


class CypherQuery(QueryBase):
    """Hatchet's older name for a string-dialect query (braced compounds allowed).

    Parameters
    ----------
    cypher_query : str
        Any string-dialect query (see :func:`parse_string_dialect`).
    multi_index_mode : {"off", "all", "any"}
        How a node's rows combine when there are rank/thread levels.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in CypherQuery("{MATCH (p) WHERE p IS LEAF} OR {MATCH (p)->(q)}").apply(gf)]
    [0, 1, 2, 3]
    """

    def __init__(self, cypher_query: str, multi_index_mode: str = "off") -> None:
        self.true_query = parse_string_dialect(cypher_query, multi_index_mode)

    def _node_mask(self, session: Session) -> np.ndarray:
        return session.mask(self.true_query)


def parse_cypher_query(cypher_query: str) -> CypherQuery:
    """Hatchet's older entry point for string queries (braced compounds allowed).

    Parameters
    ----------
    cypher_query : str
        A string-dialect query.

    Returns
    -------
    CypherQuery

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in parse_cypher_query("MATCH (p) WHERE p IS LEAF").apply(gf)]
    [2, 3]
    """
    return CypherQuery(cypher_query)


class AndQuery(ConjunctionQuery):
    """Older name of :class:`ConjunctionQuery` (also ``IntersectionQuery``).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in AndQuery([{"depth": -1}], [{"name": "c"}]).apply(gf)]
    [2]
    """


class OrQuery(DisjunctionQuery):
    """Older name of :class:`DisjunctionQuery` (also ``UnionQuery``).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in OrQuery([{"name": "a"}], [{"name": "c"}]).apply(gf)]
    [0, 2]
    """


class XorQuery(ExclusiveDisjunctionQuery):
    """Older name of :class:`ExclusiveDisjunctionQuery` (also ``SymDifferenceQuery``).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in XorQuery([{"depth": -1}], [{"name": "c|a"}]).apply(gf)]
    [0, 3]
    """


class NotQuery(NegationQuery):
    """Older name of :class:`NegationQuery`.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in NotQuery([{"depth": -1}]).apply(gf)]
    [0, 1]
    """


#: Hatchet's other older names
IntersectionQuery = AndQuery
UnionQuery = OrQuery
SymDifferenceQuery = XorQuery


class QueryEngine:
    """Hatchet's engine object: ``QueryEngine().apply(query, graph, dataframe)``.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in QueryEngine().apply([{"depth": -1}], gf.graph, gf.dataframe)]
    [2, 3]
    """

    def reset_cache(self) -> None:
        """Nothing to reset: every ``apply`` evaluates from scratch."""

    def apply(self, query: Any, graph: Any, dframe: pd.DataFrame) -> List[Node]:
        """The nodes of ``graph`` that ``query`` matches.

        Parameters
        ----------
        query : query object, list or str
            The query (lists and strings with ``multi_index_mode="off"``).
        graph : Graph
            The graph of the data.
        dframe : pandas.DataFrame
            Its rows, indexed by ``node`` (and rank/thread levels).

        Returns
        -------
        list of Node
            In pre-order (ascending id).
        """
        ids = np.flatnonzero(Session(graph, dframe).mask(coerce_query(query)))
        return [Node(int(i), graph) for i in ids]


def is_hatchet_query(query_obj: Any) -> bool:
    """Whether ``query_obj`` is a query object (of this package), not a list or a string.

    Parameters
    ----------
    query_obj : object

    Returns
    -------
    bool

    Examples
    --------
    >>> from graphframe.query import ObjectQuery
    >>> is_hatchet_query(ObjectQuery([{"name": "a"}])), is_hatchet_query([{"name": "a"}])
    (True, False)
    """
    return isinstance(query_obj, QueryBase)


def combine_via_conjunction(query0: Any, query1: Any) -> ConjunctionQuery:
    """``query0 & query1``: nodes both match.

    Parameters
    ----------
    query0, query1 : query object, list or str

    Returns
    -------
    ConjunctionQuery

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in combine_via_conjunction([{"depth": -1}], [{"name": "d"}]).apply(gf)]
    [3]
    """
    return ConjunctionQuery(query0, query1)


def combine_via_disjunction(query0: Any, query1: Any) -> DisjunctionQuery:
    """``query0 | query1``: nodes either matches.

    Parameters
    ----------
    query0, query1 : query object, list or str

    Returns
    -------
    DisjunctionQuery

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in combine_via_disjunction([{"name": "a"}], [{"name": "d"}]).apply(gf)]
    [0, 3]
    """
    return DisjunctionQuery(query0, query1)


def combine_via_exclusive_disjunction(query0: Any, query1: Any) -> ExclusiveDisjunctionQuery:
    """``query0 ^ query1``: nodes exactly one matches.

    Parameters
    ----------
    query0, query1 : query object, list or str

    Returns
    -------
    ExclusiveDisjunctionQuery

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> q = combine_via_exclusive_disjunction([{"depth": -1}], [{"name": "b|c"}])
    >>> [int(n) for n in q.apply(gf)]
    [1, 3]
    """
    return ExclusiveDisjunctionQuery(query0, query1)


def negate_query(query: Any) -> NegationQuery:
    """``~query``: nodes it does not match.

    Parameters
    ----------
    query : query object, list or str

    Returns
    -------
    NegationQuery

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [int(n) for n in negate_query([{"name": "b"}, "*"]).apply(gf)]
    [0, 3]
    """
    return NegationQuery(query)
