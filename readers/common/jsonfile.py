"""Loading JSON safely: located errors, and no recursion limit on deep nesting.

Python's ``json`` module recurses once per nesting level and fails with
``RecursionError`` on documents nested more than about a thousand levels deep
(deep call trees written as nested dicts). :func:`load_json` uses the fast C
decoder first and falls back to an iterative decoder of the same grammar when
the document is too deep for it. Both report malformed input as a
:class:`~graphframe_readers.errors.ReadError` with the line and column.

Nesting is limited to :data:`MAX_DEPTH` levels. A call tree written as nested
objects takes two levels per tree level (an object and its ``children``
list), so trees up to about 250,000 levels deep read; a "nesting bomb"
(``[[[[...``, megabytes of openers) fails at the first level past the limit,
after a fraction of a second and a few tens of megabytes, instead of building
the whole structure.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
import numbers
from typing import Any, List, Union

from ..errors import ReadError
from .source import decode_text, read_source

# [0-9], not \d: \d also matches other scripts' digits, which int() and float() read
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WS = re.compile(r"[ \t\n\r]*")
#: The deepest nesting of arrays and objects accepted (levels).
MAX_DEPTH = 500_000
_CONSTANTS = {"true": True, "false": False, "null": None,
              "NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


def load_json(path: Any) -> Any:
    """Read and decode the JSON file or stream ``path`` (see :func:`loads_json`).

    Parameters
    ----------
    path : str, path-like or file-like
        The file (UTF-8, with or without a byte-order mark), or an open text
        or binary stream.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "deep.json")
    >>> with open(p, "w") as f:
    ...     _ = f.write("[" * 5000 + "]" * 5000)
    >>> depth, doc = 0, load_json(p)
    >>> while doc:
    ...     doc, depth = doc[0], depth + 1
    >>> depth
    4999
    >>> import io
    >>> load_json(io.BytesIO(b'{"a": 1}'))
    {'a': 1}
    """
    data, source = read_source(path)
    return loads_json(decode_text(data, source, "a UTF-8 encoded JSON document"), source)


def loads_json(text: str, source: Any = None) -> Any:
    """Decode JSON ``text``; ``source`` names it in errors.

    Parameters
    ----------
    text : str
        The JSON document.
    source : str or path-like, optional
        The file (or a description of the input) named in errors.

    Examples
    --------
    >>> loads_json('{"a": [1, 2.5, null]}')
    {'a': [1, 2.5, None]}
    >>> loads_json("[" * (MAX_DEPTH + 1), "bomb.json")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: bomb.json: line 1, column 500001: invalid JSON: nested more than 500,000 levels deep (expected a document nested less deeply (a nesting bomb?))
    """
    try:
        return json.loads(text)
    except RecursionError:
        return _IterativeDecoder(text, source).decode()
    except json.JSONDecodeError as exc:
        raise ReadError(source, f"invalid JSON: {exc.msg}",
                        position=f"line {exc.lineno}, column {exc.colno}",
                        expected="a complete, well-formed JSON document") from exc


def as_document(doc: Any, source: Any = None) -> Any:
    """``doc`` decoded when it is JSON text (``str`` or UTF-8 ``bytes``), else as is.

    The pure ``parse_x`` functions of the JSON formats take either the text or
    the document already loaded.

    Examples
    --------
    >>> as_document(b'[1, 2]'), as_document([1, 2])
    ([1, 2], [1, 2])
    """
    if isinstance(doc, (bytes, bytearray)):
        doc = decode_text(bytes(doc), source, "a UTF-8 encoded JSON document")
    if isinstance(doc, str):
        return loads_json(doc, source)
    return doc


class _IterativeDecoder:
    """A JSON decoder with an explicit stack instead of recursion."""

    def __init__(self, text: str, source: Any) -> None:
        self.text = text
        self.source = source

    def fail(self, pos: int, problem: str, expected: str) -> ReadError:
        line = self.text.count("\n", 0, pos) + 1
        col = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return ReadError(self.source, f"invalid JSON: {problem}",
                         position=f"line {line}, column {col}", expected=expected)

    def skip(self, pos: int) -> int:
        return _WS.match(self.text, pos).end()

    def scalar(self, pos: int):
        text = self.text
        ch = text[pos:pos + 1]
        if ch == '"':
            try:
                return scanstring(text, pos + 1)
            except json.JSONDecodeError as exc:
                raise self.fail(exc.pos, exc.msg, "a string") from exc
        match = _NUMBER.match(text, pos)
        if match and match.end() > pos:
            literal = match.group(0)
            value = float(literal) if (match.group(1) or match.group(2)) else int(literal)
            return value, match.end()
        for word, value in _CONSTANTS.items():
            if text.startswith(word, pos):
                return value, pos + len(word)
        raise self.fail(pos, "unexpected character" if ch else "unexpected end of data",
                        "a value")

    def decode(self) -> Any:
        text, n = self.text, len(self.text)
        stack: List[Union[list, dict]] = []
        keys: List[Any] = []
        pos = self.skip(0)
        result: Any = None
        while True:
            # parse one value at pos
            ch = text[pos:pos + 1]
            if ch == "[" or ch == "{":
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(pos, f"nested more than {MAX_DEPTH:,} levels deep",
                                    "a document nested less deeply (a nesting bomb?)")
                container: Union[list, dict] = [] if ch == "[" else {}
                pos = self.skip(pos + 1)
                closer = "]" if ch == "[" else "}"
                if text[pos:pos + 1] == closer:
                    value, pos = container, pos + 1
                else:
                    stack.append(container)
                    if ch == "{":
                        pos = self._key(pos, keys)
                    continue
            else:
                value, pos = self.scalar(pos)
            # attach the finished value, closing containers as needed
            while True:
                if not stack:
                    result = value
                    pos = self.skip(pos)
                    if pos != n:
                        raise self.fail(pos, "extra data after the document", "end of file")
                    return result
                top = stack[-1]
                if isinstance(top, list):
                    top.append(value)
                else:
                    top[keys.pop()] = value
                pos = self.skip(pos)
                ch = text[pos:pos + 1]
                if ch == ",":
                    pos = self.skip(pos + 1)
                    if isinstance(top, dict):
                        pos = self._key(pos, keys)
                    break
                closer = "]" if isinstance(top, list) else "}"
                if ch != closer:
                    raise self.fail(pos, "unexpected character" if ch else "unexpected end of data",
                                    f"',' or '{closer}'")
                value = stack.pop()
                pos += 1

    def _key(self, pos: int, keys: List[Any]) -> int:
        if self.text[pos:pos + 1] != '"':
            raise self.fail(pos, "object key is not a string", "a double-quoted key")
        key, pos = self.scalar(pos)
        pos = self.skip(pos)
        if self.text[pos:pos + 1] != ":":
            raise self.fail(pos, "missing ':' after an object key", "':'")
        keys.append(key)
        return self.skip(pos + 1)


def is_json_number(value: Any) -> bool:
    """A JSON number as the decoder gives it (int or float, never a bool).

    Examples
    --------
    >>> is_json_number(3), is_json_number(2.5), is_json_number(True), is_json_number("1")
    (True, True, False, False)
    """
    t = type(value)
    return t is float or t is int or (t is not bool and isinstance(value, numbers.Real))
