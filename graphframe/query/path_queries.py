"""Query objects that match call paths: QueryBase, Query, ObjectQuery, StringQuery.

Every query object has ``apply(gf)`` (the matched nodes, in pre-order) and
combines with ``&`` (both), ``|`` (either), ``^`` (an odd number of) and ``~``
(not); those build the compound queries of :mod:`graphframe.query.compound`.
The public names are re-exported by :mod:`graphframe.query.api`.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Union

import numpy as np

from ..model.node import Node
from .atoms import check_mode
from .errors import InvalidQueryFilter, InvalidQueryPath, with_context
from .object_dialect import Step, as_predicate, compile_object_query, describe, expand
from .parser import MatchQuery, SetExpr, Where, parse
from .session import Session
from .string_dialect import compile_match
from ..model.fields import GraphFrameLike


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

    # The compound class of each operator ("&", "|", "^", "~"). The compound
    # classes register themselves (``class ConjunctionQuery(CompoundQuery,
    # symbol="&")`` in ``compound.py``): they import this module, so this one
    # does not import theirs.
    _compound_classes: Dict[str, type] = {}

    def __init_subclass__(cls, symbol: Optional[str] = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if symbol is not None:
            QueryBase._compound_classes[symbol] = cls

    def apply(self, gf: GraphFrameLike) -> List[Node]:
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

    # the results are the compound classes registered above (typed as their base here)
    def __and__(self, other: Any) -> "QueryBase":  # a ConjunctionQuery
        return self._compound_classes["&"](self, other)

    def __or__(self, other: Any) -> "QueryBase":  # a DisjunctionQuery
        return self._compound_classes["|"](self, other)

    def __xor__(self, other: Any) -> "QueryBase":  # an ExclusiveDisjunctionQuery
        return self._compound_classes["^"](self, other)

    def __invert__(self) -> "QueryBase":  # a NegationQuery
        return self._compound_classes["~"](self)


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
