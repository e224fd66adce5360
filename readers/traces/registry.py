"""Trace formats and the driver that runs a decoder into a handler.

:func:`decode` is the one entry point: it finds the decoder (``format=`` or
sniffing), expands the path into byte sources, decodes them into the
handler (in worker processes with ``jobs=`` when the handler can
:meth:`~graphframe_readers.traces.handler.EventHandler.fork`), calls ``on_end`` and
returns ``handler.result()``.

Examples
--------
>>> "chrome" in trace_formats() and "dumpi" in trace_formats()
True
"""

from __future__ import annotations

import os
import warnings
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from typing import Any, Dict, List, Optional, Sequence, Type

from ..errors import ArgumentError, MissingMembersError, ReadError, UnknownFormatError
from ..progress import Progress, ProgressArg
from .. import registry
from ..registry import first_path
from .decoder import Decoder, split_groups
from .definitions import Definitions
from .handler import EventHandler
from .sources import ByteSource
from .warnings import TraceWarning

def _table() -> Dict[str, Type[Decoder]]:
    """Trace formats by name: the trace entries of the one format registry."""
    return {info.name: info.decoder for info in registry.entries("trace")}


def register_format(decoder: Type[Decoder], *, suffixes: Sequence[str] = (),
                    markers: Sequence[str] = ()) -> Type[Decoder]:
    """Make a decoder class known to :func:`decode` and ``read_trace`` (usable as a decorator).

    It becomes a trace entry of the format registry
    (:func:`graphframe_readers.registry.register`), replacing a format of the same name.
    """
    if not decoder.format_name:
        raise ValueError(f"{decoder.__name__} has no format_name")
    registry.register(registry.FormatInfo.for_decoder(decoder, suffixes=suffixes,
                                                      markers=markers), replace=True)
    return decoder


def trace_formats() -> List[str]:
    """Names of the known trace formats, in sniffing order."""
    return registry.formats("trace")


def decoder_class(name: str, path: Any = None) -> Type[Decoder]:
    """The decoder registered under ``name`` (UnknownFormatError lists the known ones)."""
    known = registry._FORMATS.get(name)  # sniffed already: no other module is imported
    if known is not None and known.kind == "trace":
        return known.decoder
    found = _table().get(name)
    if found is None:
        raise UnknownFormatError(path if path is not None else name, trace_formats(),
                                 f"unknown trace format {name!r}")
    return found


def sniff_trace(path: Any) -> str:
    """Name of the trace format that recognises ``path`` (a file, directory or list)."""
    first = first_path(path)
    info = registry.identify(first, registry.read_head(first), ("trace",))
    if info is None:
        raise UnknownFormatError(path, trace_formats(), "no trace decoder recognises this input")
    return info.name


#: Bytes of input per worker process below which the default ``jobs`` reads in fewer
#: processes: starting a worker and sending its events back costs about what
#: decoding this much costs
BYTES_PER_WORKER = 8 << 20


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_jobs(sources: Sequence[ByteSource], size: int,
                 per_worker: int = BYTES_PER_WORKER) -> int:
    """The worker processes ``jobs=None`` reads ``sources`` with (``size``: their bytes).

    One process per ``per_worker`` bytes of input (the decoder's
    :attr:`~graphframe_readers.traces.decoder.Decoder.worker_bytes`, by default
    :data:`BYTES_PER_WORKER`), at most one per source and one per usable CPU;
    1 (this process) for a single source (a Chrome file is cut into pieces for
    workers only when ``jobs`` is given: that doubles its peak memory), for
    less than two workers' worth of input, and inside a worker process (an
    Ensemble's or Dask's worker reads its trace alone: its siblings use the
    other CPUs, and a daemonic process cannot start others).

    Examples
    --------
    >>> from graphframe_readers.traces.sources import MemorySource
    >>> many = [MemorySource(b"", name=str(i)) for i in range(8)]
    >>> default_jobs(many, 1 << 20), default_jobs(many[:1], 1 << 30)
    (1, 1)
    >>> default_jobs(many, 1 << 30) == min(8, usable_cpus())
    True
    """
    import multiprocessing

    if len(sources) < 2 or multiprocessing.current_process().daemon \
            or multiprocessing.parent_process() is not None:
        return 1  # a worker (of an Ensemble read, of Dask) reads its trace alone
    workers = min(len(sources), usable_cpus(), size // max(1, per_worker))
    return workers if workers >= 2 else 1


def _check_jobs(jobs: Any) -> Optional[int]:
    if jobs is None:
        return None
    if not isinstance(jobs, int) or isinstance(jobs, bool) or not (jobs >= 1 or jobs == -1):
        raise ArgumentError(f"jobs={jobs!r}: give a number of worker processes, -1 for one "
                            "per CPU, or None for the default (from the files' count and size)")
    return usable_cpus() if jobs == -1 else jobs


def decode(path: Any, handler: EventHandler, format: Optional[str] = None, *,
           jobs: Optional[int] = None, client: Any = None, progress: ProgressArg = None,
           missing: str = "error", **options: Any) -> Any:
    """Decode the trace at ``path`` into ``handler``; returns ``handler.result()``.

    Parameters
    ----------
    path : str, path-like, list of them, or ByteSource(s)
        A trace file, a per-rank file set (a list, or what the format's
        ``sources`` expands, e.g. a DUMPI ``.meta`` file), or sources.
    handler : EventHandler
        Receives definitions and batches; ``on_end`` is called once.
    format : str, optional
        A name from :func:`trace_formats`; sniffed when omitted (a
        ``FileSource``/``FollowSource`` from its file, which must then have
        its first bytes; other sources given directly need ``format=``).
    jobs : int, optional
        Worker processes for per-rank sources: 1 reads in this process, -1
        uses one per CPU. ``None`` (the default) chooses from the files:
        one worker per 8 MiB of input (:data:`BYTES_PER_WORKER`; 2 MiB of OTF2
        event files, which cost more per byte), at most one per rank file and
        one per usable CPU, and this process alone for a single file or less
        than two workers' worth (:func:`default_jobs`). Used when the
        handler implements ``fork``/``join``; workers are always shut down,
        also on errors. The table is the same whatever the number.
    client : dask.distributed.Client, optional
        Read the per-rank sources as tasks on a Dask cluster (one task per
        group of sources, results joined in source order: the same result as
        one process). The files must be readable at the same paths on the
        workers. Takes precedence over ``jobs``.
    progress : bool, str or callable, optional
        Progress per source (see :mod:`graphframe_readers.progress`).
    missing : {"error", "warn"}
        When files the trace declares (ranks of a DUMPI ``.meta``, processors
        of a Projections ``.sts``, locations of an OTF2 archive, ranks of a
        Recorder ``recorder.mt``) are absent: ``"error"`` raises
        :class:`~graphframe_readers.errors.MissingMembersError` naming them;
        ``"warn"`` reads the others, warns once (:class:`TraceWarning`) and
        records what is missing in the metadata (``missing``: label -> file).
    **options
        The decoder's options.
    """
    if missing not in ("error", "warn"):
        raise ArgumentError(f"missing={missing!r}: expected 'error' or 'warn'")
    cls = _resolve(path, format)
    decoder = cls(**options)
    absent: Dict[str, str] = {}
    try:
        sources = cls.sources(path)
    except MissingMembersError as exc:
        if missing == "error" or not exc.present:
            raise
        warnings.warn(TraceWarning(f"{exc} (read without them: missing='warn')"), stacklevel=2)
        sources, absent = exc.present, {k: str(v) for k, v in exc.missing.items()}
    if not sources:
        raise ReadError(path, "the trace has no files", expected="at least one rank file")
    report = Progress(progress, len(sources), f"{cls.format_name} trace sources")
    report.start()
    jobs = _check_jobs(jobs)
    if client is not None and len(sources) > 1:
        groups = split_groups(sources, min(len(sources), 4 * _dask_workers(client)))
        workers = _forks(handler, len(groups))
        if workers is not None:
            _run_on_dask(client, decoder, groups, handler, workers, report)
            return _finish(handler, absent)
    if jobs is None:
        # one file is read in this process unless jobs= is given: cutting a single file
        # (Chrome) into pieces doubles its peak memory for a gain in time only
        jobs = default_jobs(sources, decoder.input_bytes(sources),
                            decoder.worker_bytes) if len(sources) > 1 else 1
    groups = split_groups(sources, jobs)
    workers = _forks(handler, len(groups)) if len(groups) > 1 else None
    if len(sources) == 1 and jobs > 1:
        decoder.decode_parallel(sources[0], handler, int(jobs))
        report.step()
    elif workers is None:
        for source in sources:
            decoder.decode(source, handler)
            report.step()
    else:
        _run_parallel(decoder, groups, handler, workers, report)
    return _finish(handler, absent)


def _finish(handler: EventHandler, absent: Dict[str, str]) -> Any:
    if absent:
        handler.on_definitions(Definitions(metadata={"missing": absent}))
    handler.on_end()
    return handler.result()


def _dask_workers(client: Any) -> int:
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 -- a client without nthreads: one task per source
        return 1 << 16


def _run_on_dask(client: Any, decoder: Decoder, groups: List[List[ByteSource]],
                 handler: EventHandler, workers: List[EventHandler], report: Progress) -> None:
    """One task per group on the cluster; the workers' handlers joined in source order.
    An error of any task is raised (the first in source order)."""
    futures = [client.submit(_work, decoder, g, w, pure=False)
               for g, w in zip(groups, workers)]
    try:
        results = []
        for fut, group in zip(futures, groups):
            results.append(fut.result())
            report.step(len(group))
    finally:
        for fut in futures:
            fut.cancel()
    handler.join(results)


def _resolve(path: Any, format: Optional[str]) -> Type[Decoder]:
    if format is not None:
        return decoder_class(format, path)
    if isinstance(path, ByteSource) or (isinstance(path, (list, tuple)) and path
                                        and isinstance(path[0], ByteSource)):
        first = path if isinstance(path, ByteSource) else path[0]
        file = getattr(first, "path", None)  # FileSource, FollowSource: sniff their file
        if file is None or not os.path.isfile(file) or not os.path.getsize(file):
            raise ReadError(path, "byte sources without a file need format=",
                            expected="format='<name>'")
        return decoder_class(sniff_trace(file), path)
    return decoder_class(sniff_trace(path), path)


def _forks(handler: EventHandler, count: int) -> Optional[List[EventHandler]]:
    try:
        return [handler.fork() for _ in range(count)]
    except NotImplementedError:
        return None


def _work(decoder: Decoder, sources: Sequence[ByteSource], handler: EventHandler) -> EventHandler:
    for source in sources:
        decoder.decode(source, handler)
    return handler


def _run_parallel(decoder: Decoder, groups: List[List[ByteSource]], handler: EventHandler,
                  workers: List[EventHandler], report: Progress) -> None:
    pool = ProcessPoolExecutor(max_workers=len(groups))
    try:
        futures = [pool.submit(_work, decoder, g, w) for g, w in zip(groups, workers)]
        done, _ = wait(futures, return_when=FIRST_EXCEPTION)
        for fut in futures:  # raises the first error in source order
            if fut in done and fut.exception() is not None:
                raise fut.exception()
        results = []
        for fut, group in zip(futures, groups):
            results.append(fut.result())
            report.step(len(group))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    handler.join(results)
