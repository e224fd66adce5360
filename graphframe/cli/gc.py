"""``graphframe gc LOG...`` and the GC branches of ``info``, ``plot`` and ``report``.

Kept in one module so the command line's wiring stays a few lines:
:func:`add_parser` adds the ``gc`` command, :func:`is_gc_log` tells the other
commands when a path is a JVM GC log, :func:`info_text`, :func:`summary_text`,
:func:`report_gc_file` does the work with plain values; the GC plots are kinds of the
plot registry (``graphframe/plot/gc/*.py``, drawn by ``graphframe plot``).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, Dict, Optional, Sequence

from ..errors import ArgumentError

#: plot kinds of GC logs (``graphframe plot gc-pauses LOG -o out.png``)
GC_KINDS = ("gc-pauses", "gc-phases", "gc-heap", "gc-allocation", "gc-histogram",
            "gc-percentiles", "gc-latency", "gc-heatmap", "gc-causes")
FILTER_KEYS = ("event_type", "name", "cause", "collector", "generation", "log", "gc_id",
               "time", "duration")


def is_gc_log(path: Any) -> bool:
    """True when ``path`` (a file, a folder or a list of them) is a JVM GC log (the
    resolver's answer)."""
    from ..io.resolve import kind_of, resolve

    if not kind_of(path, prefer="trace"):
        return False
    return resolve(path, prefer="trace").format == "jvm-gc"


def parse_filters(items: Optional[Sequence[str]]) -> Dict[str, Any]:
    """``--filter KEY=VALUE`` items -> GcView.filter keywords.

    A key given twice keeps both values; ``time`` and ``duration`` take
    ``LOW:HIGH`` in seconds (either side may be empty).

    >>> parse_filters(["event_type=pause", "cause=System.gc()", "cause=Ergonomics",
    ...                "duration=0.01:"])
    {'event_type': ['pause'], 'cause': ['System.gc()', 'Ergonomics'], 'duration': (0.01, None)}
    """
    out: Dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in FILTER_KEYS:
            raise ArgumentError(f"--filter {item!r}: give KEY=VALUE with KEY one of "
                                f"{', '.join(FILTER_KEYS)}")
        if key in ("time", "duration"):
            lo, _, hi = value.partition(":")
            try:
                out[key] = (float(lo) if lo.strip() else None, float(hi) if hi.strip() else None)
            except ValueError:
                raise ArgumentError(f"--filter {item!r}: {key} takes LOW:HIGH in seconds") \
                    from None
        elif key == "gc_id":
            out.setdefault(key, []).append(int(value))
        else:
            out.setdefault(key, []).append(value)
    return out


def read_logs(paths: Sequence[str]) -> Any:
    """The TraceFrame of the logs at ``paths`` (files, rotated parts, folders)."""
    from ..traces import read_trace
    return read_trace(list(paths) if len(paths) > 1 else paths[0], format="jvm-gc")


def info_text(path: str) -> str:
    """What ``graphframe info LOG`` prints for a GC log."""
    tf = read_logs([path])
    view = tf.gc
    logs = tf.metadata.get("logs", {})
    s = view.summary()
    counts = view.events["event_type"].value_counts()
    lines = [("path", str(path)), ("format", "jvm-gc (JVM garbage-collection log)"),
             ("logs", str(len(logs)))]
    for label, md in logs.items():
        row = s.loc[label] if label in s.index else None
        heap = md.get("heap_max")
        lines += [
            ("log", label + (f" ({len(md['parts'])} rotated parts)" if len(md.get("parts", []))
                             > 1 else "")),
            ("  jvm", md.get("jvm_version") or "?"),
            ("  collector", md.get("collector") or "?"),
            ("  heap", f"{heap / 2 ** 20:.0f} MB max" if heap == heap and heap else "?"),
            ("  decorators", md.get("decorators", "")),
            ("  lines", f"{md['counts']['lines']} ({md['counts']['gc_lines']} GC lines, "
                        f"{md['understood'] * 100:.1f} % understood; "
                        f"{md['unparsed']['count']} not understood)")]
        if row is not None:
            lines += [("  time", f"{row['run_time']:.3f} s"),
                      ("  GCs", f"{int(row['gc_count'])} ({int(row['pause_count'])} pauses, "
                                f"{int(row['full_gc_count'])} full, "
                                f"{int(row['safepoint_count'])} safepoints)")]
    lines.append(("events", ", ".join(f"{k} {int(v)}" for k, v in counts.items() if v)))
    return "".join(f"{k + ':':14}{v}\n" for k, v in lines)


#: columns of ``graphframe gc`` and how they print
SUMMARY_COLUMNS = (("gc_count", "GCs", "n"), ("pause_count", "pauses", "n"),
                   ("pause_total", "pause total", "ms"), ("pause_mean", "mean", "ms"),
                   ("pause_max", "max", "ms"), ("pause_p50", "p50", "ms"),
                   ("pause_p90", "p90", "ms"), ("pause_p99", "p99", "ms"),
                   ("pause_p99.9", "p99.9", "ms"), ("throughput", "throughput", "%"),
                   ("concurrent_time", "concurrent", "ms"), ("full_gc_count", "full", "n"),
                   ("allocation_rate", "alloc rate", "MB/s"),
                   ("safepoint_total", "safepoints", "ms"))


def summary_text(paths: Sequence[str], by: str = "log",
                 filters: Optional[Sequence[str]] = None) -> str:
    """The summary table ``graphframe gc`` prints (one row per group)."""
    from ..plot.gc.report import show
    view = read_logs(paths).gc
    f = parse_filters(filters)
    if f:
        view = view.filter(**f)
    keys = [k.strip() for k in by.split(",")] if by else ["log"]
    s = view.summary(by=keys if len(keys) > 1 else keys[0])
    header = [by] + [label for _, label, _ in SUMMARY_COLUMNS]
    rows = []
    for idx, r in s.iterrows():
        name = " / ".join(map(str, idx)) if isinstance(idx, tuple) else str(idx)
        rows.append([name or "(none)"] + [show(float(r[c]), how) for c, _, how in SUMMARY_COLUMNS])
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    out = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in
                     enumerate(zip(header, widths)))]
    for row in rows:
        out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                             enumerate(zip(row, widths))))
    return "\n".join(out) + "\n"


def report_gc_file(paths: Sequence[str], output: str, title: Optional[str] = None) -> str:
    """Write the HTML GC report of one log, or of two compared, to ``output``."""
    from ..plot.gc.report import labels_of, write_gc_report
    from ..traces import read_trace
    tf = read_trace(list(paths), format="jvm-gc", labels=labels_of(paths)) if len(paths) > 1 \
        else read_logs(paths)
    return write_gc_report(output, tf, title=title)


def add_parser(sub: Any) -> None:
    """Add ``graphframe gc`` to the main parser's subcommands."""
    p = sub.add_parser("gc", help="summarise JVM garbage-collection logs (pauses, "
                                  "throughput, allocation, safepoints)",
                       description="Print GCGC's summary of JVM GC logs: one row per log "
                                   "(or per --by group).")
    p.add_argument("paths", nargs="+", metavar="LOG", help="GC log(s), rotated parts or a folder")
    p.add_argument("--by", default="log", help="group by a column (log, name, cause, "
                   "generation, collector...) or several separated by commas (default log)")
    p.add_argument("--filter", action="append", metavar="KEY=VALUE",
                   help=f"keep events with KEY ({', '.join(FILTER_KEYS)}) equal to VALUE; "
                        "time/duration take LOW:HIGH seconds; repeatable")
    p.set_defaults(run=lambda args, out: summary_text(args.paths, args.by, args.filter))


def parser_note() -> str:
    """The help line of the GC plot kinds (for ``graphframe plot --help``)."""
    return ("LOG...: JVM GC log plots (--by COLUMN groups, --filter KEY=VALUE selects); "
            "gc-heatmap draws one log")


_ = argparse  # argparse types come from the callers' parsers
