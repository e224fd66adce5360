"""Query objects with Hatchet's names: Query, ObjectQuery, StringQuery, compounds.

Every query object has ``apply(gf)`` (the matched nodes, in pre-order) and
combines with ``&`` (both), ``|`` (either), ``^`` (an odd number of) and ``~``
(not). ``GraphFrame.filter(query)`` keeps every row of the matched nodes.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Iterator, List, Optional, Union

import numpy as np

from ..errors import InvalidFilter
from ..node import Node
from .atoms import check_mode
from .errors import BadNumberNaryQueryArgs, InvalidQueryFilter, InvalidQueryPath, with_context
from .object_dialect import Step, as_predicate, compile_object_query, describe, expand
from .parser import MatchQuery, SetExpr, Where, parse
from .session import Session
from .string_dialect import compile_match


class QueryBase:
    """Base of every query object: ``apply`` and the set operators (Hatchet's ``AbstractQuery``).

    ``a & b``, ``a | b``, ``a ^ b`` and ``~a`` build a
    :class:`ConjunctionQuery`, :class:`DisjunctionQuery`,
    :class:`ExclusiveDisjunctionQuery` and :class:`NegationQuery` (Hatchet's
    new-style queries have no ``~``; here every query object has it).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> leaves, below_b = ObjectQuery([{"depth": -1}]), ObjectQuery([{"name": "b"}, "*"])
    >>> [int(n) for n in (leaves & below_b).apply(gf)], [int(n) for n in (~leaves).apply(gf)]
    ([2], [0, 1])
    """

    def apply(self, gf: Any) -> List[Node]:
        """The nodes of ``gf`` this query matches.

        Parameters
        ----------
        gf : GraphFrame
            The data to query.

        Returns
        -------
        list of Node
            In pre-order (ascending id).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
        >>> [n.frame["name"] for n in ObjectQuery([{"name": "b"}, "."]).apply(gf)]
        ['b', 'c']
        """
        ids = np.flatnonzero(Session(gf.graph, gf.dataframe).mask(self))
        return [Node(int(i), gf.graph) for i in ids]

    def _node_mask(self, session: Session) -> np.ndarray:
        raise NotImplementedError

    def __and__(self, other: Any) -> "ConjunctionQuery":
        return ConjunctionQuery(self, other)

    def __or__(self, other: Any) -> "DisjunctionQuery":
        return DisjunctionQuery(self, other)

    def __xor__(self, other: Any) -> "ExclusiveDisjunctionQuery":
        return ExclusiveDisjunctionQuery(self, other)

    def __invert__(self) -> "NegationQuery":
        return NegationQuery(self)


class Query(QueryBase):
    """A call-path query built step by step (Hatchet's base query).

    ``match`` starts the path, each ``rel`` (alias ``relation``) appends a
    query node. A quantifier is ``"."`` (one node), ``"*"`` (zero or more),
    ``"+"`` (one or more) or an integer count; a predicate is a callable on a
    node's row, a dict of object-dialect conditions, or None (any node).

    Parameters
    ----------
    multi_index_mode : {"off", "all", "any"}
        How a node's rows combine when there are rank/thread levels.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
    >>> q = Query().match(".", lambda row: row["name"].startswith("MPI")).rel("*")
    >>> [n.frame["name"] for n in q.apply(gf)]
    ['MPI_Send', 'ibv_post', 'MPI_Recv']
    """

    def __init__(self, multi_index_mode: str = "off") -> None:
        self.multi_index_mode = check_mode(multi_index_mode)
        self.query_pattern: List[Step] = []
        self._num_nodes = 0

    def match(self, quantifier: Union[str, int] = ".", predicate: Any = None) -> "Query":
        """Start the path with its first query node (an existing path is discarded).

        Parameters
        ----------
        quantifier : {".", "*", "+"} or int
            How many consecutive nodes this query node consumes: one, zero or
            more, one or more, or exactly that many (>= 1).
        predicate : dict, callable or None
            A dict of object-dialect conditions, a callable on a node's row
            (see :class:`~graphframe.query.predicates.CallablePredicate`), or
            None for any node.

        Returns
        -------
        Query
            ``self``, so calls chain.

        Raises
        ------
        InvalidQueryPath
            A bad quantifier or predicate.
        InvalidQueryFilter
            A bad condition (for example a regex that does not compile).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
        >>> [int(n) for n in Query().match("*", {"name": "a|b"}).apply(gf)]
        [0, 1]
        """
        self.query_pattern = []
        self._num_nodes = 0
        self._add_node(quantifier, predicate)
        return self

    def rel(self, quantifier: Union[str, int] = ".", predicate: Any = None) -> "Query":
        """Append a query node, matched by the children of the previous one's nodes.

        Parameters
        ----------
        quantifier : {".", "*", "+"} or int
            As in :meth:`match`.
        predicate : dict, callable or None
            As in :meth:`match`.

        Returns
        -------
        Query
            ``self``, so calls chain.

        Raises
        ------
        InvalidQueryPath
            Before :meth:`match`, or a bad quantifier or predicate.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
        >>> q = Query().match(".", {"name": "a"}).rel(".", lambda row: row["name"] != "d")
        >>> [int(n) for n in q.apply(gf)]
        [0, 1]
        >>> Query().rel("*")
        Traceback (most recent call last):
        ...
        graphframe.query.errors.InvalidQueryPath: a query must start with a call to 'match'
        """
        if not self.query_pattern:
            raise InvalidQueryPath("a query must start with a call to 'match'")
        self._add_node(quantifier, predicate)
        return self

    relation = rel

    def _add_node(self, quantifier: Union[str, int], predicate: Any) -> None:
        label = f"query node {self._num_nodes} {describe(predicate)}"
        try:
            steps = expand(quantifier, as_predicate(predicate, self.multi_index_mode, label))
        except (InvalidQueryPath, InvalidQueryFilter) as exc:
            raise with_context(exc, f"query node {self._num_nodes}") from exc
        self.query_pattern.extend(steps)
        self._num_nodes += 1

    def __len__(self) -> int:
        return len(self.query_pattern)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.query_pattern)

    def _alternatives(self) -> List[List[Step]]:
        return [self.query_pattern]

    def _node_mask(self, session: Session) -> np.ndarray:
        if not self.query_pattern:
            raise InvalidQueryPath("the query is empty: start it with match(...)")
        out = np.zeros(session.num_nodes, dtype=bool)
        for steps in self._alternatives():
            out |= session.match(steps)
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({[q for q, _ in self.query_pattern]})"


class ObjectQuery(Query):
    """A query in the object dialect (a list; see ``object_dialect``).

    Parameters
    ----------
    query : list
        Query nodes: ``"."``, ``"*"``, ``"+"``, an int, a dict of conditions,
        a callable, or a ``(quantifier, dict or callable)`` tuple.
    multi_index_mode : {"off", "all", "any"}
        How a node's rows combine when there are rank/thread levels.

    Raises
    ------
    InvalidQueryPath
        A malformed list (with the position of the bad query node).
    InvalidQueryFilter
        A condition that can never be evaluated (a bad regex, a bad
        comparison string); conditions that depend on the data's types are
        checked when the query is applied.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c", ("d", "c")), ("e", "c", "f")))
    >>> q = ObjectQuery([{"name": "b"}, ".", {"name": "c"}])
    >>> [(int(n), n.frame["name"]) for n in q.apply(gf)]
    [(1, 'b'), (3, 'd'), (4, 'c')]
    """

    def __init__(self, query: List[Any], multi_index_mode: str = "off") -> None:
        super().__init__(multi_index_mode)
        self.query_pattern = compile_object_query(query, self.multi_index_mode)
        self._num_nodes = len(query)


class StringQuery(Query):
    """A query in the string dialect (``MATCH (...)->(...) WHERE ...``; see ``parser``).

    The WHERE clause is a condition on the whole path: ``p."name" = "a" OR
    q."time" > 5`` matches paths where either holds. When conditions on
    several nodes are OR-ed, the query is a union of path alternatives
    (``alternatives``); ``query_pattern`` is the first one.
    Braced compounds (``{MATCH ...} OR {MATCH ...}``) are built by
    :func:`parse_string_dialect`.

    Parameters
    ----------
    cypher_query : str
        One ``MATCH`` query (keywords upper-case).
    multi_index_mode : {"off", "all", "any"}
        How a node's rows combine when there are rank/thread levels.

    Raises
    ------
    QuerySyntaxError
        The text does not parse (with the position); an ``InvalidQueryPath``.
    InvalidQueryPath
        Not a str, or a braced compound.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c", ("d", "c")), ("e", "c", "f")))
    >>> q = StringQuery('MATCH (p)->(".")->(q) WHERE p."name" = "a" AND q."name" = "c"')
    >>> [(int(n), n.frame["name"]) for n in q.apply(gf)]
    [(0, 'a'), (1, 'b'), (2, 'c'), (5, 'e'), (6, 'c')]
    """

    def __init__(self, cypher_query: str, multi_index_mode: str = "off") -> None:
        super().__init__(multi_index_mode)
        self.text = cypher_query
        tree = parse(cypher_query)
        if isinstance(tree, SetExpr) or isinstance(tree.where, SetExpr):
            raise InvalidQueryPath("this query combines braced parts: build it with "
                                   "parse_string_dialect(...), which returns a compound query")
        self._set(tree, tree.where)

    @classmethod
    def _from_tree(cls, text: str, tree: MatchQuery, where: Optional[Where],
                   multi_index_mode: str) -> "StringQuery":
        obj = cls.__new__(cls)
        Query.__init__(obj, multi_index_mode)
        obj.text = text
        obj._set(tree, where)
        return obj

    def _set(self, tree: MatchQuery, where: Optional[Where]) -> None:
        self.alternatives = compile_match(tree, where, self.multi_index_mode)
        self.query_pattern = self.alternatives[0]

    def _alternatives(self) -> List[List[Step]]:
        return self.alternatives


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


class ConjunctionQuery(CompoundQuery):
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


class DisjunctionQuery(CompoundQuery):
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


class ExclusiveDisjunctionQuery(CompoundQuery):
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


class NegationQuery(CompoundQuery):
    """Nodes the single subquery does not match (``~a``; the complement).

    Parameters
    ----------
    query : query object, list or str
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
