"""Calls given as intervals (start, end) -> ENTER/LEAVE events in nesting order.

Several formats record one record per call with its start and end (Recorder,
Nsight Systems, HPCToolkit samples turned into spans) rather than separate
enter and leave events, and not always in start order (Recorder writes a
call when it completes, so an outer call follows the calls nested in it).
:func:`call_events` turns such calls into the event stream the handlers
expect (see :mod:`graphframe_readers.traces.events`, "Order contract"): per call an
ENTER, optionally one data event right after it (an IO, SEND... event that
describes the call), and a LEAVE, all ordered by one ``numpy.lexsort``.

Ordering rules at equal times: LEAVEs of calls that end at ``t`` come before
ENTERs of calls that start at ``t``; among calls starting together the
longer one is entered first (it contains the shorter); a call of zero
duration is left right after it is entered; of two identical intervals the
one recorded first is the outer one. Calls that overlap without nesting
(possible only with inconsistent clocks or threads written to one stream)
are not repaired: the LEAVE of the first one closes the innermost open call.

Examples
--------
>>> import numpy as np
>>> call, slot = interval_order(np.array([5, 0, 2]), np.array([5, 10, 5]))
>>> [("ENTER", "DATA", "LEAVE")[s] + str(c) for c, s in zip(call.tolist(), slot.tolist())]
['ENTER1', 'DATA1', 'ENTER2', 'DATA2', 'LEAVE2', 'ENTER0', 'DATA0', 'LEAVE0', 'LEAVE1']
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from .events import ATTRIBUTES, EventBatch, Kind, StringTable

#: slot codes returned by :func:`interval_order`
ENTER_SLOT, DATA_SLOT, LEAVE_SLOT = 0, 1, 2


def interval_order(start: np.ndarray, end: np.ndarray, level: Optional[np.ndarray] = None,
                   data: bool = True) -> "tuple[np.ndarray, np.ndarray]":
    """Event order of calls ``[start[i], end[i]]``: arrays ``(call, slot)`` of length 3n.

    ``slot`` is 0 (ENTER), 1 (the call's data event, right after its ENTER)
    or 2 (LEAVE). Callers drop the data slots of calls that have none;
    ``data=False`` leaves them out (length 2n, the same order otherwise).
    ``level``, when the format records each call's nesting level, orders
    calls that start together instead of their durations: the lower level
    is entered first and, at equal levels, the one recorded first.

    One stable sort by time orders the events; the other keys decide only
    among events of equal times, which are sorted again by all keys.
    """
    start = np.asarray(start, dtype=np.int64)
    end = np.maximum(np.asarray(end, dtype=np.int64), start)
    n = len(start)
    idx = np.arange(n, dtype=np.int64)
    zero = end == start
    slots = (ENTER_SLOT, DATA_SLOT, LEAVE_SLOT) if data else (ENTER_SLOT, LEAVE_SLOT)
    inner = len(slots) - 1  # ENTER (and DATA) copies before the LEAVE copy
    # keys per event (primary key last, as np.lexsort wants)
    time = np.concatenate([start] * inner + [np.where(zero, start, end)])
    order = np.argsort(time, kind="stable")
    t = time[order]
    tie = t[1:] == t[:-1]
    if tie.any():
        member = np.zeros(len(t), dtype=bool)
        member[1:] |= tie
        member[:-1] |= tie
        pos = np.flatnonzero(member)
        ev = order[pos]
        call, copy = ev % max(n, 1), ev // max(n, 1)
        leave = copy == inner
        z = zero[call]
        cls = np.where(leave & ~z, 0, 1).astype(np.int8)
        outer = -end[call] if level is None else np.asarray(level, dtype=np.int64)[call]
        third = np.where(leave & ~z, -start[call], outer)
        fourth = np.where(leave & ~z, -call, call)
        sub = np.where(leave, np.where(z, 2, 0), copy).astype(np.int8)
        order[pos] = ev[np.lexsort((sub, fourth, third, cls, time[ev]))]
    call = order % max(n, 1)
    slot = np.asarray(slots, dtype=np.int64)[order // max(n, 1)]
    return call, slot


def call_events(strings: StringTable, *, start: Any, end: Any, name: Any, rank: Any,
                thread: Any = 0, source: str = "", data_kind: Optional[Any] = None,
                enter_attrs: Optional[Dict[str, Any]] = None,
                data_attrs: Optional[Dict[str, Any]] = None,
                level: Optional[Any] = None) -> EventBatch:
    """One batch with ENTER/[data]/LEAVE events for calls given per call.

    Parameters
    ----------
    strings : StringTable
        The table ``name`` (and a ``file`` attribute) refer to.
    start, end : array-like of int
        Call start and end times (ns), one per call.
    name, rank, thread : array-like or scalar
        Per-call name id, rank and thread (all events of a call share them).
    source : str
        For messages.
    data_kind : array-like of int, optional
        Per call, the :class:`Kind` of an extra event describing the call
        (IO, SEND, RECV, COLLECTIVE...), or ``-1`` for none. Its ``time``
        is the call's start and its ``end`` attribute the call's end.
    enter_attrs, data_attrs : dict, optional
        Per-call attribute columns put on the ENTER event, resp. the data
        event (other events get the fill value).

    Examples
    --------
    >>> t = StringTable(["write", "main"])
    >>> b = call_events(t, start=[2, 0], end=[3, 9], name=[0, 1], rank=0,
    ...                 data_kind=[Kind.IO, -1], data_attrs={"bytes": [8, -1]})
    >>> [(int(k), int(tm), t[n]) for k, tm, n in zip(b.kind, b.time, b.name)]
    [(0, 0, 'main'), (0, 2, 'write'), (6, 2, 'write'), (1, 3, 'write'), (1, 9, 'main')]
    >>> b.attrs["bytes"].tolist(), b.attrs["end"].tolist()
    ([-1, -1, 8, -1, -1], [-1, -1, 3, -1, -1])
    """
    start = np.asarray(start, dtype=np.int64).reshape(-1)
    end = np.asarray(end, dtype=np.int64).reshape(-1)
    n = len(start)
    call, slot = interval_order(start, end, None if level is None else
                                np.asarray(level, dtype=np.int64).reshape(-1),
                                data=data_kind is not None)
    if data_kind is not None:
        dk = np.broadcast_to(np.asarray(data_kind, dtype=np.int64), (n,))
        keep = (slot != DATA_SLOT) | (dk[call] >= 0)
        call, slot = call[keep], slot[keep]
    kind = np.where(slot == ENTER_SLOT, Kind.ENTER, Kind.LEAVE).astype(np.uint8)
    if data_kind is not None:
        kind = np.where(slot == DATA_SLOT, dk[call], kind).astype(np.uint8)
    time = np.where(slot == LEAVE_SLOT, np.maximum(end, start)[call], start[call])

    def per_call(value: Any, dtype: Any) -> np.ndarray:
        arr = np.asarray(value, dtype=dtype)
        return arr if arr.ndim == 0 else arr.reshape(-1)[call]

    attrs: Dict[str, Any] = {}
    for cols, want in ((enter_attrs, ENTER_SLOT), (data_attrs, DATA_SLOT)):
        for col, values in (cols or {}).items():
            attrs[col] = _slot_column(col, values, call, slot == want, attrs.get(col))
    if data_kind is not None:
        attrs["end"] = _slot_column("end", end, call, slot == DATA_SLOT, attrs.get("end"))
    return EventBatch.build(strings, kind=kind, time=time, rank=per_call(rank, np.int64),
                            thread=per_call(thread, np.int64),
                            name=per_call(name, np.int32), source=source, **attrs)


def _slot_column(col: str, values: Any, call: np.ndarray, mask: np.ndarray,
                 current: Optional[np.ndarray]) -> np.ndarray:
    dtype, fill = ATTRIBUTES[col]
    if current is None:
        current = np.empty(len(call), dtype=dtype)
        current[...] = fill
    if dtype is object:
        src = np.empty(len(values), dtype=object)
        src[:] = list(values)
    else:
        src = np.asarray(values, dtype=dtype)
    current[mask] = src[call[mask]]
    return current
