"""Tokens of the string dialect, each with its position in the query text.

Token kinds: ``STRING`` (single or double quotes; ``\\"``, ``\\'`` and
``\\\\`` are escapes, any other backslash is kept, so regexes such as
``"MPI_\\w+"`` need no doubling), ``NUMBER`` (int or float, optionally signed),
``NAME`` (an identifier), ``KEYWORD`` (a reserved word: upper-case only, as
in Hatchet's grammar, so ``leaf`` or ``match`` is a name), ``PUNCT``
(``( ) { } , . -> = =~ != <> < <= > >=``) and ``EOF``. Anything else is a
:class:`QuerySyntaxError` at that character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, List

from .errors import InvalidQueryPath, QuerySyntaxError

KEYWORDS = frozenset({
    "MATCH", "WHERE", "AND", "OR", "XOR", "NOT", "IS", "LEAF", "NONE", "NAN", "INF",
    "STARTS", "ENDS", "WITH", "CONTAINS",
})

_PUNCT = ("->", "=~", "!=", "<>", "<=", ">=", "(", ")", "{", "}", ",", ".", "=", "<", ">")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_NAME = re.compile(r"[^\W\d]\w*")
_SPACE = re.compile(r"\s+")
_ESCAPES = {'"': '"', "'": "'", "\\": "\\"}


@dataclass(frozen=True)
class Token:
    """One token: its kind, its value and where it is (``start``/``end`` offsets)."""

    kind: str
    value: Any
    start: int
    end: int

    def describe(self) -> str:
        """How an error message names this token."""
        if self.kind == "EOF":
            return "end of query"
        if self.kind == "KEYWORD":
            return str(self.value)
        return repr(self.value) if self.kind == "PUNCT" else f"{self.kind.lower()} {self.value!r}"


def tokenize(text: str) -> List[Token]:
    """Split a query into tokens (the last one is ``EOF``).

    Examples
    --------
    >>> [(t.kind, t.value) for t in tokenize('MATCH ("*", p) WHERE p."time" >= -1.5')]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('KEYWORD', 'MATCH'), ('PUNCT', '('), ('STRING', '*'), ('PUNCT', ','),
     ('NAME', 'p'), ('PUNCT', ')'), ('KEYWORD', 'WHERE'), ('NAME', 'p'), ('PUNCT', '.'),
     ('STRING', 'time'), ('PUNCT', '>='), ('NUMBER', -1.5), ('EOF', None)]
    """
    if not isinstance(text, str):
        hint = " (decode the bytes first)" if isinstance(text, (bytes, bytearray)) else ""
        raise InvalidQueryPath(
            f"a string-dialect query is a str, not {type(text).__name__}{hint}")
    tokens: List[Token] = []
    pos, size = 0, len(text)
    while True:
        space = _SPACE.match(text, pos)
        if space:
            pos = space.end()
        if pos >= size:
            tokens.append(Token("EOF", None, size, size))
            return tokens
        char = text[pos]
        if char in "\"'":
            value, end = _string(text, pos)
            tokens.append(Token("STRING", value, pos, end))
            pos = end
            continue
        number = _NUMBER.match(text, pos)
        if number and _number_allowed(text, pos, tokens):
            raw = number.group()
            value = int(raw) if re.fullmatch(r"[+-]?\d+", raw) else float(raw)
            tokens.append(Token("NUMBER", value, pos, number.end()))
            pos = number.end()
            continue
        name = _NAME.match(text, pos)
        if name:
            word = name.group()
            if word in KEYWORDS:
                tokens.append(Token("KEYWORD", word, pos, name.end()))
            else:
                tokens.append(Token("NAME", word, pos, name.end()))
            pos = name.end()
            continue
        punct = next((p for p in _PUNCT if text.startswith(p, pos)), None)
        if punct is None:
            raise QuerySyntaxError(f"unexpected character {char!r}", text, pos)
        tokens.append(Token("PUNCT", punct, pos, pos + len(punct)))
        pos += len(punct)


def _number_allowed(text: str, pos: int, tokens: List[Token]) -> bool:
    """A '-' starts a number unless it is the arrow; '.5' is a number except after a name."""
    if text.startswith("->", pos):
        return False
    if text[pos] == "." and tokens and tokens[-1].kind in ("NAME", "KEYWORD"):
        return False
    return True


def _string(text: str, start: int) -> "tuple[str, int]":
    quote = text[start]
    out = []
    pos = start + 1
    while pos < len(text):
        char = text[pos]
        if char == "\\" and pos + 1 < len(text):
            nxt = text[pos + 1]
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
            pos += 2
            continue
        if char == quote:
            return "".join(out), pos + 1
        out.append(char)
        pos += 1
    raise QuerySyntaxError("unterminated string", text, start, (f"a closing {quote}",))
