"""Where a Chrome trace's event array sits in the file, and what may follow it.

A trace is either the array itself (``[{...}, ...]``) or an object whose
``traceEvents`` member is the array; the object's other members, before or
after it, are skipped. :func:`find_array` reads blocks up to the ``[`` that
opens the events; :func:`check_trailer` checks what follows the array's
closing ``]``: nothing but whitespace for the array form, the object's other
members and its ``}`` for the object form.

Examples
--------
>>> find_array(iter([b'{"displayTimeUnit": "ns", "traceEvents": [{"ph": "B"}]}']), "t.json")
(b'{"ph": "B"}]}', 42, True)
>>> check_trailer(b'}', 54, iter([]), True, "t.json")
>>> check_trailer(b' x', 14, iter([]), False, "t.json")
Traceback (most recent call last):
...
graphframe_readers.errors.ReadError: t.json: byte 15: unexpected 'x' after the event array (expected the end of the file)
"""

from __future__ import annotations

import json
from typing import Iterator, Optional, Tuple

from ...errors import ReadError


def find_array(blocks: Iterator[bytes], name: str) -> Tuple[bytes, int, bool]:
    """Read up to the '[' that opens the events.

    Returns the bytes after it, their file offset, and whether the array is the
    ``traceEvents`` member of an object.
    """
    buf = b""
    decoder = json.JSONDecoder()
    while True:
        text = buf.lstrip(b"\xef\xbb\xbf \t\r\n")
        skipped = len(buf) - len(text)
        if text[:1] == b"[":
            return text[1:], skipped + 1, False
        if text[:1] == b"{":
            found = _members_until_events(decoder, buf, skipped + 1, name)
            if found is not None:
                return buf[found:], found, True
        elif text:
            raise ReadError(name, "not a Chrome trace", position=f"byte {skipped}",
                            expected="'[' or '{' opening the trace")
        block = next(blocks, None)
        if block is None:
            raise ReadError(name, "no trace events found (empty or truncated file)",
                            position=f"byte {len(buf)}",
                            expected="a JSON array of events or a traceEvents member")
        buf += block


def check_trailer(buf: bytes, pos: int, blocks: Iterator[bytes], wrapped: bool,
                  name: str) -> None:
    """After the array's ']' (``buf`` at file offset ``pos``, then ``blocks``): only
    whitespace, or the wrapping object's other members."""
    rest = buf + b"".join(blocks)
    if not wrapped:
        text = rest.lstrip(b" \t\r\n")
        if text:
            raise ReadError(name, f"unexpected {text[:1].decode('ascii', 'replace')!r} "
                            "after the event array", position=f"byte {pos + len(rest) - len(text)}",
                            expected="the end of the file")
        return
    text = rest.decode("utf-8", "replace")
    try:
        json.loads('{"":0' + text)
    except ValueError as exc:
        at = max(getattr(exc, "pos", 5) - 5, 0)
        raise ReadError(name, f"bad JSON after the event array: {getattr(exc, 'msg', exc)}",
                        position=f"byte {pos + len(text[:at].encode())}",
                        expected="the trace object's other members and its '}'") from exc


def _members_until_events(decoder: json.JSONDecoder, buf: bytes, pos: int,
                          name: str) -> Optional[int]:
    """Skip object members until ``"traceEvents": [``; the offset after '[' or None (need more)."""
    text = buf.decode("utf-8", "replace")  # offsets equal for the ASCII prefix we act on
    ws = " \t\r\n"
    while True:
        while pos < len(text) and text[pos] in ws:
            pos += 1
        if pos >= len(text):
            return None
        if text[pos] == "}":
            raise ReadError(name, "the object has no traceEvents member",
                            position=f"byte {pos}", expected='a "traceEvents" array')
        try:
            key, end = decoder.raw_decode(text, pos)
            colon = text.index(":", end)
            vpos = colon + 1
            while vpos < len(text) and text[vpos] in ws:
                vpos += 1
            if vpos >= len(text):
                return None
            if key == "traceEvents":
                if text[vpos] != "[":
                    raise ReadError(name, "traceEvents is not an array",
                                    position=f"byte {vpos}", expected="'['")
                return len(text[:vpos + 1].encode("utf-8"))
            _, pos = decoder.raw_decode(text, vpos)
        except (ValueError, IndexError):
            return None
        while pos < len(text) and text[pos] in ws + ",":
            pos += 1
