"""Compiled node predicates: conditions in disjunctive normal form, or a callable.

Both dialects compile their conditions into the same small vocabulary:

* an :class:`~graphframe.query.atoms.Atom` is one condition on a node;
* a :class:`Predicate` is an OR of terms, each an AND of atoms or negated
  atoms, plus the ``multi_index_mode`` that says how the rows of one node
  combine;
* a :class:`CallablePredicate` wraps a user function, called once per row
  (or, with several rows per node, once per node's rows) like Hatchet; a
  function wrapped in :func:`vectorised` is instead called once on the whole
  dataframe and returns one boolean per row.

Predicates are evaluated for all nodes at once by
:class:`graphframe.query.evaluate.EvalContext`; calling one on a single row
(``predicate({"name": "MPI_Bcast"})``, as Hatchet's tests do) uses the same
code on a one-row table.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

from .atoms import Atom, Literal, Term, check_mode
from .errors import InvalidQueryFilter
from .evaluate import EvalContext

__all__ = ["Atom", "CallablePredicate", "Predicate", "Vectorised", "true_predicate",
           "vectorised"]


class Predicate:
    """A node predicate: an OR of AND-terms of (possibly negated) atoms.

    Parameters
    ----------
    terms : sequence of sequences of (Atom, negated)
        ``[[]]`` (one empty term) is always true; ``[]`` is always false.
    multi_index_mode : {"off", "all", "any"}
        For data with rank/thread levels: a node matches when all / any of
        its rows satisfy the predicate; "off" refuses column conditions on
        such data.
    label : str, optional
        Where the predicate comes from (``"query node 2 {'time': '>= x'}"``);
        errors found while evaluating it start with it.

    Examples
    --------
    >>> p = Predicate([[(Atom("column", "regex", "name", "MPI_.*"), False)]])
    >>> p({"name": "MPI_Bcast"}), p({"name": "ibv_reg_mr"}), p({"time": 1.0})
    (True, False, False)
    """

    def __init__(self, terms: Sequence[Sequence[Literal]], multi_index_mode: str = "off",
                 label: Optional[str] = None) -> None:
        self.terms: Tuple[Term, ...] = tuple(tuple(t) for t in terms)
        self.multi_index_mode = check_mode(multi_index_mode)
        self.label = label

    @property
    def always_true(self) -> bool:
        """Whether the predicate holds for every node (an empty term)."""
        return any(len(t) == 0 for t in self.terms)

    @property
    def uses_columns(self) -> bool:
        """Whether some atom reads a dataframe column."""
        return any(atom.kind == "column" for t in self.terms for atom, _ in t)

    def __call__(self, row: Any) -> bool:
        """Evaluate on one row (mapping or Series) or one node's rows (DataFrame)."""
        return bool(EvalContext.for_row(row).node_mask(self)[0])

    def __repr__(self) -> str:
        if self.always_true:
            return "Predicate(True)"
        parts = [" AND ".join(("NOT " if neg else "") + repr(a) for a, neg in t)
                 for t in self.terms]
        return f"Predicate({' OR '.join(parts) or 'False'})"


TRUE_TERMS: Tuple[Term, ...] = ((),)


def true_predicate(multi_index_mode: str = "off") -> Predicate:
    """The predicate of a bare quantifier: every node satisfies it.

    Examples
    --------
    >>> true_predicate()({"anything": 1})
    True
    """
    return Predicate(TRUE_TERMS, multi_index_mode)


class CallablePredicate:
    """A user function on a node's row, with Hatchet's semantics.

    Called once per row with the row as Hatchet passes it: a Series-like
    :class:`~graphframe.query.rows.Row` whose ``name`` is the Node (one row
    per node), or, when nodes have several rows (rank/thread levels), once per
    node with the node's rows as a DataFrame whose ``node`` level holds the
    Node. The result's truth value decides. Exceptions raised by the function
    become :class:`InvalidQueryFilter` naming the node (chained). A function
    wrapped in :func:`vectorised` is called once on the whole dataframe.

    Parameters
    ----------
    func : callable
        ``func(row) -> bool``, or a :class:`Vectorised` function.
    multi_index_mode : {"off", "all", "any"}
        Only used by vectorised functions on data with several rows per node
        (how the rows' results combine); a per-row function sees all the
        node's rows and decides itself.
    label : str, optional
        Where the predicate comes from, for error messages.

    Examples
    --------
    >>> p = CallablePredicate(lambda row: row["time"] > 1)
    >>> p({"time": 2.0})
    True
    >>> CallablePredicate(vectorised(lambda df: df["time"] > 1))({"time": 0.5})
    False
    """

    def __init__(self, func: Callable[[Any], Any], multi_index_mode: str = "off",
                 label: Optional[str] = None) -> None:
        if not callable(func):
            raise InvalidQueryFilter(f"a predicate must be callable, not {type(func).__name__}")
        self.func = func
        self.multi_index_mode = check_mode(multi_index_mode)
        self.label = label

    always_true = False
    uses_columns = True

    @property
    def is_vectorised(self) -> bool:
        """Whether the function is called once on the whole dataframe."""
        return isinstance(self.func, Vectorised)

    def __call__(self, row: Any) -> Any:
        if self.is_vectorised:
            return bool(EvalContext.for_row(row).node_mask(self)[0])
        return self.func(row)

    def __repr__(self) -> str:
        return f"CallablePredicate({getattr(self.func, '__name__', repr(self.func))})"


class Vectorised:
    """A predicate function called once on the whole dataframe (opt-in; see :func:`vectorised`)."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        if not callable(func):
            raise InvalidQueryFilter(f"vectorised() takes a function, not {type(func).__name__}")
        self.func = func
        self.__name__ = f"vectorised({getattr(func, '__name__', repr(func))})"

    def __call__(self, dataframe: Any) -> Any:
        return self.func(dataframe)

    def __repr__(self) -> str:
        return self.__name__


def vectorised(func: Callable[[Any], Any]) -> Vectorised:
    """Mark a predicate function as vectorised: called once on the whole dataframe.

    Without this, a callable predicate is called once per row (Hatchet's
    semantics). A vectorised function receives the whole dataframe (index
    ``node`` holding integer node ids, then any rank/thread levels) and
    returns one boolean per row: a boolean Series on the same index, or an
    array of the same length (missing values count as False). With several
    rows per node the rows combine by ``multi_index_mode`` ("any"/"all"),
    like dict conditions. Note that ``df["time"].mean()`` inside it is the
    mean over the whole table, which a per-row function cannot see.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.query import matched_nodes
    >>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
    >>> fast = vectorised(lambda df: df["name"].str.startswith("MPI"))
    >>> matched_nodes(gf, [fast, "*"]).tolist()
    [1, 2, 4]
    """
    return Vectorised(func)
