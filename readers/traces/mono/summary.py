"""Layer 4: the tables of mprof-report's sections, from a :class:`~.model.MonoModel`.

One function per section, each returning plain values and pandas tables
with the numbers mprof-report prints (times in nanoseconds where
mprof-report prints derived milliseconds or microseconds; the derived
columns are there too). Rows are sorted as mprof-report sorts them, ties
broken by name so the output is deterministic.

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> from graphframe_readers.traces.sources import MemorySource
>>> from .handler import run
>>> from .model import ModelBuilder
>>> w = MlpdWriter()
>>> w.buffer(thread=1, events=[w.klass(1, 0x50, 0x90, "A.Node"), w.vtable(2, 0x60, 0, 0x50),
...     w.alloc(3, 0x60, 0x1000, 40), w.alloc(4, 0x60, 0x1040, 40), w.alloc(5, 0x70, 0x10a0, 8)])
>>> m = run(MemorySource(w.getvalue()), ModelBuilder())
>>> allocations(m).values.tolist()
[['A.Node', 80, 2, 40], ['unresolved class (nil)', 8, 1, 8]]
"""

from __future__ import annotations

import time as _time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

from . import format as F
from .model import MonoModel, pointer

#: counters mprof-report prints without --verbose (in this order of preference)
REPORTED_COUNTERS = (
    "Methods from AOT", "Methods JITted using mono JIT", "Methods JITted using LLVM",
    "Total time spent JITting (sec)", "User Time", "System Time", "Total Time",
    "Working Set", "Private Bytes", "Virtual Bytes", "Page Faults",
    "CPU Load Average - 1min", "CPU Load Average - 5min", "CPU Load Average - 15min")


def header(model: MonoModel) -> Dict[str, Any]:
    """The file header: versions, arguments, architecture, OS, startup, program id, port."""
    h = model.header
    if h is None:
        return {}
    return {"profiler_version": f"{h.major}.{h.minor}", "data_version": h.data_version,
            "arguments": h.args, "architecture": h.arch, "os": h.os,
            "timer_overhead_ns": h.timer_overhead,
            "startup": _ctime(h.startup_time_ms // 1000),
            "pid": h.pid, "port": h.port, "pointer_size": h.pointer_size}


def _ctime(seconds: int) -> str:
    """C's ctime() without the newline: ``Tue Dec  1 19:49:08 2026`` (local time)."""
    t = _time.localtime(seconds)
    return (f"{_time.strftime('%a %b', t)} {t.tm_mday:2d} "
            f"{_time.strftime('%H:%M:%S %Y', t)}")


def jit(model: MonoModel) -> Dict[str, int]:
    """Compiled methods (with code), generated code size, JIT helpers and their size."""
    sizes = [size for code, size in model.method_code.values() if code]
    return {"compiled_methods": len(sizes), "code_size": int(sum(sizes)),
            "jit_helpers": model.jit_helpers, "jit_helpers_code_size": model.jit_helpers_size}


def gc(model: MonoModel) -> Dict[str, Any]:
    """Resizes, max heap size, moves; per generation collections and times; GC handles."""
    gens = pd.DataFrame({
        "generation": [0, 1, 2], "collections": model.gc_count,
        "max_time": model.gc_max, "total_time": model.gc_total})
    gens = gens[gens["collections"] > 0].reset_index(drop=True)
    gens["max_us"] = gens["max_time"] // 1000
    gens["total_us"] = gens["total_time"] // 1000
    gens["average_us"] = gens["total_time"] // gens["collections"].clip(lower=1) // 1000
    handles = pd.DataFrame(
        [(F.HANDLE_NAMES.get(t, "unknown"), v[0], v[1], v[3])
         for t, v in sorted(model.handles.items()) if v[3]],
        columns=["handle_type", "created", "destroyed", "max_live"])
    return {"resizes": model.gc_resizes, "max_heap_size": model.max_heap,
            "object_moves": model.moves, "generations": gens, "handles": handles,
            "finalized_objects": model.finalized}


def allocations(model: MonoModel, sort: str = "bytes") -> pd.DataFrame:
    """Bytes, count and average size per class (mprof-report's allocation summary)."""
    rows = [(model.class_name(k), model.alloc_bytes[k], c, model.alloc_bytes[k] // c)
            for k, c in model.alloc_count.items() if c]
    df = pd.DataFrame(rows, columns=["class", "bytes", "count", "average"])
    key = "bytes" if sort == "bytes" else "count"
    return df.sort_values([key, "class"], ascending=[False, True], kind="stable") \
        .reset_index(drop=True)


def allocation_traces(model: MonoModel, max_frames: int = 6) -> pd.DataFrame:
    """Bytes and count per class and allocating call path, caller first (``a > b``: ``a``
    called ``b``), as mprof-report ``--traces`` lists them: the first ``max_frames`` frames
    of the allocation's backtrace (the profiler writes the innermost frames, outermost
    first); an allocation logged without a backtrace (a ``calls`` log) takes the innermost
    ``max_frames`` frames of its thread's emulated stack when the model was built with
    ``tree=True``, else an empty path.
    """
    acc: Dict[tuple, List[int]] = {}
    rows = [((klass, trace[:max_frames]), value)
            for (klass, trace), value in model.alloc_traces.items()]
    rows += [((klass, call_path(model, node)[-max_frames:]), value)
             for (klass, node), value in model.alloc_paths.items()]
    for (klass, trace), (count, size) in rows:
        key = (model.class_name(klass), " > ".join(model.method_name(f) for f in trace))
        entry = acc.setdefault(key, [0, 0])
        entry[0] += size
        entry[1] += count
    df = pd.DataFrame([(k[0], k[1], v[0], v[1]) for k, v in acc.items()],
                      columns=["class", "backtrace", "bytes", "count"])
    return df.sort_values(["bytes", "class", "backtrace"], ascending=[False, True, True],
                          kind="stable").reset_index(drop=True)


def call_path(model: MonoModel, node: int) -> Tuple[int, ...]:
    """The methods from the root to a call-tree node (outermost first).

    Examples
    --------
    >>> m = MonoModel(tree_parent=[-1, 0, 1], tree_method=[10, 20, 30])
    >>> call_path(m, 2)
    (10, 20, 30)
    """
    out = []
    while node >= 0:
        out.append(model.tree_method[node])
        node = model.tree_parent[node]
    return tuple(reversed(out))


def methods(model: MonoModel, sort: str = "total") -> pd.DataFrame:
    """Calls, total and self time per method (mprof-report's method call summary)."""
    keys = [k for k, c in model.method_calls.items() if c]
    df = pd.DataFrame({
        "method": [model.method_name(k) for k in keys],
        "calls": [model.method_calls[k] for k in keys],
        "total": [model.method_total[k] for k in keys],
        "self": [model.method_self[k] for k in keys]})
    df["total_ms"] = df["total"] // 1_000_000
    df["self_ms"] = df["self"] // 1_000_000
    key = {"total": "total", "self": "self", "calls": "calls"}[sort]
    return df.sort_values([key, "method"], ascending=[False, True], kind="stable") \
        .reset_index(drop=True)


def method_traces(model: MonoModel, max_frames: int = 6, min_total: int = 0) -> pd.DataFrame:
    """Calls per method and calling path (the innermost ``max_frames`` callers, caller
    first), from the call tree (a model built with ``tree=True``): mprof-report
    ``--traces``' "calls from" lists. ``min_total`` (ns) keeps the methods whose total
    time reaches it (mprof-report lists those of 1 ms or more).

    Examples
    --------
    >>> m = MonoModel(methods={10: "A:Main ()", 20: "A:f ()"}, tree_parent=[-1, 0],
    ...               tree_method=[10, 20], tree_calls={(0, 1): [1, 9, 5, 0, 0],
    ...                                                 (1, 1): [2, 4, 4, 0, 0]})
    >>> method_traces(m).values.tolist()
    [['A:f ()', 'A:Main ()', 2], ['A:Main ()', '', 1]]
    """
    per_node: Dict[int, int] = {}
    for (node, _), values in model.tree_calls.items():
        per_node[node] = per_node.get(node, 0) + values[0]
    acc: Dict[tuple, int] = {}
    for node, calls in per_node.items():
        if model.method_total.get(model.tree_method[node], 0) < min_total:
            continue
        parent = model.tree_parent[node]
        callers = call_path(model, parent)[-max_frames:] if parent >= 0 else ()
        key = (model.method_name(model.tree_method[node]),
               " > ".join(model.method_name(f) for f in callers))
        acc[key] = acc.get(key, 0) + calls
    df = pd.DataFrame([(k[0], k[1], v) for k, v in acc.items()],
                      columns=["method", "backtrace", "calls"])
    return df.sort_values(["calls", "method", "backtrace"], ascending=[False, True, True],
                          kind="stable").reset_index(drop=True)


def throw_traces(model: MonoModel, max_frames: Optional[int] = 6) -> pd.DataFrame:
    """Throws per throwing call path, caller first, as mprof-report ``--traces`` lists
    them: the first ``max_frames`` frames of the throw's backtrace, or for a throw logged
    without one, the innermost ``max_frames`` frames of the emulated stack (models built
    with ``tree=True``). ``max_frames=None``: whole backtraces."""
    rows = [(trace[:max_frames], n) for trace, n in model.throw_traces.items()]
    rows += [(call_path(model, node)[-max_frames:] if max_frames else
              call_path(model, node), n) for node, n in model.throw_paths.items()]
    acc: Dict[str, int] = {}
    for trace, n in rows:
        key = " > ".join(model.method_name(f) for f in trace)
        acc[key] = acc.get(key, 0) + n
    return pd.DataFrame(list(acc.items()), columns=["backtrace", "throws"]) \
        .sort_values(["throws", "backtrace"], ascending=[False, True]).reset_index(drop=True)


def exceptions(model: MonoModel) -> Dict[str, Any]:
    """Throws (in all, per exception type, per throw site), clauses executed per kind, and
    per kind and method. The type of a thrown object comes from its allocation event (logs
    with allocations); without one it is "type unknown"."""
    clauses = pd.DataFrame([(F.CLAUSE_NAMES.get(k, "invalid"), v)
                            for k, v in sorted(model.clauses.items()) if v],
                           columns=["clause", "count"])
    by_method = pd.DataFrame(
        [(F.CLAUSE_NAMES.get(k, "invalid"), model.method_name(meth), v)
         for (k, meth), v in model.clause_methods.items()],
        columns=["clause", "method", "count"]).sort_values(
            ["count", "clause", "method"], ascending=[False, True, True]).reset_index(drop=True)
    throw_sites = throw_traces(model, max_frames=None)
    by_type = pd.DataFrame(
        [(model.class_name(k) if k else "(type unknown: no allocation event)", v)
         for k, v in model.throw_types.items()], columns=["type", "throws"]) \
        .sort_values(["throws", "type"], ascending=[False, True]).reset_index(drop=True)
    return {"throws": model.throws, "clauses": clauses, "clauses_by_method": by_method,
            "throw_sites": throw_sites, "by_type": by_type}


def monitors(model: MonoModel) -> Dict[str, Any]:
    """Per lock object contentions and wait times (s); totals of contended/acquired/failed."""
    rows = [(pointer(obj), v[0], v[1] / 1e9, v[2] / 1e9, v[1] / 1e9 / v[0] if v[0] else np.nan)
            for obj, v in model.monitors.items()]
    df = pd.DataFrame(rows, columns=["object", "contentions", "wait_s", "max_wait_s",
                                     "average_wait_s"])
    df = df.sort_values(["wait_s", "object"], ascending=[False, True]).reset_index(drop=True)
    c, a, f = model.monitor_events
    return {"locks": df, "contentions": c, "acquired": a, "failures": f}


def threads(model: MonoModel) -> pd.DataFrame:
    """Threads and names in mprof-report's order (most recently seen first)."""
    items = [(pointer(t), name) for t, name in reversed(list(model.threads.items())) if t]
    return pd.DataFrame(items, columns=["thread", "name"])


def domains(model: MonoModel) -> pd.DataFrame:
    """Application domains and their friendly names."""
    return pd.DataFrame([(pointer(d), n) for d, n in reversed(list(model.domains.items()))],
                        columns=["domain", "friendly_name"])


def contexts(model: MonoModel) -> pd.DataFrame:
    """Remoting contexts and their domains."""
    return pd.DataFrame([(pointer(c), pointer(d)) for c, d in
                         reversed(list(model.contexts.items()))], columns=["context", "domain"])


def metadata(model: MonoModel) -> Dict[str, Any]:
    """Loaded images and assemblies."""
    return {"images": len(model.images), "assemblies": len(model.assemblies),
            "image_names": list(model.images.values()),
            "assembly_names": list(model.assemblies.values())}


def heapshots(model: MonoModel, sort: str = "bytes") -> pd.DataFrame:
    """Per heapshot and class: bytes, count, average, and the change since the previous shot."""
    rows = []
    start = model.first_time or 0
    previous: Optional[Any] = None
    for number, shot in enumerate(sorted(model.heapshots, key=lambda s: s.time)):
        for k, count in shot.count.items():
            size = shot.bytes[k]
            diff_b = diff_c = None
            if previous is not None and k in previous.count:
                diff_b = size - previous.bytes[k]
                diff_c = count - previous.count[k]
            rows.append((number, (shot.time - start) / 1e9, model.class_name(k), size, count,
                         size // count, diff_b, diff_c))
        previous = shot
    df = pd.DataFrame(rows, columns=["heapshot", "time_s", "class", "bytes", "count",
                                     "average", "bytes_diff", "count_diff"])
    key = "bytes" if sort == "bytes" else "count"
    return df.sort_values(["heapshot", key, "class"], ascending=[True, False, True],
                          kind="stable").reset_index(drop=True)


def ip_names(model: MonoModel, ips: np.ndarray) -> List[Tuple[str, str, int]]:
    """Per instruction address ``(kind, name, method)`` as mprof-report resolves it.

    ``kind`` is ``managed`` (a JIT-compiled method's code holds it; ``method``
    is the method pointer), ``unmanaged`` (an unmanaged symbol starts at most
    4096 bytes before it), ``binary`` (no symbol, but a mapped binary holds
    it) or ``unresolved`` (name ``(unresolved)``).
    """
    owners = _code_owner(model, ips)
    syms = sorted(model.usymbols)
    sym_addr = np.array([a for a, _, _ in syms], dtype=np.int64)
    out = []
    for ip, meth in zip(ips.tolist(), owners.tolist()):
        if meth:
            out.append(("managed", model.method_name(meth), meth))
            continue
        if syms:
            i = int(np.searchsorted(sym_addr, ip, side="right")) - 1
            if i >= 0 and ip - syms[i][0] < 4096:
                out.append(("unmanaged", syms[i][2], syms[i][0]))
                continue
        for addr, size, name in model.ubinaries:
            if addr <= ip < addr + size:
                out.append(("binary", name, addr))
                break
        else:
            out.append(("unresolved", "(unresolved)", 0))
    return out


def _binary_of(model: MonoModel, addr: int) -> str:
    for start, size, name in model.ubinaries:
        if start <= addr < start + size:
            return name
    return ""


def samples(model: MonoModel) -> Dict[str, Any]:
    """Managed/unmanaged/unresolved hits and hits per method or symbol (statistical samples)."""
    ips = np.array(sorted(model.sample_ips), dtype=np.int64)
    hits = [model.sample_ips[i] for i in ips.tolist()]
    total = int(sum(hits))
    per: Dict[Tuple[str, str, int], int] = {}
    managed = unresolved = 0
    for (kind, name, key), h in zip(ip_names(model, ips), hits):
        if kind == "managed":
            managed += h
        if kind in ("binary", "unresolved"):
            unresolved += h
        if kind != "unresolved":
            per[kind, name, key] = per.get((kind, name, key), 0) + h
    rows = [(name, kind, h, _binary_of(model, key) if kind == "unmanaged" else "")
            for (kind, name, key), h in per.items()]
    df = pd.DataFrame(rows, columns=["name", "kind", "hits", "binary"])
    df["percent"] = df["hits"] * 100.0 / total if total else 0.0
    df = df.sort_values(["hits", "kind", "name"], ascending=[False, True, True],
                        kind="stable").reset_index(drop=True)
    return {"sample_type": F.SAMPLE_TYPE_NAMES.get(model.sample_type or 1, "unknown")
            if total else None, "total": total, "managed": managed,
            "unmanaged": total - managed, "unresolved": unresolved, "hits": df}


def _code_owner(model: MonoModel, ips: np.ndarray) -> np.ndarray:
    """Per address, the method whose code holds it (0: none), in mprof-report's hash order."""
    items = [(m, c, s) for m, (c, s) in model.method_code.items() if c and s]
    owner = np.zeros(len(ips), dtype=np.int64)
    if not items or not len(ips):
        return owner
    meth = np.array([m for m, _, _ in items], dtype=np.int64)
    code = np.array([c for _, c, _ in items], dtype=np.int64)
    end = code + np.array([s for _, _, s in items], dtype=np.int64)
    # hash slots ascending; within a slot the most recently added method first
    slot = ((meth >> 2) & 0xFFFF) % 9371
    order = np.lexsort((-np.arange(len(meth)), slot))
    meth, code, end = meth[order], code[order], end[order]
    for i, ip in enumerate(ips.tolist()):
        inside = np.flatnonzero((code <= ip) & (ip < end))
        if len(inside):
            owner[i] = meth[inside[0]]
    return owner


def counters(model: MonoModel) -> pd.DataFrame:
    """Every counter with its description and last value (values: :func:`counter_values`)."""
    last: Dict[int, Any] = {}
    count: Dict[int, int] = {}
    for _, index, value in model.counter_values:
        last[index] = value
        count[index] = count.get(index, 0) + 1
    rows = []
    for index, d in model.counters.items():
        rows.append((d["section"], d["name"], F.COUNTER_TYPE_NAMES.get(d["type"], "<unknown>"),
                     F.COUNTER_UNIT_NAMES.get(d["unit"], "<unknown>"),
                     F.COUNTER_VARIANCE_NAMES.get(d["variance"], "<unknown>"), index,
                     count.get(index, 0), last.get(index), format_counter(d, last.get(index))
                     if index in last else None))
    return pd.DataFrame(rows, columns=["section", "name", "type", "unit", "variance", "index",
                                       "samples", "last_value", "shown"])


def counter_values(model: MonoModel) -> pd.DataFrame:
    """Every sampled counter value: time (ns since the first buffer), section, name, value."""
    start = model.first_time or 0
    rows = [((t - start), model.counters.get(i, {}).get("section"),
             model.counters.get(i, {}).get("name"), v) for t, i, v in model.counter_values]
    return pd.DataFrame(rows, columns=["time", "section", "name", "value"])


def format_counter(desc: Dict[str, Any], value: Any) -> str:
    """A counter value as mprof-report prints it.

    Examples
    --------
    >>> format_counter({"type": 3, "unit": 2 << 24}, 100000)
    '10.000ms'
    >>> format_counter({"type": 5, "unit": 0}, 4.47)
    '4.470000'
    """
    ctype, unit = desc["type"], desc["unit"]
    if value is None:
        return "<null>"
    if ctype == F.COUNTER_LONG and unit == F.COUNTER_UNIT_TIME:
        return f"{value / 10000.0:0.3f}ms"
    if ctype == F.COUNTER_TIME_INTERVAL:
        return f"{value / 1000.0:0.3f}ms"
    if ctype == F.COUNTER_DOUBLE:
        return f"{value:f}"
    if ctype in (F.COUNTER_LONG, F.COUNTER_WORD):
        return str(value & 0xFFFFFFFF)
    return str(value)
