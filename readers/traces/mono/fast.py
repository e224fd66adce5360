"""Where each event of a buffer ends, for every byte position at once (numpy).

Events of fixed shape (only LEB128 values, single bytes and counted lists of
LEB128 values) get their end computed for every position whose byte could
start such an event: :func:`event_ends` returns an array ``nxt`` where
``nxt[p]`` is the end of the event that would start at ``p`` (``-1``: an
event with strings or an unknown byte; the decoder's slow path reads it).
Following ``nxt`` from the buffer's first byte then visits exactly the
event starts, one list lookup per event.

Examples
--------
>>> import numpy as np
>>> from .leb128 import MAX_LEB_BYTES, PAD, LebIndex

#: ``event_ends`` value of an event whose time is longer than a LEB128 value can be
TOO_LONG = -2
>>> data = bytes([0x23, 0x05, 0x02, 0x13, 0x81, 0x01, 0x7E])  # enter, leave
>>> ix = LebIndex(np.frombuffer(data, np.uint8))
>>> event_ends(ix, 17)[[0, 3]].tolist()     # (and the padding: unknown)
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
    """``nxt`` for every position of the buffer (see the module docs; :data:`TOO_LONG`
    where the time after the event byte is not a valid LEB128 value)."""
    shapes = _SHAPES.get(version)
    if shapes is None:
        shapes = _SHAPES[version] = _shapes(version)
    n = ix.n
    nxt = np.full(n + PAD, -1, dtype=np.int32)
    nxt[n:] = n + 1      # past the end: unknown
    if not n:
        return nxt
    b = ix.b
    by_byte = np.argsort(b, kind="stable")         # positions grouped by byte value
    bounds = np.zeros(257, dtype=np.int64)
    np.cumsum(np.bincount(b, minlength=256), out=bounds[1:])
    for code, shape in shapes.items():
        lo, hi = bounds[code], bounds[code + 1]
        if lo == hi:
            continue
        pos = by_byte[lo:hi]
        tend = ix.end(pos + 1)
        end = shape(ix, tend)
        end[tend - pos > MAX_LEB_BYTES + 1] = TOO_LONG
        nxt[pos] = end
    return nxt


#: events per step of the walk's long jumps (2 ** JUMP_LEVELS)
JUMP_LEVELS = 4


def jump_tables(nxt: np.ndarray, n: int, levels: int = JUMP_LEVELS):
    """``[J0, J1, ...]``: ``Jk[p]`` is the start after ``2**k`` events from ``p``.

    Above ``n`` where that is unknown: a slow event on the way, data running
    past the end, or fewer than ``2**k`` events left. ``nxt`` is what
    :func:`event_ends` returns (``n + PAD`` entries, those past ``n`` unknown),
    so each level is a single gather.

    Examples
    --------
    >>> nxt = np.array([2, -1, 3, 5, -1] + [6] * PAD, dtype=np.int32)
    >>> [t[:6].tolist() for t in jump_tables(nxt, 5, 2)]
    [[2, 6, 3, 5, 6, 6], [3, 6, 5, 6, 6, 6], [6, 6, 6, 6, 6, 6]]
    """
    j0 = nxt.copy()
    j0[j0 < 0] = n + 1
    tables = [j0]
    for _ in range(levels):
        prev = tables[-1]
        tables.append(prev[prev])
    return tables


def expand(anchors: np.ndarray, tables) -> np.ndarray:
    """The ``2**levels`` event starts beginning at each anchor, in order.

    Examples
    --------
    >>> tables = jump_tables(np.array([1, 2, 3, 4, 5, 6] + [7] * PAD, dtype=np.int32), 6, 1)
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
