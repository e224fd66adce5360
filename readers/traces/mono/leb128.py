"""LEB128 over whole buffers with numpy.

A buffer's bytes are scanned once: every byte below 0x80 ends a LEB128
value. The values are numbered in order (value ``k`` starts at ``cand[k]``
and ends at ``cand[k + 1]``); every value's number is decoded once, on
first use (``values``, ``signed``), so a field that starts a value is one
lookup. From that, :class:`LebIndex` answers for many byte positions at
once where the value starting there ends (``end``), where the value after
``k`` more values ends (``skip``), and what the values are (``uleb``,
``sleb``). Positions past the buffer come back as ``n + 1`` (``past``), so a
caller detects data that runs off the end without an IndexError.

Examples
--------
>>> import numpy as np
>>> ix = LebIndex(np.frombuffer(bytes([0xE5, 0x8E, 0x26, 0x7F, 0x05]), np.uint8))
>>> ix.end(np.array([0, 3])).tolist(), ix.uleb(np.array([0, 4])).tolist()
([3, 4], [624485, 5])
>>> ix.sleb(np.array([3])).tolist(), ix.skip(np.array([0]), np.array([2])).tolist()
([-1], [4])
>>> ix.end(np.array([5])).tolist()   # nothing there: past the end
[6]
>>> ix.cand.tolist(), ix.values.tolist(), ix.signed.tolist()   # value k: bytes cand[k]..
([0, 3, 4, 5], [624485, 127, 5, 0], [624485, -1, 5, 0])
"""

from __future__ import annotations

from typing import Optional

import numpy as np

#: A 64-bit value takes at most ten LEB128 bytes.
MAX_LEB_BYTES = 10
#: Table entries past the end of the data (positions up to ``n + PAD - 1`` are looked up).
PAD = 16
#: Queries of at most this many positions (or 1/16 of the buffer) use a binary search
#: instead of building the per-byte tables.
_SMALL_QUERY = 64

# values: per length (bytes), the 7-bit groups to keep of the eight bytes loaded
_KEEP = np.array([0] + [((1 << (8 * k)) - 1) & 0x7F7F7F7F7F7F7F7F for k in range(1, 8)]
                 + [0x7F7F7F7F7F7F7F7F] * 8, dtype=np.uint64)
# packing 7-bit groups: pairs into 14 bits, then 28, then 56
_PACK = [(np.uint64(0x007F007F007F007F), np.uint64(0x7F007F007F007F00), np.uint64(1)),
         (np.uint64(0x00003FFF00003FFF), np.uint64(0x3FFF00003FFF0000), np.uint64(2)),
         (np.uint64(0x000000000FFFFFFF), np.uint64(0x0FFFFFFF00000000), np.uint64(4))]
# signed values: per length, the sign bit and the bits above it (none from ten bytes on)
_SIGN = np.array([0] + [1 << (7 * k - 1) for k in range(1, 10)] + [0] * 6, dtype=np.uint64)
_FILL = np.array([0] + [((1 << 64) - 1) ^ ((1 << (7 * k)) - 1) for k in range(1, 10)]
                 + [0] * 6, dtype=np.uint64)


class LebIndex:
    """Where LEB128 values end in one buffer (see the module docs)."""

    __slots__ = ("b", "n", "past", "count", "cand", "_ends", "_rank", "_eol", "_uval",
                 "_sval", "_len", "_maxlen")

    def __init__(self, b: np.ndarray) -> None:
        self.b = b
        n = self.n = len(b)
        self.past = n + 1
        tpos = np.flatnonzero(b < 0x80)
        count = self.count = len(tpos)
        #: value k starts at cand[k] and ends at cand[k + 1]: 0, then after every byte
        #: below 0x80 (where an event may start)
        cand = np.empty(count + 1, dtype=np.intp)
        cand[0] = 0
        np.add(tpos, 1, out=cand[1:])
        self.cand = cand
        # ends[k]: where the value holding position cand[k] ends, then "past the end"
        ends = np.empty(count + 2, dtype=np.intp)
        ends[:count] = cand[1:]
        ends[count:] = n + 1
        self._ends = ends
        self._rank: Optional[np.ndarray] = None
        self._eol: Optional[np.ndarray] = None
        self._uval: Optional[np.ndarray] = None
        self._sval: Optional[np.ndarray] = None
        self._len: Optional[np.ndarray] = None
        self._maxlen = 0

    # ------------------------------------------------------------ per value
    @property
    def lengths(self) -> np.ndarray:
        """Bytes per value (``count`` entries)."""
        if self._len is None:
            self._len = self.cand[1:] - self.cand[:-1]
            self._maxlen = int(self._len.max()) if self.count else 0
        return self._len

    @property
    def max_length(self) -> int:
        """Bytes of the longest value (0 without values)."""
        if self._len is None:
            self.lengths.size      # computes both
        return self._maxlen

    @property
    def has_long(self) -> bool:
        """Whether any value is longer than :data:`MAX_LEB_BYTES` (corrupt, or bytes of a
        string)."""
        return self.max_length > MAX_LEB_BYTES

    @property
    def values(self) -> np.ndarray:
        """The unsigned number of every value (uint64, ``count + 1`` entries, the last 0),
        computed once (bytes past the tenth are ignored).

        Eight bytes are loaded at each value's start (one gather), the bytes past the
        value masked off and the 7-bit groups packed together in three shift steps;
        values of nine or ten bytes get their last bytes added one by one.
        """
        if self._uval is None:
            count = self.count
            starts = self.cand[:count]
            length = self.lengths
            padded = np.zeros(self.n + 8, dtype=np.uint8)
            padded[:self.n] = self.b
            words = np.ndarray(shape=(self.n,), dtype="<u8", buffer=padded, strides=(1,))
            value = np.empty(count + 1, dtype=np.uint64)
            value[count] = 0
            v = value[:count]
            np.take(words, starts, out=v, mode="clip")   # (np.take: fast on this view)
            v &= np.take(_KEEP, length, mode="clip")
            t = np.empty_like(v)
            for low, high, shift in _PACK:
                np.bitwise_and(v, high, out=t)
                v &= low
                t >>= shift
                v |= t
            if self.max_length > 8:
                for k in (8, 9):
                    idx = np.flatnonzero(length > k)
                    at = np.minimum(starts[idx] + k, self.n - 1)
                    v[idx] |= (self.b[at] & 0x7F).astype(np.uint64) << np.uint64(7 * k)
            self._uval = value
        return self._uval

    @property
    def signed(self) -> np.ndarray:
        """:attr:`values` as signed LEB128 numbers (int64)."""
        if self._sval is None:
            values = self.values
            count = self.count
            value = np.zeros(count + 1, dtype=np.uint64)
            if count:
                v = values[:count]
                length = self.lengths
                sign = np.take(_SIGN, length, mode="clip")
                sign &= v
                fill = np.take(_FILL, length, mode="clip")
                fill *= sign.astype(bool)        # the bits above a set sign bit
                np.bitwise_or(v, fill, out=value[:count])
            self._sval = value.view(np.int64)
        return self._sval

    def signed_at(self, v: np.ndarray) -> np.ndarray:
        """:attr:`signed` at the value numbers ``v`` only (int64)."""
        if self._sval is not None:
            return self._sval[v]
        value = self.values[v]
        length = np.take(self.lengths, v, mode="clip") if self.count else \
            np.zeros(len(value), dtype=np.intp)
        sign = np.take(_SIGN, length, mode="clip")
        sign &= value
        fill = np.take(_FILL, length, mode="clip")
        fill *= sign.astype(bool)
        value |= fill
        return value.view(np.int64)

    # ------------------------------------------------------------ per byte position
    def rank_of(self, pos: np.ndarray) -> np.ndarray:
        """Per position, how many bytes below 0x80 precede it (the number of the value
        holding it). Small queries use a binary search, large ones a table built once."""
        pos = np.asarray(pos)
        if self._rank is None and (pos.size <= _SMALL_QUERY or pos.size * 16 < self.n):
            return np.searchsorted(self.cand[1:], pos, side="right")
        return self.rank[pos]

    @property
    def rank(self) -> np.ndarray:
        """Per position (``n + PAD`` entries), how many bytes below 0x80 precede it."""
        if self._rank is None:
            n = self.n
            rank = np.zeros(n + PAD, dtype=np.intp)
            np.cumsum(self.b < 0x80, out=rank[1:n + 1])
            rank[n + 1:] = rank[n]
            self._rank = rank
        return self._rank

    def clip(self, pos: np.ndarray) -> np.ndarray:
        """Positions limited to ``past`` (valid indexes into the tables)."""
        return np.minimum(pos, self.past)

    def end(self, pos: np.ndarray) -> np.ndarray:
        """End (exclusive) of the value starting at each position (at most ``past``)."""
        pos = np.asarray(pos)
        if self._eol is None:
            if pos.size <= _SMALL_QUERY or pos.size * 16 < self.n:
                return self._ends[np.minimum(self.rank_of(pos), self.count)]
            # the end of the value at each position; padded, so positions a few bytes
            # past the end (an offset added to ``past``) stay valid
            eol = np.full(self.n + PAD, self.n + 1, dtype=np.intp)
            eol[:self.n] = self._ends.take(self.rank[:self.n])
            self._eol = eol
        return self._eol[pos]

    def skip(self, pos: np.ndarray, count: np.ndarray) -> np.ndarray:
        """Position after ``count`` values starting at ``pos`` (``count`` may be 0)."""
        pos = np.minimum(pos, self.past)
        count = np.asarray(count)
        idx = self.rank_of(pos) + np.minimum(count, self.n + 1) - 1
        idx = np.minimum(idx, len(self._ends) - 1)
        out = np.where(count > 0, self._ends[np.maximum(idx, 0)], pos)
        out = np.where(pos >= self.past, self.past, out)
        return np.where(out > self.n, self.past, out)

    def _lookup(self, pos: np.ndarray, table: np.ndarray, slow) -> np.ndarray:
        """``table`` at the values starting at ``pos``; ``slow`` for positions where no
        value of the buffer starts (after a byte field of 0x80 or more, past the end)."""
        pos = np.asarray(pos)
        at = np.minimum(self.rank_of(pos), self.count)
        out = table[at]
        bad = self.cand[at] != pos
        bad[at >= self.count] = True
        if bad.any():
            where = np.flatnonzero(bad)
            out[where] = slow(pos[where])
        return out.view(np.int64)

    def _gather(self, pos: np.ndarray):
        pos = np.asarray(pos)
        length = np.minimum(self.end(pos) - pos, MAX_LEB_BYTES)
        value = np.zeros(len(pos), dtype=np.uint64)
        if not len(pos) or not self.n:
            return value, length
        top = self.n - 1
        for k in range(int(length.max())):
            byte = self.b[np.minimum(pos + k, top)] & 0x7F
            if k:
                byte *= length > k
            value |= byte.astype(np.uint64) << np.uint64(7 * k)
        return value, length

    def uleb(self, pos: np.ndarray) -> np.ndarray:
        """Unsigned values (as int64, wrapping above 2**63) at each position."""
        return self._lookup(pos, self.values, lambda p: self._gather(p)[0])

    def sleb(self, pos: np.ndarray) -> np.ndarray:
        """Signed values at each position."""
        return self._lookup(pos, self.signed, self._sleb)

    def _sleb(self, pos: np.ndarray) -> np.ndarray:
        value, length = self._gather(pos)
        if not len(value):
            return value
        last = self.b[np.minimum(np.asarray(pos) + length - 1, self.n - 1)]
        bits = length.astype(np.uint64) * np.uint64(7)
        neg = ((last & 0x40) != 0) & (bits < 64)
        if neg.any():
            fill = ~((np.uint64(1) << np.where(neg, bits, np.uint64(0))) - np.uint64(1))
            value |= np.where(neg, fill, np.uint64(0))
        return value.view(np.int64)

    def too_long(self, pos: np.ndarray) -> np.ndarray:
        """Mask of positions whose value is longer than ten bytes (corrupt data)."""
        if not self.has_long:
            return np.zeros(np.shape(pos), dtype=bool)
        return (self.end(pos) - np.asarray(pos)) > MAX_LEB_BYTES
