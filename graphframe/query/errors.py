"""Exceptions of the query language (Hatchet's names, rooted in GraphframeError)."""

from __future__ import annotations

from typing import Sequence

from ..errors import GraphframeError


class QueryError(GraphframeError):
    """Base class of every query-language error."""


class InvalidQueryPath(QueryError, ValueError):
    """A query path is malformed (bad quantifier, empty path, ``rel`` before ``match``)."""


class InvalidQueryFilter(QueryError, ValueError):
    """A query predicate is malformed or does not fit the data (type mismatch)."""


class MultiIndexModeMismatch(InvalidQueryFilter):
    """Column conditions on (node, rank...) data need ``multi_index_mode`` "any" or "all"."""


class BadNumberNaryQueryArgs(QueryError, ValueError):
    """A compound query got the wrong number of subqueries."""


class RedundantQueryFilterWarning(UserWarning):
    """A condition can never hold (for example ``depth < 0``)."""


class QuerySyntaxError(InvalidQueryPath, InvalidQueryFilter):
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
        self.problem = problem
        self.text = text
        self.position = int(position)
        self.expected = tuple(expected)
        before = text[:self.position]
        self.line = before.count("\n") + 1
        self.column = self.position - (before.rfind("\n") + 1) + 1
        super().__init__(self._message())

    def __reduce__(self):
        return (type(self), (self.problem, self.text, self.position, self.expected))

    def _message(self) -> str:
        where = f" at line {self.line}, column {self.column}"
        wanted = f" (expected {', '.join(self.expected)})" if self.expected else ""
        lines = self.text.split("\n")
        src = lines[self.line - 1] if self.line - 1 < len(lines) else ""
        caret = " " * (self.column - 1) + "^"
        return f"{self.problem}{where}{wanted}\n  {src}\n  {caret}"

