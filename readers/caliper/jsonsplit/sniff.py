"""Recognising json-split cheaply, whatever the order of its top-level keys.

Caliper writes ``data`` first, but a document re-saved by another tool may
start with its run metadata, ``columns`` or ``nodes`` (``json.dump(...,
sort_keys=True)`` puts ``cali.caliper.version`` and ``column_metadata``
first). :func:`looks_like_json_split` walks the top-level keys in the first
bytes of the file, skipping values that end there, and decides at the first
key that only json-split has:

* ``column_metadata``;
* ``nodes`` holding objects with a ``label`` (or an empty list);
* ``data`` holding lists (rows), unless an ``index`` key came first (pandas'
  ``split`` orientation has ``columns``, ``index``, ``data``).

When a value does not end within the head (a large ``nodes`` list written
first without labels up front, long metadata), the last bytes of the file are
searched for a ``"column_metadata"`` key.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

TAIL_BYTES = 4096
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")
_ROWS = re.compile(r"\[[ \t\r\n]*[\[\]]")
_NODE_LIST = re.compile(r'\[[ \t\r\n]*(?:\]|\{[ \t\r\n]*"(?:label|column|parent)")')


def looks_like_json_split(path: Path, head: bytes) -> bool:
    """True when ``head`` (the file's first bytes) or the file's tail shows json-split.

    Examples
    --------
    >>> looks_like_json_split(Path("x"), b'{"data": [[0, 1.5]], "columns": ["path", "t"]}')
    True
    >>> looks_like_json_split(Path("x"), b'{"cali.caliper.version": "2.15", '
    ...                                  b'"column_metadata": [{"is_value": false}]')
    True
    >>> looks_like_json_split(Path("x"), b'{"columns": ["a"], "index": [0], "data": [[1]]}')
    False
    """
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if not text.startswith("{"):
        return False
    verdict = _walk_keys(text)
    if verdict is not None:
        return verdict
    return b'"column_metadata"' in _tail(path, len(head))


def _walk_keys(text: str) -> Optional[bool]:
    """The verdict of the first deciding key, or None if the head ends first."""
    pos = _SPACE.match(text, 1).end()
    seen_index = False
    while pos < len(text):
        if text[pos] != '"':
            return False
        try:
            key, pos = _DECODER.raw_decode(text, pos)
        except ValueError:
            return None
        pos = _SPACE.match(text, pos).end()
        if text[pos:pos + 1] != ":":
            return None if pos >= len(text) else False
        pos = _SPACE.match(text, pos + 1).end()
        if key == "column_metadata":
            return True
        if key == "nodes" and _NODE_LIST.match(text, pos):
            return True
        if key == "data" and _ROWS.match(text, pos):
            return not seen_index
        seen_index |= key == "index"
        try:
            _, pos = _DECODER.raw_decode(text, pos)
        except (ValueError, RecursionError):
            return None  # the value does not end within the head
        pos = _SPACE.match(text, pos).end()
        if text[pos:pos + 1] != ",":
            return None if pos >= len(text) else False
        pos = _SPACE.match(text, pos + 1).end()
    return None


def _tail(path: Path, skip: int) -> bytes:
    """The last bytes of the file after the first ``skip`` (b"" if it cannot be read)."""
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, 2)
            if size <= skip:
                return b""
            fh.seek(max(skip, size - TAIL_BYTES))
            return fh.read()
    except OSError:
        return b""
