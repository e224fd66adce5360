"""NsightNvtxCsvDecoder: the NVTX push/pop range CSV of ``nsys stats`` (``nvtx_pushpop_trace``).

Columns used: ``Start (ns)``, ``End (ns)``, ``Name``, ``PID``, ``TID`` (the
others, such as ``Lvl`` and ``ParentId``, follow from the nesting). Each row
is a range: ENTER/LEAVE ordered by
:func:`graphframe_readers.traces.intervals.call_events`, on the rank of ``PID``
(processes in pid order: 0, 1, ...) and its thread ``TID`` numbered from 0 (the
main thread, whose tid is the pid, first, then by tid), as the SQLite export's
decoder numbers them; the definitions keep each thread's pid and tid. The whole CSV is one source
(read with the ``csv`` module; UTF-8 text); a row with a bad number, a row
whose number of fields differs from the header's (a cut line), text that is
not UTF-8 and a field over the csv module's 128 KiB are ReadErrors naming
the line.

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
NEEDED = ("Start (ns)", "End (ns)", "Name", "PID", "TID")


class NsightNvtxCsvDecoder(Decoder):
    """``nsys stats --report nvtx_pushpop_trace`` CSV files."""

    format_name = "nsight-nvtx-csv"
    description = "Nsight Systems NVTX push/pop trace CSV (nsys stats nvtx_pushpop_trace)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        return head.lstrip(b"\xef\xbb\xbf").startswith(HEADER) and b"TID" in head[:400]

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        text = decode_text(b"".join(source.blocks()), source.name)
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
        lanes = Lanes([encode_gid(pid, tid) for pid, tid in streams], [])
        defs = Definitions(metadata={"format": "nsight-nvtx-csv"})
        for pid, tid in streams:
            defs.threads[lanes.host_lane(encode_gid(pid, tid))] = {"pid": pid, "tid": tid}
        handler.on_definitions(defs)
        order = sorted(streams, key=lambda k: lanes.host_lane(encode_gid(*k)))
        for pid, tid in order:
            rows = streams[(pid, tid)]
            rank, thread = lanes.host_lane(encode_gid(pid, tid))
            start = np.array([r[0] for r in rows], dtype=np.int64)
            end = np.array([r[1] for r in rows], dtype=np.int64)
            handler.on_batch(call_events(strings, start=start, end=end,
                                         name=strings.intern_many(r[2] for r in rows),
                                         rank=rank, thread=thread, source=source.name))


def _csv_error(name: str, reader: Any, exc: Exception) -> ReadError:
    """The csv module's error (a field over its 128 KiB limit, a NUL...) as a ReadError."""
    return ReadError(name, f"not valid CSV: {exc}", position=f"line {reader.line_num}",
                     expected="CSV rows (fields of at most 128 KiB)")


DECODER = NsightNvtxCsvDecoder

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".csv",), markers=())
