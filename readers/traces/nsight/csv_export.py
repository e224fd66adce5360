"""NsightNvtxCsvDecoder: the NVTX push/pop range CSV of ``nsys stats`` (``nvtx_pushpop_trace``).

Columns used: ``Start (ns)``, ``End (ns)``, ``Name``, ``PID``, ``TID`` (the
others, such as ``Lvl`` and ``ParentId``, follow from the nesting). Each row
is a range: ENTER/LEAVE ordered by
:func:`graphframe_readers.traces.intervals.call_events`, on the rank of ``PID``
(processes in pid order: 0, 1, ...) and its thread ``TID`` numbered from 0 (the
main thread, whose tid is the pid, first, then by tid), as the SQLite export's
decoder numbers them; the definitions keep each thread's pid and tid. The whole CSV is one source
(UTF-8 text), parsed by pyarrow's CSV reader on the five columns used (names
dictionary-encoded) when it has 256 KiB or more (:data:`COLUMN_PATH_BYTES`)
and every row is well formed: integer times, PID and TID, one field per
column (pyarrow checks every row), no NUL byte, UTF-8. Any other input is
read again row by row with the ``csv`` module, which names the line of the first bad row: a row with a bad number,
a row whose number of fields differs from the header's (a cut line), text
that is not UTF-8 and a field over the csv module's 128 KiB are ReadErrors
naming the line.

Examples
--------
>>> from graphframe_readers.traces.sources import MemorySource
>>> from graphframe_readers.traces.handler import EventHandler
>>> class Show(EventHandler):
...     def on_enter(self, rank, thread, time, name, attrs):
...         print(rank, thread, time, name)
>>> text = (b"Start (ns),End (ns),Duration (ns),Name,PID,TID\\n"
...         b"10,90,80,main,7,7\\n20,30,10,step,7,7\\n")
>>> NsightNvtxCsvDecoder().decode(MemorySource(text, name="t.csv"), Show())
0 0 10 main
0 0 20 step
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Dict, List

import numpy as np

from ...errors import ReadError
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import StringTable
from ..handler import EventHandler
from ..intervals import call_events
from ..sources import ByteSource
from ..text import decode_text
from .sqlite_export import Lanes, encode_gid
from ...registry import FormatInfo

HEADER = b"Start (ns),End (ns)"
#: CSV files from this size on take the column path (pandas' C reader)
COLUMN_PATH_BYTES = 256 << 10
NEEDED = ("Start (ns)", "End (ns)", "Name", "PID", "TID")


class NsightNvtxCsvDecoder(Decoder):
    """``nsys stats --report nvtx_pushpop_trace`` CSV files."""

    format_name = "nsight-nvtx-csv"
    description = "Nsight Systems NVTX push/pop trace CSV (nsys stats nvtx_pushpop_trace)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        return head.lstrip(b"\xef\xbb\xbf").startswith(HEADER) and b"TID" in head[:400]

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        size = source.size() if source.seekable else None
        # a complete file in one read (no blocks to join: one copy of the text, not two)
        data = source.read_at(0, size) if size is not None else b"".join(source.blocks())
        # below COLUMN_PATH_BYTES the csv module is quicker than setting up pyarrow's reader
        fast = _fast_columns(data) if len(data) >= COLUMN_PATH_BYTES else None
        if fast is not None:
            del data  # the text is parsed: free it before the events are made
            self._decode_columns(fast, source.name, handler)
            return
        self._decode_rows(data, source, handler)

    def _decode_columns(self, fast: tuple, name: str, handler: EventHandler) -> None:
        """The column path: what :func:`_fast_columns` found, as one batch per stream."""
        strings = StringTable()
        start, end, codes, names, pid, tid = fast
        cut = np.flatnonzero((pid[1:] != pid[:-1]) | (tid[1:] != tid[:-1])) + 1
        bounds = np.r_[0, cut, len(start)]
        segments = {(int(pid[lo]), int(tid[lo])): (lo, hi)
                    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()) if hi > lo}
        lanes, defs = _lanes(segments)
        handler.on_definitions(defs)
        order = sorted(segments, key=lambda k: lanes.host_lane(encode_gid(*k)))
        # names interned in order of first use in the batches' order: the strings of
        # the row-by-row path
        batch_codes = np.concatenate([codes[slice(*segments[k])] for k in order]) \
            if order else codes
        used, first = np.unique(batch_codes, return_index=True)
        used = used[np.argsort(first, kind="stable")]
        ids = np.full(len(names) + 1, -1, dtype=np.int32)
        ids[used] = strings.intern_many([names[c] for c in used.tolist()])
        for key in order:
            lo, hi = segments[key]
            rank, thread = lanes.host_lane(encode_gid(*key))
            handler.on_batch(call_events(
                strings, start=start[lo:hi], end=end[lo:hi], name=ids[codes[lo:hi]],
                rank=rank, thread=thread, source=name))

    def _decode_rows(self, data: bytes, source: ByteSource, handler: EventHandler) -> None:
        """The row-by-row path: exact, names the line of a bad row."""
        text = decode_text(data, source.name)
        reader = csv.reader(io.StringIO(text))
        try:
            header = next(reader, None) or []
        except csv.Error as exc:
            raise _csv_error(source.name, reader, exc) from exc
        missing = [c for c in NEEDED if c not in header]
        if missing:
            raise ReadError(source.name, f"the header lacks {', '.join(missing)}",
                            position="line 1", expected="the nvtx_pushpop_trace columns")
        col = {c: header.index(c) for c in NEEDED}
        streams: Dict[tuple, List[tuple]] = {}
        width = len(header)
        number = 1
        try:
            for row in reader:
                number = reader.line_num
                if not row:
                    continue
                if len(row) != width:
                    raise ReadError(source.name, f"a row of {len(row)} fields under a header "
                                    f"of {width}", position=f"line {number}",
                                    expected="one field per column (a cut or damaged row?)")
                try:
                    key = (int(row[col["PID"]]), int(row[col["TID"]]))
                    streams.setdefault(key, []).append(
                        (int(row[col["Start (ns)"]]), int(row[col["End (ns)"]]),
                         row[col["Name"]]))
                except (ValueError, IndexError) as exc:
                    raise ReadError(source.name, f"cannot read row {row[:6]!r}",
                                    position=f"line {number}",
                                    expected="integer times, PID and TID and a name") from exc
        except csv.Error as exc:
            raise _csv_error(source.name, reader, exc) from exc
        strings = StringTable()
        lanes, defs = _lanes(streams)
        handler.on_definitions(defs)
        for pid, tid in sorted(streams, key=lambda k: lanes.host_lane(encode_gid(*k))):
            rows = streams[(pid, tid)]
            rank, thread = lanes.host_lane(encode_gid(pid, tid))
            start = np.array([r[0] for r in rows], dtype=np.int64)
            end = np.array([r[1] for r in rows], dtype=np.int64)
            handler.on_batch(call_events(strings, start=start, end=end,
                                         name=strings.intern_many(r[2] for r in rows),
                                         rank=rank, thread=thread, source=source.name))


def _lanes(streams: Any) -> "tuple[Lanes, Definitions]":
    """The (pid, tid) streams' lanes (ranks in pid order, threads main first) and the
    definitions that keep each thread's pid and tid."""
    lanes = Lanes([encode_gid(pid, tid) for pid, tid in streams], [])
    defs = Definitions(metadata={"format": "nsight-nvtx-csv"})
    for pid, tid in streams:
        defs.threads[lanes.host_lane(encode_gid(pid, tid))] = {"pid": pid, "tid": tid}
    return lanes, defs


def _fast_columns(data: bytes):
    """``(start, end, name codes, names, pid, tid)`` in file order (rows of one stream
    keep their order; the streams are ordered by (pid, tid) by a stable sort), or None
    when the input is not plainly well formed (the row-by-row path then decides)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data or (b"\r" in data and data.count(b"\r") != data.count(b"\r\n")):
        return None  # NUL bytes, or a line break the csv module and pyarrow may see apart
    if not data.isascii():
        try:  # the CSV reader checks the text of the columns it keeps only
            data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    first = data.find(b"\n")
    header_line = data[:first if first >= 0 else len(data)].rstrip(b"\r")
    if b'"' in header_line:
        return None
    header = header_line.decode("utf-8", "replace").split(",")
    if any(c not in header for c in NEEDED) or len(set(header)) != len(header):
        return None
    import pyarrow as pa
    import pyarrow.csv as pcsv

    ints = {c: pa.int64() for c in ("Start (ns)", "End (ns)", "PID", "TID")}
    try:
        table = pcsv.read_csv(
            pa.py_buffer(data),
            read_options=pcsv.ReadOptions(block_size=16 << 20),
            parse_options=pcsv.ParseOptions(newlines_in_values=False),
            convert_options=pcsv.ConvertOptions(
                include_columns=list(NEEDED),
                column_types=dict(ints, Name=pa.dictionary(pa.int32(), pa.string())),
                null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError, OverflowError):
        return None  # a row of another number of fields, a bad number...
    table = table.unify_dictionaries()
    cols = {c: table.column(c) for c in NEEDED}
    if any(col.null_count for col in cols.values()):
        return None

    def numbers(c: str) -> np.ndarray:
        chunks = [ch.to_numpy(zero_copy_only=False) for ch in cols[c].chunks]
        return np.concatenate(chunks) if len(chunks) != 1 else chunks[0]

    start, end, pid, tid = (numbers(c).astype(np.int64, copy=False)
                            for c in ("Start (ns)", "End (ns)", "PID", "TID"))
    name = cols["Name"]
    if name.num_chunks:
        codes = np.concatenate([ch.indices.to_numpy(zero_copy_only=False)
                                for ch in name.chunks]).astype(np.int64)
        names = [str(v) for v in name.chunk(0).dictionary.to_pylist()]
    else:
        codes, names = np.zeros(0, dtype=np.int64), []
    if len(pid) > 1 and not ((pid[1:] > pid[:-1]) | ((pid[1:] == pid[:-1])
                                                      & (tid[1:] >= tid[:-1]))).all():
        order = np.lexsort((tid, pid))  # stable: each stream keeps its rows' order
        start, end, codes, pid, tid = start[order], end[order], codes[order], pid[order], \
            tid[order]
    return start, end, codes, names, pid, tid


def _csv_error(name: str, reader: Any, exc: Exception) -> ReadError:
    """The csv module's error (a field over its 128 KiB limit, a NUL...) as a ReadError."""
    return ReadError(name, f"not valid CSV: {exc}", position=f"line {reader.line_num}",
                     expected="CSV rows (fields of at most 128 KiB)")


DECODER = NsightNvtxCsvDecoder

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".csv",), markers=())
