"""Compiled node predicates: conditions in disjunctive normal form, or a callable.

Both dialects compile their conditions into the same small vocabulary:

* an :class:`~graphframe.query.atoms.Atom` is one condition on a node;
* a :class:`Predicate` is an OR of terms, each an AND of atoms or negated
  atoms, plus the ``multi_index_mode`` that says how the rows of one node
  combine;
* a :class:`CallablePredicate` wraps a user function on a row (the slow,
  per-node path).

Predicates are evaluated for all nodes at once by
:class:`graphframe.query.evaluate.EvalContext`; calling one on a single row
(``predicate({"name": "MPI_Bcast"})``, as Hatchet's tests do) uses the same
code on a one-row table.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence, Tuple

from .atoms import Atom, Literal, Term, check_mode
from .errors import InvalidQueryFilter
from .evaluate import EvalContext

__all__ = ["Atom", "CallablePredicate", "Predicate", "true_predicate"]


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

    Examples
    --------
    >>> p = Predicate([[(Atom("column", "regex", "name", "MPI_.*"), False)]])
    >>> p({"name": "MPI_Bcast"}), p({"name": "ibv_reg_mr"}), p({"time": 1.0})
    (True, False, False)
    """

    def __init__(self, terms: Sequence[Sequence[Literal]], multi_index_mode: str = "off") -> None:
        self.terms: Tuple[Term, ...] = tuple(tuple(t) for t in terms)
        self.multi_index_mode = check_mode(multi_index_mode)

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
    """A user function on a node's row (Series) or rows (DataFrame).

    Evaluated per node unless one call on the whole table gives a boolean
    Series aligned with the rows (checked against per-row calls on a sample).

    Examples
    --------
    >>> p = CallablePredicate(lambda row: row["time"] > 1)
    >>> p({"time": 2.0})
    True
    """

    def __init__(self, func: Callable[[Any], Any], multi_index_mode: str = "off") -> None:
        if not callable(func):
            raise InvalidQueryFilter(f"a predicate must be callable, not {type(func).__name__}")
        self.func = func
        self.multi_index_mode = check_mode(multi_index_mode)

    always_true = False
    uses_columns = True

    def __call__(self, row: Any) -> Any:
        return self.func(row)

    def __repr__(self) -> str:
        return f"CallablePredicate({getattr(self.func, '__name__', repr(self.func))})"
