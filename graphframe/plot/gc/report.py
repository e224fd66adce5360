"""The HTML report of one GC log, or of two compared: summary table, GC plots, phase tree.

Self-contained (inline SVG, no network), built with the page helpers of
:mod:`graphframe.plot.report`. With two logs the summary gains a column of
changes (second / first) and every plot draws both logs.
"""

from __future__ import annotations

import html
import math
from typing import Any, List, Optional, Sequence, Tuple

from .allocation import gc_allocation
from .causes import gc_causes
from .common import gc_view
from .heap import gc_heap
from .heatmap import gc_heatmap
from .latency import gc_latency
from .pauses import gc_pauses
from .percentiles import gc_percentiles
from .phases import gc_phases
from ..report import _figure, _page, _table

#: summary rows of the report: (column, label, how to show it)
ROWS = (("run_time", "run time", "s"), ("gc_count", "GCs", "n"),
        ("pause_count", "pauses", "n"), ("pause_total", "pause time total", "ms"),
        ("pause_mean", "pause mean", "ms"), ("pause_max", "pause max", "ms"),
        ("pause_p50", "pause p50", "ms"), ("pause_p90", "pause p90", "ms"),
        ("pause_p99", "pause p99", "ms"), ("pause_p99.9", "pause p99.9", "ms"),
        ("throughput", "throughput", "%"), ("concurrent_time", "concurrent time", "ms"),
        ("full_gc_count", "full GCs", "n"), ("allocation_rate", "allocation rate", "MB/s"),
        ("reclaimed", "reclaimed", "MB"), ("promoted", "promoted", "MB"),
        ("safepoint_count", "safepoints", "n"), ("safepoint_total", "safepoint time", "ms"),
        ("time_to_reach_max", "max time to safepoint", "ms"))


def show(value: float, how: str) -> str:
    """A summary value as text in the report's unit.

    >>> show(0.0123, "ms"), show(0.987, "%"), show(3 * 2 ** 20, "MB"), show(float("nan"), "n")
    ('12.300 ms', '98.70 %', '3.0 MB', '-')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if how == "ms":
        return f"{value * 1e3:.3f} ms"
    if how == "%":
        return f"{value * 100:.2f} %"
    if how in ("MB", "MB/s"):
        return f"{value / 2 ** 20:.1f} {how}"
    if how == "s":
        return f"{value:.3f} s"
    return f"{int(value)}"


def gc_report(data: Any, *, title: str = "GC report") -> str:
    """The HTML page (a string) of the GC view of ``data`` (one or two logs)."""
    view = gc_view(data)
    logs = view.logs
    s = view.summary()
    header = ["", *logs] + (["change"] if len(logs) == 2 else [])
    rows = []
    for col, label, how in ROWS:
        vals = [s.loc[log, col] if log in s.index else float("nan") for log in logs]
        row = [("", label)] + [("num", show(float(v), how)) for v in vals]
        if len(logs) == 2:
            a, b = (float(v) for v in vals)
            ratio = b / a if a and not math.isnan(a) and not math.isnan(b) else float("nan")
            row.append(("num", "-" if math.isnan(ratio) else f"x{ratio:.3g}"))
        rows.append(row)
    meta = view.metadata.get("logs", {})
    facts = []
    for log in logs:
        md = meta.get(log, {})
        collector = html.escape(str(md.get("collector") or "?"))
        facts.append(f"<li><b>{html.escape(log)}</b>: {collector}"
                     f", JDK {html.escape(str(md.get('jvm_version') or '?'))}, decorators "
                     f"{html.escape(str(md.get('decorators', '')))}, "
                     f"{md.get('counts', {}).get('lines', '?')} lines, "
                     f"{md.get('unparsed', {}).get('count', 0)} not understood</li>")
    sections: List[Tuple[str, str, str]] = [
        ("summary", "Summary", _table(header, rows) + "<ul>" + "".join(facts) + "</ul>")]
    plots = [("pauses", "Pauses over time", lambda ax: gc_pauses(view, ax=ax), (10, 4)),
             ("phases", "Pause and concurrent phases", lambda ax: gc_phases(view, ax=ax),
              (10, 1.2 + 0.5 * len(logs))),
             ("heap", "Heap before / after each GC and capacity", lambda ax: gc_heap(view, ax=ax),
              (10, 4)),
             ("allocation", "Allocation rate", lambda ax: gc_allocation(view, ax=ax), (10, 3.5)),
             ("percentiles", "Pause percentiles", lambda ax: gc_percentiles(view, ax=ax), (8, 4)),
             ("latency", "Latency percentiles compared", lambda ax: gc_latency(view, ax=ax),
              (8, 4)),
             ("causes", "Pause time by cause", lambda ax: gc_causes(view, ax=ax), (9, 4))]
    figs = [_figure(fid, cap, draw, size) for fid, cap, draw, size in plots]
    for i, log in enumerate(logs):
        figs.append(_figure(f"heatmap{i}", f"Pauses by time and duration: {log}",
                            lambda ax, lg=log: gc_heatmap(view, filter={"log": lg}, ax=ax),
                            (10, 4.5)))
    sections.append(("plots", "Plots", "\n".join(figs)))
    try:
        tree = view.to_graphframe().tree(color=False)
        sections.append(("tree", "GC phase tree", f"<pre>{html.escape(tree)}</pre>"))
    except Exception as exc:  # a log without phases: say so in the page
        sections.append(("tree", "GC phase tree", f"<p class=\"note\">{html.escape(str(exc))}</p>"))
    return _page(title, sections)


def write_gc_report(path: Any, data: Any, *, title: Optional[str] = None) -> str:
    """Write :func:`gc_report` to ``path``; returns the path."""
    view = gc_view(data)
    text = gc_report(view, title=title or ("GC report: " + " vs ".join(view.logs)))
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return str(path)


def labels_of(paths: Sequence[str]) -> List[str]:
    """Distinct labels for the logs of a comparison (their file names)."""
    import os
    names = [os.path.basename(os.path.normpath(p)) for p in paths]
    return names if len(set(names)) == len(names) else [f"{i + 1}: {n}" for i, n in
                                                        enumerate(names)]
