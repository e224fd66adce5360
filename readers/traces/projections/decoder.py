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
or that has no ``7`` END_COMPUTATION record, is truncated: ReadError, and
no event of that PE reaches the handler before the whole file was checked
(a PE's log is decoded in memory; logs are text of a few MB per PE).

Examples
--------
>>> import graphframe_readers.traces as rt
>>> "projections" in rt.trace_formats()
True
"""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np

from ...errors import ReadError
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import EventBatch, Kind, StringTable
from ..handler import EventHandler
from ..sources import ByteSource, FileSource
from .sts import Sts, parse_sts

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


def _text(source: ByteSource) -> str:
    """The whole (possibly gzip-compressed) log as text, read block by block."""
    parts, inflate, pos = [], None, 0
    for block in source.blocks():
        if inflate is None and block[:2] == b"\x1f\x8b":
            inflate = zlib.decompressobj(wbits=47)
        try:
            parts.append(inflate.decompress(block) if inflate is not None else block)
        except zlib.error as exc:
            raise ReadError(source.name, f"corrupt gzip data: {exc}",
                            position=f"compressed byte {pos}", expected="gzip data") from exc
        pos += len(block)
    if inflate is not None and not inflate.eof:
        raise ReadError(source.name, "the gzip stream is cut short",
                        position=f"compressed byte {pos}", expected="the rest of the log")
    return b"".join(parts).decode("utf-8", "replace")


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
        sts = _sts_path(Path(os.fspath(path)))
        if sts is None or not sts.is_file():
            raise ReadError(path, "no .sts file found", expected="<name>.sts beside the logs")
        return _logs(sts)

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        m = _LOG.match(source.name)
        if m is None:
            raise ReadError(source.name, "not a Projections log file name",
                            expected="<name>.<pe>.log or <name>.<pe>.log.gz")
        sts_file = m.group("base") + ".sts"
        try:
            sts_lines = Path(sts_file).read_text(errors="replace").splitlines()
        except OSError as exc:
            raise ReadError(sts_file, f"cannot open the file: {exc.strerror}") from exc
        sts = parse_sts(sts_lines, sts_file)
        pe = int(m.group("pe")) if source.rank is None else source.rank
        lines = _text(source).splitlines()
        strings = StringTable()
        cols = parse_log(lines, sts, strings, source.name)
        handler.on_definitions(_definitions(sts, pe))
        batch = EventBatch.build(strings, rank=pe, thread=0, source=source.name, **cols)
        for lo in range(0, len(batch), BATCH_EVENTS):
            handler.on_batch(batch.take(slice(lo, lo + BATCH_EVENTS)))


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
    if not lines or not lines[0].startswith("PROJECTIONS-RECORD"):
        raise ReadError(name, "the log does not start with PROJECTIONS-RECORD",
                        position="line 1", expected="a Projections log header")
    try:
        announced = int(lines[0].split()[1])
    except (IndexError, ValueError):
        announced = -1
    out = _Columns(strings, sts)
    ended = False
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split()
        if not fields:
            continue
        try:
            ended = out.record(fields, line) or ended
        except (ValueError, IndexError) as exc:
            raise ReadError(name, f"cannot parse record {line[:60]!r}",
                            position=f"line {number}",
                            expected="a Projections log record of this type") from exc
    records = sum(1 for ln in lines[1:] if ln.strip())
    if announced >= 0 and records != announced:
        raise ReadError(name, f"{records} records, the header announces {announced}",
                        position=f"line {len(lines)}", expected="the whole log (truncated?)")
    if not ended:
        raise ReadError(name, "no END_COMPUTATION record", position=f"line {len(lines)}",
                        expected="a last record '7 <time>' (truncated log?)")
    return out.columns()


class _Columns:
    """Per-event lists filled record by record."""

    def __init__(self, strings: StringTable, sts: Sts) -> None:
        self.strings, self.sts = strings, sts
        self.kind: List[int] = []
        self.time: List[int] = []
        self.name: List[int] = []
        self.peer: List[int] = []
        self.bytes: List[int] = []
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

    def columns(self) -> Dict[str, Any]:
        return {"kind": np.asarray(self.kind, dtype=np.uint8),
                "time": np.asarray(self.time, dtype=np.int64),
                "name": np.asarray(self.name, dtype=np.int32),
                "peer": np.asarray(self.peer, dtype=np.int64),
                "bytes": np.asarray(self.bytes, dtype=np.int64)}


def _definitions(sts: Sts, pe: int) -> Definitions:
    regions = {label: {"kind": "entry", "chare": sts.chares.get(sts.entry_chare[e], "")}
               for e, label in sts.entries.items()}
    meta = {"format": "projections", "version": sts.version, "processors": sts.processors}
    meta.update({k: v for k, v in sts.metadata.items() if k in ("machine", "charmversion",
                                                                "commandline", "hostname")})
    return Definitions(ranks={pe: {"name": f"PE {pe}"}}, regions=regions, metadata=meta)


DECODER = ProjectionsDecoder
