"""ProjectionsDecoder: Charm++ Projections logs (``<name>.sts`` + ``<name>.<pe>.log[.gz]``).

One source per PE (rank = PE, thread 0). Each log starts with
``PROJECTIONS-RECORD <n>`` (the number of records) and holds one record per
line, times in µs (converted to ns). What becomes which event:

=========================================  ====================================
record                                     events
=========================================  ====================================
2 BEGIN_PROCESSING / 3 END_PROCESSING      ENTER / LEAVE ``Chare::entry(args)``
                                           and, after the ENTER, a RECV from the
                                           sending PE with the message length
1 CREATION, 20 CREATION_BCAST,             SEND named after the target entry
21 CREATION_MULTICAST                      method (bytes = message length; the
                                           destination is not in the record)
14 / 15 BEGIN / END_IDLE                   ENTER / LEAVE ``Idle``
16 / 17 PACK, 18 / 19 UNPACK               ENTER / LEAVE ``Pack`` / ``Unpack``
22 / 23 BEGIN / END_FUNC                   ENTER / LEAVE the function's name
98 / 99 BEGIN / END_USER_EVENT_PAIR        ENTER / LEAVE the user event's name
13 USER_EVENT, 28 / 29 notes               INSTANT (a bracketed note at its end)
=========================================  ====================================

Other records (enqueue, computation and trace markers, memory and user
statistics) are skipped. A log whose record count differs from its header,
or that has no ``7`` END_COMPUTATION record, is truncated: ReadError.

A log is read as a stream: block by block, inflated block by block when
gzip-compressed (:mod:`..compressed`: any number of gzip members, a limit
on the inflation ratio), checked to be UTF-8 text, cut into whole lines
(a line may not pass :data:`~..limits.MAX_ITEM_BYTES`) and decoded one
record at a time (a Python step per record: the records have no fixed
layout), with a batch of events handed on every :data:`BATCH_EVENTS`
events. Memory per PE is bounded by the block and batch sizes, whatever the
log's size; the events before a damaged or cut record reach the handler
before the ReadError.

Every processor the ``.sts`` declares (``PROCESSORS <n>``) must have its
log: a missing one is a :class:`~graphframe_readers.errors.MissingMembersError`
naming it (``missing="warn"`` reads the others).

Examples
--------
>>> import graphframe_readers.traces as rt
>>> "projections" in rt.trace_formats()
True
"""

from __future__ import annotations

import os
import re
from array import array
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

import numpy as np

from ...errors import MissingMembersError, ReadError
from ..compressed import maybe_inflated
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import EventBatch, Kind, StringTable
from ..handler import EventHandler
from ..limits import MAX_ITEM_BYTES
from ..sources import ByteSource, FileSource
from ..text import decode_text, line_blocks, utf8_blocks

# The .sts parser (its patterns compile on import) loads with the first read, not when
# sniffing imports this module.
if TYPE_CHECKING:
    from .sts import Sts

BATCH_EVENTS = 1 << 20
_LOG = re.compile(r"^(?P<base>.*)\.(?P<pe>\d+)\.log(\.gz)?$")
PAIRS = {14: ("Idle", Kind.ENTER), 15: ("Idle", Kind.LEAVE), 16: ("Pack", Kind.ENTER),
         17: ("Pack", Kind.LEAVE), 18: ("Unpack", Kind.ENTER), 19: ("Unpack", Kind.LEAVE)}


def _sts_path(path: Path) -> Optional[Path]:
    if path.is_dir():
        found = sorted(path.glob("*.sts"))
        return found[0] if len(found) == 1 else None
    if path.suffix == ".sts":
        return path
    m = _LOG.match(str(path))
    return Path(m.group("base") + ".sts") if m else None


def _logs(sts: Path) -> List[FileSource]:
    base = str(sts)[:-4]
    out = []
    for p in sorted(sts.parent.iterdir()):
        m = _LOG.match(str(p))
        if m and m.group("base") == base:
            out.append(FileSource(p, rank=int(m.group("pe"))))
    out.sort(key=lambda s: s.rank)
    return out


#: (path, mtime, size) -> Sts of the last .sts files read in this process
_STS_CACHE: "OrderedDict[tuple, Sts]" = OrderedDict()


def read_sts(path: str) -> Sts:
    """The parsed ``.sts`` file at ``path`` (UTF-8 text, at most MAX_ITEM_BYTES), read once
    per process while the file is unchanged."""
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            key = (path, st.st_mtime_ns, st.st_size)
            if key in _STS_CACHE:
                return _STS_CACHE[key]
            data = fh.read(MAX_ITEM_BYTES + 1)
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc
    if len(data) > MAX_ITEM_BYTES:
        raise ReadError(path, f"the .sts file is larger than {MAX_ITEM_BYTES >> 20} MiB",
                        position=f"byte {MAX_ITEM_BYTES}",
                        expected="a Projections definitions file")
    from .sts import parse_sts
    sts = _STS_CACHE[key] = parse_sts(decode_text(data, path).splitlines(), path)
    while len(_STS_CACHE) > 4:
        _STS_CACHE.popitem(last=False)
    return sts


def _declared(sts_file: Path, logs: List[FileSource]) -> None:
    """MissingMembersError when a processor the .sts declares has no log."""
    sts = read_sts(str(sts_file))
    have = {s.rank for s in logs}
    base = str(sts_file)[:-4]
    absent = {f"processor {pe}": f"{base}.{pe}.log.gz" for pe in range(sts.processors)
              if pe not in have}
    if absent:
        raise MissingMembersError(sts_file, absent, present=logs,
                                  declared=f"PROCESSORS {sts.processors}")


class ProjectionsDecoder(Decoder):
    """Charm++ Projections logs (folder, ``.sts`` file, or ``.log[.gz]`` files)."""

    format_name = "projections"
    description = "Charm++ Projections logs (<name>.sts + <name>.<pe>.log[.gz])"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if path.is_file() and path.suffix == ".sts":
            return head.startswith(b"PROJECTIONS_ID")
        sts = _sts_path(path)
        return sts is not None and sts.is_file() and (path.is_dir() or bool(_LOG.match(str(path))))

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        if isinstance(path, ByteSource) or (isinstance(path, (list, tuple)) and path
                                            and isinstance(path[0], ByteSource)):
            return super().sources(path)
        if isinstance(path, (list, tuple)):
            out = []
            for p in path:
                m = _LOG.match(os.fspath(p))
                if m is None:
                    raise ReadError(p, "not a Projections log file name",
                                    expected="<name>.<pe>.log or <name>.<pe>.log.gz")
                out.append(FileSource(p, rank=int(m.group("pe"))))
            return sorted(out, key=lambda s: s.rank)
        given = Path(os.fspath(path))
        sts = _sts_path(given)
        if sts is None or not sts.is_file():
            if given.is_file() and sts is None:
                raise ReadError(path, "not a Projections trace file", position="the file name",
                                expected="<name>.sts or <name>.<pe>.log[.gz]")
            raise ReadError(path, "no .sts file found" + (f" ({sts.name})" if sts else ""),
                            expected="<name>.sts beside the logs")
        logs = _logs(sts)
        _declared(sts, logs)
        return logs

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        m = _LOG.match(source.name)
        if m is None:
            raise ReadError(source.name, "not a Projections log file name",
                            expected="<name>.<pe>.log or <name>.<pe>.log.gz")
        sts = read_sts(m.group("base") + ".sts")
        pe = int(m.group("pe")) if source.rank is None else source.rank
        handler.on_definitions(_definitions(sts, pe))
        strings = StringTable()
        log = _Log(sts, strings, source.name)
        blocks = line_blocks(utf8_blocks(maybe_inflated(source.blocks(), source.name),
                                         source.name), source.name)
        for piece in blocks:
            log.feed(piece.decode("utf-8").split("\n"))
            if len(log.out.kind) >= BATCH_EVENTS:
                self._emit(handler, log, strings, pe, source.name)
        log.finish()
        self._emit(handler, log, strings, pe, source.name)

    @staticmethod
    def _emit(handler: EventHandler, log: "_Log", strings: StringTable, pe: int,
              name: str) -> None:
        cols = log.out.take()
        if len(cols["kind"]):
            handler.on_batch(EventBatch.build(strings, rank=pe, thread=0, source=name, **cols))


def parse_log(lines: List[str], sts: Sts, strings: StringTable, name: str) -> Dict[str, Any]:
    """Event columns of one PE's log (ReadError on a bad or missing record).

    Examples
    --------
    >>> from .sts import Sts
    >>> sts = Sts(version=11.0, entries={3: "Main::run()"})
    >>> cols = parse_log(["PROJECTIONS-RECORD 3", "14 5 0", "15 9 0", "7 10"], sts,
    ...                  StringTable(), "app.0.log")
    >>> cols["kind"].tolist(), cols["time"].tolist()
    ([0, 1], [5000, 9000])
    """
    log = _Log(sts, strings, name)
    log.feed(lines)
    log.finish()
    return log.out.take()


class _Log:
    """The state of decoding one log, fed a run of lines at a time."""

    def __init__(self, sts: Sts, strings: StringTable, name: str) -> None:
        self.name = name
        self.out = _Columns(strings, sts)
        self.line = 0           # lines seen
        self.records = 0        # non-blank lines after the header
        self.announced: Optional[int] = None
        self.ended = False
        self.partial = ""       # a last line without its line end, completed by the next feed

    def feed(self, lines: List[str]) -> None:
        """Decode ``lines`` (the pieces of text split at line ends; the last piece is
        the start of a line whose end comes in a later feed, or ``""``)."""
        if self.partial:
            lines[0] = self.partial + lines[0]
        self.partial = lines.pop()
        if self.announced is None and lines:
            self._header(lines[0])
            self.line += 1
            lines = lines[1:]
        out, ended = self.out, self.ended
        number = self.line
        for number, line in enumerate(lines, start=self.line + 1):
            fields = line.split()
            if not fields:
                continue
            self.records += 1
            try:
                ended = out.record(fields, line) or ended
            except (ValueError, IndexError, OverflowError) as exc:
                raise ReadError(self.name, f"cannot parse record {line[:60]!r}",
                                position=f"line {number}",
                                expected="a Projections log record of this type") from exc
        self.line += len(lines)
        self.ended = ended

    def _header(self, line: str) -> None:
        if not line.startswith("PROJECTIONS-RECORD"):
            raise ReadError(self.name, "the log does not start with PROJECTIONS-RECORD",
                            position="line 1", expected="a Projections log header")
        try:
            self.announced = int(line.split()[1])
        except (IndexError, ValueError):
            self.announced = -1

    def finish(self) -> None:
        """Check the end of the log: the header's record count and END_COMPUTATION."""
        if self.partial:
            rest, self.partial = self.partial, ""
            self.feed([rest, ""])
        if self.announced is None:
            raise ReadError(self.name, "the log does not start with PROJECTIONS-RECORD",
                            position="line 1", expected="a Projections log header")
        last = max(self.line, 1)
        if self.announced >= 0 and self.records != self.announced:
            raise ReadError(self.name, f"{self.records} records, the header announces "
                            f"{self.announced}", position=f"line {last}",
                            expected="the whole log (truncated?)")
        if not self.ended:
            raise ReadError(self.name, "no END_COMPUTATION record", position=f"line {last}",
                            expected="a last record '7 <time>' (truncated log?)")


class _Columns:
    """Per-event columns filled record by record (typed arrays: 40 bytes an event; a
    number outside int64 is an OverflowError at its record)."""

    def __init__(self, strings: StringTable, sts: Sts) -> None:
        self.strings, self.sts = strings, sts
        self._empty()
        self.ids: Dict[tuple, int] = {}
        self.funcs: Dict[int, int] = {}

    def _id(self, table: str, key: int, label: Optional[str]) -> int:
        ident = self.ids.get((table, key))
        if ident is None:
            ident = self.ids[(table, key)] = self.strings.intern(label)
        return ident

    def entry(self, key: int) -> int:
        return self._id("entry", key, self.sts.entries.get(key, f"entry {key}"))

    def event(self, key: int) -> int:
        return self._id("event", key, self.sts.events.get(key, f"user event {key}"))

    def add(self, kind: int, time: int, name: int, peer: int = -1, size: int = -1) -> None:
        self.kind.append(kind)
        self.time.append(time * 1000)
        self.name.append(name)
        self.peer.append(peer)
        self.bytes.append(size)

    def record(self, f: List[str], line: str) -> bool:
        """Add the events of one record; True for END_COMPUTATION."""
        code = int(f[0])
        if code == 2:
            ident, t = self.entry(int(f[2])), int(f[3])
            self.add(Kind.ENTER, t, ident)
            self.add(Kind.RECV, t, ident, int(f[5]), int(f[6]))
        elif code == 3:
            self.add(Kind.LEAVE, int(f[3]), self.entry(int(f[2])))
        elif code in (1, 20, 21):
            self.add(Kind.SEND, int(f[3]), self.entry(int(f[2])), -1, int(f[6]))
        elif code in PAIRS:
            label, kind = PAIRS[code]
            self.add(kind, int(f[1]), self._id("pair", code | 1, label))
        elif code == 22:
            label = line.split(None, 4)[4].strip() if len(f) > 4 else f"function {f[2]}"
            self.funcs[int(f[2])] = self.strings.intern(label)
            self.add(Kind.ENTER, int(f[1]), self.funcs[int(f[2])])
        elif code == 23:
            ident = self.funcs.get(int(f[2]))
            self.add(Kind.LEAVE, int(f[1]), ident if ident is not None
                     else self.strings.intern(f"function {f[2]}"))
        elif code in (98, 99):
            self.add(Kind.ENTER if code == 98 else Kind.LEAVE, int(f[2]), self.event(int(f[1])))
        elif code == 13:
            self.add(Kind.INSTANT, int(f[2]), self.event(int(f[1])))
        elif code == 28:
            self.add(Kind.INSTANT, int(f[1]), self.strings.intern("note"))
        elif code == 29:
            self.add(Kind.INSTANT, int(f[2]), self.event(int(f[3])))
        return code == 7

    def _empty(self) -> None:
        self.kind, self.time, self.name, self.peer, self.bytes = (array("q") for _ in range(5))

    def take(self) -> Dict[str, Any]:
        """The events so far as columns; the columns start again empty."""
        def col(a: array, dtype: Any) -> np.ndarray:
            return np.frombuffer(a, dtype=np.int64).astype(dtype) if len(a) \
                else np.zeros(0, dtype=dtype)

        cols = {"kind": col(self.kind, np.uint8), "time": col(self.time, np.int64),
                "name": col(self.name, np.int32), "peer": col(self.peer, np.int64),
                "bytes": col(self.bytes, np.int64)}
        self._empty()
        return cols


def _definitions(sts: Sts, pe: int) -> Definitions:
    regions = {label: {"kind": "entry", "chare": sts.chares.get(sts.entry_chare[e], "")}
               for e, label in sts.entries.items()}
    meta = {"format": "projections", "version": sts.version, "processors": sts.processors}
    meta.update({k: v for k, v in sts.metadata.items() if k in ("machine", "charmversion",
                                                                "commandline", "hostname")})
    return Definitions(ranks={pe: {"name": f"PE {pe}"}}, regions=regions, metadata=meta)


DECODER = ProjectionsDecoder
