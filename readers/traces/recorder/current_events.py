"""Recorder 2.4/2.5 records -> event batches (one rank).

The records of :func:`.current.decode_rank` become the same events as a
2.2 trace's (see :mod:`.decoder`): per call an ENTER/LEAVE pair named after
the function and, for I/O and MPI calls that move data, an IO / SEND / RECV
/ COLLECTIVE event with ``file``, ``bytes``, ``offset``, ``peer``... from
:func:`.calls.interpret_signatures`. Everything per record is numpy
indexing by call-signature id; the Python work is per signature. A handler
that ``takes_calls`` (the call table) gets the calls themselves
(:meth:`.EventHandler.on_calls`, in the order of their ENTER events) and no
events are built.

Functions: ``recorder.mt``'s list, or for a user function (id 255,
``RECORDER_USER_FUNCTION``) its second argument, as Recorder's own reader
names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions
from ..events import StringTable
from ..handler import EventHandler
from ..intervals import call_events
from .calls import Files, interpret_signatures, layer
from .current import CurrentMeta, decode_rank, parse_meta, read_bytes

#: function id of a user function (its name is its second argument)
USER_FUNCTION = 255
#: events per delivered batch
BATCH_EVENTS = 1 << 20


def decode_current(folder: Path, rank: int, handler: EventHandler, files: Files,
                   version: Tuple[int, int, int], *, args: bool = True) -> None:
    """Decode rank ``rank`` of a 2.4/2.5 trace folder into ``handler``."""
    mt = folder / "recorder.mt"
    meta = parse_meta(read_bytes(mt), str(mt))
    if not 0 <= rank < meta.ranks:
        raise ReadError(mt, f"rank {rank} is not in a trace of {meta.ranks} ranks",
                        expected=f"ranks 0..{meta.ranks - 1}")
    records = decode_rank(folder, rank, meta)
    sig = records.signatures
    names = _signature_names(meta, sig, folder / f"{rank}.cst")
    strings = StringTable()
    name_ids = strings.intern_many(names)
    cols = interpret_signatures(names, np.arange(len(sig)), sig.args, records.terminal, files)
    file_ids = np.concatenate([strings.intern_many(cols["file_names"]), [-1]]).astype(np.int32)
    file_id = file_ids[cols["file_index"]]
    tid_codes, tids = _threads(sig.tid, records.terminal)
    tick_ns = meta.resolution * 1e9
    origin = int(round(meta.start * 1e9))
    if abs(tick_ns - round(tick_ns)) < 1e-9:
        start = origin + records.tstart * int(round(tick_ns))
        end = origin + records.tend * int(round(tick_ns))
    else:
        start = origin + np.round(records.tstart * tick_ns).astype(np.int64)
        end = origin + np.round(records.tend * tick_ns).astype(np.int64)
    term = records.terminal
    level = sig.level[term]
    enter = {"file": file_id, "fd": cols["fd"], "end": end}
    if args:
        text = np.empty(len(sig), dtype=object)
        text[:] = [" ".join(a) for a in sig.args]
        enter["args"] = text[term]
    handler.on_definitions(_definitions(meta, names, rank, records, files, tids, version,
                                        origin))
    if handler.takes_calls:  # whole calls, in the order their ENTER events would have
        order = np.lexsort((level, start))
        has_data = cols["kind"][order] >= 0
        calls = {"rank": rank, "thread": tid_codes[order], "name": name_ids[term][order],
                 "start": start[order], "end": end[order], "kind": cols["kind"][order],
                 "file": file_id[order], "fd": cols["fd"][order]}
        for c in ("bytes", "offset", "peer", "tag", "comm"):
            calls[c] = np.where(has_data, cols[c][order], -1)
        if args:
            calls["args"] = enter["args"][order]
        for lo in range(0, len(order), BATCH_EVENTS):
            handler.on_calls(strings, {k: v if np.ndim(v) == 0 else v[lo:lo + BATCH_EVENTS]
                                       for k, v in calls.items()})
        return
    leave = nesting_end(start, end, level, tid_codes)
    data = {c: cols[c] for c in ("fd", "bytes", "offset", "peer", "tag", "comm")
            if (cols[c] != -1).any()}  # columns this rank has values for
    data["file"] = file_id
    data["end"] = end  # the recorded end (the LEAVE may sit a tick earlier: nesting_end)
    batch = call_events(strings, start=start, end=leave, name=name_ids[term], rank=rank,
                        thread=tid_codes, source=str(folder / f"{rank}.cst"),
                        data_kind=cols["kind"], enter_attrs=enter, data_attrs=data,
                        level=level)
    for lo in range(0, len(batch), BATCH_EVENTS):
        handler.on_batch(batch.take(slice(lo, lo + BATCH_EVENTS)))


def nesting_end(start: np.ndarray, end: np.ndarray, level: np.ndarray,
                thread: np.ndarray) -> np.ndarray:
    """Ends that nest: no call ends after the next call of its level (or an outer one)
    starts, nor after its caller ends.

    Recorder 2.5 stores each time as whole ticks after the previous record's
    start, truncated, so a call can end a tick after its next sibling starts
    (``write`` 8976..9007 then ``write`` 9006..9035). The recorded ``level``
    says they are siblings; the LEAVE is placed at the sibling's start (the
    ENTER and data events keep the recorded end). Records are in file order:
    each nest in start order, callers first.

    >>> nesting_end(np.array([0, 5, 9]), np.array([10, 8, 12]), np.array([0, 1, 0]),
    ...             np.zeros(3, int)).tolist()
    [9, 8, 12]
    """
    out = end.copy()
    idx = np.arange(len(start))
    threads = np.flatnonzero(np.bincount(thread)) if len(thread) else []
    for t in threads.tolist() if len(threads) else []:
        rows = idx if len(threads) == 1 else idx[thread == t]
        lv = level[rows]
        present = np.flatnonzero(np.bincount(lv)).tolist() if len(lv) else []
        for lvl in present:
            mine = rows[lv == lvl]
            later = rows[lv <= lvl]          # the next of these after a call ends it
            k = np.searchsorted(later, mine, side="right")
            has = k < len(later)
            nxt = later[np.minimum(k, len(later) - 1)]
            out[mine] = np.where(has, np.minimum(out[mine], start[nxt]), out[mine])
        for lvl in present[1:]:
            mine = rows[lv == lvl]
            callers = rows[lv == lvl - 1]
            k = np.searchsorted(callers, mine, side="right") - 1
            ok = k >= 0
            parent = callers[np.maximum(k, 0)]
            out[mine] = np.where(ok, np.minimum(out[mine], out[parent]), out[mine])
    return np.maximum(out, start)


def _signature_names(meta: CurrentMeta, sig, cst: Path) -> list:
    out = []
    for t, f in enumerate(sig.func.tolist()):
        if f == USER_FUNCTION and len(sig.args[t]) > 1:
            out.append(sig.args[t][1])
        elif 0 <= f < len(meta.functions):
            out.append(meta.functions[f])
        else:
            raise ReadError(cst, f"call signature {t} has function id {f}",
                            expected=f"an id below {len(meta.functions)} (recorder.mt's list) "
                            f"or {USER_FUNCTION}")
    return out


def _threads(tid: np.ndarray, terminal: np.ndarray) -> Tuple[np.ndarray, list]:
    """Per record a thread number 0, 1... (order of first appearance) and the pthread ids."""
    per_record = tid[terminal]
    if not len(per_record) or (per_record == per_record[0]).all():
        return np.zeros(len(per_record), dtype=np.int64), \
            [int(per_record[0])] if len(per_record) else []
    uniq, first, inverse = np.unique(per_record, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank_of = np.empty(len(uniq), dtype=np.int64)
    rank_of[order] = np.arange(len(uniq))
    return rank_of[inverse], [int(x) for x in uniq[order]]


def _definitions(meta: CurrentMeta, names: list, rank: int, records, files: Files,
                 tids: list, version: Tuple[int, int, int], origin: int) -> Definitions:
    tick = meta.resolution * 1e9
    end = origin + int(round(int(records.tend.max()) * tick)) if len(records) else origin
    entry = {"start_time": origin, "end_time": end}
    if files.relative:
        entry["relative_files"] = sorted(files.relative)
    threads = {(rank, i): {"pthread": t} for i, t in enumerate(tids) if t}
    regions = {name: {"kind": layer(name)} for name in dict.fromkeys(meta.functions + names)}
    return Definitions(
        ranks={rank: entry}, threads=threads, regions=regions,
        metadata={"format": "recorder", "version": ".".join(map(str, version)),
                  "ranks": meta.ranks, "time_resolution": meta.resolution,
                  "start_time": origin, "interprocess_compression": meta.interprocess,
                  "functions": list(meta.functions)})
