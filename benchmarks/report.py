"""Presenting benchmark results: the environment and a Markdown table."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Dict, List

REPO = Path(__file__).resolve().parent.parent


def environment(with_hatchet: bool) -> Dict[str, Any]:
    """Versions, machine and load: what a reader needs to weigh the numbers."""
    env: Dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }
    for dist in ("numpy", "pandas", "graphframe") + (("llnl-hatchet",) if with_hatchet else ()):
        try:
            env[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            env[dist] = None
    try:
        env["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                                       capture_output=True, text=True,
                                       timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        env["commit"] = None
    return env


def seconds(value: float) -> str:
    """Seconds with about three significant digits, never in exponent form.

    Examples
    --------
    >>> [seconds(v) for v in (0.000123, 0.0456, 1.234, 35.25, 612.0)]
    ['0.00012', '0.046', '1.23', '35.2', '612']
    """
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    digits = 2
    scaled = value
    while scaled < 0.1 and digits < 8:
        scaled *= 10
        digits += 1
    return f"{value:.{digits}f}"


def ratio(value: float) -> str:
    """``12x``, ``3.4x``, ``0.52x``, ``0.0006x``.

    Examples
    --------
    >>> [ratio(v) for v in (123.4, 3.44, 0.524, 0.000612)]
    ['123x', '3.4x', '0.52x', '0.00061x']
    """
    if value >= 10:
        return f"{value:.0f}x"
    if value >= 1:
        return f"{value:.1f}x"
    return seconds(value) + "x"


def memory(side: Dict[str, Any]) -> str:
    """``peak MB (+delta)`` of a measured side, empty otherwise."""
    if "peak_kb" not in side:
        return ""
    return f"{side['peak_kb'] / 1024:.0f} (+{side['delta_kb'] / 1024:.0f})"


def cell(side: Dict[str, Any], repeat: int) -> str:
    """Median seconds, or why there is none."""
    if "median_s" in side:
        text = seconds(side["median_s"])
        runs = len(side["times"])
        return text if runs >= repeat else f"{text} ({runs} run{'s' if runs > 1 else ''})"
    if side.get("timed_out"):
        return "timed out"
    return "-"


def format_table(report: Dict[str, Any]) -> str:
    """The results as a Markdown table, with notes and the environment below.

    The Hatchet columns are left out when no Hatchet side ran at all.
    """
    repeat = report["settings"]["repeat"]
    # "skipped: ..." = the budget planner's decision; other skips mean Hatchet never ran
    with_hatchet = any(r["hatchet"].get("skipped", "skipped:").startswith("skipped:")
                       for r in report["results"])
    head = ["nodes x ranks", "case", "ours (s)"]
    head += ["Hatchet (s)", "Hatchet / ours"] if with_hatchet else []
    head += ["ours peak MB (+op)"] + (["Hatchet peak MB (+op)"] if with_hatchet else [])
    head += ["notes"]
    align = {"nodes x ranks": "---", "case": "---", "notes": "---"}
    rows: List[str] = ["| " + " | ".join(head) + " |",
                       "|" + "|".join(align.get(h, "---:") for h in head) + "|"]
    skipped_all = set()
    for rec in report["results"]:
        ours, hatchet = rec["ours"], rec["hatchet"]
        notes = [n for n in (ours.get("error"), hatchet.get("error")) if n]
        if with_hatchet and hatchet.get("skipped") not in (None, "no Hatchet equivalent"):
            notes.append(hatchet["skipped"])
        elif hatchet.get("skipped"):
            skipped_all.add(hatchet["skipped"])
        if hatchet.get("timed_out"):
            notes.append(f"Hatchet stopped after {report['settings']['hatchet_timeout']:.0f} s")
        marked = with_hatchet and rec["case"] in report.get("notes", {})
        label = rec["case"] + ("*" if marked else "")
        size = f"{rec['nodes']:,} x {rec['ranks']}"
        if rec.get("threads"):
            size += f" x {rec['threads']}"
        cells = [size, label, cell(ours, repeat)]
        if with_hatchet:
            cells += [cell(hatchet, repeat), ratio(rec["ratio"]) if "ratio" in rec else ""]
        cells += [memory(ours)] + ([memory(hatchet)] if with_hatchet else [])
        rows.append("| " + " | ".join(cells + ["; ".join(notes)]) + " |")
    lines = rows + [""]
    if with_hatchet:
        for name, note in report.get("notes", {}).items():
            lines.append(f"\\* {name}: {note}.")
    else:
        lines.append(f"Hatchet not run: {', '.join(sorted(skipped_all)) or 'no case has a side'}.")
    env = report["environment"]
    lines.append(
        f"Median of {repeat} runs, each case in a fresh process; peak = largest resident size "
        "during a run (inputs included), +op = above the resident size before it. "
        f"Python {env['python']}, numpy {env.get('numpy')}, pandas {env.get('pandas')}"
        + (f", Hatchet {env['llnl-hatchet']}" if env.get("llnl-hatchet") else "")
        + f"; {env['cpus']} CPUs, load average {_load(report)}; commit {env.get('commit')}.")
    return "\n".join(lines)


def _load(report: Dict[str, Any]) -> str:
    """The 1-minute load average seen by the measurements (or at start and end)."""
    seen = [side["load_average"] for rec in report["results"]
            for side in (rec["ours"], rec["hatchet"]) if side.get("load_average") is not None]
    if seen:
        return f"{min(seen):.1f}-{max(seen):.1f} during the measurements"
    values = [report.get("load_at_start"), report["environment"].get("load_average")]
    shown = [f"{v[0]:.1f}" for v in values if v]
    return " -> ".join(shown) if shown else "n/a"
