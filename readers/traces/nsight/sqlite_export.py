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

Ranks are process ids and threads thread ids, both taken from the
``globalTid``/``globalPid`` encoding (pid in bits 24-47, tid in bits 0-23).
A GPU stream of a process is the thread ``GPU_THREAD + device * 2**20 +
stream`` (named ``GPU <device> stream <stream>`` in the definitions). Times
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
import sqlite3
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

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
GPU_THREAD = 1 << 40
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
        self.path = path
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
        except sqlite3.Error as exc:
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
            defs = self._definitions(db, names)
            handler.on_definitions(defs)
            for gid in self._host_threads(db):
                batch = self._host_stream(db, gid, names, strings)
                if batch is not None:
                    handler.on_batch(batch)
            for key in self._gpu_streams(db):
                batch = self._gpu_stream(db, key, names, strings)
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

    def _host_stream(self, db: _Db, gid: int, names: Dict[int, str],
                     strings: StringTable) -> Any:
        parts = []
        for table in HOST_TABLES:
            if table in db.tables:
                parts.append(_intervals(db, f"SELECT start, COALESCE(end, start), "
                                        f"COALESCE(nameId, -1) FROM {table} WHERE globalTid = ?",
                                        table, (gid,), lambda n: names.get(n, f"string {n}"),
                                        strings))
        marks = self._nvtx(db, gid, names, strings, parts)
        start, end, name = _concat(parts)
        if not len(start) and not marks:
            return None
        pid, tid = split_global_id(np.array([gid]))
        batch = call_events(strings, start=start, end=end, name=name,
                            rank=int(pid[0]), thread=int(tid[0]), source=db.path)
        if marks:
            batch = _with_instants(batch, marks, strings, int(pid[0]), int(tid[0]))
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
                    strings: StringTable) -> Any:
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
        pid, _ = split_global_id(np.array([gpid]))
        return call_events(strings, start=start, end=end, name=name,
                           rank=int(pid[0]), thread=gpu_thread(device, stream),
                           source=db.path, enter_attrs={"bytes": size})

    # --------------------------------------------------------- definitions
    def _definitions(self, db: _Db, names: Dict[int, str]) -> Definitions:
        defs = Definitions(metadata={"format": "nsight"})
        if "TARGET_INFO_SESSION_START_TIME" in db.tables:
            row = db.rows("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME",
                          "TARGET_INFO_SESSION_START_TIME")
            if row:
                defs.metadata["start_time"] = int(row[0][0])
        if "ThreadNames" in db.tables:
            for name_id, gid in db.rows("SELECT nameId, globalTid FROM ThreadNames",
                                        "ThreadNames"):
                pid, tid = split_global_id(np.array([gid]))
                defs.threads[(int(pid[0]), int(tid[0]))] = {"name": names.get(name_id, "")}
        for gpid, device, stream in self._gpu_streams(db):
            pid, _ = split_global_id(np.array([gpid]))
            defs.threads[(int(pid[0]), gpu_thread(device, stream))] = {
                "name": f"GPU {device} stream {stream}", "device": int(device),
                "stream": int(stream)}
        for table, kind in (("CUPTI_ACTIVITY_KIND_RUNTIME", "cuda"), ("OSRT_API", "os")):
            if table in db.tables:
                for (n,) in db.rows(f"SELECT DISTINCT nameId FROM {table}", table):
                    defs.regions.setdefault(names.get(n, f"string {n}"), {"kind": kind})
        return defs


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


def gpu_thread(device: int, stream: int) -> int:
    """The thread id of a GPU stream (see the module docs)."""
    return GPU_THREAD + (int(device) << 20) + int(stream)


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
