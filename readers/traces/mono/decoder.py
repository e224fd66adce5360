"""The Mono log as a trace format of :mod:`graphframe_readers.traces` (``read_trace``).

:class:`MonoDecoder` feeds a :class:`~.handler.MonoHandler` directly (all
event kinds, the Mono interface), or any
:class:`~graphframe_readers.traces.handler.EventHandler` through
:class:`EventAdapter`, which builds the object model (:class:`~.model.ModelBuilder`)
and hands the generic handler one :class:`~graphframe_readers.traces.events.EventBatch`
per chunk:

==================  ===========  ================================================
Mono event          kind         name / attributes
==================  ===========  ================================================
method enter        ENTER        the method's name (mprof-report's)
method leave        LEAVE        same (an exception leave too)
allocation          INSTANT      ``alloc: <class>``, ``bytes`` = object size
GC phase            INSTANT      ``gc: <phase> gen<n>``
heap resize         COUNTER      ``gc: heap size``, ``value`` = bytes
exception thrown    INSTANT      ``throw``
exception clause    INSTANT      ``clause: <catch|filter|finally|fault>``
monitor event       INSTANT      ``monitor: <contended|acquired|not taken>``
statistical sample  INSTANT      ``sample``
method compiled     INSTANT      ``jit: <method>``, ``bytes`` = code size
heapshot            INSTANT      ``heapshot: begin`` / ``heapshot: end``
counter value       COUNTER      ``<section>: <counter>``, ``value``
==================  ===========  ================================================

``rank`` is the process id, ``thread`` the thread id. The model goes to
``definitions.metadata["mono"]`` (the ``tf.mono`` view of graphframe reads
it), the header's fields to ``metadata`` and thread names to
``definitions.threads``. Other events (metadata, moves, roots, heap objects)
are in the model, not in the table.

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> from graphframe_readers.traces import MemorySource, decode
>>> from graphframe_readers.traces.table import TableBuilder
>>> w = MlpdWriter(pid=7)
>>> w.buffer(thread=3, events=[w.jit(0, 0x10, 0x9000, 8, "A:Main ()"), w.enter(10, 0x10),
...     w.alloc(12, 0x60, 0x1000, 40), w.leave(20, 0x10)])
>>> events = decode(MemorySource(w.getvalue(), name="m.mlpd"), TableBuilder(), format="mono-mlpd-trace")
>>> events[["kind", "name", "rank", "thread"]].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
[['instant', 'jit: A:Main ()', 7, 3], ['enter', 'A:Main ()', 7, 3],
 ['instant', 'alloc: unresolved class (nil)', 7, 3], ['leave', 'A:Main ()', 7, 3]]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import numpy as np

from ..decoder import Decoder
from ..definitions import Definitions
from ..events import EventBatch, Kind, StringTable
from ..handler import EventHandler
from ..sources import ByteSource
from . import format as F
from .blocks import BlockReader, MlpdHeader
from .decode import MonoChunk
from .handler import MonoHandler, chunks
from .model import ModelBuilder
from .sniff import sniff_mlpd


class MonoDecoder(Decoder):
    """Decoder of Mono log profiler files (see the module docs)."""

    format_name = "mono-mlpd-trace"
    description = "Mono log profiler .mlpd (calls, allocations, GC, exceptions, samples...)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        return sniff_mlpd(path, head)

    def decode(self, source: ByteSource, handler: Any) -> None:
        reader = BlockReader(source)
        if isinstance(handler, MonoHandler):
            handler.on_header(reader.header)
            for chunk in chunks(reader):
                handler.on_chunk(chunk)
            return
        adapter = EventAdapter(handler, source.name)
        adapter.on_header(reader.header)
        for chunk in chunks(reader):
            adapter.on_chunk(chunk)
        adapter.finish()


class EventAdapter(MonoHandler):
    """Turns chunks into generic event batches and builds the model beside them."""

    def __init__(self, target: EventHandler, name: str = "") -> None:
        self.target = target
        self.name = name
        self.builder = ModelBuilder(traces=True, tree=True)
        self.strings = StringTable()

    def on_header(self, header: MlpdHeader) -> None:
        self.header = header
        self.builder.on_header(header)
        self.builder.model.source = self.name

    def on_chunk(self, chunk: MonoChunk) -> None:
        self.builder.on_chunk(chunk)
        parts = self._parts(chunk)
        if not parts:
            return
        seq = np.concatenate([p[0] for p in parts])
        order = np.argsort(seq, kind="stable")
        seq = seq[order]

        def col(i: int, dtype: Any) -> np.ndarray:
            return np.concatenate([np.asarray(p[i], dtype=dtype) for p in parts])[order]
        batch = EventBatch.build(
            self.strings, kind=col(1, np.uint8), time=chunk.time[seq],
            rank=self.header.pid if self.header else 0, thread=chunk.thread[seq],
            name=col(2, np.int32), bytes=col(3, np.int64), value=col(4, np.float64),
            source=self.name)
        self.target.on_batch(batch)

    def finish(self) -> None:
        """Close the model and hand it over as definitions."""
        self.builder.on_end()
        model = self.builder.result()
        pid = self.header.pid if self.header else 0
        meta: Dict[str, Any] = {"format": "mono-mlpd", "mono": model}
        if self.header is not None:
            meta.update({f"mlpd_{k}": v for k, v in self.header.as_dict().items()})
        threads = {(pid, t): {"name": name} for t, name in model.threads.items() if t}
        self.target.on_definitions(Definitions(
            ranks={pid: {"name": f"process {pid}"}}, threads=threads, metadata=meta))

    # ---------------------------------------------------------------- columns
    def _names(self, texts: List[str]) -> np.ndarray:
        return self.strings.intern_many(texts)

    def _by_key(self, keys: np.ndarray, label) -> np.ndarray:
        uniq, inverse = np.unique(keys, return_inverse=True)
        ids = self._names([label(k) for k in uniq.tolist()])
        return ids[inverse.reshape(-1)] if len(uniq) else np.zeros(0, np.int32)

    def _parts(self, chunk: MonoChunk) -> List[tuple]:
        m = self.builder.model
        t = chunk.tables
        parts: List[tuple] = []
        none = -1

        def add(seq, kind, names, nbytes=None, value=None):
            n = len(seq)
            parts.append((seq, np.full(n, kind), names,
                          nbytes if nbytes is not None else np.full(n, none),
                          value if value is not None else np.full(n, np.nan)))
        for kname, kind in (("enter", Kind.ENTER), ("leave", Kind.LEAVE),
                            ("exc_leave", Kind.LEAVE)):
            if kname in t:
                add(t[kname]["seq"], kind, self._by_key(t[kname]["method"], m.method_name))
        if "alloc" in t:
            a = t["alloc"]
            klass = self.builder.classes_of(a["vtable"])
            add(a["seq"], Kind.INSTANT,
                self._by_key(klass, lambda k: "alloc: " + m.class_name(k)), a["size"])
        if "gc" in t:
            g = t["gc"]
            add(g["seq"], Kind.INSTANT, self._by_key(
                g["event"] * 16 + g["generation"],
                lambda k: f"gc: {F.GC_EVENT_NAMES.get(k // 16, 'unknown')} gen{k % 16}"))
        if "gc_resize" in t:
            r = t["gc_resize"]
            add(r["seq"], Kind.COUNTER, np.full(len(r["seq"]), self.strings.intern(
                "gc: heap size"), np.int32), value=r["heap_size"].astype(np.float64))
        if "throw" in t:
            add(t["throw"]["seq"], Kind.INSTANT,
                np.full(len(t["throw"]["seq"]), self.strings.intern("throw"), np.int32))
        if "clause" in t:
            c = t["clause"]
            add(c["seq"], Kind.INSTANT, self._by_key(
                c["clause_type"], lambda k: "clause: " + F.CLAUSE_NAMES.get(k, "invalid")))
        if "monitor" in t:
            mo = t["monitor"]
            add(mo["seq"], Kind.INSTANT, self._by_key(
                mo["event"], lambda k: "monitor: " + F.MONITOR_NAMES.get(k, "invalid")))
        if "sample" in t:
            add(t["sample"]["seq"], Kind.INSTANT,
                np.full(len(t["sample"]["seq"]), self.strings.intern("sample"), np.int32))
        for kname, label in (("heap_begin", "heapshot: begin"), ("heap_end", "heapshot: end")):
            if kname in t:
                add(t[kname]["seq"], Kind.INSTANT,
                    np.full(len(t[kname]["seq"]), self.strings.intern(label), np.int32))
        jit_seq, jit_names, jit_size = [], [], []
        cnt_seq, cnt_names, cnt_values = [], [], []
        n_values = sum(len(f[0]) for _, kind, f in chunk.records if kind == "counters")
        # the model has just added this chunk's counter values (deltas resolved), in order
        values = iter(m.counter_values[len(m.counter_values) - n_values:])
        for index, kind, f in chunk.records:
            if kind == "jit":
                jit_seq.append(index)
                jit_names.append("jit: " + f[3])
                jit_size.append(f[2])
            elif kind == "counters":
                for cindex, ctype, _ in f[0]:
                    value = next(values)[2]
                    if ctype == F.COUNTER_STRING:
                        continue
                    desc = m.counters.get(cindex, {})
                    cnt_seq.append(index)
                    cnt_names.append(f"{desc.get('section', '?')}: {desc.get('name', cindex)}")
                    cnt_values.append(float(value))
        if jit_seq:
            add(np.array(jit_seq, np.int64), Kind.INSTANT, self._names(jit_names),
                np.array(jit_size, np.int64))
        if cnt_seq:
            add(np.array(cnt_seq, np.int64), Kind.COUNTER, self._names(cnt_names),
                value=np.array(cnt_values, np.float64))
        return parts


DECODER = MonoDecoder
