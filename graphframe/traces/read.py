"""Reading traces: ``read_trace`` (events kept) and ``read_tree`` (call tree only)."""

from __future__ import annotations

from typing import Any, Optional

from graphframe.graphframe import GraphFrame
from graphframe_readers.progress import ProgressArg
from graphframe_readers.traces import EventHandler, decode

from .frame import TraceFrame
from graphframe_readers.traces.table import TableBuilder
from .tree import TreeBuilder


def read_trace(path: Any, format: Optional[str] = None, *, jobs: Optional[int] = None,
               progress: ProgressArg = None, **options: Any) -> TraceFrame:
    """Read a trace into a :class:`TraceFrame` (every event kept).

    Parameters
    ----------
    path : str, path-like, list of them or byte sources
        A trace file, a DUMPI ``.meta`` file or directory, a list of rank files...
    format : str, optional
        A name from :func:`graphframe_readers.traces.trace_formats`; sniffed when omitted.
    jobs : int, optional
        Worker processes for per-rank files.
    progress : optional
        Progress per source (see :mod:`graphframe_readers.progress`).
    **options
        The decoder's options (Chrome: ``order``, ``sort_limit``, ``args``).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.json")
    >>> _ = open(p, "w").write('[{"ph": "X", "name": "main", "pid": 1, "tid": 1, "ts": 0, "dur": 5},'
    ...                        ' {"ph": "X", "name": "f", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
    >>> tf = read_trace(p)
    >>> tf.events[["time", "kind", "name", "depth", "duration"]].values.tolist()
    [[0, 'enter', 'main', 0, 5000.0], [1000, 'enter', 'f', 1, 2000.0], [3000, 'leave', 'f', 1, nan], [5000, 'leave', 'main', 0, nan]]
    """
    builder = TableBuilder()
    format = format or _sniffed(path)  # sniffed once (decode sniffs again only when None)
    if format == "jvm-gc":  # issue 32: GC logs keep their GC columns
        from graphframe_readers.traces.jvmgc.table import GcTableBuilder
        builder = GcTableBuilder()
    decode(path, builder, format, jobs=jobs, progress=progress, **options)
    return TraceFrame(builder.result(), builder.definitions)


def _sniffed(path: Any) -> Optional[str]:
    from graphframe_readers.traces import ByteSource, sniff_trace
    if isinstance(path, ByteSource) or (isinstance(path, (list, tuple)) and path
                                        and isinstance(path[0], ByteSource)):
        return None
    try:
        return sniff_trace(path)
    except Exception:  # decode() reports the input's problem itself
        return None


def read_tree(path: Any, format: Optional[str] = None, *, jobs: Optional[int] = None,
              progress: ProgressArg = None, **options: Any) -> GraphFrame:
    """The calling-context tree of a trace as a GraphFrame, without keeping its events.

    Memory depends on the tree and the number of ranks/threads, not on the
    number of events.
    """
    return decode(path, TreeBuilder(), format, jobs=jobs, progress=progress, **options)


def run_handler(path: Any, handler: EventHandler, format: Optional[str] = None, *,
                jobs: Optional[int] = None, **options: Any) -> Any:
    """Feed a trace to any handler (yours); returns ``handler.result()``."""
    return decode(path, handler, format, jobs=jobs, **options)
