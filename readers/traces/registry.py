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

import importlib
import os
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from typing import Any, Dict, List, Optional, Sequence, Type

from ..errors import ReadError, UnknownFormatError
from ..progress import Progress, ProgressArg
from ..registry import first_path
from .decoder import Decoder, split_groups
from .handler import EventHandler
from .sources import ByteSource

#: Decoder modules (each defines ``DECODER``), in sniffing order.
DECODER_MODULES = (
    "graphframe_readers.traces.dumpi",
    "graphframe_readers.traces.chrome",
    "graphframe_readers.traces.recorder",
    "graphframe_readers.traces.otf2",
    "graphframe_readers.traces.projections",
    "graphframe_readers.traces.nsight.sqlite_export",
    "graphframe_readers.traces.nsight.csv_export",
    "graphframe_readers.traces.hpctoolkit_trace",
    "graphframe_readers.traces.mono.decoder",  # issue 28: Mono log profiler .mlpd
)

_FORMATS: Dict[str, Type[Decoder]] = {}
_LOADED = [False]


def _table() -> Dict[str, Type[Decoder]]:
    if not _LOADED[0]:
        for module_name in DECODER_MODULES:
            cls = importlib.import_module(module_name).DECODER
            _FORMATS.setdefault(cls.format_name, cls)
        _LOADED[0] = True
    return _FORMATS


def register_format(decoder: Type[Decoder]) -> Type[Decoder]:
    """Make a decoder class known to :func:`decode` and ``read_trace`` (usable as a decorator)."""
    if not decoder.format_name:
        raise ValueError(f"{decoder.__name__} has no format_name")
    _table()[decoder.format_name] = decoder
    return decoder


def trace_formats() -> List[str]:
    """Names of the known trace formats, in sniffing order."""
    return list(_table())


def decoder_class(name: str, path: Any = None) -> Type[Decoder]:
    """The decoder registered under ``name`` (UnknownFormatError lists the known ones)."""
    try:
        return _table()[name]
    except KeyError:
        raise UnknownFormatError(path if path is not None else name, trace_formats(),
                                 f"unknown trace format {name!r}") from None


def sniff_trace(path: Any) -> str:
    """Name of the trace format that recognises ``path`` (a file, directory or list)."""
    first = first_path(path)
    head = b""
    if first.is_file():
        try:
            with open(first, "rb") as fh:
                head = fh.read(4096)
        except OSError as exc:
            raise ReadError(first, f"cannot open the file: {exc.strerror}") from exc
    for name, cls in _table().items():
        if cls.sniff(first, head):
            return name
    raise UnknownFormatError(path, trace_formats(), "no trace decoder recognises this input")


def decode(path: Any, handler: EventHandler, format: Optional[str] = None, *,
           jobs: Optional[int] = None, progress: ProgressArg = None,
           **options: Any) -> Any:
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
        Worker processes for per-rank sources (``None``/1: this process).
        Used when the handler implements ``fork``/``join``; workers are
        always shut down, also on errors.
    progress : bool, str or callable, optional
        Progress per source (see :mod:`graphframe_readers.progress`).
    **options
        The decoder's options.
    """
    cls = _resolve(path, format)
    decoder = cls(**options)
    sources = cls.sources(path)
    if not sources:
        raise ReadError(path, "the trace has no files", expected="at least one rank file")
    report = Progress(progress, len(sources), f"{cls.format_name} trace sources")
    report.start()
    groups = split_groups(sources, jobs or 1)
    workers = _forks(handler, len(groups)) if len(groups) > 1 else None
    if len(sources) == 1 and (jobs or 1) > 1:
        decoder.decode_parallel(sources[0], handler, int(jobs))
        report.step()
    elif workers is None:
        for source in sources:
            decoder.decode(source, handler)
            report.step()
    else:
        _run_parallel(decoder, groups, handler, workers, report)
    handler.on_end()
    return handler.result()


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
