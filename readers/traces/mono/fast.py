"""Where each event of a buffer ends, for every place one could start, at once (numpy).

Every event ends with a byte below 0x80, so events start at 0 or right after
such a byte: at the start of a LEB128 value (``LebIndex.cand``; value ``k``
starts at ``cand[k]``). For every value, :func:`event_steps` gives the value
right after an event starting there: a table lookup by event byte for events
made of LEB128 values only, a closed form for those with lists and byte
fields, byte by byte only in odd cases; a negative step marks an event with
strings or an unknown byte (the decoder's slow path reads it).

Two walks turn the steps into the event starts. :func:`walk_lanes` (most
chunks): lanes starting every 128 values step together, one numpy step per
event of a lane, and the chain from value 0 is proved to run through them.
:func:`jump_tables` (chunks with slow events, errors): jumps of 2, 4, ... 16
events, so following them from the first value visits the event starts with
one Python step per 16 events; :func:`expand` lists the starts in between.

Examples
--------
>>> import numpy as np
>>> from .leb128 import LebIndex
>>> data = bytes([0x23, 0x05, 0x02, 0x13, 0x81, 0x01, 0x7E])  # enter, leave
>>> ix = LebIndex(np.frombuffer(data, np.uint8))
>>> steps = event_steps(ix, 17)
>>> [int(steps[0]), int(steps[3]), int(ix.cand[6])]   # values 0-2, 3-5; then the end
[3, 6, 7]
"""

from __future__ import annotations

from typing import Callable, Dict

import numpy as np

from . import format as F
from .leb128 import MAX_LEB_BYTES, PAD, LebIndex

#: :func:`event_steps` value of an event whose time is longer than a LEB128 value can be
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

#: :func:`event_steps` values that are not value numbers
SLOW = -1        # an event read by the slow path (strings), or an unknown byte
_SLOW_STEP = -(1 << 40)   # what event_steps gives them: some value far below zero
BAD_END = -3     # the event would run past the data or end inside a value


L, B = "L", "B"


def _list(mult: int = 1) -> tuple:
    return ("list", mult)


def _layouts(version: int) -> Dict[int, tuple]:
    """Event byte -> the items after the time, in value terms: ``"L"`` a LEB128 value,
    ``"B"`` a single byte (one value when below 0x80), ``("list", mult)`` a count
    followed by ``mult * count`` values. Events not here are read by the slow path
    or (data version 14's roots) byte by byte (:func:`_shapes`).
    """
    lay: Dict[int, tuple] = {}
    for code in (F.METHOD_LEAVE, F.METHOD_ENTER, F.METHOD_EXC_LEAVE):
        lay[F.TYPE_METHOD | code] = (L,)
    lay[F.TYPE_ALLOC] = (L, L, L)
    lay[F.TYPE_ALLOC | F.ALLOC_BT] = (L, L, L, _list())
    lay[F.TYPE_GC | F.GC_EVENT] = (B, B)
    lay[F.TYPE_GC | F.GC_RESIZE] = (L,)
    lay[F.TYPE_GC | F.GC_MOVE] = (_list(),)
    lay[F.TYPE_GC | F.GC_HANDLE_CREATED] = (L, L, L)
    lay[F.TYPE_GC | F.GC_HANDLE_DESTROYED] = (L, L)
    lay[F.TYPE_GC | F.GC_HANDLE_CREATED_BT] = (L, L, L, _list())
    lay[F.TYPE_GC | F.GC_HANDLE_DESTROYED_BT] = (L, L, _list())
    lay[F.TYPE_GC | F.GC_FINALIZE_START] = ()
    lay[F.TYPE_GC | F.GC_FINALIZE_END] = ()
    lay[F.TYPE_GC | F.GC_FINALIZE_OBJECT_START] = (L,)
    lay[F.TYPE_GC | F.GC_FINALIZE_OBJECT_END] = (L,)
    lay[F.TYPE_EXCEPTION] = (L,)
    lay[F.TYPE_EXCEPTION | F.EXCEPTION_BT] = (L, _list())
    if version >= 14:
        lay[F.TYPE_EXCEPTION | F.EXCEPTION_CLAUSE] = (B, L, L, L)
        lay[F.TYPE_MONITOR] = (B, L)
        lay[F.TYPE_MONITOR | F.MONITOR_BT] = (B, L, _list())
    else:
        lay[F.TYPE_EXCEPTION | F.EXCEPTION_CLAUSE] = (B, L, L)
        for event in (1, 2, 3):
            lay[F.TYPE_MONITOR | event << 4] = (L,)
            lay[F.TYPE_MONITOR | F.MONITOR_BT | event << 4] = (L, _list())
    lay[F.TYPE_HEAP | F.HEAP_START] = ()
    lay[F.TYPE_HEAP | F.HEAP_END] = ()
    lay[F.TYPE_HEAP | F.HEAP_OBJECT] = (L, L, L, B, _list(2)) if version >= 16 else \
        (L, L, L, _list(2))
    if version >= 15:
        lay[F.TYPE_HEAP | F.HEAP_ROOT] = (_list(2),)
        lay[F.TYPE_HEAP | F.HEAP_ROOT_UNREGISTER] = (L,)
    lay[F.TYPE_SAMPLE | F.SAMPLE_HIT] = ((B,) if version == 13 else ()) + \
        (L, _list(), _list())
    lay[F.TYPE_META | F.META_SYNC_POINT] = (B,)
    return lay


_LAYOUTS: Dict[int, tuple] = {}


def _tables(version: int):
    """Per event byte: the class (0 slow, 1 plain: LEB128 values only, 2 with byte fields
    or lists, 3 byte by byte), the step in values to the next event (class 1) or to the
    first item after the time (class 2); the layouts in closed form; the byte-by-byte
    shapes."""
    lay = _layouts(version)
    shapes = _shapes(version)
    klass = np.zeros(256, dtype=np.int8)
    step = np.full(256, _SLOW_STEP, dtype=np.intp)
    for code in range(256):
        first = 2 if code < 0x80 else 1    # the event byte and the time: one value or two
        items = lay.get(code)
        if items is not None and all(item == L for item in items):
            klass[code] = 1
            step[code] = first + len(items)
        elif items is not None:
            klass[code] = 2
            step[code] = first
        elif code in shapes:
            klass[code] = 3
            step[code] = 0
    return klass, step, _closed_forms(lay), shapes


def _closed_forms(lay: Dict[int, tuple]):
    """Per event byte, its layout as ``pre`` values (byte fields counted as one each),
    a first list (multiplier), ``mid`` values, a second list; where its byte fields are
    (up to two, as offsets from the first item) and whether each is followed by a
    LEB128 value. No layout has a byte field after a list."""
    tab = {name: np.zeros(256, dtype=np.intp) for name in ("pre", "mult1", "mid", "mult2")}
    boff = np.full((2, 256), -1, dtype=np.intp)
    before_value = np.zeros((2, 256), dtype=bool)
    for code, items in lay.items():
        lists = [k for k, it in enumerate(items) if it not in (L, B)]
        bytes_at = [k for k, it in enumerate(items) if it == B]
        assert len(lists) <= 2 and len(bytes_at) <= 2
        assert all(k < (lists[0] if lists else len(items)) for k in bytes_at)
        end1 = lists[0] if lists else len(items)
        tab["pre"][code] = end1
        if lists:
            tab["mult1"][code] = items[lists[0]][1]
        if len(lists) == 2:
            tab["mid"][code] = lists[1] - lists[0] - 1
            tab["mult2"][code] = items[lists[1]][1]
        for j, k in enumerate(bytes_at):
            boff[j, code] = k
            before_value[j, code] = k + 1 < len(items) and items[k + 1] == L
    return tab["pre"], tab["mult1"], tab["mid"], tab["mult2"], boff, before_value


def event_steps(ix: LebIndex, version: int) -> np.ndarray:
    """Per LEB128 value (``ix.cand``), the number of the value right after an event
    starting there.

    Every event ends with a byte below 0x80 (a LEB128 value's last byte, a small
    single-byte field, a string's NUL), so events start at 0 or right after such a
    byte: at the start of a value (``ix.cand``). An event made of LEB128 values only
    spans a fixed number of them (the event byte below 0x80 is one value by itself,
    one of 0x80 or more joins the time's), so its step is a table lookup; events with
    lists or single-byte fields are stepped in closed form (:func:`_item_steps`: the
    lists' counts from the decoded values; a byte field of 0x80 or more joins the
    value after it), byte by byte (:func:`_shapes`) only where no value follows such a
    byte. The result has ``len(ix.cand) + PAD`` entries: the value number, a value
    below :data:`BAD_END` for an event read by the slow path (strings, or an unknown
    byte), :data:`BAD_END` where the event would run past the data or end inside a
    value, :data:`TOO_LONG` where the time after the event byte is longer than a
    LEB128 value can be.

    Examples
    --------
    >>> data = bytes([0x23, 0x05, 0x02, 0x13, 0x81, 0x01, 0x7E])  # enter, leave
    >>> ix = LebIndex(np.frombuffer(data, np.uint8))
    >>> ix.cand.tolist()                  # value starts: 0 and after bytes below 0x80
    [0, 1, 2, 3, 4, 6, 7]
    >>> event_steps(ix, 17)[[0, 3]].tolist()   # the enter is values 0-2, the leave 3-5
    [3, 6]
    """
    tables = _LAYOUTS.get(version)
    if tables is None:
        tables = _LAYOUTS[version] = _tables(version)
    klass_of, step_of, items, shapes = tables
    count = ix.count
    size = count + 1 + PAD
    nxt = np.full(size, SLOW, dtype=np.intp)
    if ix.cand[count] < ix.n:
        # an event starting in bytes no value ends: past the data, unless the slow path
        # names what is wrong (an unknown byte, a string cut short)
        code = int(ix.b[ix.cand[count]])
        nxt[count] = SLOW if klass_of[code] == 0 else BAD_END
    if not count:
        return nxt
    codes = ix.b[ix.cand[:count]]
    # (np.take with mode="clip": a table lookup by byte without numpy's index checks and
    # conversion, several times faster; the bytes are valid indexes)
    klass = np.take(klass_of, codes, mode="clip")
    steps = nxt[:count]
    np.take(step_of, codes, out=steps, mode="clip")       # slow bytes: far below zero
    steps += arange(count)
    special = np.flatnonzero(klass >= 2)
    if len(special):
        scodes = codes[special]
        end, bytes_ok = _item_steps(ix, steps[special], scodes, *items)
        steps[special] = end
        if not bytes_ok.all():    # a byte field of 0x80 or more, or no layout: byte by byte
            odd = special[~bytes_ok]
            for code in np.unique(codes[odd]).tolist():
                idx = odd[codes[odd] == code]
                steps[idx] = _byte_steps(ix, idx, shapes[code])
    # a plain event can only run past the data from its last few values
    tail = steps[max(count - 8, 0):]
    tail[tail > count] = BAD_END
    if ix.has_long:      # a time longer than ten bytes
        lengths = ix.lengths
        simple = np.flatnonzero(klass > 0)
        joined = codes[simple] >= 0x80
        tlen = np.where(joined, lengths[simple] - 1,
                        lengths[np.minimum(simple + 1, count - 1)])
        steps[simple[tlen > MAX_LEB_BYTES]] = TOO_LONG
    return nxt


def _item_steps(ix: LebIndex, first: np.ndarray, codes: np.ndarray, pre: np.ndarray,
                mult1: np.ndarray, mid: np.ndarray, mult2: np.ndarray, boff: np.ndarray,
                before_value: np.ndarray):
    """Where events whose first item after the time is value ``first`` end (``BAD_END``
    past the data), and whether that holds (false where a byte field of 0x80 or more is
    not followed by a LEB128 value, or the event byte has no layout).

    A byte field below 0x80 is one value; one of 0x80 or more is one value with the
    LEB128 value after it (the layouts: :func:`_closed_forms`).
    """
    count = ix.count
    take = np.take
    ok = take(pre, codes, mode="clip") > 0
    ok |= take(mult1, codes, mode="clip") > 0            # false: no layout
    shift = np.zeros(len(first), dtype=np.intp)
    for j in range(2):
        off = take(boff[j], codes, mode="clip")
        has = np.flatnonzero(off >= 0)
        if not len(has):
            break
        at = np.minimum(first[has] + off[has] - shift[has], count - 1)
        big = ix.cand[at + 1] - ix.cand[at] != 1
        if big.any():
            joins = take(before_value[j], codes[has], mode="clip")
            ok[has[big & ~joins]] = False
            shift[has[big & joins]] += 1
    pos = first + take(pre, codes, mode="clip")
    pos -= shift
    m1 = take(mult1, codes, mode="clip")
    lists = np.flatnonzero(m1)
    if len(lists):
        at = np.minimum(pos[lists], count)
        num = np.minimum(ix.values[at], np.uint64(count)).astype(np.intp)
        pos[lists] = at + 1 + m1[lists] * num
        m2 = take(mult2, codes[lists], mode="clip")
        second = np.flatnonzero(m2)
        if len(second):
            rows = lists[second]
            at = np.minimum(pos[rows] + take(mid, codes[rows], mode="clip"), count)
            num = np.minimum(ix.values[at], np.uint64(count)).astype(np.intp)
            pos[rows] = at + 1 + m2[second] * num
    pos[pos > count] = BAD_END
    return pos, ok


def _byte_steps(ix: LebIndex, idx: np.ndarray, shape: Callable) -> np.ndarray:
    """Event ends computed byte by byte (``shape``: :func:`_shapes`), as value numbers."""
    count = ix.count
    pos = ix.cand[idx]
    tend = ix.end(pos + 1)
    end = shape(ix, tend)
    at = ix.rank_of(np.minimum(end, ix.n))
    ok = (end <= ix.n) & (ix.cand[np.minimum(at, count)] == end)
    step = np.where(ok, at, BAD_END)
    step[tend - pos > MAX_LEB_BYTES + 1] = TOO_LONG
    return step


_ARANGE = np.arange(1 << 18, dtype=np.intp)
_ARANGE.flags.writeable = False


def arange(count: int) -> np.ndarray:
    """``np.arange(count)`` (a read-only view of one kept array, grown as needed)."""
    global _ARANGE
    if count > len(_ARANGE):
        _ARANGE = np.arange(max(count, 2 * len(_ARANGE)), dtype=np.intp)
        _ARANGE.flags.writeable = False
    return _ARANGE[:count]


#: events per step of the walk's long jumps (2 ** JUMP_LEVELS)
JUMP_LEVELS = 4


def jump_tables(nxt: np.ndarray, ix: LebIndex, levels: int = JUMP_LEVELS):
    """``[J0, J1, ...]`` over value numbers: ``Jk[i]`` is the value reached after ``2**k``
    events from value ``i``.

    ``len(ix.cand)`` where that is unknown: a slow event on the way, data running past
    the end or ending inside a value, or fewer than ``2**k`` events left. ``nxt`` is
    what :func:`event_steps` returns; each level is a single gather.

    Examples
    --------
    >>> from .leb128 import LebIndex
    >>> ix = LebIndex(np.array([0x23, 0x01, 0x02, 0x13, 0x01, 0x02], np.uint8))
    >>> ix.cand.tolist()       # after every byte below 0x80
    [0, 1, 2, 3, 4, 5, 6]
    >>> [t[:7].tolist() for t in jump_tables(event_steps(ix, 17), ix, 1)]
    [[3, 7, 7, 6, 7, 7, 7], [6, 7, 7, 7, 7, 7, 7]]
    """
    unknown = len(ix.cand)
    j0 = nxt.copy()
    j0[(nxt < 0) | (nxt >= unknown)] = unknown
    tables = [j0]
    for _ in range(levels):
        prev = tables[-1]
        tables.append(prev[prev])
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


#: values per lane of :func:`walk_lanes`
LANE_VALUES = 128


def walk_lanes(nxt: np.ndarray, ix: LebIndex, lane_values: int = LANE_VALUES):
    """Every event start (value numbers, in order) found by walking many lanes at once, or
    ``None`` where that cannot be proved (the decoder then walks the jump tables).

    The values are cut into segments of ``lane_values``; a lane starts at the first
    value of each segment and follows ``nxt`` (stepping one value over anything that
    is not a plain step: a slow event, a bad end) until it leaves its segment. All
    lanes move together, one numpy step per event of the longest segment. A lane
    that starts inside an event soon falls onto the events' own chain (as a decoder
    dropped into the middle of a stream resynchronises). The chain from value 0 enters
    each segment where the previous lane left it; followed from there (one numpy step
    for all segments at once), it soon meets a value the segment's lane visited with
    no step over a non-plain value after it, and from there on the lane's visits are
    the chain's. The result is ``None`` unless the chain meets every lane without a
    slow event on the way, no event spans a whole segment, and the chain ends exactly
    at the end of the data.

    Examples
    --------
    >>> data = bytes([0x23, 0x05, 0x02, 0x13, 0x81, 0x01, 0x7E] * 3)  # enter, leave x3
    >>> ix = LebIndex(np.frombuffer(data, np.uint8))
    >>> walk_lanes(event_steps(ix, 17), ix, lane_values=4).tolist()
    [0, 3, 6, 9, 12, 15]
    """
    count = ix.count
    if not count or int(ix.cand[count]) != ix.n:
        return None
    lanes = max(count // lane_values, 1)      # the last segment takes the rest
    starts = arange(lanes) * lane_values
    limit = starts + lane_values
    limit[-1] = count
    # a lane's step: the event's, or one value over anything that is not a plain step
    # (a slow event, a bad end: negative) or one over a whole segment (then the chain
    # could not meet every lane anyway)
    values = arange(count + 1)
    step = np.empty(count + 2, dtype=np.intp)
    lane_step = step[:count]
    np.subtract(nxt[:count], values[1:], out=lane_step)     # (the step) - 1
    plain = lane_step.view(np.uintp) < lane_values
    lane_step *= plain
    lane_step += values[1:]
    step[count:] = count + 1                  # past the end: stay there
    # all lanes step together, each recording where it is, until every one has left its
    # segment (those already out keep going: what they visit there is dropped)
    rows = [starts]
    cur = starts
    while True:
        for _ in range(8):
            cur = step[cur]
            rows.append(cur)
        if (cur >= limit).all():
            break
    visits = np.concatenate(rows).reshape(len(rows), lanes)   # each column increasing
    inside = visits < limit
    exits = visits[inside.sum(axis=0), arange(lanes)]
    mark = np.zeros(count + 2, dtype=bool)
    mark[visits[inside]] = True
    # the last value each lane stepped over one value from
    visited_odd = np.flatnonzero(mark[:count] > plain)
    last_skip = np.full(lanes, -1, dtype=np.intp)
    if len(visited_odd):
        segment = np.minimum(visited_odd // lane_values, lanes - 1)
        last = np.flatnonzero(np.diff(segment, append=lanes))   # the last of each segment
        last_skip[segment[last]] = visited_odd[last]
    entry = np.empty(lanes, dtype=np.intp)
    entry[0] = 0
    entry[1:] = exits[:-1]
    if exits[-1] != count or (entry >= limit).any():
        return None
    # from where the chain enters each segment, follow it until it meets the lane (a
    # value the lane visited, with no step over a non-plain value after it)
    meet = entry.copy()
    passed = []
    todo = np.flatnonzero(~(mark[meet] & (last_skip < meet)))
    while len(todo):
        at = meet[todo]
        passed.append(at)
        nx = nxt[at]
        if ((nx > count) | (nx < 0) | (nx >= limit[todo])).any():
            return None       # a slow event, or no meeting inside the segment
        meet[todo] = nx
        todo = todo[~(mark[nx] & (last_skip[todo] < nx))]
    # unmark each lane's visits before it met the chain, mark the chain's before that
    before = meet - starts
    total = int(before.sum())
    if total:
        offsets = np.cumsum(before) - before
        lost = np.repeat(starts - offsets, before)
        lost += np.arange(total)
        mark[lost] = False
    for at in passed:
        mark[at] = True
    return np.flatnonzero(mark[:count])
