"""LEB128 over whole buffers with numpy.

A buffer's bytes are scanned once: every byte below 0x80 ends a LEB128
value. From that, :class:`LebIndex` answers for many positions at once
where the value starting there ends (``end``), where the value after
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
"""

from __future__ import annotations

import numpy as np

#: A 64-bit value takes at most ten LEB128 bytes.
MAX_LEB_BYTES = 10
#: Table entries past the end of the data (positions up to ``n + PAD - 1`` are looked up).
PAD = 16


class LebIndex:
    """Where LEB128 values end in one buffer (see the module docs)."""

    __slots__ = ("b", "n", "past", "_eol", "_ends", "_rank", "cand")

    def __init__(self, b: np.ndarray) -> None:
        self.b = b
        n = self.n = len(b)
        self.past = n + 1
        term = b < 0x80
        tpos = np.flatnonzero(term)
        count = len(tpos)
        # ends[k]: where the k-th value ends (its last byte's index + 1); then "past the end"
        ends = np.empty(count + 2, dtype=np.int32)
        np.add(tpos, 1, out=ends[:count], casting="unsafe")
        ends[count:] = n + 1
        self._ends = ends
        # rank[p]: values ending before p, i.e. the index of the one that ends at or after p
        rank = np.zeros(n + PAD, dtype=np.int32)
        np.cumsum(term, out=rank[1:n + 1])
        rank[n + 1:] = rank[n]
        self._rank = rank
        # the end of the value at each position; padded, so positions a few bytes past the
        # end (an offset added to ``past``) stay valid
        eol = np.full(n + PAD, n + 1, dtype=np.int32)
        eol[:n] = ends.take(rank[:n])
        self._eol = eol
        #: where an event may start: 0 and right after every byte below 0x80
        self.cand = np.empty(count + 1, dtype=np.int32)
        self.cand[0] = 0
        self.cand[1:] = ends[:count]

    @property
    def rank(self) -> np.ndarray:
        """Per position, how many bytes below 0x80 precede it (the index of a candidate)."""
        return self._rank

    def clip(self, pos: np.ndarray) -> np.ndarray:
        """Positions limited to ``past`` (valid indexes into the tables)."""
        return np.minimum(pos, self.past)

    def end(self, pos: np.ndarray) -> np.ndarray:
        """End (exclusive) of the value starting at each position (at most ``past + 8``)."""
        return self._eol[pos]

    def skip(self, pos: np.ndarray, count: np.ndarray) -> np.ndarray:
        """Position after ``count`` values starting at ``pos`` (``count`` may be 0)."""
        pos = np.minimum(pos, self.past)
        count = np.asarray(count)
        idx = self._rank[pos] + np.minimum(count, self.n + 1) - 1
        idx = np.minimum(idx, len(self._ends) - 1)
        out = np.where(count > 0, self._ends[np.maximum(idx, 0)], pos)
        out = np.where(pos >= self.past, self.past, out)
        return np.where(out > self.n, self.past, out)

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
        return self._gather(pos)[0].view(np.int64)

    def sleb(self, pos: np.ndarray) -> np.ndarray:
        """Signed values at each position."""
        value, length = self._gather(pos)
        if not len(value):
            return value.view(np.int64)
        last = self.b[np.minimum(np.asarray(pos) + length - 1, self.n - 1)]
        bits = length.astype(np.uint64) * np.uint64(7)
        neg = ((last & 0x40) != 0) & (bits < 64)
        if neg.any():
            fill = ~((np.uint64(1) << np.where(neg, bits, np.uint64(0))) - np.uint64(1))
            value |= np.where(neg, fill, np.uint64(0))
        return value.view(np.int64)

    def too_long(self, pos: np.ndarray) -> np.ndarray:
        """Mask of positions whose value is longer than ten bytes (corrupt data)."""
        return (self.end(pos) - np.asarray(pos)) > MAX_LEB_BYTES
