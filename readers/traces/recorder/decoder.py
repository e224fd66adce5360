"""RecorderDecoder: Recorder I/O traces, format 2.2 and formats 2.4/2.5.

A trace is a folder with ``VERSION`` and ``recorder.mt``, and per rank
either (2.2) ``<r>.itf`` (records) and ``<r>.mt`` (start time, files,
counts), or (2.4, 2.5: :mod:`.current`) ``<r>.cst`` (call signatures),
``<r>.cfg`` (the grammar of the record order) and ``<r>.ts`` (timestamps).
``VERSION`` decides; 2.3 traces (another signature-table layout) and 2.1 or
older are refused with a ReadError that says so. Each call
becomes an ENTER/LEAVE pair (name = the function, as listed in
``recorder.mt``: ``MPI_Send``, ``fwrite``...) and, for I/O and MPI
data-moving calls, an IO / SEND / RECV / COLLECTIVE event right after its
ENTER with ``end`` = the call's end and the columns :mod:`.calls` derives
(``fd``, ``file`` resolved through the rank's descriptor table, ``bytes``,
``offset``, ``peer``, ``tag``, ``comm``). The ENTER event carries the
call's ``file`` and ``fd`` too (so the events table has one row per call
with its file) and its arguments, as Recorder wrote them separated by
spaces, as ``args`` (option ``args``, default True: they are what this
format is about).

Times: ticks of the global resolution (1 µs in 2.2, 100 ns in 2.5) after
the rank's start time (2.2) or the trace's start (2.5), converted to ns
since the epoch. Format 2.5 names files in place of descriptors and keeps
no return values, so ``fd`` is -1 there; MPI-IO handles (``0-0``) name the
file of the ``MPI_File_open`` that returned them. Relative file names are
resolved against the working directory (option ``cwd``, and any ``chdir``
the trace records); those that cannot be are kept as recorded and listed
per rank as ``relative_files`` in the definitions. A thread id logged by
Recorder (``RECORDER_LOG_TID=1``) becomes thread 0, 1... per rank in order
of first appearance (the pthread id is kept in the definitions). Each rank file is decoded whole
(Recorder files are small: the format compresses repeated calls) and
checked (2.2: against the record count and per-function counts of its
``.mt``; 2.5: the grammar against the signature counts and the number of
timestamps) before any event is delivered, so a truncated rank file is a
ReadError and no event of that rank reaches the handler.

Examples
--------
>>> import graphframe_readers.traces as rt
>>> "recorder" in rt.trace_formats()
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, List

import numpy as np

from ...errors import MissingMembersError, ReadError
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import StringTable
from ..handler import EventHandler
from ..sources import ByteSource, FileSource, rank_of, rank_sources

# The modules that decode a trace are imported by the functions that use them: sniffing
# (which imports this module whatever the input) does not pay for them.
if TYPE_CHECKING:
    from .calls import Files
    from .metadata import GlobalMeta

#: events per delivered batch
BATCH_EVENTS = 1 << 20


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc


def _check_member(path: Path) -> None:
    """A file given as the trace must be one of a Recorder trace's own files (its folder is
    then read); any other file is not a Recorder trace, whatever lies beside it."""
    name = path.name
    stem, _, ext = name.partition(".")
    if name in ("recorder.mt", "VERSION", "ug.mt") or (
            ext in ("itf", "mt", "cst", "cfg", "ts") and stem.isdigit()):
        return
    raise ReadError(path, "not a file of a Recorder trace", position="the file name",
                    expected="a Recorder trace folder, its recorder.mt, or a <rank>.itf / "
                             "<rank>.mt (2.2) or <rank>.cst / .cfg / .ts (2.4, 2.5) file in it")


def trace_folder(path: Any) -> Path:
    """The trace folder of ``path`` (the folder, or a file inside it).

    >>> trace_folder("/no/such/run/recorder.mt").as_posix()
    '/no/such/run'
    """
    p = Path(os.fspath(path))
    return p if p.is_dir() else p.parent


def trace_version(folder: Path) -> tuple:
    """The ``VERSION`` of a trace folder as (major, minor, patch) ((2, 2, 0) without one).

    A folder of the current format (``<rank>.cst`` files) without its ``VERSION`` is a
    ReadError naming the missing file (its reading depends on the version).
    """
    from .current import VERSIONS, parse_version
    if not (folder / "VERSION").is_file():
        if any(folder.glob("*.cst")):
            raise ReadError(folder / "VERSION", "no such file: the trace's version is missing",
                            expected="the VERSION file Recorder 2.4/2.5 writes beside "
                                     "recorder.mt and the <rank>.cst files")
        return (2, 2, 0)
    text = _read(folder / "VERSION").decode("ascii", "replace")
    version = parse_version(text)
    if version[:2] not in ((2, 2),) + VERSIONS:
        raise ReadError(folder / "VERSION", f"Recorder trace format {text.strip()!r} is not "
                        "supported", position="byte 0",
                        expected="format 2.2, 2.4 or 2.5 (the VERSION file of the trace)")
    return version


class RecorderDecoder(Decoder):
    """Recorder traces (formats 2.2, 2.4, 2.5); options: ``args`` (bool, default True),
    ``cwd`` (str: the working directory relative file names are resolved against)."""

    format_name = "recorder"
    description = ("Recorder I/O traces (folder with VERSION, recorder.mt and per rank "
                   "<rank>.itf/.mt (2.2) or <rank>.cst/.cfg/.ts (2.4, 2.5))")

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        folder = path if path.is_dir() else path.parent
        if path.is_file() and path.name not in ("recorder.mt", "VERSION") \
                and path.suffix not in (".itf", ".mt", ".cst", ".cfg", ".ts"):
            return False
        return (folder / "recorder.mt").is_file() and (folder / "VERSION").is_file()

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        if isinstance(path, ByteSource) or (isinstance(path, (list, tuple)) and path
                                            and isinstance(path[0], ByteSource)):
            return super().sources(path)
        if isinstance(path, (list, tuple)):
            return list(rank_sources([p for p in path if str(p).endswith((".itf", ".cst"))]))
        folder = trace_folder(path)
        if folder != Path(os.fspath(path)):
            _check_member(Path(os.fspath(path)))
        from .current import VERSIONS, parse_meta
        from .metadata import parse_global
        mt = folder / "recorder.mt"
        if trace_version(folder)[:2] in VERSIONS:
            meta = parse_meta(_read(mt), str(mt))
            suffix = "cst"
            # with inter-process compression (ug.mt) the signatures and grammars are
            # shared: each rank has its timestamps only
            needed = ("ts",) if (folder / "ug.mt").is_file() else ("cst", "cfg", "ts")
        else:
            meta = parse_global(_read(mt), str(mt))
            suffix, needed = "itf", ("itf", "mt")
        absent = {f"rank {r}": str(folder / f"{r}.{ext}") for r in range(meta.ranks)
                  for ext in needed if not (folder / f"{r}.{ext}").is_file()}
        sources = [FileSource(folder / f"{r}.{suffix}", rank=r) for r in range(meta.ranks)]
        if absent:
            gone = {int(k.split()[1]) for k in absent}
            raise MissingMembersError(mt, absent, declared=f"{meta.ranks} ranks",
                                      present=[s for s in sources if s.rank not in gone])
        return sources

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        from .calls import Files
        from .current import VERSIONS
        from .current_events import decode_current
        from .metadata import parse_global, parse_rank
        from .records import parse_records
        folder = trace_folder(source.name)
        rank = source.rank if source.rank is not None else rank_of(source.name)
        if rank is None:
            raise ReadError(source.name, "cannot tell the rank from the file name",
                            expected="<rank>.itf or <rank>.cst")
        version = trace_version(folder)
        files = Files(self.options.get("cwd"))
        if version[:2] in VERSIONS:
            decode_current(folder, rank, handler, files, version,
                           args=bool(self.options.get("args", True)))
            return
        meta = parse_global(_read(folder / "recorder.mt"), str(folder / "recorder.mt"))
        if meta.mode not in (1, 2):
            raise ReadError(folder / "recorder.mt", f"compression mode {meta.mode} "
                            "(text or zlib records) is not supported", position="byte 16",
                            expected="mode 1 (binary) or 2 (binary, peephole compressed)")
        rank_meta = parse_rank(_read(folder / f"{rank}.mt"), str(folder / f"{rank}.mt"))
        data = b"".join(source.blocks())
        records = parse_records(data, source.name, window=meta.window,
                                functions=len(meta.functions))
        _check_counts(records.func, rank_meta, meta, source.name)
        batch = self._events(meta, rank_meta, records, rank, source.name, files) \
            if len(records) else None
        defs = _definitions(meta, rank_meta, rank, folder)
        if files.relative:
            defs.ranks[rank]["relative_files"] = sorted(files.relative)
        handler.on_definitions(defs)
        if batch is not None:
            for lo in range(0, len(batch), BATCH_EVENTS):
                handler.on_batch(batch.take(slice(lo, lo + BATCH_EVENTS)))

    def _events(self, meta: GlobalMeta, rank_meta: Any, records: Any, rank: int,
                name: str, files: Files) -> Any:
        from ..intervals import call_events
        from .calls import interpret
        strings = StringTable()
        name_ids = strings.intern_many(meta.functions)  # the list may repeat a name
        tick = meta.resolution * 1e9
        origin = int(round(rank_meta.start * 1e9))
        if abs(tick - round(tick)) < 1e-9:
            start = origin + records.tstart * int(round(tick))
            end = origin + records.tend * int(round(tick))
        else:
            start = origin + np.round(records.tstart * tick).astype(np.int64)
            end = origin + np.round(records.tend * tick).astype(np.int64)
        cols = interpret(meta.functions, records.func.tolist(), records.args,
                         records.res.tolist(), files)
        file_ids = strings.intern_many(f if f is not None else "" for f in cols["file"])
        file_ids[[f is None for f in cols["file"]]] = -1
        data = {c: cols[c] for c in ("fd", "bytes", "offset", "peer", "tag", "comm")}
        data["file"] = file_ids
        enter = {"file": file_ids, "fd": cols["fd"], "end": end}  # a call's row: its file, end
        if self.options.get("args", True):
            enter["args"] = [" ".join(a) for a in records.args]
        return call_events(strings, start=start, end=end, name=name_ids[records.func],
                           rank=rank, thread=0, source=name, data_kind=cols["kind"],
                           enter_attrs=enter, data_attrs=data)


def _check_counts(func: np.ndarray, rank_meta: Any, meta: GlobalMeta, name: str) -> None:
    if len(func) != rank_meta.records:
        raise ReadError(name, f"{len(func)} records, but the rank's .mt file counts "
                        f"{rank_meta.records}", position=f"record {len(func)}",
                        expected="as many records as the metadata says (truncated file?)")
    counts = np.bincount(func, minlength=256)[:256]
    bad = np.nonzero(counts != rank_meta.function_count)[0]
    if len(bad):
        f = int(bad[0])
        label = meta.functions[f] if f < len(meta.functions) else f"function {f}"
        raise ReadError(name, f"{int(counts[f])} calls of {label}, but the rank's .mt file "
                        f"counts {int(rank_meta.function_count[f])}",
                        position=f"the end of the records (record {len(func)})",
                        expected="the per-function counts of the metadata")


def _definitions(meta: GlobalMeta, rank_meta: Any, rank: int, folder: Path) -> Definitions:
    from .calls import layer
    version = ""
    if (folder / "VERSION").is_file():
        version = _read(folder / "VERSION").decode("ascii", "replace").strip()
    regions = {name: {"kind": layer(name)} for name in meta.functions}
    return Definitions(
        ranks={rank: {"start_time": int(round(rank_meta.start * 1e9)),
                      "end_time": int(round(rank_meta.end * 1e9)),
                      "files": dict(rank_meta.files)}},
        regions=regions,
        metadata={"format": "recorder", "version": version, "ranks": meta.ranks,
                  "time_resolution": meta.resolution, "compression_mode": meta.mode,
                  "functions": list(meta.functions)})


DECODER = RecorderDecoder
