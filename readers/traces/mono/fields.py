"""The fields of the fixed-shape event kinds, read for all events of one kind at once.

One function per event type: ``reader(dec, code, t) -> (kind, columns)``, where
``dec`` is the chunk decoder (:mod:`.decode`: its LEB128 helpers ``E``, ``U``,
``S``, ``ptr``, ``obj``, lists and method fields), ``code`` the event byte and
``t`` the positions right after each event's time; ``dec.after`` holds the
numbers of the LEB128 values starting there (:mod:`.leb128`), which the
readers of events made of LEB128 values only use instead (``UV``, ``SV``,
``ptr_v``, ``obj_v``, ``backtrace_v``). :data:`FIXED` maps event bytes to
readers (:func:`monitor13` is data version 13's monitor layout).

Examples
--------
>>> sorted(hex(c) for c in FIXED if c & 0xF == 3)     # method enter, leave, exception leave
['0x13', '0x23', '0x33']
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from . import format as F

Columns = Dict[str, np.ndarray]


def _method(dec: Any, code: int, t: np.ndarray):
    sub = code & 0xF0
    kname = {F.METHOD_ENTER: "enter", F.METHOD_LEAVE: "leave", F.METHOD_EXC_LEAVE: "exc_leave"}[sub]
    cols: Columns = {}
    dec.add_method_field_v(cols, "method", dec.after)
    return kname, cols


def _alloc(dec: Any, code: int, t: np.ndarray):
    v = dec.after
    if dec.ix.has_long:
        dec.check_values(np.concatenate([v, v + 1, v + 2]))
    cols = {"vtable": dec.ptr_v(v), "obj": dec.obj_v(v + 1), "size": dec.UV(v + 2)}
    if code & F.ALLOC_BT:
        dec.backtrace_v(cols, v + 3)
    else:
        _no_backtrace(dec, cols, len(t))
    return "alloc", cols


def _no_backtrace(dec: Any, cols: Columns, n: int) -> None:
    cols["backtrace_start"] = np.zeros(n, np.int64)
    cols["backtrace_count"] = np.zeros(n, np.int64)


def _gc(dec: Any, code: int, t: np.ndarray):
    sub = code & 0xF0
    E, U, b = dec.E, dec.U, dec.b
    if sub == F.GC_EVENT:
        return "gc", {"event": b[t].astype(np.int64), "generation": b[t + 1].astype(np.int64)}
    if sub == F.GC_RESIZE:
        return "gc_resize", {"heap_size": U(t)}
    if sub == F.GC_MOVE:
        num = U(t)
        pos, offsets = dec.list_positions(E(t), num)
        start = dec.add_list("moves", dec.obj(pos))
        return "gc_moves", {"moves_start": (offsets + start) // 2, "moves_count": num // 2}
    if sub in (F.GC_HANDLE_CREATED, F.GC_HANDLE_CREATED_BT):
        q1 = E(t)
        q2 = E(q1)
        cols = {"handle_type": U(t), "handle": U(q1), "obj": dec.obj(q2)}
        if sub == F.GC_HANDLE_CREATED_BT:
            dec.backtrace(cols, E(q2))
        else:
            _no_backtrace(dec, cols, len(t))
        return "gc_handle_created", cols
    if sub in (F.GC_HANDLE_DESTROYED, F.GC_HANDLE_DESTROYED_BT):
        q1 = E(t)
        cols = {"handle_type": U(t), "handle": U(q1)}
        if sub == F.GC_HANDLE_DESTROYED_BT:
            dec.backtrace(cols, E(q1))
        else:
            _no_backtrace(dec, cols, len(t))
        return "gc_handle_destroyed", cols
    if sub == F.GC_FINALIZE_START:
        return "finalize_begin", {}
    if sub == F.GC_FINALIZE_END:
        return "finalize_end", {}
    if sub == F.GC_FINALIZE_OBJECT_START:
        return "finalize_object_begin", {"obj": dec.obj(t)}
    return "finalize_object_end", {"obj": dec.obj(t)}


def _exception(dec: Any, code: int, t: np.ndarray):
    E = dec.E
    if code & 0x70 == F.EXCEPTION_CLAUSE:
        q1 = t + 1
        q2 = E(q1)
        cols: Columns = {"clause_type": dec.b[t].astype(np.int64), "clause_index": dec.U(q1)}
        dec.add_method_field(cols, "method", q2)
        cols["obj"] = dec.obj(E(q2)) if dec.version >= 14 else np.zeros(len(t), np.int64)
        return "clause", cols
    cols = {"obj": dec.obj(t)}
    if code & F.EXCEPTION_BT:
        dec.backtrace(cols, E(t))
    else:
        _no_backtrace(dec, cols, len(t))
    return "throw", cols


def _monitor(dec: Any, code: int, t: np.ndarray):
    cols = {"event": dec.b[t].astype(np.int64), "obj": dec.obj(t + 1)}
    if code & F.MONITOR_BT:
        dec.backtrace(cols, dec.E(t + 1))
    else:
        _no_backtrace(dec, cols, len(t))
    return "monitor", cols


def monitor13(dec: Any, code: int, t: np.ndarray):
    cols = {"event": np.full(len(t), (code >> 4) & 0x3, np.int64), "obj": dec.obj(t)}
    if code & F.MONITOR_BT:
        dec.backtrace(cols, dec.E(t))
    else:
        _no_backtrace(dec, cols, len(t))
    return "monitor", cols


def _heap(dec: Any, code: int, t: np.ndarray):
    sub = code & 0xF0
    E, U = dec.E, dec.U
    if sub == F.HEAP_START:
        return "heap_begin", {}
    if sub == F.HEAP_END:
        return "heap_end", {}
    if sub == F.HEAP_OBJECT:
        q1 = E(t)
        q2 = E(q1)
        q3 = E(q2)
        gen = dec.b[np.minimum(q3, len(dec.b) - 1)].astype(np.int64) if dec.version >= 16 \
            else np.zeros(len(t), np.int64)
        q4 = q3 + 1 if dec.version >= 16 else q3
        num = U(q4)
        pos, offsets = dec.list_positions(E(q4), num, 2)
        pairs = np.empty(len(pos), dtype=np.int64)
        pairs[0::2] = dec.U(pos[0::2])
        pairs[1::2] = dec.obj(pos[1::2])
        # reference offsets are stored relative to the previous one
        if len(pos):
            owner = np.repeat(np.arange(len(num)), num)
            first = np.zeros(len(owner), dtype=bool)
            first[(offsets // 2)[num > 0]] = True
            rel = pairs[0::2]
            csum = np.cumsum(rel)
            base = np.maximum.accumulate(np.where(first, np.arange(len(rel)), 0))
            pairs[0::2] = csum - csum[base] + rel[base]
            del owner
        start = dec.add_list("refs", pairs)
        return "heap_object", {"obj": dec.obj(t), "vtable": dec.ptr(q1), "size": U(q2),
                               "generation": gen, "refs_start": (offsets + start) // 2,
                               "refs_count": num}
    if sub == F.HEAP_ROOT:
        num = U(t)
        if dec.version >= 15:
            pos, offsets = dec.list_positions(E(t), num, 2)
            vals = np.empty(len(pos), dtype=np.int64)
            vals[0::2] = dec.ptr(pos[0::2])
            vals[1::2] = dec.obj(pos[1::2])
            start = dec.add_list("roots", vals)
            return "heap_roots", {"roots_start": (offsets + start) // 2, "roots_count": num}
        pos, offsets = dec.list_positions(E(E(t)), num, 3)   # version 14
        vals = np.empty(len(pos), dtype=np.int64)
        vals[0::3] = dec.obj(pos[0::3])
        vals[1::3] = dec.U(pos[1::3])
        vals[2::3] = dec.U(pos[2::3])
        start = dec.add_list("roots", vals)
        return "heap_roots", {"roots_start": (offsets + start) // 3, "roots_count": num}
    return "heap_root_unregister", {"address": dec.ptr(t)}


def _sample(dec: Any, code: int, t: np.ndarray):
    E, U = dec.E, dec.U
    if dec.version == 13:
        sample_type = dec.b[t].astype(np.int64)
        t = t + 1
    else:
        sample_type = np.ones(len(t), np.int64)
    thread = dec.ptr(t)
    q1 = E(t)
    n_ips = U(q1)
    pos, offsets = dec.list_positions(E(q1), n_ips)
    start = dec.add_list("ips", dec.ptr(pos))
    q2 = dec.ix.skip(E(q1), n_ips)
    cols = {"sampled_thread": thread, "ips_start": offsets + start, "ips_count": n_ips,
            "sample_type": sample_type}
    dec.backtrace(cols, q2)
    return "sample", cols


def _sync(dec: Any, code: int, t: np.ndarray):
    return "sync_point", {"sync_type": dec.b[t].astype(np.int64)}


FIXED: Dict[int, Any] = {}
for _sub in (F.METHOD_ENTER, F.METHOD_LEAVE, F.METHOD_EXC_LEAVE):
    FIXED[F.TYPE_METHOD | _sub] = _method
FIXED[F.TYPE_ALLOC] = _alloc
FIXED[F.TYPE_ALLOC | F.ALLOC_BT] = _alloc
for _sub in range(0x10, 0xC0, 0x10):
    FIXED[F.TYPE_GC | _sub] = _gc
FIXED[F.TYPE_EXCEPTION] = _exception
FIXED[F.TYPE_EXCEPTION | F.EXCEPTION_BT] = _exception
FIXED[F.TYPE_EXCEPTION | F.EXCEPTION_CLAUSE] = _exception
FIXED[F.TYPE_MONITOR] = _monitor
FIXED[F.TYPE_MONITOR | F.MONITOR_BT] = _monitor
for _sub in (F.HEAP_START, F.HEAP_END, F.HEAP_OBJECT, F.HEAP_ROOT, F.HEAP_ROOT_UNREGISTER):
    FIXED[F.TYPE_HEAP | _sub] = _heap
FIXED[F.TYPE_SAMPLE | F.SAMPLE_HIT] = _sample
FIXED[F.TYPE_META | F.META_SYNC_POINT] = _sync
