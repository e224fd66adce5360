"""The ``.sts`` file of a Charm++ Projections trace: chares, entry methods, user events.

Lines used (others are kept as metadata or ignored)::

    VERSION 11.0
    PROCESSORS 2
    CHARE 45 "Hello" 1                 # id, name, array dimensions (-1: not an array)
    ENTRY CHARE 151 "SayHi(int hiNo)" 45 4   # entry id, name, chare id, message id
    EVENT 1 For Bracket Events         # user event id, name
    STAT 200 tracing user stat
    END

Examples
--------
>>> sts = parse_sts(['PROJECTIONS_ID', 'VERSION 11.0', 'PROCESSORS 2',
...                  'CHARE 45 "Hello" 1', 'ENTRY CHARE 151 "SayHi(int hiNo)" 45 4',
...                  'EVENT 1 For Bracket Events', 'END'], "hello.sts")
>>> sts.version, sts.processors, sts.entries[151], sts.events[1]
(11.0, 2, 'Hello::SayHi(int hiNo)', 'For Bracket Events')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Sequence

from ...errors import ReadError

_CHARE = re.compile(r'^CHARE (\d+) "(.*)" (-?\d+)\s*$')
_ENTRY = re.compile(r'^ENTRY CHARE (\d+) "(.*)" (-?\d+) (-?\d+)\s*$')
_QUOTED = re.compile(r'^(\w+) "(.*)"\s*$')


@dataclass
class Sts:
    """What the ``.sts`` file declares."""

    version: float = 0.0
    processors: int = 0
    chares: Dict[int, str] = field(default_factory=dict)
    chare_dims: Dict[int, int] = field(default_factory=dict)
    #: entry id -> "Chare::entry(args)"
    entries: Dict[int, str] = field(default_factory=dict)
    entry_chare: Dict[int, int] = field(default_factory=dict)
    events: Dict[int, str] = field(default_factory=dict)
    metadata: Dict[str, object] = field(default_factory=dict)


def parse_sts(lines: Sequence[str], name: str) -> Sts:
    """Parse the lines of an ``.sts`` file (ReadError naming the line on bad input)."""
    if not lines or not lines[0].startswith("PROJECTIONS_ID"):
        raise ReadError(name, "the file does not start with PROJECTIONS_ID", position="line 1",
                        expected="a Charm++ Projections .sts file")
    sts = Sts()
    entries: List[tuple] = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            _line(sts, line, entries)
        except (ValueError, IndexError) as exc:
            raise ReadError(name, f"cannot parse {line[:60]!r}", position=f"line {number}",
                            expected="a Projections .sts declaration") from exc
    body = [line.strip() for line in lines if line.strip()]
    if body[-1] != "END":
        raise ReadError(name, "the file ends before its END line (truncated?)",
                        position=f"line {len(lines) + 1}",
                        expected="the declarations up to a last line END")
    for entry, label, chare in entries:
        sts.entries[entry] = f"{sts.chares.get(chare, '?')}::{label}"
        sts.entry_chare[entry] = chare
    if not sts.version:
        raise ReadError(name, "no VERSION line", expected="VERSION <number>")
    return sts


def _line(sts: Sts, line: str, entries: List[tuple]) -> None:
    if line.startswith("ENTRY CHARE "):
        m = _ENTRY.match(line)
        if m is None:
            raise ValueError(line)
        entries.append((int(m.group(1)), m.group(2), int(m.group(3))))
    elif line.startswith("CHARE "):
        m = _CHARE.match(line)
        if m is None:
            raise ValueError(line)
        sts.chares[int(m.group(1))] = m.group(2)
        sts.chare_dims[int(m.group(1))] = int(m.group(3))
    elif line.startswith("EVENT "):
        _, ident, *label = line.split(" ")
        sts.events[int(ident)] = " ".join(label)
    elif line.startswith("VERSION "):
        sts.version = float(line.split()[1])
    elif line.startswith("PROCESSORS "):
        sts.processors = int(line.split()[1])
    else:
        m = _QUOTED.match(line)
        if m is not None:
            sts.metadata[m.group(1).lower()] = m.group(2)
