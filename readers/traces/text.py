"""Text parts of traces: UTF-8 checked block by block, lines cut across blocks.

- :func:`utf8_blocks` passes blocks through unchanged and raises a
  ReadError at the byte offset of the first sequence that is not UTF-8
  (ASCII blocks, the usual case, cost one ``bytes.isascii`` call);
- :func:`decode_text` decodes a small text file (a DUMPI ``.meta``, an
  ``.sts``) strictly, naming the line and byte of a bad sequence;
- :func:`line_blocks` regroups blocks into runs of complete lines with a
  limit on the longest line.

Examples
--------
>>> list(utf8_blocks(iter([b"ab\\xc3", b"\\xa9"]), "t.txt"))
[b'ab\\xc3', b'\\xa9']
>>> list(utf8_blocks(iter([b"ok", b"a\\xffb"]), "t.txt"))
Traceback (most recent call last):
...
graphframe_readers.errors.ReadError: t.txt: byte 3: the text is not valid UTF-8 (0xff) (expected UTF-8 text)
>>> decode_text(b"a=1\\nb=\\xff\\n", "x.meta")
Traceback (most recent call last):
...
graphframe_readers.errors.ReadError: x.meta: line 2, byte 6: the text is not valid UTF-8 (0xff) (expected UTF-8 text)
>>> [bytes(b) for b in line_blocks(iter([b"a\\nb", b"c\\nd"]), "t.txt")]
[b'a\\n', b'bc\\n', b'd']
"""

from __future__ import annotations

import codecs
from typing import Iterator

from ..errors import ReadError
from .limits import MAX_ITEM_BYTES


def _bad_utf8(name: str, data: bytes, at: int, base: int, line: bool) -> ReadError:
    where = f"byte {base + at}"
    if line:
        lines = data.count(b"\n", 0, at) + 1
        where = f"line {lines}, " + where
    return ReadError(name, f"the text is not valid UTF-8 (0x{data[at]:02x})", position=where,
                     expected="UTF-8 text")


def utf8_blocks(blocks: Iterator[bytes], name: str, base: int = 0) -> Iterator[bytes]:
    """``blocks`` unchanged, checked to be UTF-8 as a whole (``base``: the first block's
    offset in the file, for the error position)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    pos = base
    for block in blocks:
        pending = decoder.getstate()[0]
        if pending or not block.isascii():
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                data = pending + block
                raise _bad_utf8(name, data, exc.start, pos - len(pending), False) from exc
        pos += len(block)
        yield block
    pending = decoder.getstate()[0]
    if pending:
        raise ReadError(name, "the text ends inside a UTF-8 sequence",
                        position=f"byte {pos - len(pending)}", expected="UTF-8 text")


def decode_text(data: bytes, name: str) -> str:
    """``data`` decoded as UTF-8 (a BOM dropped); a ReadError names the line and byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _bad_utf8(name, data, exc.start, 0, True) from exc


def line_blocks(blocks: Iterator[bytes], name: str, *, base: int = 0,
                max_line: int = MAX_ITEM_BYTES) -> Iterator[bytes]:
    """The bytes of ``blocks`` regrouped so that each piece ends with a line end (the last
    one may not). A line longer than ``max_line`` bytes is a ReadError at its offset."""
    rest: list = []     # the pieces of a line not ended yet
    size = 0
    pos = base          # file offset of the line not ended yet
    for block in blocks:
        cut = block.rfind(b"\n")
        if cut < 0:
            rest.append(block)
            size += len(block)
            if size > max_line:
                raise ReadError(name, f"a line longer than {max_line >> 20} MiB",
                                position=f"byte {pos}",
                                expected="lines of a text trace (the largest line allowed)")
            continue
        piece = b"".join(rest + [block[:cut + 1]]) if rest else block[:cut + 1]
        yield piece
        pos += len(piece)
        tail = block[cut + 1:]
        rest, size = ([tail], len(tail)) if tail else ([], 0)
    if rest:
        yield b"".join(rest)
