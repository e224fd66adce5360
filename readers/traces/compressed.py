"""gzip input inflated as a stream, in bounded memory, with a limit on the ratio.

:func:`inflate` turns the blocks of a gzip file into inflated blocks of at
most :data:`~.limits.INFLATE_BLOCK` bytes, member after member (a gzip file
may hold several members, as ``cat a.gz b.gz`` makes), so memory does not
depend on how much the file inflates to. Once :data:`~.limits.RATIO_FLOOR`
bytes came out, more than :data:`~.limits.MAX_RATIO` inflated bytes per
compressed byte read is a ReadError (a decompression bomb); corrupt data and
a stream cut short are ReadErrors at the compressed byte offset.
:func:`maybe_inflated` inflates only blocks that start with the gzip magic.

Examples
--------
>>> import gzip
>>> data = gzip.compress(b"one\\n") + gzip.compress(b"two\\n")
>>> b"".join(inflate(iter([data[:9], data[9:]]), "t.log.gz"))
b'one\\ntwo\\n'
>>> b"".join(inflate(iter([data[:20]]), "t.log.gz"))
Traceback (most recent call last):
...
graphframe_readers.errors.ReadError: t.log.gz: compressed byte 20: the gzip stream is cut short (expected the rest of the compressed data)
"""

from __future__ import annotations

import zlib
from typing import Iterator

from ..errors import ReadError
from .limits import INFLATE_BLOCK, MAX_RATIO, RATIO_FLOOR

GZIP_MAGIC = b"\x1f\x8b"
#: compressed bytes given to zlib at a time
FEED = 1 << 16


def inflate(blocks: Iterator[bytes], name: str, *, max_ratio: float = MAX_RATIO,
            ratio_floor: int = RATIO_FLOOR, out_block: int = INFLATE_BLOCK) -> Iterator[bytes]:
    """The inflated bytes of the gzip data in ``blocks`` (see the module docs)."""
    engine = zlib.decompressobj(wbits=31)
    fresh = True        # the engine has not taken any byte of a member yet
    read = out = 0
    for block in blocks:
        # input goes in FEED-byte slices: what a member leaves over (copied by zlib into
        # unused_data) stays small even for files of many small members
        for lo in range(0, len(block), FEED):
            data = block[lo:lo + FEED]
            read += len(data)
            while data or not fresh:
                if fresh and not data.strip(b"\0"):
                    break   # zero padding after the last member (gzip ignores it too)
                fresh = False
                try:
                    piece = engine.decompress(data, out_block)
                except zlib.error as exc:
                    raise ReadError(name, f"corrupt gzip data: {exc}",
                                    position=f"compressed byte {read - len(data)}",
                                    expected="gzip data") from exc
                if piece:
                    out += len(piece)
                    left = engine.unused_data if engine.eof else engine.unconsumed_tail
                    used = read - len(left)
                    if out > ratio_floor and out > max_ratio * used:
                        raise ReadError(
                            name, f"the gzip data inflates more than {max_ratio:g} times "
                            f"({out} bytes from the first {used})",
                            position=f"compressed byte {used}",
                            expected="compressed text, not a decompression bomb (inflate the "
                                     "file yourself to read it without this limit)")
                    yield piece
                if engine.eof:  # the next member, if any, starts in unused_data
                    data = engine.unused_data
                    engine = zlib.decompressobj(wbits=31)
                    fresh = True
                    continue
                data = engine.unconsumed_tail
                if not data and len(piece) < out_block:
                    break   # all input taken and no output pending: the next slice
    if not fresh:
        raise ReadError(name, "the gzip stream is cut short", position=f"compressed byte {read}",
                        expected="the rest of the compressed data")


def maybe_inflated(blocks: Iterator[bytes], name: str) -> Iterator[bytes]:
    """``blocks`` inflated when the first starts with the gzip magic, else unchanged."""
    first = next(blocks, None)
    if first is None:
        return
    if first[:2] != GZIP_MAGIC:
        yield first
        yield from blocks
        return

    def again() -> Iterator[bytes]:
        yield first
        yield from blocks

    yield from inflate(again(), name)
