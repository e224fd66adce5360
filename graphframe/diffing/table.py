"""Ranked tables of a diff's largest changes, and the regression test for CI.

``ranked_changes`` lists nodes by decreasing ``|delta|`` (ties: node id) for
one metric, in its inclusive or exclusive form. ``change %`` is ``delta /
before * 100`` (``inf`` for an added node, NaN when both sides are 0).

A **regression** (``regressions(d, fail_above, kind=...)``) is a node whose
inclusive value (``kind="inclusive"``, the default) or exclusive value
(``kind="exclusive"``) grew (``delta > 0``) by more than ``fail_above``
percent of its own before value, among the significant changes (the diff's
noise threshold, percent of before's total, applied to that metric). An
added node that is significant is a regression (its change is infinite).

Call paths (the ``path`` column) are built only for the rows returned, one
depth level at a time with numpy string concatenation over the needed
ancestors, so ``top=None`` and ``regressions`` stay fast on million-node
diffs.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

import numpy as np
import pandas as pd

from ..errors import GraphframeError, MetricError
from .core import significant
from ..model.dataframe import plain_values

#: Between the names of a call path in the ``path`` column.
PATH_SEPARATOR = " > "

KINDS = ("inclusive", "exclusive", "as-is")


def diff_info(d: Any) -> Dict[str, Any]:
    """The ``metadata["diff"]`` record of a diff result (error if there is none)."""
    info = d.metadata.get("diff") if isinstance(d.metadata, dict) else None
    if not isinstance(info, dict):
        raise GraphframeError("this GraphFrame is not a diff result; "
                              "make one with graphframe.diff(before, after)")
    return info


def resolve_metric(d: Any, metric: Any = None, kind: str = "inclusive",
                   strict: bool = False) -> Any:
    """The base metric a diff view shows: ``metric`` in its ``kind`` form.

    ``kind="inclusive"`` maps an exclusive metric to its inclusive partner,
    ``"exclusive"`` maps back; a metric without the requested partner is an
    error, except that the default metric (``metric=None``) without an
    inclusive partner is shown as it is unless ``strict``. ``"as-is"``
    keeps ``metric``. :func:`metric_kind` tells which form was chosen.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> d = diff(GraphFrame.from_lists(("a", "b", "c")), GraphFrame.from_lists(("a", "b", "d")))
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
            if metric is None and not strict:
                return m
            raise MetricError(f"metric {m!r} has no inclusive partner in the diff")
        return pairs[m]
    if kind == "exclusive" and info["kinds"][m] == "inclusive":
        partner = next((e for e, i in pairs.items() if i == m), None)
        if partner is None:
            raise MetricError(f"metric {m!r} has no exclusive form in this diff: the profiles "
                              "declare it inclusive only, with no exclusive partner (as Caliper "
                              "spot profiles' per-region times); rank its changes with "
                              "kind='inclusive', or give both profiles exclusive columns first "
                              "(gf.generate_exclusive_columns(), for summed metrics)")
        return partner
    return m


def metric_kind(d: Any, column: Any) -> str:
    """``"inclusive"`` or ``"exclusive"``: how the diff declared the metric ``column``.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> d = diff(GraphFrame.from_lists(("a", "b", "c")), GraphFrame.from_lists(("a", "b", "d")))
    >>> metric_kind(d, "time"), metric_kind(d, "time (inc)")
    ('exclusive', 'inclusive')
    """
    return diff_info(d)["kinds"][column]


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
    if top is not None and (isinstance(top, bool) or int(top) != top or top < 0):
        raise ValueError(f"top={top!r}: give a number of rows (0 or more) or None for all")
    df = d.dataframe
    delta = df[f"{col} delta"].to_numpy(dtype=np.float64)
    rows = np.arange(len(df), dtype=np.int64)
    if significant_only:
        rows = np.flatnonzero(significant(delta, info["totals"]["before"][col],
                                          info["threshold"]))
    return _table(d, col, _by_size(rows, delta, top), info["by"])


def regressions(d: Any, fail_above: float, metric: Any = None,
                kind: str = "inclusive") -> pd.DataFrame:
    """Significant nodes whose value grew by more than ``fail_above`` percent.

    Parameters
    ----------
    d : GraphFrame
        A result of :func:`graphframe.diff`.
    fail_above : float
        Percent of a node's own before value (``change %``).
    metric : str, optional
        A diffed metric (default: the diff's primary metric).
    kind : {"inclusive", "exclusive"}
        Test the metric's inclusive form (a node and everything it calls;
        the default) or its exclusive form (the node's own value). A metric
        without that form is a :class:`MetricError`.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`ranked_changes`, biggest ``delta`` first;
        ``attrs`` holds ``metric`` and ``kind``.

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
    >>> regressions(diff(a, b), 10.0, kind="exclusive")["name"].tolist()
    ['mpi']
    """
    if kind not in ("inclusive", "exclusive"):
        raise ValueError(f"kind={kind!r}: choose 'inclusive' or 'exclusive'")
    info = diff_info(d)
    col = resolve_metric(d, metric, kind, strict=True)
    if info["kinds"][col] != kind:
        raise MetricError(f"metric {col!r} has no {kind} form in this diff; diff with "
                          "inclusive=True (the default) or test kind='exclusive'")
    df = d.dataframe
    delta = df[f"{col} delta"].to_numpy(dtype=np.float64)
    before = df[f"{col} before"].to_numpy(dtype=np.float64)
    keep = significant(delta, info["totals"]["before"][col], info["threshold"])
    with np.errstate(invalid="ignore"):
        keep &= (delta > 0) & (change_percent(before, delta) > float(fail_above))
    out = _table(d, col, _by_size(np.flatnonzero(keep), delta, None), info["by"])
    out.attrs["kind"] = kind
    return out


def _by_size(rows: np.ndarray, delta: np.ndarray, top: Optional[int]) -> np.ndarray:
    """``rows`` by decreasing ``|delta|`` (NaN last, ties by position), cut to ``top``."""
    size = np.abs(np.nan_to_num(delta[rows], nan=-1.0))
    if top is not None and 0 < int(top) < len(rows):
        # only the top rows need sorting: partition first (ties at the cut keep low ids)
        cut = np.partition(size, len(size) - int(top))[len(size) - int(top)]
        chosen = np.flatnonzero(size >= cut)
        rows, size = rows[chosen], size[chosen]
    rows = rows[np.lexsort((rows, -size))]
    return rows if top is None else rows[:int(top)]


def _table(d: Any, col: Any, rows: np.ndarray, by: str) -> pd.DataFrame:
    df = d.dataframe
    before = df[f"{col} before"].to_numpy(dtype=np.float64)[rows]
    delta = df[f"{col} delta"].to_numpy(dtype=np.float64)[rows]
    nodes = plain_values(df.index)[rows]
    index = pd.Index(nodes, name="node")
    out = pd.DataFrame({
        "name": _text(df["name"].to_numpy(dtype=object)[rows], index),
        "path": _text(_paths(d, nodes, by), index),
        "status": _text(df["status"].to_numpy(dtype=object)[rows], index),
        "before": before,
        "after": df[f"{col} after"].to_numpy(dtype=np.float64)[rows],
        "delta": delta,
        "change %": change_percent(before, delta),
    }, index=index)
    out.attrs["metric"] = col
    out.attrs["by"] = by
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


def _text(values: np.ndarray, index: pd.Index) -> pd.Series:
    """Text cells as an object column of Python strings, as every text column
    (:mod:`graphframe.model.text`)."""
    return pd.Series(values, index=index, dtype=object)


def _paths(d: Any, nodes: np.ndarray, by: str) -> np.ndarray:
    """Call path (names joined by " > ") of ``nodes`` along first parents.

    Only the nodes asked for and their ancestors are visited: the needed
    ancestors are marked level by level upwards, then paths are built
    downwards, one numpy concatenation per depth.
    """
    graph = d.graph
    n = graph.num_nodes
    names = np.full(n, "", dtype=object)
    values = d.dataframe["name"].to_numpy(dtype=object)
    if pd.api.types.infer_dtype(values, skipna=False) != "string":
        values = np.array([str(v) for v in values.tolist()] or [], dtype=object)
    names[plain_values(d.dataframe.index)] = values
    nodes = np.asarray(nodes, dtype=np.int64)
    if by != "path" or not len(nodes):
        return names[nodes]
    parent = graph.parent
    need = np.zeros(n, dtype=bool)
    need[nodes] = True
    frontier = nodes
    while frontier.size:  # repeats are harmless: a frontier never outgrows the last one
        up = parent[frontier]
        up = up[up >= 0]
        frontier = up[~need[up]]
        need[frontier] = True
    ids = np.flatnonzero(need)
    depth = graph.depth[ids]
    ids = ids[np.argsort(depth, kind="stable")]
    bounds = np.flatnonzero(np.diff(np.sort(depth))) + 1
    paths = np.empty(n, dtype=object)
    for level in np.split(ids, bounds):
        up = parent[level]
        top = up < 0
        if top.all():
            paths[level] = names[level]
            continue
        paths[level[top]] = names[level[top]]
        inner = level[~top]
        paths[inner] = paths[up[~top]] + PATH_SEPARATOR + names[inner]
    return paths[nodes]


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
