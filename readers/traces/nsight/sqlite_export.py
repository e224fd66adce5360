"""NsightDecoder: Nsight Systems SQLite exports (``nsys export --type sqlite``), stdlib sqlite3.

What is read, each table only when the export has it:

=====================================  =========================================
table                                  events
=====================================  =========================================
``CUPTI_ACTIVITY_KIND_RUNTIME``        CUDA API calls: ENTER/LEAVE on the calling
                                       thread, name from ``StringIds``
``OSRT_API``                           OS runtime calls (``ioctl``, ``write``...)
                                       on the calling thread
``NVTX_EVENTS``                        NVTX push/pop and start/end ranges
                                       (ENTER/LEAVE), marks (INSTANT)
``CUPTI_ACTIVITY_KIND_KERNEL``         kernels: ENTER/LEAVE on a GPU stream
``CUPTI_ACTIVITY_KIND_MEMCPY``,        ``CUDA memcpy HtoD``... / ``CUDA memset``
``CUPTI_ACTIVITY_KIND_MEMSET``         on a GPU stream, ``bytes`` on the ENTER
=====================================  =========================================

Ranks and threads are small numbers (see :class:`Lanes`): a process's rank is
its MPI rank when the export has an ``MPI_RANKS`` table, else its place in the
order of process ids (0, 1, ...); its threads are numbered from 0 (the main
thread, whose tid is the pid, first, then by thread id), then one thread per
GPU stream it used, ordered by device and stream. The definitions name every
thread (``ThreadNames``; a GPU stream is ``GPU <device> / stream <stream>``)
and keep the pid and tid (decoded from ``globalTid``: pid in bits 24-47, tid in
bits 0-23); ``metadata["processes"]`` maps each rank to its pid and process
name. Rows that nsys records for a process as a whole (tid 0, such as ``OS
runtime libraries profiling started``) are instants on its main thread, so no
lane holds only them. Times
are the export's ns since the session start (``metadata["start_time"]``
holds the session's UTC epoch ns). Each thread's or stream's calls are
fetched with one query per table and ordered by
:func:`graphframe_readers.traces.intervals.call_events`, so memory is bounded by the
largest stream, not the file. Option ``kernel_names``: ``"short"``
(default, ``par_ranged2d_kernel``) or ``"demangled"``.

A file SQLite cannot read (truncated, not a database) is a ReadError naming
the table being read.

Examples
--------
>>> import graphframe_readers.traces as rt
>>> "nsight" in rt.trace_formats()
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...errors import ReadError
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import EventBatch, Kind, StringTable, concat_batches
from ..handler import EventHandler
from ..intervals import call_events
from ..sources import ByteSource
from ...registry import FormatInfo

SQLITE_MAGIC = b"SQLite format 3\x00"
NVTX_MARK, NVTX_PUSH_POP, NVTX_START_END = 34, 59, 60
HOST_TABLES = ("CUPTI_ACTIVITY_KIND_RUNTIME", "OSRT_API")
MEMCPY_KIND = {0: "Unknown", 1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH", 5: "AtoA",
               6: "AtoD", 7: "DtoA", 8: "DtoD", 9: "HtoH", 10: "PtoP"}


def split_global_id(gid: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``globalTid`` -> (pid, tid) arrays.

    >>> split_global_id(np.array([310028055214088]))
    (array([1701896]), array([1701896]))
    """
    gid = np.asarray(gid, dtype=np.int64)
    return (gid >> 24) & 0xFFFFFF, gid & 0xFFFFFF


def check_pages(path: str) -> None:
    """ReadError when a SQLite file is cut short: its size is not a whole number of pages,
    or is below the page count its header records (SQLite itself reads such a file
    without a word as long as the pages a query needs are there)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return  # not a database: SQLite's own error names it
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    counted = pages and head[92:96] == head[24:28]   # the header's page count is valid
    if page < 512 or page & (page - 1):
        raise ReadError(path, f"bad page size {page}", position="byte 16",
                        expected="a power of two from 512 to 65536")
    if size % page or (counted and size < pages * page):
        raise ReadError(path, f"the file ends inside its pages ({size} bytes, "
                        f"{pages} pages of {page})" if counted else
                        f"the file is not a whole number of {page}-byte pages ({size} bytes)",
                        position=f"byte {size}",
                        expected="the whole database (truncated file?)")


class _Db:
    """A read-only connection whose errors become ReadErrors naming the table."""

    def __init__(self, path: str) -> None:
        import sqlite3  # here, not at import: recognising another format does not load it

        self.path = path
        self.error = sqlite3.Error
        check_pages(path)
        self.con = None
        try:
            self.con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            self.tables = {r[0] for r in self.con.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.Error as exc:
            if self.con is not None:
                self.con.close()
            raise ReadError(path, f"SQLite cannot read the file: {exc}", position="schema",
                            expected="an Nsight Systems SQLite export") from exc

    def rows(self, sql: str, table: str, args: tuple = ()) -> List[tuple]:
        try:
            return self.con.execute(sql, args).fetchall()
        except self.error as exc:
            raise ReadError(self.path, f"SQLite cannot read the table: {exc}",
                            position=f"table {table}", expected="a readable table") from exc

    def columns(self, table: str) -> set:
        return {r[1] for r in self.rows(f"PRAGMA table_info({table})", table)}

    def close(self) -> None:
        self.con.close()


def _export_in(folder: Path) -> "Path | None":
    """The one ``*.sqlite`` file of ``folder`` (None when there are none or several)."""
    found = sorted(p for p in folder.glob("*.sqlite") if p.is_file())
    return found[0] if len(found) == 1 else None


class NsightDecoder(Decoder):
    """Nsight Systems SQLite exports; option ``kernel_names`` ("short" or "demangled")."""

    format_name = "nsight"
    description = "Nsight Systems SQLite export (CUDA API, kernels, memcpy, NVTX, OS runtime)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if path.is_dir():  # the folder nsys wrote into: its one SQLite export
            export = _export_in(path)
            if export is None:
                return False
            with open(export, "rb") as fh:
                return cls.sniff(export, fh.read(len(SQLITE_MAGIC)))
        if not head.startswith(SQLITE_MAGIC):
            return False
        try:
            db = _Db(str(path))
        except ReadError:
            return False
        try:
            return "StringIds" in db.tables and bool(
                db.tables & {"CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API",
                             "CUPTI_ACTIVITY_KIND_KERNEL"})
        finally:
            db.close()

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        """A folder holding one ``.sqlite`` export stands for that file."""
        if isinstance(path, (str, Path)) and Path(path).is_dir():
            export = _export_in(Path(path))
            if export is None:
                raise ReadError(path, "the folder does not hold exactly one .sqlite file",
                                expected="an Nsight Systems SQLite export (nsys export "
                                         "--type sqlite) or a folder with one")
            path = export
        return super().sources(path)

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        db = _Db(source.name)
        try:
            if "StringIds" not in db.tables:
                raise ReadError(source.name, "no StringIds table", position="schema",
                                expected="an Nsight Systems SQLite export")
            names = dict(db.rows("SELECT id, value FROM StringIds", "StringIds"))
            strings = StringTable()
            gids, streams = self._host_threads(db), self._gpu_streams(db)
            lanes = Lanes(gids, streams, _mpi_ranks(db))
            defs = self._definitions(db, names, lanes)
            handler.on_definitions(defs)
            for pid, tids in lanes.host_threads():
                whole = [lanes.process_gid(pid)] if lanes.process_gid(pid) is not None else []
                for k, tid in enumerate(tids):
                    extra = whole if k == 0 else []   # process-wide rows: main thread
                    batch = self._host_stream(db, lanes.gid(pid, tid), names, strings, lanes,
                                              extra)
                    if batch is not None:
                        handler.on_batch(batch)
                if not tids and whole:
                    batch = self._host_stream(db, whole[0], names, strings, lanes, [],
                                              instants_only=True)
                    if batch is not None:
                        handler.on_batch(batch)
            for key in streams:
                batch = self._gpu_stream(db, key, names, strings, lanes)
                if batch is not None:
                    handler.on_batch(batch)
        finally:
            db.close()

    # ------------------------------------------------------------- streams
    def _host_threads(self, db: _Db) -> List[int]:
        gids: set = set()
        for table in HOST_TABLES + ("NVTX_EVENTS",):
            if table in db.tables:
                gids.update(r[0] for r in db.rows(
                    f"SELECT DISTINCT globalTid FROM {table}", table) if r[0] is not None)
        return sorted(gids)

    def _host_parts(self, db: _Db, gid: int, names: Dict[int, str],
                    strings: StringTable) -> Tuple[List[tuple], List[tuple]]:
        """Calls (interval parts) and NVTX marks of one ``globalTid``."""
        parts = []
        for table in HOST_TABLES:
            if table in db.tables:
                parts.append(_intervals(db, f"SELECT start, COALESCE(end, start), "
                                        f"COALESCE(nameId, -1) FROM {table} WHERE globalTid = ?",
                                        table, (gid,), lambda n: names.get(n, f"string {n}"),
                                        strings))
        marks = self._nvtx(db, gid, names, strings, parts)
        return parts, marks

    def _host_stream(self, db: _Db, gid: int, names: Dict[int, str], strings: StringTable,
                     lanes: "Lanes", whole: List[int], instants_only: bool = False) -> Any:
        """One host thread's events; the rows of ``whole`` (process-wide ``globalTid``s)
        become instants on it."""
        parts, marks = self._host_parts(db, gid, names, strings)
        if instants_only:
            marks, parts = marks + _as_marks(parts, strings), []
        for other in whole:
            more, more_marks = self._host_parts(db, other, names, strings)
            marks += more_marks + _as_marks(more, strings)
        start, end, name = _concat(parts)
        if not len(start) and not marks:
            return None
        rank, thread = lanes.host_lane(gid)
        batch = call_events(strings, start=start, end=end, name=name,
                            rank=rank, thread=thread, source=db.path)
        if marks:
            batch = _with_instants(batch, sorted(marks, key=lambda m: m[0]), strings, rank,
                                   thread)
        return batch

    def _nvtx(self, db: _Db, gid: int, names: Dict[int, str], strings: StringTable,
              parts: List[tuple]) -> List[tuple]:
        if "NVTX_EVENTS" not in db.tables:
            return []
        cols = db.columns("NVTX_EVENTS")
        text_id = "textId" if "textId" in cols else "NULL"
        marks, start, end, label = [], [], [], []
        for s, e, kind, text, tid_text in db.rows(
                f"SELECT start, end, eventType, text, {text_id} FROM NVTX_EVENTS "
                "WHERE globalTid = ?", "NVTX_EVENTS", (gid,)):
            name = text if text is not None else names.get(tid_text, "[NVTX]")
            if kind in (NVTX_PUSH_POP, NVTX_START_END) and e is not None:
                start.append(s)
                end.append(e)
                label.append(name)
            elif kind == NVTX_MARK:
                marks.append((s, name))
        if start:
            parts.append((np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64),
                          strings.intern_many(label), None))
        return marks

    def _gpu_streams(self, db: _Db) -> List[tuple]:
        keys: set = set()
        for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                      "CUPTI_ACTIVITY_KIND_MEMSET"):
            if table in db.tables:
                keys.update(db.rows(f"SELECT DISTINCT globalPid, deviceId, streamId "
                                    f"FROM {table}", table))
        return sorted(keys)

    def _gpu_stream(self, db: _Db, key: tuple, names: Dict[int, str],
                    strings: StringTable, lanes: "Lanes") -> Any:
        gpid, device, stream = key
        where = " WHERE globalPid = ? AND deviceId = ? AND streamId = ?"
        parts = []
        if "CUPTI_ACTIVITY_KIND_KERNEL" in db.tables:
            col = "demangledName" if self.options.get("kernel_names") == "demangled" \
                else "shortName"
            parts.append(_intervals(db, f"SELECT start, end, COALESCE({col}, -1), -1 FROM "
                                    "CUPTI_ACTIVITY_KIND_KERNEL" + where,
                                    "CUPTI_ACTIVITY_KIND_KERNEL", key,
                                    lambda n: names.get(n, f"string {n}"), strings))
        if "CUPTI_ACTIVITY_KIND_MEMCPY" in db.tables:
            parts.append(_intervals(db, "SELECT start, end, COALESCE(copyKind, 0), COALESCE(bytes, -1) FROM "
                                    "CUPTI_ACTIVITY_KIND_MEMCPY" + where,
                                    "CUPTI_ACTIVITY_KIND_MEMCPY", key,
                                    lambda k: f"CUDA memcpy {MEMCPY_KIND.get(k, k)}", strings))
        if "CUPTI_ACTIVITY_KIND_MEMSET" in db.tables:
            parts.append(_intervals(db, "SELECT start, end, 0, COALESCE(bytes, -1) FROM "
                                    "CUPTI_ACTIVITY_KIND_MEMSET" + where,
                                    "CUPTI_ACTIVITY_KIND_MEMSET", key,
                                    lambda k: "CUDA memset", strings))
        start, end, name = _concat(parts)
        if not len(start):
            return None
        size = np.concatenate([p[3] for p in parts if p[3] is not None]) if parts else None
        rank, thread = lanes.gpu_lane(key)
        return call_events(strings, start=start, end=end, name=name, rank=rank,
                           thread=thread, source=db.path, enter_attrs={"bytes": size})

    # --------------------------------------------------------- definitions
    def _definitions(self, db: _Db, names: Dict[int, str], lanes: "Lanes") -> Definitions:
        defs = Definitions(metadata={"format": "nsight"})
        if "TARGET_INFO_SESSION_START_TIME" in db.tables:
            row = db.rows("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME",
                          "TARGET_INFO_SESSION_START_TIME")
            if row:
                defs.metadata["start_time"] = int(row[0][0])
        thread_names: Dict[int, str] = {}
        if "ThreadNames" in db.tables:
            for name_id, gid in db.rows("SELECT nameId, globalTid FROM ThreadNames",
                                        "ThreadNames"):
                thread_names[int(gid)] = names.get(name_id, "")
        process_names: Dict[int, str] = {}
        if "PROCESSES" in db.tables and {"pid", "name"} <= db.columns("PROCESSES"):
            process_names = {int(p): str(n) for p, n in db.rows(
                "SELECT pid, name FROM PROCESSES", "PROCESSES") if p is not None}
        processes = {}
        for pid, tids in lanes.host_threads():
            rank = lanes.rank_of[pid]
            processes[rank] = {"pid": pid, "name": process_names.get(pid)}
            defs.ranks[rank] = {"name": f"rank {rank}", "pid": pid}
            for tid in tids:
                gid = lanes.gid(pid, tid)
                defs.threads[lanes.host_lane(gid)] = {
                    "name": thread_names.get(gid) or f"thread {tid}", "pid": pid, "tid": tid}
        for key in lanes.streams:
            pid = lanes.pid_of_stream(key)
            defs.threads[lanes.gpu_lane(key)] = {
                "name": f"GPU {key[1]} / stream {key[2]}", "device": int(key[1]),
                "stream": int(key[2]), "pid": pid}
        defs.metadata["processes"] = processes
        for table, kind in (("CUPTI_ACTIVITY_KIND_RUNTIME", "cuda"), ("OSRT_API", "os")):
            if table in db.tables:
                for (n,) in db.rows(f"SELECT DISTINCT nameId FROM {table}", table):
                    defs.regions.setdefault(names.get(n, f"string {n}"), {"kind": kind})
        return defs


class Lanes:
    """Ranks and threads of an export: ``globalTid``s and GPU streams -> small numbers.

    A process's rank is its MPI rank (``mpi``: pid -> rank) or its place in the
    order of pids; its threads are numbered from 0, the main thread (tid = pid)
    first, then by tid, then its GPU streams by (device, stream). A ``globalTid``
    with tid 0 stands for the process as a whole and gets no thread of its own.

    Examples
    --------
    >>> gid = lambda pid, tid: (pid << 24) | tid
    >>> lanes = Lanes([gid(900, 900), gid(900, 905), gid(900, 0), gid(700, 701)],
    ...               [(900 << 24, 0, 7)])
    >>> lanes.host_lane(gid(900, 905)), lanes.gpu_lane((900 << 24, 0, 7)), lanes.rank_of
    ((1, 1), (1, 2), {700: 0, 900: 1})
    """

    def __init__(self, gids: Sequence[int], streams: Sequence[tuple],
                 mpi: Optional[Dict[int, int]] = None) -> None:
        self.streams = sorted(streams, key=lambda k: (_pid(k[0]), k[1], k[2]))
        tids: Dict[int, set] = {}
        self._gids: Dict[Tuple[int, int], int] = {}  # (pid, tid) -> the export's globalTid
        for gid in gids:
            pid, tid = _pid(gid), int(gid) & 0xFFFFFF
            self._gids[(pid, tid)] = int(gid)
            tids.setdefault(pid, set())
            if tid:
                tids[pid].add(tid)
        for key in self.streams:
            tids.setdefault(_pid(key[0]), set())
        self._tids = {pid: sorted(found, key=lambda t, p=pid: (t != p, t))
                      for pid, found in tids.items()}
        pids = sorted(self._tids)
        if mpi and all(p in mpi for p in pids) and len({mpi[p] for p in pids}) == len(pids):
            self.rank_of = {p: int(mpi[p]) for p in pids}
        else:
            self.rank_of = {p: i for i, p in enumerate(pids)}
        self._thread = {pid: {tid: i for i, tid in enumerate(t)}
                        for pid, t in self._tids.items()}
        self._gpu: Dict[tuple, tuple] = {}
        count = {pid: len(t) for pid, t in self._tids.items()}
        for key in self.streams:
            pid = _pid(key[0])
            self._gpu[key] = (self.rank_of[pid], count[pid])
            count[pid] += 1

    def host_threads(self) -> List[Tuple[int, List[int]]]:
        """``(pid, tids)`` of every process, in rank order."""
        return sorted(self._tids.items(), key=lambda item: self.rank_of[item[0]])

    def gid(self, pid: int, tid: int) -> int:
        """The export's ``globalTid`` of thread ``tid`` of process ``pid``."""
        return self._gids.get((pid, tid), encode_gid(pid, tid))

    def process_gid(self, pid: int) -> Optional[int]:
        """The ``globalTid`` of rows of process ``pid`` as a whole (tid 0), if any."""
        return self._gids.get((pid, 0))

    def host_lane(self, gid: int) -> Tuple[int, int]:
        pid, tid = _pid(gid), int(gid) & 0xFFFFFF
        threads = self._thread[pid]
        return self.rank_of[pid], threads.get(tid, 0)

    def gpu_lane(self, key: tuple) -> Tuple[int, int]:
        return self._gpu[key]

    @staticmethod
    def pid_of_stream(key: tuple) -> int:
        return _pid(key[0])


def encode_gid(pid: int, tid: int) -> int:
    """A ``globalTid`` of ``pid`` and ``tid`` (pid in bits 24-47, tid in bits 0-23).

    >>> split_global_id(np.array([encode_gid(1701896, 1701906)]))
    (array([1701896]), array([1701906]))
    """
    return (int(pid) << 24) | int(tid)


def _pid(gid: int) -> int:
    return (int(gid) >> 24) & 0xFFFFFF


def _mpi_ranks(db: _Db) -> Dict[int, int]:
    """pid -> MPI rank from an ``MPI_RANKS`` table (``rank``, ``globalTid``), if any."""
    if "MPI_RANKS" not in db.tables or not {"rank", "globalTid"} <= db.columns("MPI_RANKS"):
        return {}
    return {_pid(g): int(r) for r, g in db.rows("SELECT rank, globalTid FROM MPI_RANKS",
                                                "MPI_RANKS") if r is not None and g is not None}


def _as_marks(parts: List[tuple], strings: StringTable) -> List[tuple]:
    """Interval parts as ``(time, name)`` instants (rows of a process as a whole)."""
    out = []
    for start, _end, ids, _extra in parts:
        out += [(int(t), strings[int(i)]) for t, i in zip(start.tolist(), ids.tolist())]
    return out


def _intervals(db: _Db, sql: str, table: str, args: tuple, label: Callable[[int], str],
               strings: StringTable) -> tuple:
    """``(start, end, name ids, 4th column or None)`` of a query's rows, without a row loop.

    The query returns start, end, a code naming the row (``label(code)``)
    and optionally a fourth integer column.
    """
    rows = db.rows(sql, table, args)
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty.astype(np.int32), empty
    try:
        arr = np.array(rows, dtype=np.int64)
    except (TypeError, ValueError) as exc:
        raise ReadError(db.path, f"a non-integer value in {table}: {exc}",
                        position=f"table {table}", expected="integer times and ids") from exc
    codes, inverse = np.unique(arr[:, 2], return_inverse=True)
    ids = strings.intern_many(label(int(c)) for c in codes)
    extra = arr[:, 3] if arr.shape[1] > 3 else None
    return arr[:, 0], arr[:, 1], ids[inverse.reshape(-1)], extra


def _concat(parts: List[tuple]) -> tuple:
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty.astype(np.int32)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def _with_instants(batch: Any, marks: List[tuple], strings: StringTable, rank: int,
                   thread: int) -> Any:
    """``batch`` with NVTX marks merged in time order (after events at the same time)."""
    times = np.array([m[0] for m in marks], dtype=np.int64)
    extra = EventBatch.build(strings, kind=Kind.INSTANT, time=times, rank=rank, thread=thread,
                             name=strings.intern_many(m[1] for m in marks), source=batch.source)
    merged = concat_batches([batch, extra])
    order = np.argsort(merged.time, kind="stable")
    return merged.take(order)


DECODER = NsightDecoder

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".sqlite",), markers=())
