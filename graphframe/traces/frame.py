"""TraceFrame: a trace's events table, its definitions, and the analyses over them.

Methods are thin: each calls a function of :mod:`.profile`, :mod:`.comm`,
:mod:`.io.rma` or :mod:`.select`. The events table is described in
:mod:`.table`.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from graphframe.graphframe import GraphFrame
from graphframe.plot.accessor import TracePlotAccessor
from graphframe_readers.traces import Definitions
from graphframe_readers.traces.chrome.writer import write_chrome
from graphframe_readers.traces.warnings import TraceWarning

from . import comm, profile, select
from .io import rma as io_rma
from .batches import table_batch
from .counters import counter_samples
from .io.view import IOView, calls_from_events
from .mono import MonoView
from .tree import TreeBuilder

if TYPE_CHECKING:
    from .gc import GcView


class TraceFrame:
    """Events of a trace as a table, with its definitions.

    Parameters
    ----------
    events : pandas.DataFrame
        The events table (:mod:`graphframe_readers.traces.table`).
    definitions : Definitions
        Ranks, threads, regions, communicators, windows, metadata.

    Examples
    --------
    >>> from graphframe_readers.traces import EventBatch, Kind, StringTable
    >>> from graphframe_readers.traces.table import TableBuilder
    >>> t = StringTable(["main", "MPI_Send"])
    >>> E, L, S = Kind.ENTER, Kind.LEAVE, Kind.SEND
    >>> h = TableBuilder()
    >>> h.on_batch(EventBatch.build(t, kind=[E, E, S, L, L], time=[0, 2, 2, 5, 9], rank=0,
    ...            name=[0, 1, 1, 1, 0], peer=[-1, -1, 1, -1, -1], bytes=[-1, -1, 64, -1, -1]))
    >>> h.on_end()
    >>> tf = TraceFrame(h.result(), h.definitions)
    >>> tf.flat_profile(per=None)["count"].to_dict()
    {'MPI_Send': 1, 'main': 1}
    >>> int(tf.comm_matrix().loc[0, 1])
    64
    """

    def __init__(self, events: pd.DataFrame, definitions: Optional[Definitions] = None) -> None:
        self.events = events
        self.definitions = definitions if definitions is not None else Definitions()

    # ------------------------------------------------------------------ views
    def __len__(self) -> int:
        return len(self.events)

    def __repr__(self) -> str:
        ranks = self.events["rank"].nunique() if len(self.events) else 0
        return f"TraceFrame({len(self.events)} events, {ranks} rank(s))"

    @property
    def metadata(self) -> dict:
        """The trace's metadata (format, source...)."""
        return self.definitions.metadata

    @property
    def plot(self) -> TracePlotAccessor:
        """Plots of the trace: ``tf.plot.timeline(...)`` (every plot kind that takes a
        TraceFrame; see :mod:`graphframe.plot.registry`)."""
        return TracePlotAccessor(self)

    @property
    def mono(self) -> "MonoView":
        """mprof-report's section tables of a trace read from a Mono log (issue 28)."""
        return MonoView.of(self.definitions.metadata)

    def pairs(self) -> pd.DataFrame:
        """ENTER rows (each a call): name, rank, thread, time, duration, exclusive, depth, parent."""
        ev = self.events
        return ev[ev["kind"] == "enter"]

    # ------------------------------------------------------------------ analyses
    def flat_profile(self, by: str = "name",
                     per: Union[None, str, Sequence[str]] = "rank") -> pd.DataFrame:
        """``time (inc)``, ``time`` (s) and ``count`` per ``by`` (and rank/thread)."""
        return profile.flat_profile(self.events, by=by, per=per)

    @property
    def gc(self) -> "GcView":
        """The garbage-collection view of a trace read from JVM GC logs (issue 32):
        ``events``, ``summary``, ``percentiles``, ``filter``, ``gcgc_frame``..."""
        from .gc import GcView
        cached = getattr(self, "_gc_view", None)  # built once per events table
        if cached is None or cached[0] is not self.events:
            cached = (self.events, GcView.from_trace(self))
            self._gc_view = cached
        return cached[1]

    def to_graphframe(self) -> GraphFrame:
        """The calling-context tree per (rank, thread) as a GraphFrame
        (``time (inc)``, ``time`` in s, ``count``); for JVM GC logs, the GC
        phase tree per log (:mod:`graphframe.traces.gc.tree`)."""
        if self.metadata.get("format") == "jvm-gc":
            return self.gc.to_graphframe()
        builder = TreeBuilder()
        builder.on_definitions(self.definitions)
        with warnings.catch_warnings():  # the read already warned about unmatched events
            warnings.simplefilter("ignore", TraceWarning)
            builder.on_batch(table_batch(self.events))
            builder.on_end()
        return builder.graphframe()

    def comm_matrix(self, kind: str = "bytes") -> pd.DataFrame:
        """Sender x receiver bytes (``"bytes"``) or message counts (``"count"``); rows and
        columns are the ranks the trace defines (and any a message names)."""
        return comm.comm_matrix(self.events, kind, ranks=self.definitions.ranks)

    def message_histogram(self, bins: Any = 20) -> Tuple[np.ndarray, np.ndarray]:
        """Histogram of message sizes: (counts, edges)."""
        return comm.message_histogram(self.events, bins)

    def comm_over_time(self, bins: int = 50, kind: str = "bytes") -> pd.DataFrame:
        """Bytes or messages sent per time bin."""
        return comm.comm_over_time(self.events, bins, kind)

    def load_imbalance(self, metric: str = "time", by: str = "name") -> pd.DataFrame:
        """Max / mean over ranks of a flat-profile metric, per function."""
        return profile.load_imbalance(self.events, metric, by)

    def idle_time(self, idle_functions: Iterable[str] = profile.IDLE_FUNCTIONS) -> pd.DataFrame:
        """Per rank: time in waiting calls, span and idle fraction."""
        return profile.idle_time(self.events, idle_functions)

    def time_profile(self, bins: int = 50, by: str = "name") -> pd.DataFrame:
        """Self time per function in each of ``bins`` time bins."""
        return profile.time_profile(self.events, bins, by)

    # I/O and one-sided communication
    def io_summary(self, per: str = "rank", calls: str = "data") -> pd.DataFrame:
        """I/O calls per rank or per file (``per="file"``, ``"both"``): count, time, bytes
        of the data operations (``calls="all"``: every I/O call; see :mod:`.io_access`)."""
        return io_rma.io_summary(self.events, per, calls)

    @property
    def io(self) -> IOView:
        """The per-run I/O questions (records, calls, files, time; per rank) on one row
        per call (:class:`~graphframe.traces.io.view.IOView`)."""
        return IOView(calls_from_events(self.events), self.definitions)

    def files_per_rank(self, calls: str = "data") -> pd.Series:
        """Files each rank accessed (``calls="all"``: named by any I/O call)."""
        return io_rma.files_per_rank(self.events, calls)

    def shared_files(self, calls: str = "data") -> pd.Series:
        """Files accessed by several ranks (-> number of ranks)."""
        return io_rma.shared_files(self.events, calls)

    def fd_map(self) -> pd.DataFrame:
        """The ``open`` events: which file each (rank, fd) named from when on."""
        return io_rma.fd_map(self.events)

    def rma_summary(self, per: Sequence[str] = ("rank", "window", "epoch")) -> pd.DataFrame:
        """One-sided operations per rank/window/epoch (or any of them; ``per=()``: all):
        count, bytes, durations and transfer bounds (min/max/mean; :mod:`.rma`)."""
        return io_rma.rma_summary(self.events, per)

    def rma_operations(self) -> pd.DataFrame:
        """One row per one-sided operation in foRMA's shape: rank, window, epoch, op,
        start, duration, bytes, bound (ns), target."""
        return io_rma.rma_epochs(self.events)

    def rma_syncs(self) -> pd.DataFrame:
        """One row per one-sided synchronisation (fences with the epoch they close...)."""
        return io_rma.rma.rma_syncs(self.events)

    def counters(self) -> pd.DataFrame:
        """Counter samples (OTF2 metrics...) with their unit and the region they fall in."""
        return counter_samples(self.events, self.definitions.metadata.get("metrics"))

    # ------------------------------------------------------------------ selection
    def filter(self, mask: Any = None, *, names: Optional[Iterable[str]] = None,
               ranks: Optional[Iterable[int]] = None,
               kinds: Optional[Iterable[str]] = None) -> "TraceFrame":
        """A new TraceFrame with the selected events (a boolean mask/callable on the
        table, and/or names, ranks, kinds). An ENTER and its LEAVE are kept or
        dropped together; matching, depth and parent are recomputed."""
        return TraceFrame(select.filter_events(self.events, mask, names, ranks, kinds),
                          self.definitions.copy())

    def window(self, start: Optional[int] = None, end: Optional[int] = None) -> "TraceFrame":
        """Events in ``[start, end)`` (ns); calls that cross a bound are clipped to it."""
        return TraceFrame(select.window(self.events, start, end), self.definitions.copy())

    # ------------------------------------------------------------------ output
    def to_chrome(self, path: Any) -> str:
        """Write Chrome trace-event JSON (Perfetto, speedscope, chrome://tracing)."""
        return write_chrome(path, self.events, self.definitions.ranks, self.definitions.threads)
