"""The decoded event sequence equals ``mprof-report --debug``'s, line for line.

A handler written here (through the per-event interface, ``on_<kind>``)
prints each event the way mprof-report's debug mode does, resolving names
at the time of the event as it does; the lines must equal the dump's event
lines for every real file (buffer headers, every event, unmatched leaves).
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from graphframe_readers.traces.mono.handler import MonoHandler, run
from graphframe_readers.traces.sources import FileSource
from tests.corpus import SHARED_DATA
from tests.readers.traces.mono.mprof_text import debug_lines
from tests.readers.traces.mono.test_mono_golden import _files, _stem

GC = {0: "start", 1: "mark start", 2: "mark end", 3: "reclaim start", 4: "reclaim end",
      5: "end", 6: "pre stop", 7: "post stop", 8: "pre start", 9: "post start",
      10: "pre stop lock", 11: "post start unlock"}
CLAUSE = {0: "catch", 1: "filter", 2: "finally", 4: "fault"}
MONITOR = {1: "contended", 2: "acquired", 3: "not taken"}
HANDLE = {0: "weak", 1: "weaktrack", 2: "normal", 3: "pinned"}
SYNC = {0: "periodic", 1: "world stop", 2: "world start"}


def p(value: int) -> str:
    return "(nil)" if value == 0 else f"0x{value & (2 ** 64 - 1):x}"


class DebugLines(MonoHandler):
    """mprof-report --debug's lines, from the per-event handler interface."""

    def __init__(self) -> None:
        self.lines = []
        self.classes = {}
        self.vtables = {}
        self.methods = {}
        self.stacks = {}
        self.thread_order = []

    def on_chunk(self, chunk):
        events = list(chunk.events())
        bounds = np.searchsorted(chunk.buffer, np.arange(len(chunk.raws) + 1))
        for i, raw in enumerate(chunk.raws):
            self.lines.append(f"buf: thread:{raw.thread:x}, len: {len(raw.data)}, "
                              f"time: {raw.time_base}, file offset: {raw.offset}")
            self._seen(raw.thread)
            for kind, thread, time, fields in events[bounds[i]:bounds[i + 1]]:
                getattr(self, "on_" + kind)(thread, time, *fields)

    def _seen(self, thread):
        if thread not in self.stacks:
            self.stacks[thread] = []
            self.thread_order.append(thread)

    def on_end(self):
        for thread in reversed(self.thread_order):
            stack = self.stacks[thread]
            while stack:
                self.lines.append(f"thread {p(thread)} has {len(stack)} items on stack")
                stack.pop()

    def cname(self, klass):
        return self.classes.get(klass, f"unresolved class {p(klass)}")

    def mname(self, method):
        return self.methods.get(method, f"unknown method {p(method)}")

    def vclass(self, vtable):
        if vtable not in self.vtables:
            self.vtables[vtable] = 0
        return self.cname(self.vtables[vtable])

    # metadata
    def on_class(self, thread, time, klass, image, name, action):
        self.lines.append(f"{'loaded' if action == 'load' else 'unloaded'} class {p(klass)} "
                          f"({name} in {p(image)}) at {time}")
        self.classes[klass] = name

    def on_image(self, thread, time, image, name, mvid, action):
        self.lines.append(f"{'loaded' if action == 'load' else 'unloaded'} image {p(image)} "
                          f"({name}) at {time}")

    def on_assembly(self, thread, time, assembly, image, name, action):
        self.lines.append(f"{'loaded' if action == 'load' else 'unloaded'} assembly "
                          f"{p(assembly)} ({name}) at {time}")

    def on_domain(self, thread, time, domain, name, action):
        if action == "name":
            self.lines.append(f"domain {p(domain)} named at {time}: {name}")
        else:
            self.lines.append(f"{'loaded' if action == 'load' else 'unloaded'} thread "
                              f"{p(domain)} at {time}")

    def on_context(self, thread, time, context, domain, action):
        self.lines.append(f"{'loaded' if action == 'load' else 'unloaded'} context "
                          f"{p(context)} ({p(domain)}) at {time}")

    def on_thread_info(self, thread, time, thread_id, name, action):
        self._seen(thread_id)
        if action == "name":
            self.lines.append(f"thread {p(thread_id)} named at {time}: {name}")
        else:
            self.lines.append(f"{'loaded' if action == 'load' else 'unloaded'} thread "
                              f"{p(thread_id)} at {time}")

    def on_vtable(self, thread, time, vtable, domain, klass, action):
        self.lines.append(f"vtable {p(vtable)} for class {p(klass)} in domain {p(domain)} "
                          f"at {time}")
        self.vtables.setdefault(vtable, klass)

    # methods
    def on_jit(self, thread, time, method, code, size, name):
        self.lines.append(f"jitted method {p(method)} ({name}), size: {size}, code: {p(code)}")
        self.methods[method] = name

    def on_enter(self, thread, time, method):
        self.stacks[thread].append(method)
        self.lines.append(f"enter method {self.mname(method)}")

    def _leave(self, thread, method, word):
        stack = self.stacks[thread]
        if stack and stack[-1] == method:
            stack.pop()
        else:
            self.lines.append(f"unmatched leave at stack pos: {len(stack)} for method "
                              f"{self.mname(method)}")
        self.lines.append(f"{word} method {self.mname(method)}")

    def on_leave(self, thread, time, method):
        self._leave(thread, method, "leave")

    def on_exc_leave(self, thread, time, method):
        self._leave(thread, method, "exleave")

    # allocation and GC
    def on_alloc(self, thread, time, vtable, obj, size, backtrace):
        self.lines.append(f"alloced object {p(obj)}, size {size} ({self.vclass(vtable)}) "
                          f"at {time}")
        for m in backtrace:
            self.mname(m)

    def on_gc(self, thread, time, event, generation):
        self.lines.append(f"gc event for gen{generation}: {GC.get(event, 'unknown')} at {time} "
                          f"(thread: 0x{thread:x})")

    def on_gc_resize(self, thread, time, heap_size):
        self.lines.append(f"gc heap resized to {heap_size}")

    def on_gc_moves(self, thread, time, moves):
        for a, b in moves:
            self.lines.append(f"moved obj {p(a)} to {p(b)}")

    def on_gc_handle_created(self, thread, time, handle_type, handle, obj, backtrace):
        self.lines.append(f"handle ({HANDLE.get(handle_type, 'unknown')}) {handle} created "
                          f"for object {p(obj)}")

    def on_gc_handle_destroyed(self, thread, time, handle_type, handle, backtrace):
        self.lines.append(f"handle ({HANDLE.get(handle_type, 'unknown')}) {handle} destroyed")

    def on_finalize_begin(self, thread, time):
        self.lines.append(f"gc finalizer queue being processed at {time}")

    def on_finalize_end(self, thread, time):
        self.lines.append(f"gc finalizer queue finished processing at {time}")

    def on_finalize_object_begin(self, thread, time, obj):
        self.lines.append(f"gc finalizing object {p(obj)} at {time}")

    def on_finalize_object_end(self, thread, time, obj):
        self.lines.append(f"gc finalized object {p(obj)} at {time}")

    # heapshots
    def on_heap_begin(self, thread, time):
        self.lines.append("heap shot start")

    def on_heap_end(self, thread, time):
        self.lines.append("heap shot end")

    def on_heap_object(self, thread, time, obj, vtable, size, generation, refs):
        name = self.vclass(vtable)
        if size:
            self.lines.append(f"traced object {p(obj)}, size {size} ({name}), refs: {len(refs)}")

    def on_heap_roots(self, thread, time, roots):
        for address, obj in roots:
            self.lines.append(f"root object {p(obj)} at address {p(address)}")

    def on_heap_root_register(self, thread, time, address, size, source, key, name):
        self.lines.append(f"root register address {p(address)} size {size} type {source} "
                          f"key {p(key)} name {name}")

    def on_heap_root_unregister(self, thread, time, address):
        self.lines.append(f"root unregister address {p(address)}")

    # monitors, exceptions, runtime, samples
    def on_monitor(self, thread, time, event, obj, backtrace):
        self.lines.append(f"monitor {MONITOR.get(event, 'invalid')} for object {p(obj)}")

    def on_throw(self, thread, time, obj, backtrace):
        self.lines.append(f"throw {p(obj)}")

    def on_clause(self, thread, time, clause_type, clause_index, method, obj):
        self.lines.append(f"clause {CLAUSE.get(clause_type, 'invalid')} ({clause_index}) in "
                          f"method {self.mname(method)}")

    def on_jit_helper(self, thread, time, helper_type, code, size, name):
        self.lines.append(f"jit helper {name}, size: {size}, code: {p(code)}")

    def on_sample(self, thread, time, sampled_thread, ips, backtrace, sample_type):
        for ip in ips:
            self.lines.append(f"sample hit, type: {sample_type} at {p(ip)} for thread "
                              f"{p(sampled_thread)}")
        for i, m in enumerate(backtrace):
            self.lines.append(f"sample hit bt {i}: {self.mname(m)}")

    def on_unmanaged_symbol(self, thread, time, address, size, name):
        self.lines.append(f"unmanaged symbol {name} at {p(address)}")

    def on_unmanaged_binary(self, thread, time, address, offset, size, name):
        self.lines.append(f"unmanaged binary {name} at {p(address)}")

    def on_sync_point(self, thread, time, sync_type):
        self.lines.append(f"sync point {sync_type} ({SYNC.get(sync_type, 'unknown')})")

    def on_aot_id(self, thread, time, aot_id):
        self.lines.append(f"aot id {aot_id}")


@pytest.mark.parametrize("rel", _files())
def test_event_sequence_equals_the_debug_dump(rel, shared_data):
    folder, name = rel.split("/")
    base = SHARED_DATA / "traces" / folder
    golden = base / "golden" / f"{_stem(name)}.debug.txt"
    text = gzip.open(str(golden) + ".gz", "rt").read() if not golden.exists() \
        else golden.read_text()
    expected = debug_lines(text)
    got = run(FileSource(base / "mlpd" / name), DebugLines()).lines
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, f"line {i + 1}"
