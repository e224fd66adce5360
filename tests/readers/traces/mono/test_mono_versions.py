"""Hand-built buffers: every event kind of every data version 13-17, decoded exactly."""

from __future__ import annotations

import pytest

from graphframe_readers.testing.writers.mlpd import MlpdWriter
from graphframe_readers.traces.mono.handler import MonoHandler, run
from graphframe_readers.traces.mono.kinds import KINDS
from graphframe_readers.traces.sources import MemorySource

PTR, OBJ, METHOD = 0x5000_0000, 0x100, 0x7000
T = 0x7F00_1234
M1, M2, M3 = 0x7100, 0x70F0, 0x7230


class Record(MonoHandler):
    """Keeps (kind, thread, time, fields) of every event, through the per-kind methods."""

    def __init__(self):
        self.events = []


def _recorder(kind):
    def method(self, thread, time, *fields):
        self.events.append((kind, thread, time, fields))
    return method


for _kind in KINDS:
    setattr(Record, "on_" + _kind, _recorder(_kind))


def cases(v: int):
    """(writer events, expected (kind, fields)) for data version ``v``."""
    w = MlpdWriter(version=v)
    c = []

    def add(event, kind, *fields):
        c.append((event, kind, fields))
    t = iter(range(1000, 100000, 7))
    add(w.image(next(t), PTR + 0x40, "/x/a.exe", mvid="MVID"), "image", PTR + 0x40, "/x/a.exe",
        "MVID" if v >= 16 else "", "load")
    add(w.image(next(t), PTR + 0x40, "/x/a.exe", unload=True), "image", PTR + 0x40, "/x/a.exe",
        "", "unload")
    add(w.assembly(next(t), PTR + 0x80, PTR + 0x40, "a, Version=1"), "assembly", PTR + 0x80,
        PTR + 0x40 if v >= 14 else 0, "a, Version=1", "load")
    add(w.klass(next(t), PTR + 0x200, PTR + 0x40, "A.Node"), "class", PTR + 0x200, PTR + 0x40,
        "A.Node", "load")
    if v >= 15:
        add(w.vtable(next(t), PTR + 0x300, PTR - 0x10, PTR + 0x200), "vtable", PTR + 0x300,
            PTR - 0x10, PTR + 0x200, "load")
    add(w.domain(next(t), 0), "domain", 0, "", "load")
    add(w.domain(next(t), 0, name="app.exe"), "domain", 0, "app.exe", "name")
    add(w.domain(next(t), 0, unload=True), "domain", 0, "", "unload")
    add(w.context(next(t), PTR + 8, 0), "context", PTR + 8, 0, "load")
    add(w.thread(next(t), T), "thread_info", T, "", "load")
    add(w.thread(next(t), T, name="Main"), "thread_info", T, "Main", "name")
    add(w.thread(next(t), T, unload=True), "thread_info", T, "", "unload")
    add(w.jit(next(t), M1, PTR + 0x9000, 120, "A:Main ()"), "jit", M1, PTR + 0x9000, 120,
        "A:Main ()")
    add(w.enter(next(t), M1), "enter", M1)
    add(w.enter(next(t), M2), "enter", M2)
    add(w.leave(next(t), M2, exception=True), "exc_leave", M2)
    vt = PTR + 0x300 if v >= 15 else PTR + 0x200
    add(w.alloc(next(t), vt, 0x7E00_0000_0008, 40), "alloc", vt, 0x7E00_0000_0008, 40, ())
    add(w.alloc(next(t), vt, 0x7E00_0000_0030, 48, backtrace=[M2, M1, M3]), "alloc", vt,
        0x7E00_0000_0030, 48, (M2, M1, M3))
    add(w.leave(next(t), M1), "leave", M1)
    add(w.gc_event(next(t), 0, 1), "gc", 0, 1)
    add(w.gc_event(next(t), 5, 1), "gc", 5, 1)
    add(w.gc_resize(next(t), 6_000_000), "gc_resize", 6_000_000)
    add(w.gc_moves(next(t), [(0x7E00_0000_0008, 0x7D00_0000_0008), (0x7E10, 0x7E20)]),
        "gc_moves", ((0x7E00_0000_0008, 0x7D00_0000_0008), (0x7E10, 0x7E20)))
    add(w.gc_handle_created(next(t), 2, 77, 0x7E08), "gc_handle_created", 2, 77, 0x7E08, ())
    add(w.gc_handle_created(next(t), 3, 78, 0x7E18, backtrace=[M1]), "gc_handle_created", 3,
        78, 0x7E18, (M1,))
    add(w.gc_handle_destroyed(next(t), 2, 77), "gc_handle_destroyed", 2, 77, ())
    add(w.gc_handle_destroyed(next(t), 3, 78, backtrace=[M3, M1]), "gc_handle_destroyed", 3,
        78, (M3, M1))
    add(w.finalize(next(t)), "finalize_begin")
    add(w.finalize(next(t), obj=0x7E40), "finalize_object_begin", 0x7E40)
    add(w.finalize(next(t), end=True, obj=0x7E40), "finalize_object_end", 0x7E40)
    add(w.finalize(next(t), end=True), "finalize_end")
    add(w.heap(next(t)), "heap_begin")
    add(w.heap_object(next(t), 0x7E00, vt, 64, generation=2,
                      refs=[(8, 0x7E80), (24, 0x7F00)]), "heap_object", 0x7E00, vt, 64,
        2 if v >= 16 else 0, ((8, 0x7E80), (24, 0x7F00)))
    add(w.heap_object(next(t), 0x7E00, vt, 0, refs=[(40, 0x7F80)]), "heap_object", 0x7E00, vt,
        0, 0, ((40, 0x7F80),))
    if v >= 15:
        add(w.heap_roots(next(t), [(PTR + 0x10, 0x7E00), (PTR + 0x18, 0x7F00)]), "heap_roots",
            ((PTR + 0x10, 0x7E00), (PTR + 0x18, 0x7F00)))
        add(w.root_register(next(t), PTR + 0x1000, 4096, 1, T, "Thread Stack"),
            "heap_root_register", PTR + 0x1000, 4096, 1, T, "Thread Stack")
        add(w.root_unregister(next(t), PTR + 0x1000), "heap_root_unregister", PTR + 0x1000)
    else:
        add(w.heap_roots(next(t), [(0x7E00, 1, 0), (0x7F00, 4, 9)]), "heap_roots",
            ((0x7E00, 1, 0), (0x7F00, 4, 9)))
    add(w.heap(next(t), end=True), "heap_end")
    add(w.monitor(next(t), 1, 0x7E48), "monitor", 1, 0x7E48, ())
    add(w.monitor(next(t), 2, 0x7E48, backtrace=[M1, M3]), "monitor", 2, 0x7E48, (M1, M3))
    add(w.monitor(next(t), 3, 0x7E48), "monitor", 3, 0x7E48, ())
    add(w.throw(next(t), 0x7E50), "throw", 0x7E50, ())
    add(w.throw(next(t), 0x7E50, backtrace=[M2]), "throw", 0x7E50, (M2,))
    add(w.clause(next(t), 0, 1, M3, 0x7E50), "clause", 0, 1, M3, 0x7E50 if v >= 14 else 0)
    add(w.clause(next(t), 4, 0, M2, 0x7E50), "clause", 4, 0, M2, 0x7E50 if v >= 14 else 0)
    add(w.jit_helper(next(t), 6, PTR + 0xA000, 32), "jit_helper", 6, PTR + 0xA000, 32,
        "misc helper")
    add(w.jit_helper(next(t), 5, PTR + 0xB000, 16, "generic_trampoline_jit"), "jit_helper", 5,
        PTR + 0xB000, 16, "generic_trampoline_jit")
    add(w.sample(next(t), T, [PTR + 0x9010], [M1, M3], sample_type=1), "sample", T,
        (PTR + 0x9010,), (M1, M3), 1)
    add(w.sample(next(t), T, [PTR + 0x9020, PTR + 0x9030], []), "sample", T,
        (PTR + 0x9020, PTR + 0x9030), (), 1)
    add(w.unmanaged_symbol(next(t), PTR + 0xC000, 64, "memcpy"), "unmanaged_symbol",
        PTR + 0xC000, 64, "memcpy")
    if v <= 15:
        addr = PTR + 0xD000 if v > 13 else 0xD000
        add(w.unmanaged_binary(next(t), addr, 0, 1 << 20, "/lib/libc.so"), "unmanaged_binary",
            addr, 0, 1 << 20, "/lib/libc.so")
    descs = [{"section": 1 << 14, "name": "User Time", "type": 3, "unit": 2 << 24,
              "variance": 1 << 28, "index": 1},
             {"section": 1 << 15, "section_name": "Perf", "name": "x", "type": 5, "unit": 0,
              "variance": 1 << 30, "index": 2},
             {"section": 1 << 16, "name": "s", "type": 6, "unit": 0, "variance": 1 << 29,
              "index": 3}]
    if v <= 14:   # type, unit and variance were single bytes (the unit and variance
        for d in descs:   # flags, above bit 24, did not fit and were written as 0)
            d["unit"] = d["variance"] = 0
    expected_descs = tuple({"section": {1 << 14: "Mono System", 1 << 15: "Perf",
                                        1 << 16: "Mono Profiler"}[d["section"]],
                            "name": d["name"], "type": d["type"], "unit": d["unit"],
                            "variance": d["variance"], "index": d["index"]} for d in descs)
    add(w.counter_descriptions(next(t), descs), "counter_descriptions", expected_descs)
    add(w.counters(next(t), [(1, 3, -5), (2, 5, 4.25), (3, 6, None), (3, 6, "on")]),
        "counters", ((1, 3, -5), (2, 5, 4.25), (3, 6, None), (3, 6, "on")))
    add(w.sync_point(next(t), 2), "sync_point", 2)
    if v >= 16:
        add(w.aot_id(next(t), "aot-1234"), "aot_id", "aot-1234")
    if v <= 15:
        add(w.coverage(next(t), 0x00, "a", "guid", "a.dll", 3, 1, 2), "coverage_assembly",
            "a", "guid", "a.dll", 3, 1, 2)
        add(w.coverage(next(t), 0x10, "a", "A", "Main", "()", "a.cs", 6, 1, 12),
            "coverage_method", "a", "A", "Main", "()", "a.cs", 6, 1, 12)
        add(w.coverage(next(t), 0x20, 1, 4, 2, 10, 5), "coverage_statement", 1, 4, 2, 10, 5)
        add(w.coverage(next(t), 0x30, "a", "A", 3, 1, 2), "coverage_class", "a", "A", 3, 1, 2)
    return w, c


@pytest.mark.parametrize("version", [13, 14, 15, 16, 17])
@pytest.mark.parametrize("chunk_bytes", [1, 1 << 20])
def test_every_event_kind(version, chunk_bytes):
    w, c = cases(version)
    events = [e for e, _, _ in c]
    half = len(events) // 2
    # two buffers of two threads, with bases, so deltas restart per buffer
    w.buffer(thread=T, events=events[:half], ptr_base=PTR, obj_base=OBJ, method_base=METHOD)
    w.buffer(thread=T + 0x1000, events=events[half:], ptr_base=PTR + 0x77, obj_base=OBJ - 9,
             method_base=METHOD + 0x500)
    h = run(MemorySource(w.getvalue(), name="v.mlpd"), Record(), chunk_bytes=chunk_bytes)
    times = [next(v for k, v in e if k == "time") for e in events]
    expected = [(kind, T if i < half else T + 0x1000, times[i], fields)
                for i, (_, kind, fields) in enumerate(c)]
    assert h.events == expected
    kinds = {k for _, k, _ in c}
    if version == 17:
        assert kinds == set(KINDS) - {"unmanaged_binary", "coverage_assembly",
                                      "coverage_method", "coverage_statement", "coverage_class"}
    if version == 13:
        assert "vtable" not in kinds and "coverage_method" in kinds


def test_header_fields():
    w = MlpdWriter(version=16, major=2, minor=0, args="log:x", arch="arm64", os_name="osx",
                   pid=99, port=1234, timer_overhead=7)
    w.buffer(thread=1, events=[])
    h = run(MemorySource(w.getvalue()), MonoHandler()).header
    assert (h.major, h.minor, h.data_version, h.pointer_size, h.args, h.arch, h.os, h.pid,
            h.port, h.timer_overhead, h.startup_time_ns) == \
        (2, 0, 16, 8, "log:x", "arm64", "osx", 99, 1234, 7, 0)
