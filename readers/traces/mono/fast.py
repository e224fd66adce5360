"""Where each event of a buffer ends, for every place one could start, at once (numpy).

Every event ends with a byte below 0x80, so events start at 0 or right after
such a byte: the candidates (``LebIndex.cand``). Events of fixed shape (only
LEB128 values, single bytes and counted lists of LEB128 values) get their end
computed for every candidate whose byte could start one: :func:`event_ends`
(``-1``: an event with strings or an unknown byte; the decoder's slow path
reads it). :func:`jump_tables` turn those ends into jumps of 2, 4, ... 16
events between candidates, so following them from the first byte visits the
event starts with one Python step per 16 events; :func:`expand` lists the
starts in between.

Examples
--------
>>> import numpy as np
>>> from .leb128 import MAX_LEB_BYTES, PAD, LebIndex

#: ``event_ends`` value of an event whose time is longer than a LEB128 value can be
TOO_LONG = -2
>>> data = bytes([0x23, 0x05, 0x02, 0x13, 0x81, 0x01, 0x7E])  # enter, leave
>>> ix = LebIndex(np.frombuffer(data, np.uint8))
>>> ix.cand.tolist()                  # event starts: 0 and after bytes below 0x80
[0, 1, 2, 3, 4, 6, 7]
>>> event_ends(ix, 17)[[0, 3]].tolist()  # the enter at 0 ends at 3, the leave at 3 at 7
[3, 7]
"""

from __future__ import annotations

from typing import Callable, Dict

import numpy as np

from . import format as F
from .leb128 import MAX_LEB_BYTES, PAD, LebIndex

#: ``event_ends`` value of an event whose time is longer than a LEB128 value can be
TOO_LONG = -2


def _bt(ix: LebIndex, q: np.ndarray) -> np.ndarray:
    """End of a backtrace (count, then that many values) starting at ``q``."""
    return ix.skip(ix.end(q), ix.uleb(ix.clip(q)))


def _shapes(version: int) -> Dict[int, Callable[[LebIndex, np.ndarray], np.ndarray]]:
    """Event byte -> function of (index, position after the time) -> event end."""
    E = LebIndex.end
    s: Dict[int, Callable] = {}
    method = lambda ix, t: E(ix, t)                      # noqa: E731
    for code in (F.METHOD_LEAVE, F.METHOD_ENTER, F.METHOD_EXC_LEAVE):
        s[F.TYPE_METHOD | code] = method
    s[F.TYPE_ALLOC] = lambda ix, t: E(ix, E(ix, E(ix, t)))
    s[F.TYPE_ALLOC | F.ALLOC_BT] = lambda ix, t: _bt(ix, E(ix, E(ix, E(ix, t))))
    s[F.TYPE_GC | F.GC_EVENT] = lambda ix, t: t + 2
    s[F.TYPE_GC | F.GC_RESIZE] = method
    s[F.TYPE_GC | F.GC_MOVE] = lambda ix, t: ix.skip(E(ix, t), ix.uleb(ix.clip(t)))
    s[F.TYPE_GC | F.GC_HANDLE_CREATED] = lambda ix, t: E(ix, E(ix, E(ix, t)))
    s[F.TYPE_GC | F.GC_HANDLE_DESTROYED] = lambda ix, t: E(ix, E(ix, t))
    s[F.TYPE_GC | F.GC_HANDLE_CREATED_BT] = lambda ix, t: _bt(ix, E(ix, E(ix, E(ix, t))))
    s[F.TYPE_GC | F.GC_HANDLE_DESTROYED_BT] = lambda ix, t: _bt(ix, E(ix, E(ix, t)))
    s[F.TYPE_GC | F.GC_FINALIZE_START] = lambda ix, t: t
    s[F.TYPE_GC | F.GC_FINALIZE_END] = lambda ix, t: t
    s[F.TYPE_GC | F.GC_FINALIZE_OBJECT_START] = method
    s[F.TYPE_GC | F.GC_FINALIZE_OBJECT_END] = method
    s[F.TYPE_EXCEPTION] = method
    s[F.TYPE_EXCEPTION | F.EXCEPTION_BT] = lambda ix, t: _bt(ix, E(ix, t))
    if version >= 14:
        s[F.TYPE_EXCEPTION | F.EXCEPTION_CLAUSE] = lambda ix, t: E(ix, E(ix, E(ix, t + 1)))
        s[F.TYPE_MONITOR] = lambda ix, t: E(ix, t + 1)
        s[F.TYPE_MONITOR | F.MONITOR_BT] = lambda ix, t: _bt(ix, E(ix, t + 1))
    else:
        s[F.TYPE_EXCEPTION | F.EXCEPTION_CLAUSE] = lambda ix, t: E(ix, E(ix, t + 1))
        for event in (1, 2, 3):
            s[F.TYPE_MONITOR | event << 4] = method
            s[F.TYPE_MONITOR | F.MONITOR_BT | event << 4] = lambda ix, t: _bt(ix, E(ix, t))
    s[F.TYPE_HEAP | F.HEAP_START] = lambda ix, t: t
    s[F.TYPE_HEAP | F.HEAP_END] = lambda ix, t: t
    gen = 1 if version >= 16 else 0

    def heap_object(ix, t):
        q = E(ix, E(ix, E(ix, t))) + gen
        return ix.skip(E(ix, q), 2 * ix.uleb(ix.clip(q)))
    s[F.TYPE_HEAP | F.HEAP_OBJECT] = heap_object
    if version >= 15:
        s[F.TYPE_HEAP | F.HEAP_ROOT] = lambda ix, t: ix.skip(E(ix, t), 2 * ix.uleb(ix.clip(t)))
        s[F.TYPE_HEAP | F.HEAP_ROOT_UNREGISTER] = method
    elif version == 14:
        s[F.TYPE_HEAP | F.HEAP_ROOT] = lambda ix, t: ix.skip(E(ix, E(ix, t)),
                                                             3 * ix.uleb(ix.clip(t)))
    hit_start = 1 if version == 13 else 0

    def sample(ix, t):
        q = E(ix, t + hit_start)                  # thread
        q = ix.skip(E(ix, q), ix.uleb(ix.clip(q)))  # instruction pointers
        return ix.skip(E(ix, q), ix.uleb(ix.clip(q)))  # managed frames
    s[F.TYPE_SAMPLE | F.SAMPLE_HIT] = sample
    s[F.TYPE_META | F.META_SYNC_POINT] = lambda ix, t: t + 1
    return s


_SHAPES: Dict[int, Dict[int, Callable]] = {}


def event_ends(ix: LebIndex, version: int) -> np.ndarray:
    """Per place an event may start (``ix.cand``), where that event would end.

    Every event ends with a byte below 0x80 (a LEB128 value's last byte, a small
    single-byte field, a string's NUL), so events start at 0 or right after such
    a byte: the candidates ``ix.cand``, about half the positions. The result has
    one entry per candidate (plus :data:`~.leb128.PAD` of padding): the end
    position, ``-1`` for an event read by the slow path (strings, or an unknown
    byte), :data:`TOO_LONG` where the time after the event byte is not a valid
    LEB128 value.
    """
    shapes = _SHAPES.get(version)
    if shapes is None:
        shapes = _SHAPES[version] = _shapes(version)
    cand = ix.cand
    m = len(cand)
    nxt = np.full(m + PAD, -1, dtype=np.int32)
    inside = cand[:m - 1] if m and cand[-1] >= ix.n else cand   # candidates before the end
    if not len(inside):
        return nxt
    codes = ix.b[inside]
    by_byte = np.argsort(codes, kind="stable")      # candidate indices grouped by byte
    bounds = np.zeros(257, dtype=np.int64)
    np.cumsum(np.bincount(codes, minlength=256), out=bounds[1:])
    for code, shape in shapes.items():
        lo, hi = bounds[code], bounds[code + 1]
        if lo == hi:
            continue
        idx = by_byte[lo:hi]
        pos = inside[idx]
        tend = ix.end(pos + 1)
        end = shape(ix, tend)
        end[tend - pos > MAX_LEB_BYTES + 1] = TOO_LONG
        nxt[idx] = end
    return nxt


#: events per step of the walk's long jumps (2 ** JUMP_LEVELS)
JUMP_LEVELS = 4


def jump_tables(nxt: np.ndarray, ix: LebIndex, levels: int = JUMP_LEVELS):
    """``[J0, J1, ...]`` over candidate indices: ``Jk[i]`` is the candidate reached after
    ``2**k`` events from candidate ``i``.

    ``len(ix.cand)`` (or more) where that is unknown: a slow event on the way, data
    running past the end or ending inside a value, or fewer than ``2**k`` events left.
    ``nxt`` is what :func:`event_ends` returns; each level is a single gather.

    Examples
    --------
    >>> from .leb128 import LebIndex
    >>> ix = LebIndex(np.array([0x23, 0x01, 0x02, 0x13, 0x01, 0x02], np.uint8))
    >>> ix.cand.tolist()       # after every byte below 0x80
    [0, 1, 2, 3, 4, 5, 6]
    >>> [t[:7].tolist() for t in jump_tables(event_ends(ix, 17), ix, 1)]
    [[3, 7, 7, 6, 7, 7, 7], [6, 7, 7, 7, 7, 7, 7]]
    """
    cand, rank, n = ix.cand, ix.rank, ix.n
    m = len(cand)
    j0 = np.full(len(nxt), m, dtype=np.int32)
    ok = (nxt[:m] >= 0) & (nxt[:m] <= n)
    target = nxt[:m][ok]
    at = rank[target]
    exact = cand[at] == target                     # an end must be a candidate itself
    where = np.flatnonzero(ok)
    j0[where[exact]] = at[exact]
    tables = [j0]
    for _ in range(levels):
        prev = tables[-1]
        tables.append(prev[np.minimum(prev, m)])
    return tables


def expand(anchors: np.ndarray, tables) -> np.ndarray:
    """The ``2**levels`` event starts beginning at each anchor, in order.

    Examples
    --------
    >>> tables = [np.array([1, 2, 3, 4, 5, 6, 6]), np.array([2, 3, 4, 5, 6, 6, 6])]
    >>> expand(np.array([0, 4]), tables).tolist()
    [0, 1, 4, 5]
    """
    if not len(anchors):
        return anchors
    out = anchors.reshape(-1, 1)
    for k in range(len(tables) - 2, -1, -1):
        out = np.concatenate([out, tables[k][out]], axis=1)
        # columns now hold starts 0, 2**k apart; interleave to keep order
        half = out.shape[1] // 2
        out = np.stack([out[:, :half], out[:, half:]], axis=2).reshape(len(anchors), -1)
    return out.reshape(-1)
