"""``tf.mono``: the tables of mprof-report's sections for a trace read from a Mono log.

A thin view over the :class:`~graphframe_readers.traces.mono.model.MonoModel`
that ``read_trace`` keeps in ``tf.definitions.metadata["mono"]``; each method
calls one function of :mod:`graphframe_readers.traces.mono.summary`.

Examples
--------
>>> import os, tempfile, graphframe
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> w = MlpdWriter()
>>> w.buffer(thread=1, events=[w.klass(1, 0x50, 0x90, "A.Node"), w.vtable(2, 0x60, 0, 0x50),
...     w.jit(3, 0x10, 0x9000, 8, "A:Main ()"), w.enter(4, 0x10),
...     w.alloc(5, 0x60, 0x1000, 40), w.leave(9, 0x10)])
>>> tf = graphframe.read_trace(w.write(os.path.join(tempfile.mkdtemp(), "a.mlpd")))
>>> tf.mono.allocations().values.tolist()
[['A.Node', 40, 1, 40]]
>>> tf.mono.methods()[["method", "calls", "total"]].values.tolist()
[['A:Main ()', 1, 5]]
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import pandas as pd

from graphframe.errors import ArgumentError
from graphframe_readers.traces.mono import summary
from graphframe_readers.traces.mono.model import MonoModel
from graphframe_readers.traces.mono.report import report_lines


class MonoView:
    """mprof-report's sections as tables (see the module docs)."""

    def __init__(self, model: MonoModel) -> None:
        self.model = model

    @classmethod
    def of(cls, metadata: Dict[str, Any]) -> "MonoView":
        """The view of a trace's metadata; ArgumentError when it is not a Mono log."""
        model = metadata.get("mono")
        if not isinstance(model, MonoModel):
            raise ArgumentError("tf.mono needs a trace read from a Mono log profiler file "
                                f"(.mlpd); this trace's format is {metadata.get('format')!r}")
        return cls(model)

    @property
    def plot(self) -> Any:
        """The plots of a Mono log: ``tf.mono.plot.allocations()`` (every plot kind of the
        plot registry that takes a Mono view; ``graphframe plot allocations`` draws it)."""
        from graphframe.plot.accessor import MonoPlotAccessor

        return MonoPlotAccessor(self)

    def header(self) -> Dict[str, Any]:
        """Profiler and data version, arguments, architecture, OS, startup, program id."""
        return summary.header(self.model)

    def jit(self) -> Dict[str, int]:
        """Compiled methods, generated code size, JIT helpers."""
        return summary.jit(self.model)

    def gc(self) -> Dict[str, Any]:
        """Resizes, max heap, moves, collections per generation, GC handles."""
        return summary.gc(self.model)

    def allocations(self, sort: str = "bytes") -> pd.DataFrame:
        """Bytes, count, average per class."""
        return summary.allocations(self.model, sort)

    def allocation_traces(self, max_frames: int = 6) -> pd.DataFrame:
        """Bytes and count per class and allocating call path."""
        return summary.allocation_traces(self.model, max_frames)

    def methods(self, sort: str = "total") -> pd.DataFrame:
        """Calls, total and self time per method."""
        return summary.methods(self.model, sort)

    def method_traces(self, max_frames: int = 6, min_total: int = 0) -> pd.DataFrame:
        """Calls per method and calling path (the innermost callers)."""
        return summary.method_traces(self.model, max_frames, min_total)

    def throw_traces(self, max_frames: Optional[int] = 6) -> pd.DataFrame:
        """Throws per throwing call path."""
        return summary.throw_traces(self.model, max_frames)

    def exceptions(self) -> Dict[str, Any]:
        """Throws, clauses per kind and per method, throw sites."""
        return summary.exceptions(self.model)

    def monitors(self) -> Dict[str, Any]:
        """Lock contentions and wait times."""
        return summary.monitors(self.model)

    def threads(self) -> pd.DataFrame:
        """Threads and their names."""
        return summary.threads(self.model)

    def heapshots(self, sort: str = "bytes") -> pd.DataFrame:
        """Objects and bytes per class per heapshot, and the change between heapshots."""
        return summary.heapshots(self.model, sort)

    def samples(self) -> Dict[str, Any]:
        """Managed/unmanaged/unresolved hits and hits per method."""
        return summary.samples(self.model)

    def counters(self) -> pd.DataFrame:
        """Runtime counters with their last values."""
        return summary.counters(self.model)

    def counter_values(self) -> pd.DataFrame:
        """Every sampled counter value."""
        return summary.counter_values(self.model)

    def report(self, sections: Optional[Sequence[str]] = None, **options: Any) -> str:
        """mprof-report's text report (``method_sort``, ``alloc_sort``, ``verbose``)."""
        return "\n".join(report_lines(self.model, sections, **options)) + "\n"
