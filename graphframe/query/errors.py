"""Exceptions of the query language (Hatchet's names, rooted in GraphframeError)."""

from __future__ import annotations

from typing import Optional, Sequence

from ..errors import GraphframeError


class QueryError(GraphframeError):
    """Base class of every query-language error."""


class InvalidQueryPath(QueryError, ValueError):
    """A query path is malformed (bad quantifier, empty path, ``rel`` before ``match``)."""


class InvalidQueryFilter(QueryError, ValueError):
    """A query predicate is malformed or does not fit the data (type mismatch)."""


class InvalidMultiIndexMode(InvalidQueryFilter, AssertionError):
    """``multi_index_mode`` is not "off", "all" or "any" (an ``AssertionError`` too, as
    Hatchet raises one)."""


class MultiIndexModeMismatch(InvalidQueryFilter):
    """Column conditions on (node, rank...) data need ``multi_index_mode`` "any" or "all"."""


class BadNumberNaryQueryArgs(QueryError, ValueError):
    """A compound query got the wrong number of subqueries."""


class RedundantQueryFilterWarning(UserWarning):
    """A condition can never hold (for example ``depth < 0``)."""


class _Located:
    """Text, position and the message with a caret, for errors at a place in a query."""

    problem: str
    text: str
    position: int
    expected: "tuple[str, ...]"
    line: int
    column: int

    def _locate(self, problem: str, text: str, position: int, expected: Sequence[str]) -> str:
        self.problem, self.text, self.position = problem, text, int(position)
        self.expected = tuple(expected)
        self.line, self.column, message = located_message(problem, text, self.position,
                                                          self.expected)
        return message

    def __reduce__(self):
        return (type(self), (self.problem, self.text, self.position, self.expected))


class QuerySyntaxError(_Located, InvalidQueryPath, InvalidQueryFilter):
    """A string-dialect query (or a comparison string) does not parse.

    It is both an :class:`InvalidQueryPath` (what Hatchet raises for a bad
    string query) and an :class:`InvalidQueryFilter` (a bad condition).

    Attributes
    ----------
    text : str
        The query text.
    position : int
        0-based character offset of the problem.
    line, column : int
        1-based line and column of ``position``.
    expected : tuple of str
        What the parser would have accepted there.

    Examples
    --------
    >>> err = QuerySyntaxError("unexpected ')'", "MATCH (p))", 9, ("end of query",))
    >>> print(err)
    unexpected ')' at line 1, column 10 (expected end of query)
      MATCH (p))
               ^
    >>> err.position, err.line, err.column
    (9, 1, 10)
    """

    def __init__(self, problem: str, text: str, position: int,
                 expected: Sequence[str] = ()) -> None:
        super().__init__(self._locate(problem, text, position, expected))


class QueryConditionError(_Located, InvalidQueryFilter):
    """A string-dialect condition does not fit the data, at its place in the query.

    Raised when the query is evaluated (for example a type mismatch:
    ``q."name" > 3`` on a column of strings). Same attributes as
    :class:`QuerySyntaxError`.

    Examples
    --------
    >>> err = QueryConditionError("Type mismatch in filter", 'MATCH (q) WHERE q."name" > 3', 25)
    >>> print(err)
    Type mismatch in filter at line 1, column 26
      MATCH (q) WHERE q."name" > 3
                               ^
    """

    def __init__(self, problem: str, text: str, position: int,
                 expected: Sequence[str] = ()) -> None:
        super().__init__(self._locate(problem, text, position, expected))


def located_message(problem: str, text: str, position: int,
                    expected: Sequence[str] = ()) -> "tuple[int, int, str]":
    r"""``(line, column, message)``: the problem, where it is, and the line with a caret.

    Examples
    --------
    >>> print(located_message("unexpected 'x'", "MATCH\n(p) x", 10, ("end of query",))[2])
    unexpected 'x' at line 2, column 5 (expected end of query)
      (p) x
          ^
    """
    before = text[:position]
    line = before.count("\n") + 1
    column = position - (before.rfind("\n") + 1) + 1
    where = f" at line {line}, column {column}"
    wanted = f" (expected {', '.join(expected)})" if expected else ""
    lines = text.split("\n")
    src = lines[line - 1] if line - 1 < len(lines) else ""
    caret = " " * (column - 1) + "^"
    return line, column, f"{problem}{where}{wanted}\n  {src}\n  {caret}"


def with_context(exc: QueryError, context: Optional[str]) -> QueryError:
    """A copy of ``exc`` whose message starts with ``context`` (where the problem is).

    Located errors keep their query text and position. The caller raises
    the copy ``from exc``.

    Examples
    --------
    >>> print(with_context(InvalidQueryFilter("bad value"), "query node 2"))
    query node 2: bad value
    >>> err = with_context(QuerySyntaxError("no number", ">= x", 3), "column 'time'")
    >>> err.problem, err.position
    ("column 'time': no number", 3)
    """
    if not context:
        return exc
    if isinstance(exc, _Located):
        return type(exc)(f"{context}: {exc.problem}", exc.text, exc.position, exc.expected)
    try:
        return type(exc)(f"{context}: {exc}")
    except TypeError:  # a subclass with another signature: keep the original
        return exc

