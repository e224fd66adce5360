"""A block of complete lines as numpy positions, and its decorator fields.

:func:`split` finds the lines of a block (``\\n`` ends a line, a ``\\r``
before it is dropped); :func:`decorate` finds, per line, the bracketed
decorator fields of the log's :class:`~.layout.Layout` and where the message
starts, with numpy over the whole block (no Python loop per line). Strings
for a subset of lines come out as pyarrow arrays that share the block's
bytes (:func:`strings`), so regular expressions run over whole arrays.

Examples
--------
>>> blk = split(b"[1.5s][info] GC(0) a\\nbanner\\n[2.0s][info] b\\r\\n")
>>> blk.starts.tolist(), blk.ends.tolist()
([0, 21, 28], [20, 27, 42])
>>> dec = decorate(blk, 2)
>>> dec.ok.tolist(), dec.msg_start.tolist()
([True, False, True], [13, 21, 41])
>>> strings(blk.data, dec.msg_start[dec.ok], blk.ends[dec.ok]).to_pylist()
['GC(0) a', 'b']
"""

from __future__ import annotations

import mmap
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO, List, Optional, Tuple

import numpy as np
import pyarrow as pa

from ...arrow_values import indices, texts
from .scan import positions_of


@dataclass
class Block:
    """Complete lines of a block: ``data[starts[i]:ends[i]]`` is line ``i``."""

    data: bytes
    arr: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    #: the bytes followed by :data:`PAD` zero bytes (reads a few bytes past a line's end
    #: need no bounds check), when ``data`` holds them; None: the parser makes a copy
    pad: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return len(self.starts)

    def line(self, i: int) -> bytes:
        """Line ``i`` as bytes."""
        return bytes(self.data[int(self.starts[i]):int(self.ends[i])])


#: zero bytes a padded buffer holds after its text (see :func:`read_padded`)
PAD = 8


def read_padded(fh: BinaryIO, size: int) -> Tuple[Any, int]:
    """``(buffer, n)``: up to ``size`` bytes of the open file ``fh`` read into a buffer
    with at least :data:`PAD` zero bytes after them (``n`` bytes read; the buffer may be
    longer).

    The buffer is this thread's, reused by its next read (the parse copies what it
    keeps: no result refers to it). On Linux it is anonymous memory mapped with its
    pages made at once (``MAP_POPULATE``: a page fault per 4 KB page costs more, about a
    millisecond per 2.5 MB here); elsewhere a ``bytearray``.

    >>> import io
    >>> buf, n = read_padded(io.BytesIO(b"ab\\n"), 3)
    >>> bytes(buf[:n + PAD]), n
    (b'ab\\n\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00', 3)
    """
    buf = getattr(_LOCAL, "file", None)
    if buf is None or len(buf) < size + PAD:
        try:
            buf = mmap.mmap(-1, size + PAD, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS |
                            mmap.MAP_POPULATE)
        except (AttributeError, OSError, ValueError):  # no MAP_POPULATE here
            buf = bytearray(size + PAD)
        _LOCAL.file = buf
    view = memoryview(buf)
    n = 0
    try:
        while n < size:
            got = fh.readinto(view[n:size])
            if not got:
                break
            n += got
        view[n:n + PAD] = bytes(PAD)  # (the buffer held another file before)
    finally:
        view.release()
    return buf, n


#: this thread's file buffer (:func:`read_padded`)
_LOCAL = threading.local()


def is_ascii(data: Any, n: int) -> bool:
    """Whether ``data[:n]`` is ASCII (a bytes-like object: bytes, bytearray, mmap)."""
    if hasattr(data, "isascii"):
        return data.isascii() if len(data) == n else data[:n].isascii()
    return n == 0 or int(np.frombuffer(data, np.uint8, count=n).max()) < 128


def split(data: bytes, length: Optional[int] = None, padded: bool = False) -> Block:
    """The lines of ``data[:length]`` (default: all of it), which ends with a newline (or
    is one unterminated line); the bytes are not copied (the block keeps ``data``).
    ``padded``: :data:`PAD` zero bytes follow ``length`` in ``data`` (see
    :func:`read_padded`)."""
    arr = np.frombuffer(data, dtype=np.uint8, count=-1 if length is None else length)
    nl = positions_of(arr, 10)
    if not len(nl) or nl[-1] != len(arr) - 1:  # an unterminated last line
        nl = np.append(nl, len(arr))
    starts = np.empty(len(nl), dtype=np.int64)
    starts[0] = 0
    starts[1:] = nl[:-1] + 1
    ends = nl.astype(np.int64, copy=False)  # (the newline positions become the line ends)
    cr = ends > starts
    cr[cr] = arr[ends[cr] - 1] == 13
    ends -= cr
    pad = np.frombuffer(data, dtype=np.uint8, count=len(arr) + PAD) if padded else None
    return Block(data, arr, starts, ends, pad)


class FieldStarts:
    """``[t]``: per line, the first byte inside field ``t``'s ``[`` (made when asked: the
    first field opens after the line's first byte, the next ones after the ``]`` of the
    one before)."""

    def __init__(self, starts: np.ndarray, ends: List[np.ndarray]) -> None:
        self._starts, self._ends = starts, ends

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, t: int) -> np.ndarray:
        if not 0 <= t < len(self._ends):
            raise IndexError(t)
        return self._starts + 1 if t == 0 else self._ends[t - 1] + 2


@dataclass
class Decorated:
    """Per line: whether it carries the layout's fields, their bounds, the message start."""

    ok: np.ndarray            # bool: the line starts with the layout's ``count`` fields
    field_start: FieldStarts  # per field, per line (int64): first byte inside its ``[``
    field_end: List[np.ndarray]    # per field, per line (int64): its ``]``
    msg_start: np.ndarray     # int64: first byte of the message (after one space)


def decorate(blk: Block, count: int) -> Decorated:
    """Find ``count`` bracketed fields at the start of every line of ``blk``."""
    arr, starts, ends = blk.arr, blk.starts, blk.ends
    n = len(starts)
    fe: List[np.ndarray] = []
    if count == 0:
        return Decorated(np.ones(n, bool), FieldStarts(starts, fe), fe, starts.copy())
    closes = positions_of(arr, 93)  # ']'
    first = np.searchsorted(closes, starts)
    ok = (ends > starts) & (first + count - 1 < len(closes))
    ok[ok] = arr[starts[ok]] == 91  # '['
    last = max(len(closes) - 1, 0)
    for t in range(count):
        close = closes[np.minimum(first + t, last)] if len(closes) else \
            np.zeros(n, dtype=np.int64)
        ok &= close < ends
        fe.append(close)
        if t + 1 < count:  # the next field opens right after this one closes
            nxt = np.minimum(close + 1, len(arr) - 1)
            ok &= (arr[nxt] == 91) & (close + 1 < ends)
    msg = np.where(ok, fe[-1] + 1, starts)
    space = ok & (msg < ends)
    space[space] = arr[msg[space]] == 32
    msg += space
    return Decorated(ok, FieldStarts(starts, fe), fe, msg)


def strings(data: bytes, begin: np.ndarray, end: np.ndarray) -> pa.Array:
    """``data[begin[i]:end[i]]`` as a pyarrow string array (shares ``data``'s bytes).

    The ranges must not overlap and must be in increasing order; the array
    is built over the interleaved ranges and gaps, then the gaps are dropped.
    """
    n = len(begin)
    if n == 0:
        return texts([])
    # the gaps: from 0 to begin[0], from end[i] to begin[i + 1], from end[-1] to the end
    offsets = np.empty(2 * n + 2, dtype=np.int64)
    offsets[0] = 0
    offsets[1:2 * n + 1:2] = begin
    offsets[2:2 * n + 2:2] = end
    offsets[2 * n + 1] = len(data)
    both = pa.LargeStringArray.from_buffers(2 * n + 1, pa.py_buffer(offsets),
                                            pa.py_buffer(data))
    return both.take(indices(np.arange(1, 2 * n + 1, 2)))
