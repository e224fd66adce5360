"""Write ``perf script`` output of any size, with the call paths it must read back as.

:func:`generate_perf_script` draws random stacks (``main`` or ``start_thread``
outermost, then functions from a pool, some unknown ``[unknown]`` frames, some
kernel frames) for a few threads and events, and prints them as ``perf script``
does: a header per sample (``comm pid/tid time: period event:``), the frames
innermost first, each after a tab (``address symbol+0xoffset (dso)``), and an
empty line.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, Sequence, Tuple

import numpy as np

Path_ = Tuple[str, ...]


@dataclass(frozen=True)
class PerfTruth:
    """Samples and summed periods per ``(call path from the root, event)``; the
    root of a path is the command name, the other names are function names."""

    samples: Dict[Tuple[Path_, str], int]
    periods: Dict[Tuple[Path_, str], int]
    total: int


def generate_perf_script(path: Any, samples: int = 1000, functions: int = 40,
                         max_depth: int = 12, events: Sequence[str] = ("cycles", "instructions"),
                         threads: int = 2, seed: int = 0) -> PerfTruth:
    """Write random ``perf script`` output to ``path``; return what it holds.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe_readers.perf import read_perf_script
    >>> p = os.path.join(tempfile.mkdtemp(), "perf.txt")
    >>> truth = generate_perf_script(p, samples=50)
    >>> raw = read_perf_script(p)
    >>> int(raw.metrics["cycles"].sum() + raw.metrics["instructions"].sum()) == truth.total
    True
    """
    rng = np.random.default_rng(seed)
    pool = [f"fn_{k}" for k in range(functions)]
    dso_of = [("/opt/app/bin/app", "/usr/lib/libm.so.6", "/usr/lib/libc.so.6")[k % 3]
              for k in range(functions)]
    counts: Counter = Counter()
    periods: Counter = Counter()
    out = []
    pid = 4100
    time = 1000.0
    for s in range(samples):
        tid = pid + int(rng.integers(0, threads))
        event = events[int(rng.integers(0, len(events)))]
        period = int(rng.integers(1, 5)) * 250000
        time += float(rng.random()) / 1000
        depth = int(rng.integers(1, max_depth + 1))
        picks = rng.integers(0, functions, size=depth)
        outer = ("main", "/opt/app/bin/app") if tid == pid else \
            ("start_thread", "/usr/lib/libc.so.6")
        frames = [outer] + [(pool[k], dso_of[k]) for k in picks.tolist()]
        if rng.random() < 0.1:
            frames.append(("[unknown]", "[unknown]"))
        if rng.random() < 0.1:
            frames.append(("asm_sysvec_apic_timer_interrupt", "[kernel.kallsyms]"))
        out.append(f"app {pid}/{tid} {time:12.6f}: {period:10d} {event}: ")
        names = ["app"]
        for sym, dso in reversed(frames):  # innermost first
            address = int(rng.integers(0x1000, 0xFFFFF)) if sym != "[unknown]" else \
                0x7F0000 + s
            label = sym if sym == "[unknown]" else f"{sym}+0x{int(rng.integers(1, 200)):x}"
            out.append(f"\t{address:16x} {label} ({dso})")
        for sym, _ in frames:
            names.append(f"{0x7F0000 + s:x}" if sym == "[unknown]" else sym)
        key = (tuple(names), event)
        counts[key] += 1
        periods[key] += period
        out.append("")
    with open(os.fspath(path), "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")
    return PerfTruth(dict(counts), dict(periods), samples)
