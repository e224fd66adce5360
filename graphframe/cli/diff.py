"""What ``graphframe diff`` prints (text in, text out; the diff loads with this module)."""

from __future__ import annotations

import warnings
from typing import Any, Optional

from ..diffing import format_changes, ranked_changes, regressions
from ..diffing.core import MIN_MATCH, diff
from ..diffing.metric_pairs import suggest_pairs
from ..model.fields import metric_columns
from ..diffing.table import resolve_metric
from ..errors import MetricError, PoorMatchWarning
from ..graphframe import GraphFrame
from .common import EXIT_REGRESSION, FAIL_KINDS, Report, UsageError, open_profile


def diff_report(before_path: str, after_path: str, metric: Optional[str] = None,
                threshold: float = 1.0, top: int = 10, fail_above: Optional[float] = None,
                by: str = "path", normalize: bool = False, aggregate: str = "mean",
                rank: Optional[int] = None, depth: int = 10000, tree: bool = True,
                color: bool = False, unicode: bool = True, precision: int = 3,
                progress: bool = False, fail_kind: str = "inclusive",
                options: Optional[list] = None, pairs: Optional[list] = None) -> Report:
    """Everything ``graphframe diff`` prints, and its exit status.

    The ranked tables show the metric's inclusive form, then its exclusive
    form; an inclusive form the profiles lack is computed from the exclusive
    values (see :func:`graphframe.diff`). ``fail_kind`` says which form
    ``fail_above`` tests.
    """
    if isinstance(top, bool) or int(top) != top or top < 1:
        raise UsageError(f"--top {top}: give a number of rows, 1 or more")
    if fail_kind not in FAIL_KINDS:
        raise UsageError(f"--fail-kind {fail_kind}: choose {' or '.join(FAIL_KINDS)}")
    before = open_profile(before_path, progress=progress, options=options)
    after = open_profile(after_path, progress=progress, options=options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PoorMatchWarning)  # said below, with the CLI's words
        d = diff(before, after, metric, by=by, normalize=normalize, threshold=threshold,
                 aggregate=aggregate, rank=rank, metric_map=metric_map(pairs, before, after))
    info = d.metadata["diff"]
    poor = _poor_match(info["match"], by)
    inc = resolve_metric(d, metric, "inclusive")
    exc = _exclusive_form(d, metric)
    arrow = "→" if unicode else "->"
    how = f"rank {rank}" if rank is not None else f"{aggregate} over ranks"
    unit = " (percent of total)" if normalize else ""
    parts = [f"graphframe diff: {before_path} {arrow} {after_path}\n",
             f"metric {_label(d, inc, exc)}{unit}, {how}, matched by "
             f"{'call path' if by == 'path' else 'function name'}, "
             f"noise threshold {threshold:g}% of the before total\n\n"]
    if poor:
        parts.append(f"Note: {poor}\n\n")
    parts.append(format_changes(ranked_changes(d, inc, "as-is", top),
                                f"Largest changes, {info['kinds'][inc]} ({inc}):",
                                precision) + "\n")
    if exc is not None and exc != inc:
        parts.append(format_changes(ranked_changes(d, exc, "as-is", top),
                                    f"Largest changes, exclusive ({exc}):", precision) + "\n")
    elif exc is None:  # say why the exclusive table is absent (spot profiles, ...)
        parts.append(f"Largest changes, exclusive: not shown; {_no_exclusive(d, metric)}\n\n")
    if tree:
        parts.append(f"Changed call paths ({inc}, delta and before {arrow} after):\n")
        parts.append(d.diff_tree(inc, kind="as-is", depth=depth, changed_only=True,
                                 color=color, unicode=unicode, precision=precision,
                                 render_header=False) or "  (none)\n")
    report = Report("".join(parts))
    if fail_above is not None:
        bad = regressions(d, fail_above, metric, kind=fail_kind)
        tested = bad.attrs["metric"]
        if len(bad):
            names = ", ".join(str(n) for n in bad["name"].tolist()[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            unmatched = int((bad["status"] != "common").sum())
            why = f"; {unmatched} of them only in the after profile" if unmatched else ""
            why += f", and {poor}" if poor else ""
            report.error = (f"graphframe: {len(bad)} node(s) regressed by more than "
                            f"{fail_above:g}% ({fail_kind} {tested}): {names}{more}{why}\n")
            report.status = EXIT_REGRESSION
        else:
            report.text += (f"\nNo node regressed by more than {fail_above:g}% "
                            f"({fail_kind} {tested}).\n")
    return report



def _label(d: GraphFrame, inc: Any, exc: Any) -> str:
    """``time (inc)``, with a note when graphframe computed it from ``time``."""
    if inc in d.metadata["diff"]["computed_inclusive"] and exc is not None:
        return f"{inc} (summed from {exc}: the profiles have no inclusive values)"
    return str(inc)



def metric_map(pairs: Optional[list], before: GraphFrame, after: GraphFrame
               ) -> Optional[dict]:
    """``--pair`` texts as ``diff``'s ``metric_map``; ``auto`` pairs names that differ only
    in their exclusive/inclusive spelling (``cycles (E)`` = ``cycles``), which is also
    what happens without ``--pair`` (None)."""
    if not pairs:
        return None
    out: dict = {}
    for text in pairs or ():
        if text == "auto":
            out.update(suggest_pairs(metric_columns(before), metric_columns(after)))
            continue
        old, sep, new = text.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise UsageError(f"--pair {text}: write BEFORE=AFTER (a metric of each profile), "
                             "or auto")
        out[old.strip()] = new.strip()
    return out


def _poor_match(match: dict, by: str) -> str:
    """A sentence when fewer than half of the nodes matched, else ``""``."""
    if match["fraction"] >= MIN_MATCH:
        return ""
    other = "--by name" if by == "path" else "--by path"
    return (f"only {match['common']} of {match['nodes']} nodes are in both profiles "
            f"({match['fraction']:.0%}): most changes compare a node with nothing; check that "
            f"both are profiles of the same program, or try {other}")


def _no_exclusive(d: GraphFrame, metric: Optional[str]) -> str:
    try:
        resolve_metric(d, metric, "exclusive")
    except MetricError as exc:
        return str(exc.args[0]) if exc.args else str(exc)
    return ""


def _exclusive_form(d: GraphFrame, metric: Optional[str]) -> Optional[str]:
    try:
        return resolve_metric(d, metric, "exclusive")
    except MetricError:
        return None
