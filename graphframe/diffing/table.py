"""Ranked tables of a diff's largest changes, and the regression test for CI.

``ranked_changes`` lists nodes by decreasing ``|delta|`` (ties: node id) for
one metric, in its inclusive or exclusive form. ``change %`` is ``delta /
before * 100`` (``inf`` for an added node, NaN when both sides are 0).

A **regression** (``regressions(d, fail_above)``) is a node whose inclusive
value grew (``delta > 0``) by more than ``fail_above`` percent of its own
before value, among the significant changes (the diff's noise threshold,
percent of before's total, applied to that metric). An added node that is
significant is a regression (its change is infinite).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

import numpy as np
import pandas as pd

from ..errors import GraphframeError, MetricError
from .core import significant

KINDS = ("inclusive", "exclusive", "as-is")


def diff_info(d: Any) -> Dict[str, Any]:
    """The ``metadata["diff"]`` record of a diff result (error if there is none)."""
    info = d.metadata.get("diff") if isinstance(d.metadata, dict) else None
    if not isinstance(info, dict):
        raise GraphframeError("this GraphFrame is not a diff result; "
                              "make one with graphframe.diff(before, after)")
    return info


def resolve_metric(d: Any, metric: Any = None, kind: str = "inclusive") -> Any:
    """The base metric a diff view shows: ``metric`` in its ``kind`` form.

    ``kind="inclusive"`` maps an exclusive metric to its inclusive partner,
    ``"exclusive"`` maps back; a metric without the requested partner is an
    error. ``"as-is"`` keeps ``metric``.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> d = diff(GraphFrame.from_lists(("a", "b")), GraphFrame.from_lists(("a", "c")))
    >>> resolve_metric(d), resolve_metric(d, "time (inc)", "exclusive")
    ('time (inc)', 'time')
    """
    info = diff_info(d)
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r}: choose one of {', '.join(KINDS)}")
    m = info["primary"] if metric is None else metric
    if m not in info["metrics"]:
        raise MetricError(f"metric {m!r} was not diffed; the diff has "
                          f"{', '.join(map(str, info['metrics']))}")
    pairs = info["inclusive_of"]
    if kind == "inclusive" and info["kinds"][m] == "exclusive":
        if m not in pairs:
            if metric is None:
                return m
            raise MetricError(f"metric {m!r} has no inclusive partner in the diff")
        return pairs[m]
    if kind == "exclusive" and info["kinds"][m] == "inclusive":
        partner = next((e for e, i in pairs.items() if i == m), None)
        if partner is None:
            raise MetricError(f"metric {m!r} has no exclusive partner in the diff")
        return partner
    return m


def ranked_changes(d: Any, metric: Any = None, kind: str = "inclusive",
                   top: Optional[int] = 20, significant_only: bool = True) -> pd.DataFrame:
    """The largest changes of a diff, biggest ``|delta|`` first.

    Parameters
    ----------
    d : GraphFrame
        A result of :func:`graphframe.diff`.
    metric : str, optional
        A diffed metric (default: the diff's primary metric).
    kind : {"inclusive", "exclusive", "as-is"}
        Rank by the metric's inclusive or exclusive form.
    top : int, optional
        Keep this many rows (None: all).
    significant_only : bool
        Leave out unchanged nodes and changes under the noise threshold.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``node``: ``name``, ``path``, ``status``, ``before``,
        ``after``, ``delta``, ``change %``; ``metric`` in ``attrs``.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> a = GraphFrame.from_lists(("main", "solve", "io"))
    >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
    >>> ranked_changes(diff(a, b), kind="exclusive")[["path", "status", "delta"]]
                 path   status  delta
    node
    1       main > io  removed   -1.0
    2      main > mpi    added    1.0
    """
    info = diff_info(d)
    col = resolve_metric(d, metric, kind)
    df = d.dataframe
    delta = df[f"{col} delta"].to_numpy(dtype=np.float64)
    before = df[f"{col} before"].to_numpy(dtype=np.float64)
    keep = np.ones(len(df), dtype=bool)
    if significant_only:
        keep = significant(delta, info["totals"]["before"][col], info["threshold"])
    rows = np.flatnonzero(keep)
    size = np.abs(np.nan_to_num(delta[rows], nan=-1.0))
    if top is not None and 0 < int(top) < len(rows):
        # only the top rows need sorting: partition first (ties at the cut keep low ids)
        cut = np.partition(size, len(size) - int(top))[len(size) - int(top)]
        chosen = np.flatnonzero(size >= cut)
        rows, size = rows[chosen], size[chosen]
    rows = rows[np.lexsort((rows, -size))]
    if top is not None:
        rows = rows[:max(int(top), 0)]
    sub = df.iloc[rows]
    nodes = sub.index.to_numpy()
    out = pd.DataFrame({
        "name": sub["name"].to_numpy(dtype=object),
        "path": _paths(d, nodes, info["by"]),
        "status": sub["status"].to_numpy(dtype=object),
        "before": before[rows],
        "after": sub[f"{col} after"].to_numpy(dtype=np.float64),
        "delta": delta[rows],
        "change %": change_percent(before[rows], delta[rows]),
    }, index=pd.Index(nodes, name="node"))
    out.attrs["metric"] = col
    out.attrs["by"] = info["by"]
    return out


def regressions(d: Any, fail_above: float, metric: Any = None) -> pd.DataFrame:
    """Significant nodes whose inclusive value grew by more than ``fail_above`` percent.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
    >>> regressions(diff(a, b), 10.0)[["name", "change %"]]
          name  change %
    node
    0     main      50.0
    1      mpi       inf
    """
    table = ranked_changes(d, metric, kind="inclusive", top=None, significant_only=True)
    bad = (table["delta"] > 0) & (table["change %"] > float(fail_above))
    out = table[bad.to_numpy()]
    out.attrs["metric"] = table.attrs["metric"]
    return out


def change_percent(before: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """``delta / before * 100``; +-inf when before is 0 and delta is not; NaN for 0 -> 0.

    Examples
    --------
    >>> change_percent(np.array([4.0, 0.0, 0.0]), np.array([1.0, 2.0, 0.0])).tolist()
    [25.0, inf, nan]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((before == 0) & (delta != 0), np.where(delta > 0, np.inf, -np.inf),
                        delta / before * 100.0)


def _paths(d: Any, nodes: np.ndarray, by: str) -> List[str]:
    """Call path (names joined by " > ") of a few nodes, walking up first parents."""
    name_of = d.dataframe["name"]  # one row per node, indexed by node id
    parent = d.graph.parent
    out = []
    for v in nodes.tolist():
        parts: List[str] = []
        while v >= 0:
            parts.append(str(name_of.get(v, "")))
            v = int(parent[v]) if by == "path" else -1
        out.append(" > ".join(reversed(parts)))
    return out


def format_changes(table: pd.DataFrame, title: str, precision: int = 3,
                   width: int = 70) -> str:
    """A ranked table as aligned text (long call paths are shortened on the left).

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
    >>> print(format_changes(ranked_changes(diff(a, b)), "Largest changes"), end="")
    Largest changes
       delta  before   after  change  status  call path
      +1.000   2.000   3.000  +50.0%  common  main
      +1.000   0.000   1.000     new  added   main > mpi
    """
    lines = [title + "\n"]
    if not len(table):
        lines.append("  (no changes above the noise threshold)\n")
        return "".join(lines)
    cells = [[_signed(d, precision) for d in table["delta"].tolist()],
             [f"{v:.{precision}f}" for v in table["before"].tolist()],
             [f"{v:.{precision}f}" for v in table["after"].tolist()],
             [percent(v) for v in table["change %"].tolist()],
             [str(v) for v in table["status"].tolist()],
             [p if len(p) <= width else "..." + p[-(width - 3):] for p in table["path"].tolist()]]
    heads = ["delta", "before", "after", "change", "status",
             "function" if table.attrs.get("by") == "name" else "call path"]
    widths = [max(len(h), *(len(c) for c in col)) for h, col in zip(heads, cells)]
    right = [True, True, True, True, False, False]

    def row(values: List[str]) -> str:
        parts = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right)]
        return ("  " + "  ".join(parts)).rstrip() + "\n"

    lines.append(row(heads))
    lines.extend(row([col[i] for col in cells]) for i in range(len(table)))
    return "".join(lines)


def _signed(value: float, precision: int) -> str:
    return "nan" if value != value else f"{value:+.{precision}f}"


def percent(value: float) -> str:
    """``+12.5%``, ``new`` for +inf, ``gone``-style ``-inf`` never happens (before > 0)."""
    if value != value:
        return ""
    if math.isinf(value):
        return "new" if value > 0 else "-inf"
    return f"{value:+.1f}%"
