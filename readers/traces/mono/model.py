"""The default handler: the object model of a Mono log and the statistics mprof-report prints.

:class:`ModelBuilder` works on whole chunks (numpy for allocations, GC,
monitors, heapshots and samples; one Python step per method enter/leave
for the emulated call stacks, :mod:`.calls`). It keeps the metadata
(threads, images, assemblies, classes, vtables, methods with their JIT
names, domains, contexts, counters, unmanaged symbols and binaries) and
aggregates, never the events, so memory depends on the program, not on the
length of the log. The result is a :class:`MonoModel`; the section tables
are built from it by :mod:`.summary` and the text report by :mod:`.report`.

Names follow mprof-report's rules: a vtable seen in an allocation before
its metadata event stays "unresolved class (nil)"; a class or method never
described is "unresolved class 0x..." / "unknown method 0x...".

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> from graphframe_readers.traces.sources import MemorySource
>>> from .handler import run
>>> w = MlpdWriter()
>>> w.buffer(thread=1, events=[w.klass(1, 0x50, 0x90, "A.Node"), w.vtable(2, 0x60, 0, 0x50),
...     w.jit(3, 0x700, 0x9000, 32, "A:Main ()"), w.enter(4, 0x700),
...     w.alloc(5, 0x60, 0x1000, 40), w.leave(2_000_004, 0x700)])
>>> m = run(MemorySource(w.getvalue(), name="demo.mlpd"), ModelBuilder())
>>> m.class_name(m.vtable_class[0x60]), dict(m.alloc_count), dict(m.alloc_bytes)
('A.Node', {80: 1}, {80: 40})
>>> dict(m.method_calls), dict(m.method_total)
({1792: 1}, {1792: 2000000})
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from . import format as F
from .blocks import MlpdHeader
from .calls import CallStacks
from .decode import MonoChunk
from .handler import MonoHandler
from .kinds import KIND_LIST as _KIND_NAMES
from .objects import HeapShot, MonoModel, Trace, pointer

__all__ = ["HeapShot", "ModelBuilder", "MonoModel", "pointer"]


class ModelBuilder(MonoHandler):
    """Builds a :class:`MonoModel` from whole chunks (see the module docs).

    Parameters
    ----------
    traces : bool
        Also keep allocation, throw and sample counts per backtrace (as
        ``mprof-report --traces``); memory grows with distinct backtraces.
    tree : bool
        Also build the calling-context tree of the method calls (calls,
        inclusive and exclusive time per call path and thread) and count
        samples per (thread, instruction pointers, backtrace), for
        :mod:`.tree`; memory grows with distinct call paths and stacks.
    """

    def __init__(self, traces: bool = True, tree: bool = False) -> None:
        self.model = MonoModel()
        self.traces = traces
        self.tree = tree
        self.calls = CallStacks(paths=tree)
        self.last_time: Dict[int, int] = {}
        self.gc_start: Dict[Tuple[int, int], int] = {}
        self.contention: Dict[int, Tuple[int, int]] = {}   # thread -> (monitor, start)
        self.current_heapshot: Dict[int, HeapShot] = {}
        #: address -> class of allocated objects whose class name ends in "Exception", so a
        #: throw can name its type (few objects; moved along with GC moves)
        self.exception_objects: Dict[int, int] = {}
        self._tree_threads: Dict[int, int] = {}
        self._tree_sums = np.zeros((5, 0, 0), dtype=np.int64)   # see _tree_cells

    # ---------------------------------------------------------------- driver
    def on_header(self, header: MlpdHeader) -> None:
        self.header = header
        self.model.header = header

    def on_chunk(self, chunk: MonoChunk) -> None:
        m = self.model
        if m.first_time is None and chunk.raws:
            m.first_time = chunk.raws[0].time_base
        m.buffers += len(chunk.raws)
        m.events += len(chunk)
        for raw in chunk.raws:
            self._thread(raw.thread)
        self._last_times(chunk)
        for kind, count in zip(*np.unique(chunk.kind, return_counts=True)):
            m.kind_counts[_KIND_NAMES[kind]] += int(count)
        # events with order-dependent effects, in file order: records and vtables first
        self._records(chunk)
        t = chunk.tables
        if "alloc" in t:
            self._allocs(chunk, t["alloc"])
        if "gc_moves" in t:      # thrown objects may have moved since their allocation
            m.moves += int(t["gc_moves"]["moves_count"].sum())
            self._follow_moves(chunk)
        if "throw" in t:          # before the call stacks, which move throws to paths
            self._throws(chunk, t["throw"])
        self._calls(chunk)
        if "gc" in t:
            self._gc(chunk, t["gc"])
        if "gc_resize" in t:
            sizes = t["gc_resize"]["heap_size"]
            m.gc_resizes += len(sizes)
            m.max_heap = max(m.max_heap, int(sizes.max()))
        for kind in ("gc_handle_created", "gc_handle_destroyed"):
            if kind in t:
                self._handles(chunk, kind, t[kind])
        if "finalize_object_end" in t:
            m.finalized += len(t["finalize_object_end"]["seq"])
        if "clause" in t:
            c = t["clause"]
            for ctype, method in zip(c["clause_type"].tolist(), c["method"].tolist()):
                m.clauses[ctype] += 1
                m.clause_methods[ctype, method] += 1
        if "monitor" in t:
            self._monitors(chunk, t["monitor"])
        if "heap_object" in t or "heap_begin" in t or "heap_end" in t:
            self._heap(chunk)
        if "sample" in t:
            self._samples(chunk, t["sample"])
        if "sync_point" in t:
            m.sync_points += len(t["sync_point"]["seq"])

    def on_end(self) -> None:
        closed = self.calls.close(self.last_time)
        self._add_calls(closed)
        self.model.unmatched_leaves = self.calls.unmatched
        self.model.unmatched = list(self.calls.unmatched_methods)
        self.model.tree_parent = self.calls.path_parent
        self.model.tree_method = self.calls.path_method
        if self.tree:
            self.model.tree_calls = self._tree_table()

    def result(self) -> MonoModel:
        return self.model

    # ---------------------------------------------------------------- helpers
    def _thread(self, thread: int) -> None:
        if thread not in self.model.threads:
            self.model.threads[thread] = ""

    def _last_times(self, chunk: MonoChunk) -> None:
        last = {}
        if len(chunk):
            ends = np.flatnonzero(np.r_[chunk.buffer[1:] != chunk.buffer[:-1], True])
            for b, t in zip(chunk.buffer[ends].tolist(), chunk.time[ends].tolist()):
                last[b] = t
        for i, raw in enumerate(chunk.raws):
            self.last_time[raw.thread] = last.get(i, raw.time_base)

    def _trace(self, chunk: MonoChunk, start: int, count: int) -> Trace:
        return tuple(chunk.lists["frames"][start:start + count].tolist())

    # ---------------------------------------------------------------- records
    def _records(self, chunk: MonoChunk) -> None:
        m = self.model
        alloc = chunk.tables.get("alloc")
        heap = chunk.tables.get("heap_object")
        first_use: Dict[int, int] = {}
        for table in (alloc, heap):
            if table is not None and m.header is not None and m.header.data_version >= 15:
                vts, idx = np.unique(table["vtable"], return_index=True)
                for vt, i in zip(vts.tolist(), table["seq"][idx].tolist()):
                    first_use[vt] = min(i, first_use.get(vt, i))
        for index, kind, f in chunk.records:
            if kind == "vtable":
                vt = f[0]
                if vt not in m.vtable_class and first_use.get(vt, index + 1) > index:
                    m.vtable_class[vt] = f[2]
            elif kind == "class":
                m.classes[f[0]] = f[2]
            elif kind == "jit":
                m.methods[f[0]] = f[3]
                m.method_code[f[0]] = (f[1], f[2])
            elif kind == "image":
                if f[3] == "load":
                    m.images[f[0]] = f[1]
            elif kind == "assembly":
                if f[3] == "load":
                    m.assemblies[f[0]] = f[2]
            elif kind == "domain":
                if f[0] not in m.domains:
                    m.domains[f[0]] = None
                if f[2] == "name":
                    m.domains[f[0]] = f[1]
            elif kind == "context":
                if f[2] == "load":
                    m.contexts[f[0]] = f[1]
            elif kind == "thread_info":
                self._thread(f[0])
                if f[2] == "name":
                    m.threads[f[0]] = f[1]
            elif kind == "jit_helper":
                m.jit_helpers += 1
                m.jit_helpers_size += f[2]
            elif kind == "unmanaged_symbol":
                m.usymbols.append((f[0], f[1], f[2]))
            elif kind == "unmanaged_binary":
                m.ubinaries.append((f[0], f[2], f[3]))
            elif kind == "counter_descriptions":
                for desc in f[0]:
                    m.counters.setdefault(desc["index"], desc)
            elif kind == "counters":
                self._counter_values(chunk.time[index], f[0])
            elif kind == "heap_roots":       # version 13 roots (read one at a time)
                self._heap_roots_record(chunk.thread[index], len(f[0]))
            elif kind == "aot_id":
                m.aot_id = f[0]
            elif kind.startswith("coverage"):
                m.coverage.append((kind, f))

    def _counter_values(self, time: int, values: tuple) -> None:
        m = self.model
        last = getattr(self, "_counter_last", {})
        self._counter_last = last
        for index, ctype, value in values:
            if ctype not in (F.COUNTER_DOUBLE, F.COUNTER_STRING):
                value = value + last.get(index, 0)
                if ctype in (F.COUNTER_INT,):
                    value = (value + (1 << 31)) % (1 << 32) - (1 << 31)
                elif ctype == F.COUNTER_UINT:
                    value %= 1 << 32
            last[index] = value
            m.counter_values.append((int(time), index, value))

    # ---------------------------------------------------------------- kinds
    def classes_of(self, vtables: np.ndarray) -> np.ndarray:
        """The class pointer of each allocation's or heap object's vtable field.

        From data version 15 the field is a vtable, bound to its class by its
        metadata event; a vtable used before that event stays bound to class 0
        ("unresolved class (nil)"), mprof-report's rule. Before 15 it is the class.
        """
        m = self.model
        if m.header is not None and m.header.data_version < 15:
            return vtables
        uniq, inverse = np.unique(vtables, return_inverse=True)
        bound = [m.vtable_class.setdefault(v, 0) for v in uniq.tolist()]
        return np.array(bound, dtype=np.int64)[inverse.reshape(-1)] if len(uniq) \
            else np.zeros(0, np.int64)

    def _allocs(self, chunk: MonoChunk, a: Dict[str, np.ndarray]) -> None:
        m = self.model
        classes = self.classes_of(a["vtable"])
        self._alloc_classes = classes        # for the call paths of allocations (_calls)
        self._track_exceptions(classes, a["obj"])
        keys, inverse = np.unique(classes, return_inverse=True)
        counts = np.bincount(inverse, minlength=len(keys))
        sizes = np.bincount(inverse, weights=a["size"], minlength=len(keys))
        for k, c, s in zip(keys.tolist(), counts.tolist(), sizes.tolist()):
            m.alloc_count[k] += c
            m.alloc_bytes[k] += int(s)
        if self.traces:
            traces = m.alloc_traces
            for klass, size, start, count in zip(classes.tolist(), a["size"].tolist(),
                                                 a["backtrace_start"].tolist(),
                                                 a["backtrace_count"].tolist()):
                key = (klass, self._trace(chunk, start, count))
                entry = traces.get(key)
                if entry is None:
                    traces[key] = [1, size]
                else:
                    entry[0] += 1
                    entry[1] += size

    def _calls(self, chunk: MonoChunk) -> None:
        """Method enters and leaves through the emulated stacks; with the tree, allocations
        and throws too, as queries of the call path open when they happened."""
        kinds = [(k, k == "enter", 0) for k in ("enter", "leave", "exc_leave")
                 if k in chunk.tables]
        if self.tree and (kinds or self.calls.stacks):
            kinds += [(k, False, q) for k, q in (("alloc", 1), ("throw", 2))
                      if k in chunk.tables]
        if not kinds:
            return
        seq = np.concatenate([chunk.tables[k]["seq"] for k, _, _ in kinds])
        method = np.concatenate([chunk.tables[k]["method"] if not q else
                                 np.zeros(len(chunk.tables[k]["seq"]), np.int64)
                                 for k, _, q in kinds])
        enter = np.concatenate([np.full(len(chunk.tables[k]["seq"]), e) for k, e, _ in kinds])
        query = np.concatenate([np.full(len(chunk.tables[k]["seq"]), q) for k, _, q in kinds])
        order = np.argsort(seq, kind="stable")
        seq, query = seq[order], query[order]
        closed = self.calls.feed(chunk.thread[seq], chunk.time[seq], method[order],
                                 enter[order], queries=query > 0)
        self._add_calls(closed)
        asked = query[query > 0]          # the queries' kinds, in event order like the tables
        if (asked == 1).any():
            a = chunk.tables["alloc"]
            nodes = closed["query_node"][asked == 1]
            self._add_tree_allocs(nodes, chunk.thread[a["seq"]], a["size"])
            if self.traces:
                self._alloc_paths(nodes, a)
        if (asked == 2).any() and self.traces:
            self._throw_paths(closed["query_node"][asked == 2], chunk.tables["throw"])

    def _throw_paths(self, nodes: np.ndarray, t: Dict[str, np.ndarray]) -> None:
        """Throws without a backtrace of their own: their call path from the emulated
        stack (``throw_paths``), no longer under the empty backtrace in ``throw_traces``."""
        m = self.model
        use = (t["backtrace_count"] == 0) & (nodes >= 0)
        for node in nodes[use].tolist():
            m.throw_paths[node] = m.throw_paths.get(node, 0) + 1
            m.throw_traces[()] -= 1
            if not m.throw_traces[()]:
                del m.throw_traces[()]

    def _alloc_paths(self, nodes: np.ndarray, a: Dict[str, np.ndarray]) -> None:
        """Allocations without a backtrace of their own: their call path from the emulated
        stack (``alloc_paths``), no longer under the empty backtrace in ``alloc_traces``."""
        m = self.model
        use = (a["backtrace_count"] == 0) & (nodes >= 0)
        for klass, node, size in zip(self._alloc_classes[use].tolist(), nodes[use].tolist(),
                                     a["size"][use].tolist()):
            entry = m.alloc_paths.setdefault((klass, node), [0, 0])
            entry[0] += 1
            entry[1] += size
            empty = m.alloc_traces[(klass, ())]
            empty[0] -= 1
            empty[1] -= size
            if not empty[0]:
                del m.alloc_traces[(klass, ())]

    def _add_calls(self, closed: Dict[str, list]) -> None:
        m = self.model
        if not len(closed["method"]):
            return
        methods = np.array(closed["method"], dtype=np.int64)
        inc = np.array(closed["inclusive"], dtype=np.int64)
        callee = np.array(closed["callee"], dtype=np.int64)
        if self.tree:
            self._add_tree(np.asarray(closed["node"], dtype=np.int64),
                           np.asarray(closed["thread"], dtype=np.int64), inc, callee)
        keys, inverse = np.unique(methods, return_inverse=True)
        inverse = inverse.reshape(-1)
        calls = np.bincount(inverse, minlength=len(keys))
        total = np.zeros(len(keys), np.int64)
        np.add.at(total, inverse, inc)
        selfs = np.zeros(len(keys), np.int64)
        np.add.at(selfs, inverse, inc - callee)
        for k, c, t, s in zip(keys.tolist(), calls.tolist(), total.tolist(), selfs.tolist()):
            m.method_calls[k] += c
            m.method_total[k] += t
            m.method_self[k] += s

    def _tree_cells(self, node: np.ndarray, thread: np.ndarray) -> np.ndarray:
        """Flat indexes of (call path, thread) cells of the tree's sums, grown as paths and
        threads appear (planes: calls, inclusive ns, exclusive ns, allocations, bytes)."""
        index = self._tree_threads
        tu, tinv = np.unique(thread, return_inverse=True)
        cols = np.array([index.setdefault(t, len(index)) for t in tu.tolist()],
                        dtype=np.int64)[tinv.reshape(-1)]
        planes, have_rows, have_cols = self._tree_sums.shape
        rows = max(int(node.max()) + 1 if len(node) else 0, have_rows)
        if rows > have_rows or len(index) > have_cols:
            grown = np.zeros((planes, max(rows, 2 * have_rows), len(index)), np.int64)
            grown[:, :have_rows, :have_cols] = self._tree_sums
            self._tree_sums = grown
        return node * self._tree_sums.shape[2] + cols

    def _add_tree(self, node: np.ndarray, thread: np.ndarray, inc: np.ndarray,
                  callee: np.ndarray) -> None:
        """Add closed calls to the per (call path, thread) sums."""
        flat = self._tree_cells(node, thread)
        sums = self._tree_sums.reshape(len(self._tree_sums), -1)
        sums[0] += np.bincount(flat, minlength=sums.shape[1])
        np.add.at(sums[1], flat, inc)
        np.add.at(sums[2], flat, inc - callee)

    def _add_tree_allocs(self, node: np.ndarray, thread: np.ndarray,
                         size: np.ndarray) -> None:
        """Add allocations to the call path open on their thread when they happened."""
        inside = node >= 0
        flat = self._tree_cells(node[inside], thread[inside])
        sums = self._tree_sums.reshape(len(self._tree_sums), -1)
        sums[3] += np.bincount(flat, minlength=sums.shape[1])
        np.add.at(sums[4], flat, size[inside])

    def _tree_table(self) -> Dict[Tuple[int, int], List[int]]:
        """(node, thread) -> [calls, inclusive ns, exclusive ns, allocations, bytes]."""
        threads = np.array(list(self._tree_threads), dtype=np.int64)
        node, col = np.nonzero(self._tree_sums[0] | self._tree_sums[3])
        values = self._tree_sums[:, node, col]
        return {(n, t): list(v) for n, t, *v in zip(
            node.tolist(), threads[col].tolist(), *values.tolist())}

    def _gc(self, chunk: MonoChunk, g: Dict[str, np.ndarray]) -> None:
        m = self.model
        seq = g["seq"]
        for thread, time, event, gen in zip(chunk.thread[seq].tolist(), chunk.time[seq].tolist(),
                                            g["event"].tolist(), g["generation"].tolist()):
            if gen > 2:
                continue
            if event == F.GC_EVENT_START:
                self.gc_start[thread, gen] = time
                m.gc_count[gen] += 1
            elif event == F.GC_EVENT_END:
                took = time - self.gc_start.get((thread, gen), 0)
                m.gc_total[gen] += took
                m.gc_max[gen] = max(m.gc_max[gen], took)

    def _handles(self, chunk: MonoChunk, kind: str, h: Dict[str, np.ndarray]) -> None:
        created = kind == "gc_handle_created"
        for htype in h["handle_type"].tolist():
            entry = self.model.handles.setdefault(htype, [0, 0, 0, 0])
            if created:
                entry[0] += 1
                entry[2] += 1
                entry[3] = max(entry[3], entry[2])
            else:
                entry[1] += 1
                entry[2] -= 1

    def _track_exceptions(self, classes: np.ndarray, objects: np.ndarray) -> None:
        m = self.model
        uniq = np.unique(classes)
        wanted = [k for k in uniq.tolist() if m.class_name(k).endswith("Exception")]
        if wanted:
            sel = np.isin(classes, wanted)
            self.exception_objects.update(zip(objects[sel].tolist(), classes[sel].tolist()))

    def _follow_moves(self, chunk: MonoChunk) -> None:
        if not self.exception_objects:
            return
        moves = chunk.lists["moves"]
        hit = np.flatnonzero(np.isin(moves[:, 0], np.fromiter(self.exception_objects, np.int64)))
        for old, new in moves[hit].tolist():
            if old in self.exception_objects:
                self.exception_objects[new] = self.exception_objects.pop(old)

    def _throws(self, chunk: MonoChunk, t: Dict[str, np.ndarray]) -> None:
        m = self.model
        m.throws += len(t["seq"])
        for obj in t["obj"].tolist():
            m.throw_types[self.exception_objects.get(obj, 0)] += 1
        if self.traces:
            for start, count in zip(t["backtrace_start"].tolist(), t["backtrace_count"].tolist()):
                m.throw_traces[self._trace(chunk, start, count)] += 1

    def _monitors(self, chunk: MonoChunk, t: Dict[str, np.ndarray]) -> None:
        m = self.model
        seq = t["seq"]
        for thread, time, event, obj in zip(chunk.thread[seq].tolist(), chunk.time[seq].tolist(),
                                            t["event"].tolist(), t["obj"].tolist()):
            desc = m.monitors.setdefault(obj, [0, 0, 0])
            if event == F.MONITOR_CONTENTION:
                m.monitor_events[0] += 1
                desc[0] += 1
                self.contention[thread] = (obj, time)
            elif event in (F.MONITOR_DONE, F.MONITOR_FAIL):
                m.monitor_events[1 if event == F.MONITOR_DONE else 2] += 1
                waiting = self.contention.pop(thread, None)
                if waiting is not None and waiting[1]:
                    wait = time - waiting[1]
                    held = m.monitors[waiting[0]]
                    held[1] += wait
                    held[2] = max(held[2], wait)

    def _heap(self, chunk: MonoChunk) -> None:
        """Heapshot begin/end and objects, in file order per thread."""
        m = self.model
        t = chunk.tables
        marks = []
        for kind in ("heap_begin", "heap_end"):
            if kind in t:
                marks += [(s, kind) for s in t[kind]["seq"].tolist()]
        marks.sort()
        objects = t.get("heap_object")
        if objects is not None:
            keep = objects["size"] != 0
            seq = objects["seq"][keep]
            vt = objects["vtable"][keep]
            size = objects["size"][keep]
            klass = self.classes_of(vt)
        cuts = [s for s, _ in marks]
        bounds = [0] + cuts + [len(chunk) + 1]
        for i in range(len(bounds) - 1):
            if objects is not None:
                lo, hi = np.searchsorted(seq, [bounds[i], bounds[i + 1]])
                if hi > lo:
                    threads = chunk.thread[seq[lo:hi]]
                    for thread in np.unique(threads).tolist():
                        shot = self.current_heapshot.get(thread)
                        if shot is None:
                            continue
                        sel = threads == thread
                        ks, inv = np.unique(klass[lo:hi][sel], return_inverse=True)
                        cnt = np.bincount(inv, minlength=len(ks))
                        byt = np.bincount(inv, weights=size[lo:hi][sel], minlength=len(ks))
                        for k, c, b in zip(ks.tolist(), cnt.tolist(), byt.tolist()):
                            shot.count[k] += c
                            shot.bytes[k] += int(b)
            if i < len(marks):
                s, kind = marks[i]
                thread = int(chunk.thread[s])
                if kind == "heap_begin":
                    shot = HeapShot(int(chunk.time[s]))
                    m.heapshots.append(shot)
                    self.current_heapshot[thread] = shot
                else:
                    self.current_heapshot.pop(thread, None)

    def _heap_roots_record(self, thread: int, count: int) -> None:
        pass      # roots are only used by mprof-report's --traces heap reports

    def _samples(self, chunk: MonoChunk, s: Dict[str, np.ndarray]) -> None:
        m = self.model
        if m.sample_type is None and len(s["seq"]):
            m.sample_type = int(s["sample_type"][0])
        ips = chunk.lists.get("ips", np.zeros(0, np.int64))
        # every instruction pointer of a hit is one statistical sample
        sel = np.repeat(s["ips_start"], s["ips_count"]) + (
            np.arange(int(s["ips_count"].sum())) - np.repeat(
                np.cumsum(s["ips_count"]) - s["ips_count"], s["ips_count"]))
        keys, counts = np.unique(ips[sel], return_counts=True)
        for k, c in zip(keys.tolist(), counts.tolist()):
            m.sample_ips[k] += c
        if self.traces or self.tree:
            for thread, ip_start, ip_count, start, count in zip(
                    s["sampled_thread"].tolist(),
                    s["ips_start"].tolist(), s["ips_count"].tolist(),
                    s["backtrace_start"].tolist(), s["backtrace_count"].tolist()):
                key = (thread, tuple(ips[ip_start:ip_start + ip_count].tolist()),
                       self._trace(chunk, start, count))
                m.sample_traces[key] += 1

