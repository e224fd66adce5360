"""DUMPI records one at a time (the exact path) and the sections after the call stream.

:func:`parse_record` decodes one record into a :class:`Record` (function,
thread, CPU and wall times, perf counters, arguments); :func:`read_trailer`
reads the index at the end of a file and the sections it points to
(header, footer call counts, datatype sizes, function names);
:func:`iter_records` yields every record of a file. The vectorised decoder
(:mod:`.decoder`) uses these for records whose length depends on their
data and for everything outside the call stream.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ...errors import ReadError
from ..sources import ByteSource
from .layouts import (ALL_FUNCTIONS, CPU, END_OF_STREAM, FOOTER_MAGIC, FUNCTION_ENTER,
                      FUNCTION_EXIT, FUNCTIONS, LAYOUTS, MAGIC, PERF, STATUS, THREAD, WALL)

_U16 = struct.Struct(">H")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_I64 = struct.Struct(">q")
_U64 = struct.Struct(">Q")
_TIME = struct.Struct(">HIHI")
_STATUS = struct.Struct(">iibbi")


class Short(Exception):
    """The buffer ends inside a record (more bytes are needed)."""


@dataclass
class Record:
    """One decoded call record; times in ns (wall: since the epoch; CPU: since the bias)."""

    label: int
    name: str
    thread: int
    cpu: Tuple[int, int]
    wall: Tuple[int, int]
    args: Dict[str, Any]
    perf: List[Tuple[int, int]] = field(default_factory=list)
    offset: int = 0


@dataclass
class Trailer:
    """What follows the call stream: header, counts, sizes, names."""

    version: Tuple[int, int, int] = (0, 0, 0)
    start_time: int = 0
    hostname: str = ""
    username: str = ""
    call_counts: List[int] = field(default_factory=list)
    ignored_counts: List[int] = field(default_factory=list)
    type_sizes: List[int] = field(default_factory=list)
    functions: Dict[int, str] = field(default_factory=dict)
    body: int = 8


def record_name(label: int, args: Dict[str, Any], functions: Dict[int, str]) -> str:
    """The region name of a record (a user function's name for enter/exit records)."""
    if label < ALL_FUNCTIONS:
        return FUNCTIONS[label]
    fn = args.get("fn", 0)
    return functions.get(fn, f"0x{fn:x}")


def parse_record(buf: bytes, p: int, biases: Tuple[int, int], functions: Dict[int, str],
                 source: str, base: int = 0) -> Tuple[Record, int]:
    """Decode the record at ``buf[p:]``; returns it and the offset after it.

    Raises :class:`Short` when ``buf`` ends inside the record and ReadError
    for a label that is not a DUMPI function.
    """
    if p + 3 > len(buf):
        raise Short
    label = _U16.unpack_from(buf, p)[0]
    mask = buf[p + 2]
    layout = LAYOUTS.get(label)
    if layout is None:
        if label <= END_OF_STREAM:
            raise ReadError(source, f"the record layout of {_label_name(label)} is not "
                            "supported by this decoder", position=f"byte {base + p}",
                            expected="a supported MPI call (see graphframe_readers.traces.dumpi.layouts)")
        raise ReadError(source, f"bad function label {label}", position=f"byte {base + p}",
                        expected=f"a DUMPI function label below {END_OF_STREAM}")
    q = p + 3
    try:
        thread = 0
        if mask & THREAD:
            thread = _U16.unpack_from(buf, q)[0]
            q += 2
        cpu = wall = (0, 0)
        if mask & CPU:
            cpu, q = _times(buf, q, biases[0]), q + 12
        if mask & WALL:
            wall, q = _times(buf, q, biases[1]), q + 12
        perf = []
        if mask & PERF:
            count = buf[q]
            q += 1
            for _ in range(count):
                perf.append((_I64.unpack_from(buf, q)[0], _I64.unpack_from(buf, q + 8)[0]))
                q += 16
        args: Dict[str, Any] = {}
        for name, typ, root_only in layout:
            if root_only and args.get("commrank") != args.get("root"):
                continue
            value, q = _value(buf, q, typ, mask)
            if typ == "argv":
                args["argc"] = len(value)
            args[name] = value
    except (struct.error, IndexError):
        raise Short from None
    if q > len(buf):
        raise Short
    return Record(label, record_name(label, args, functions), thread, cpu, wall, args, perf,
                  base + p), q


def _times(buf: bytes, q: int, bias: int) -> Tuple[int, int]:
    s0, n0, s1, n1 = _TIME.unpack_from(buf, q)
    return ((s0 + bias) * 1_000_000_000 + n0, (s1 + bias) * 1_000_000_000 + n1)


def _value(buf: bytes, q: int, typ: str, mask: int) -> Tuple[Any, int]:
    if typ in ("i", "req"):
        return _I32.unpack_from(buf, q)[0], q + 4
    if typ in ("dt", "comm", "group", "win", "info", "file"):
        return _U16.unpack_from(buf, q)[0], q + 2
    if typ in ("op", "u8"):
        return buf[q], q + 1
    if typ == "i64":
        return _U64.unpack_from(buf, q)[0], q + 8
    if typ == "str":
        n = _I32.unpack_from(buf, q)[0]
        if n < 0 or q + 4 + n > len(buf):
            raise Short
        return buf[q + 4:q + 4 + n].decode("utf-8", "replace"), q + 4 + n
    if typ in ("ia", "dta"):
        n = _I32.unpack_from(buf, q)[0]
        q += 4
        fmt = struct.Struct(f">{n}{'i' if typ == 'ia' else 'H'}")
        return list(fmt.unpack_from(buf, q)), q + fmt.size
    if typ == "st":
        if not mask & STATUS:
            return None, q
        n = _I32.unpack_from(buf, q)[0]
        q += 4
        out = []
        for _ in range(n):
            nbytes, src, cancelled, error, tag = _STATUS.unpack_from(buf, q)
            out.append({"bytes": nbytes, "source": src, "cancelled": cancelled,
                        "error": error, "tag": tag})
            q += _STATUS.size
        return out, q
    if typ == "argv":
        argc = _I32.unpack_from(buf, q)[0]
        q += 4
        argv = []
        for _ in range(argc):
            n = _I32.unpack_from(buf, q)[0]
            argv.append(buf[q + 4:q + 4 + n].decode("utf-8", "replace"))
            q += 4 + n
        return argv, q
    raise ValueError(f"unknown DUMPI argument type {typ!r}")


def _label_name(label: int) -> str:
    if label < ALL_FUNCTIONS:
        return FUNCTIONS[label]
    return {FUNCTION_ENTER: "function-enter", FUNCTION_EXIT: "function-exit"}.get(
        label, f"label {label}")


# ---------------------------------------------------------------- trailer
def read_trailer(source: ByteSource) -> Trailer:
    """Header, footer, datatype sizes and function names, through the index at the end.

    The index is the last 64 bytes (8 big-endian int64: magic, sizes,
    function names, perf labels, header, body, footer, keyval offsets;
    older files have fewer, always starting with the magic).
    """
    size = source.size()
    name = source.name
    if size is None or size < 72:
        raise ReadError(name, "no DUMPI index at the end of the file (truncated?)",
                        position=f"byte {size or 0}",
                        expected="a DUMPI trace with its index record at the end")
    tail = source.read_at(size - 64, 64)
    words = [tail[i:i + 8] for i in range(0, 64, 8)]
    first = next((i for i, w in enumerate(words[:4]) if w == MAGIC), None)
    if first is None:
        raise ReadError(name, "no DUMPI index at the end of the file (truncated?)",
                        position=f"byte {size - 64}",
                        expected="the index record starting with the DUMPI magic")
    offsets = [_U64.unpack(w)[0] for w in words[first + 1:]]
    named = dict(zip(["sizes", "functions", "perf", "header", "body", "footer", "keyval"]
                     [7 - len(offsets):], offsets))
    for key, off in named.items():
        if off >= size:
            raise ReadError(name, f"the index points past the end of the file ({key} at {off})",
                            position=f"byte {size - 64 + 8 * first}",
                            expected="offsets inside the file")
    out = Trailer(body=named.get("body", 8))
    try:
        _read_header(source, named.get("header", 0), out)
        _read_footer(source, named.get("footer", 0), out)
        _read_sizes(source, named.get("sizes", 0), out)
        _read_functions(source, named.get("functions", 0), out)
    except (struct.error, IndexError, UnicodeDecodeError) as exc:
        raise ReadError(name, "a section after the call stream is cut short",
                        position=f"byte {size}", expected="complete DUMPI sections") from exc
    return out


def _read_header(source: ByteSource, off: int, out: Trailer) -> None:
    if not off:
        return
    buf = source.read_at(off, 4096)
    out.version = (buf[0], buf[1], buf[2])
    out.start_time = _U64.unpack_from(buf, 3)[0]
    q = 11
    n = _U16.unpack_from(buf, q)[0]
    out.hostname = buf[q + 2:q + 2 + n].decode("utf-8", "replace")
    q += 2 + n
    n = _U16.unpack_from(buf, q)[0]
    out.username = buf[q + 2:q + 2 + n].decode("utf-8", "replace")


def _read_footer(source: ByteSource, off: int, out: Trailer) -> None:
    if not off:
        return
    n = ALL_FUNCTIONS + 1
    buf = source.read_at(off, 8 + 8 * n)
    if _U64.unpack_from(buf, 0)[0] != FOOTER_MAGIC:
        raise ReadError(source.name, "bad footer magic", position=f"byte {off}",
                        expected="0xf007fee7")
    counts = struct.unpack_from(f">{2 * n}i", buf, 8)
    out.call_counts, out.ignored_counts = list(counts[:n]), list(counts[n:])


def _read_sizes(source: ByteSource, off: int, out: Trailer) -> None:
    if not off:
        return
    n = _I32.unpack(source.read_at(off, 4))[0]
    out.type_sizes = list(struct.unpack(f">{n}i", source.read_at(off + 4, 4 * n)))


def _read_functions(source: ByteSource, off: int, out: Trailer) -> None:
    if not off:
        return
    buf = source.read_at(off, 1 << 20)
    n = _I32.unpack_from(buf, 0)[0]
    q = 4
    for _ in range(n):
        if q + 10 > len(buf):
            buf += source.read_at(off + len(buf), 1 << 20)
        addr = _U64.unpack_from(buf, q)[0]
        ln = _U16.unpack_from(buf, q + 8)[0]
        out.functions[addr] = buf[q + 10:q + 10 + ln].decode("utf-8", "replace")
        q += 10 + ln


def iter_records(source: ByteSource, trailer: Optional[Trailer] = None) -> Iterator[Record]:
    """Every call record of one DUMPI file, in order (the exact, slow path).

    Examples
    --------
    >>> from graphframe_readers.traces.sources import MemorySource
    >>> from graphframe_readers.testing.writers.dumpi import DumpiWriter
    >>> w = DumpiWriter()
    >>> w.call("MPI_Barrier", 0, 10, comm=2)
    >>> src = MemorySource(w.finish(), name="t.bin")
    >>> [(r.name, r.wall, r.args) for r in iter_records(src)]
    [('MPI_Barrier', (0, 10), {'comm': 2})]
    """
    trailer = trailer or read_trailer(source)
    start = trailer.body
    buf = source.read_at(start, 8)
    biases = (_I32.unpack_from(buf, 0)[0], _I32.unpack_from(buf, 4)[0])
    pos = start + 8
    pending = b""
    for block in source.blocks(pos):
        pending += block
        p = 0
        while True:
            if p + 2 <= len(pending) and _U16.unpack_from(pending, p)[0] == END_OF_STREAM:
                return
            try:
                rec, q = parse_record(pending, p, biases, trailer.functions, source.name, pos)
            except Short:
                break
            yield rec
            p = q
        pending, pos = pending[p:], pos + p
    raise ReadError(source.name, "the call stream ends inside a record (truncated file?)",
                    position=f"byte {pos}", expected="a complete record or the end-of-stream mark")
