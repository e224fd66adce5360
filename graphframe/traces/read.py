"""Reading traces: ``read_trace`` (events kept) and ``read_tree`` (call tree only)."""

from __future__ import annotations

from typing import Any, Optional

from graphframe.graphframe import GraphFrame
from graphframe.io.dispatch import wrong_door
from graphframe.io.resolve import resolve
from graphframe_readers.progress import ProgressArg
from graphframe_readers.traces import ByteSource, EventHandler, decode
from graphframe_readers.traces.table import TableBuilder

from .frame import TraceFrame
from .tree import TreeBuilder


def read_trace(path: Any, format: Optional[str] = None, *, jobs: Optional[int] = None,
               client: Any = None, progress: ProgressArg = None, missing: str = "error",
               **options: Any) -> TraceFrame:
    """Read a trace into a :class:`TraceFrame` (every event kept).

    Parameters
    ----------
    path : str, path-like, list of them or byte sources
        A trace file, a DUMPI ``.meta`` file or directory, a list of rank files...
    format : str, optional
        A name from :func:`graphframe_readers.traces.trace_formats`; sniffed when omitted.
    jobs : int, optional
        Worker processes for per-rank files (OTF2, DUMPI, Recorder, HPCToolkit,
        Projections...; a Chrome file is cut into pieces): 1 reads in this
        process, -1 uses one per CPU. The default (``None``) chooses from the
        files: one worker per 8 MiB of input (2 MiB of OTF2 event files), at
        most one per rank file and one per usable CPU, this process alone for a
        single file or less than two workers' worth
        (:func:`graphframe_readers.traces.registry.default_jobs`).
        The table is the same whatever the number.
    client : dask.distributed.Client, optional
        Read the per-rank files as tasks on a Dask cluster instead (the
        same table as one process; the files must be readable at the same
        paths on the workers).
    progress : optional
        Progress per source (see :mod:`graphframe_readers.progress`).
    missing : {"error", "warn"}
        Declared ranks, locations or processors whose files are absent:
        an error naming them (default), or ``"warn"``: read the others,
        warn once and list the missing ones in ``metadata["missing"]``.
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
    fmt = trace_format(path, format)
    if fmt == "jvm-gc":  # issue 32: GC logs keep their GC columns
        from graphframe_readers.traces.jvmgc.table import GcTableBuilder
        builder = GcTableBuilder()
    decode(path, builder, fmt, jobs=jobs, client=client, progress=progress, missing=missing,
           **options)
    return TraceFrame(builder.result(), builder.definitions)


def read_tree(path: Any, format: Optional[str] = None, *, jobs: Optional[int] = None,
              client: Any = None, progress: ProgressArg = None, missing: str = "error",
              **options: Any) -> GraphFrame:
    """The calling-context tree of a trace as a GraphFrame, without keeping its events.

    Memory depends on the tree and the number of ranks/threads, not on the
    number of events. Options as :func:`read_trace`.
    """
    return decode(path, TreeBuilder(), trace_format(path, format), jobs=jobs, client=client,
                  progress=progress, missing=missing, **options)


def run_handler(path: Any, handler: EventHandler, format: Optional[str] = None, *,
                jobs: Optional[int] = None, client: Any = None, **options: Any) -> Any:
    """Feed a trace to any handler (yours); returns ``handler.result()``."""
    return decode(path, handler, trace_format(path, format), jobs=jobs, client=client,
                  **options)


def trace_format(path: Any, format: Optional[str] = None) -> Optional[str]:
    """The trace format of ``path`` (the resolver's answer for the trace door).

    Byte sources are passed through (the decoder driver sniffs their file or
    needs ``format=``). A profile, an archive or a folder of several inputs
    is a :class:`~graphframe.ReadError` that says what it is and names the
    door that reads it.

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "p.json")
    >>> with open(p, "w") as f:
    ...     json.dump([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}], f)
    >>> trace_format(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: .../p.json: this is a profile (literal), not a trace: it holds no events (expected one trace; read it with graphframe.read(path) (a GraphFrame))
    """
    if isinstance(path, ByteSource) or (isinstance(path, (list, tuple)) and path
                                        and isinstance(path[0], ByteSource)):
        return format
    what = resolve(path, format, prefer="trace")
    if what.kind != "trace":
        raise wrong_door(what, "trace")
    return what.format
