"""What one log's decoder carries from block to block (and part to part).

Examples
--------
>>> u = Unparsed(limit=1)
>>> u.add("gc.log", [3, 9], [b"GC(1) ???", b"zz"], [True, False])
>>> u.count, u.gc_count, u.examples
(2, 1, [('gc.log', 3, 'GC(1) ???')])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .layout import Layout

#: unparsed lines kept as examples (file, line number, text)
EXAMPLES = 20


@dataclass
class Unparsed:
    """Lines not understood: how many, and the first ``limit`` with their line numbers."""

    limit: int = EXAMPLES
    count: int = 0
    #: those among them that carry ``GC(n)`` (or mention a safepoint)
    gc_count: int = 0
    examples: List[Tuple[str, int, str]] = field(default_factory=list)

    def add(self, name: str, lines: Sequence[int], texts: Sequence[bytes],
            gc: Sequence[bool]) -> None:
        """Count lines (numbers from 1) and keep the first examples."""
        self.count += len(lines)
        self.gc_count += int(sum(bool(g) for g in gc))
        room = self.limit - len(self.examples)
        for line, text in list(zip(lines, texts))[:max(room, 0)]:
            self.examples.append((name, int(line), text.decode("utf-8", "replace")))

    def as_dict(self) -> dict:
        """Plain values for the definitions' metadata."""
        return {"count": self.count, "gc_lines": self.gc_count,
                "examples": [list(e) for e in self.examples]}


@dataclass
class LogState:
    """Facts of one log that later blocks and rotated parts need."""

    layout: Optional[Layout] = None
    #: ns since the epoch of the first dated line (time origin of logs without uptime)
    date_origin: Optional[int] = None
    region_size: float = math.nan
    collector: str = ""
    version: str = ""
    heap_max: float = math.nan
    generational_zgc: bool = False
    #: JDK 11 safepoints: the last "Entering safepoint region" name, the last
    #: "Application time" not yet given to a safepoint
    safepoint_name: str = ""
    app_time: float = math.nan
    #: a JDK 11 safepoint total or ``Application time`` line was read (the time carried is
    #: then this log's own: read when a log is decoded in ranges, see :mod:`.parallel`)
    safepoint_seen: bool = False
    #: titles that appeared with a duration (their start lines are understood)
    duration_titles: Set[str] = field(default_factory=set)
    unparsed: Unparsed = field(default_factory=Unparsed)
    counts: Dict[str, int] = field(default_factory=lambda: {
        "lines": 0, "decorated": 0, "gc_lines": 0, "gc_understood": 0, "events": 0,
        "blank": 0})
    truncated_last_line: bool = False
