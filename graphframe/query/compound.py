"""Compound queries (``&``, ``|``, ``^``, ``~``) and the conversion of lists and strings.

A compound query combines the node sets of its subqueries, which may be given
as object-dialect lists or string-dialect text; a string can itself denote a
compound (``{MATCH ...} OR {MATCH ...}``). So the compound classes,
:func:`parse_string_dialect` and :func:`coerce_query` live together, above the
path queries of :mod:`graphframe.query.path_queries`. The public names are
re-exported by :mod:`graphframe.query.api`.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, List

import numpy as np

from ..errors import InvalidFilter
from .atoms import check_mode
from .errors import BadNumberNaryQueryArgs, InvalidQueryPath
from .parser import MatchQuery, SetExpr, parse
from .path_queries import ObjectQuery, QueryBase, StringQuery
from .session import Session


class CompoundQuery(QueryBase):
    """Base of queries that combine the node sets of subqueries (Hatchet's ``NaryQuery``).

    Parameters
    ----------
    *queries : query object, list or str
        The subqueries: query objects, object-dialect lists or string-dialect
        queries (a single tuple of them is accepted too). Lists and strings
        use ``multi_index_mode="off"``; build an :class:`ObjectQuery` or
        :class:`StringQuery` for another mode.

    Raises
    ------
    BadNumberNaryQueryArgs
        Too few subqueries (two; one for :class:`NegationQuery`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> q = DisjunctionQuery([{"name": "b"}], 'MATCH (p) WHERE p."name" = "d"')
    >>> [type(s).__name__ for s in q.subqueries], [int(n) for n in q.apply(gf)]
    (['ObjectQuery', 'StringQuery'], [1, 3])
    """

    min_subqueries = 2

    def __init__(self, *queries: Any) -> None:
        if len(queries) == 1 and isinstance(queries[0], tuple):
            queries = queries[0]
        self.subqueries = [coerce_query(q) for q in queries]
        if len(self.subqueries) < self.min_subqueries:
            raise BadNumberNaryQueryArgs(
                f"{type(self).__name__} needs at least {self.min_subqueries} subqueries, "
                f"got {len(self.subqueries)}")

    def _node_mask(self, session: Session) -> np.ndarray:
        return self._combine([session.mask(q) for q in self.subqueries])

    def _combine(self, masks: List[np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.subqueries))})"


class ConjunctionQuery(CompoundQuery, symbol="&"):
    """Nodes matched by every subquery (``a & b``; set intersection).

    Parameters
    ----------
    *queries : query object, list or str
        Two or more subqueries (see :class:`CompoundQuery`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> q = ConjunctionQuery([{"depth": -1}], [{"name": "b"}, "*"])
    >>> [n.frame["name"] for n in q.apply(gf)]
    ['c']
    """

    def _combine(self, masks: List[np.ndarray]) -> np.ndarray:
        return reduce(np.logical_and, masks)


class DisjunctionQuery(CompoundQuery, symbol="|"):
    """Nodes matched by at least one subquery (``a | b``; set union).

    Parameters
    ----------
    *queries : query object, list or str
        Two or more subqueries (see :class:`CompoundQuery`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> q = DisjunctionQuery([{"name": "c"}], [{"name": "d"}])
    >>> [n.frame["name"] for n in q.apply(gf)]
    ['c', 'd']
    """

    def _combine(self, masks: List[np.ndarray]) -> np.ndarray:
        return reduce(np.logical_or, masks)


class ExclusiveDisjunctionQuery(CompoundQuery, symbol="^"):
    """Nodes matched by an odd number of subqueries (``a ^ b``; symmetric difference).

    Parameters
    ----------
    *queries : query object, list or str
        Two or more subqueries (see :class:`CompoundQuery`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> q = ExclusiveDisjunctionQuery([{"depth": -1}], [{"name": "b"}, "*"])
    >>> [n.frame["name"] for n in q.apply(gf)]
    ['b', 'd']
    """

    def _combine(self, masks: List[np.ndarray]) -> np.ndarray:
        return reduce(np.logical_xor, masks)


class NegationQuery(CompoundQuery, symbol="~"):
    """Nodes the single subquery does not match (``~a``; the complement).

    Parameters
    ----------
    *queries : query object, list or str
        Exactly one subquery.

    Raises
    ------
    BadNumberNaryQueryArgs
        Not exactly one subquery.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> [n.frame["name"] for n in NegationQuery([{"depth": -1}]).apply(gf)]
    ['a', 'b']
    """

    min_subqueries = 1

    def __init__(self, *queries: Any) -> None:
        super().__init__(*queries)
        if len(self.subqueries) != 1:
            raise BadNumberNaryQueryArgs(
                f"NegationQuery takes exactly 1 subquery, got {len(self.subqueries)}")

    def _combine(self, masks: List[np.ndarray]) -> np.ndarray:
        return ~masks[0]


_SET_CLASSES = {"AND": ConjunctionQuery, "OR": DisjunctionQuery,
                "XOR": ExclusiveDisjunctionQuery}


def parse_string_dialect(query_str: str, multi_index_mode: str = "off") -> QueryBase:
    """Parse any string-dialect query, including braced compounds.

    ``{MATCH ...} OR {MATCH ...}`` combines whole queries; ``MATCH ... WHERE
    {conds} AND {conds}`` combines condition groups that share one MATCH.
    Returns a :class:`StringQuery` or a compound query.

    Examples
    --------
    >>> q = parse_string_dialect('{MATCH (p) WHERE p."name" = "a"} OR {MATCH (p) WHERE p IS LEAF}')
    >>> type(q).__name__, [type(s).__name__ for s in q.subqueries]
    ('DisjunctionQuery', ['StringQuery', 'StringQuery'])
    """
    check_mode(multi_index_mode)
    return _build(query_str, parse(query_str), multi_index_mode)


def _build(text: str, tree: Any, mode: str) -> QueryBase:
    if isinstance(tree, SetExpr):
        return _SET_CLASSES[tree.op](*[_build(text, t, mode) for t in tree.operands])
    if isinstance(tree.where, SetExpr):
        return _build_where(text, tree, tree.where, mode)
    return StringQuery._from_tree(text, tree, tree.where, mode)


def _build_where(text: str, tree: MatchQuery, where: Any, mode: str) -> QueryBase:
    if isinstance(where, SetExpr):
        return _SET_CLASSES[where.op](*[_build_where(text, tree, w, mode)
                                        for w in where.operands])
    return StringQuery._from_tree(text, tree, where, mode)


def coerce_query(query: Any, multi_index_mode: str = "off") -> QueryBase:
    """A query object from a query object, an object-dialect list or a query string.

    Examples
    --------
    >>> type(coerce_query([{"name": "a"}])).__name__, type(coerce_query("MATCH (p)")).__name__
    ('ObjectQuery', 'StringQuery')
    """
    if isinstance(query, QueryBase):
        return query
    if isinstance(query, list):
        return ObjectQuery(query, multi_index_mode)
    if isinstance(query, str):
        return parse_string_dialect(query, multi_index_mode)
    if isinstance(query, tuple):
        raise InvalidQueryPath("an object-dialect query is a list of query nodes, not a tuple")
    raise InvalidFilter(f"a query is a list (object dialect), a str (string dialect) or a "
                        f"query object, not a {type(query).__name__}")
