"""Reading the call tables of several traces: here, in worker processes or on Dask.

Each run is decoded with :class:`~graphframe_readers.traces.call_table.CallTableBuilder`
(one row per call, no enter/leave matching) when its decoder gives every
call's end (Recorder, DUMPI), else through the events table
(:func:`~graphframe.traces.io.view.calls_from_events`). Work is spread as
``Ensemble.read`` does: with ``client=`` one Dask task per run; with
``jobs=`` worker processes, one run per worker when there are at least as
many runs as workers, else the ranks of each run across the workers.
Only the call table and the definitions travel back.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pandas as pd

from graphframe_readers.traces import Definitions, decode
from graphframe_readers.traces.decoder import split_groups
from graphframe_readers.traces.registry import decoder_class
from graphframe_readers.traces.call_table import CallTableBuilder
from graphframe_readers.traces.table import TableBuilder

from ..errors import ArgumentError
from .io.view import calls_from_events
from .read import trace_format

Run = Tuple[pd.DataFrame, Definitions]


def read_calls(path: Any, format: Optional[str] = None, *, jobs: Optional[int] = None,
               args: bool = True, **options: Any) -> Run:
    """One run's call table and definitions (``jobs``: worker processes over its ranks).

    Examples
    --------
    >>> import tempfile
    >>> from graphframe_readers.testing.writers.recorder import RecorderTraceWriter
    >>> w = RecorderTraceWriter(ranks=1)
    >>> w.call(0, "write", ["/d/a", "%p", "8"], 10, 20)
    >>> calls, defs = read_calls(w.write(tempfile.mkdtemp()))
    >>> calls[["name", "duration", "file", "bytes"]].values.tolist(), defs.metadata["version"]
    ([['write', 1000.0, '/d/a', 8]], '2.5.0')
    """
    builder = CallTableBuilder(args=args)
    table = _decode_calls(path, builder, format, jobs, options)
    if len(table) and (table["end"] < 0).any():  # no end on the calls: match enters/leaves
        events = TableBuilder()
        decode(path, events, format, jobs=jobs, **options)
        table = calls_from_events(events.result())
        if not args and "args" in table.columns:
            table = table.drop(columns="args")
        return table, events.definitions
    return table, builder.definitions


def _decode_calls(path: Any, builder: CallTableBuilder, format: Optional[str],
                  jobs: Optional[int], options: Dict[str, Any]) -> pd.DataFrame:
    """Decode into ``builder``; with ``jobs`` > 1 the first group of rank files is decoded
    here while ``jobs - 1`` worker processes decode the others (only their call tables
    travel back), so ``jobs=2`` uses two processes, not three."""
    n = workers(jobs)
    if n < 2 or not isinstance(path, (str, os.PathLike)):
        return decode(path, builder, format, jobs=jobs, **options)
    cls = decoder_class(trace_format(path, format), path)
    sources = cls.sources(path)
    groups = split_groups(sources, n)
    if len(groups) < 2:
        return decode(path, builder, format, **options)
    decoder = cls(**options)
    pool = ProcessPoolExecutor(max_workers=len(groups) - 1)
    try:
        futures = [pool.submit(_decode_group, decoder, group, builder.fork())
                   for group in groups[1:]]
        for source in groups[0]:
            decoder.decode(source, builder)
        others = [f.result() for f in futures]  # the first error in source order
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    builder.join(others)
    builder.on_end()
    return builder.result()


def _decode_group(decoder: Any, sources: Sequence[Any], handler: CallTableBuilder
                  ) -> CallTableBuilder:
    for source in sources:
        decoder.decode(source, handler)
    return handler


def _read_one(path: Any, format: Optional[str], options: Dict[str, Any]) -> Run:
    return read_calls(path, format, **options)


def workers(jobs: Optional[int]) -> int:
    """The number of worker processes ``jobs`` asks for (1: this process)."""
    if jobs is None:
        return 1
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs == 0 or jobs < -1:
        raise ArgumentError(f"jobs={jobs!r}: give a positive number of worker processes "
                            "(or -1 for one per core)")
    return (os.cpu_count() or 1) if jobs == -1 else jobs


def read_runs(paths: Sequence[Any], format: Optional[str] = None, *, jobs: Optional[int] = None,
              client: Any = None, args: bool = True, **options: Any) -> List[Run]:
    """The call table and definitions of every run, in order."""
    opts = dict(options, args=args)
    if client is not None:
        futures = client.map(_read_one, list(paths), format=format, options=opts, pure=False)
        return list(client.gather(futures))
    n = workers(jobs)
    if n > 1 and len(paths) >= n:
        with ProcessPoolExecutor(max_workers=n) as pool:
            return list(pool.map(_read_one, paths, [format] * len(paths), [opts] * len(paths)))
    return [read_calls(p, format, jobs=n if n > 1 else None, **opts) for p in paths]
