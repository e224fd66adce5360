"""Thicket's ``correlation_nodewise``: per node, the correlation of two columns over rows.

Pearson, Spearman (Pearson of ranks, ties averaged) and Kendall's tau-b
are computed for all nodes at once from per-node sums (Kendall from the signs
of all pairs within a node, a block of nodes at a time). Rows where either
value is missing are left out (Thicket passes them to SciPy, which returns
NaN for the whole node). A node with fewer than two such rows, or whose
values do not vary, gets NaN. The column is
``"<column1>_vs_<column2> <correlation>"``; no SciPy needed.

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> gfs = [GraphFrame.from_literal([{"frame": {"name": "m"}, "metrics": {"a": a, "b": b},
...                                  "children": []}]) for a, b in ((1, 2), (2, 4), (3, 5))]
>>> tk = th.Thicket.from_graphframes(gfs)
>>> th.stats.correlation_nodewise(tk, "a", "b", "spearman")
['a_vs_b spearman']
>>> float(tk.statsframe.dataframe.loc[0, "a_vs_b spearman"])
1.0
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pandas as pd

from ...ensemble._internal import BLOCK_CELLS
from . import _common

METHODS = ("pearson", "spearman", "kendall")


def correlation_nodewise(thicket: Any, column1: Any = None, column2: Any = None,
                         correlation: str = "pearson") -> List[Any]:
    """Per-node correlation of ``column1`` and ``column2`` (see the module docstring)."""
    if column1 is None or column2 is None:
        raise _common.ArgumentError("give column1= and column2=")
    _common.check_columns(thicket, [column1, column2])
    if correlation not in METHODS:
        raise _common.ArgumentError(f"correlation={correlation!r}: use one of "
                                    f"{', '.join(METHODS)}")
    n_nodes = len(thicket.statsframe.dataframe)
    pos = _common.node_positions(thicket)
    x, y = _common.values(thicket, column1), _common.values(thicket, column2)
    ok = ~(np.isnan(x) | np.isnan(y)) & (pos >= 0)
    pos, x, y = pos[ok], x[ok], y[ok]
    if correlation == "spearman":
        x = pd.Series(x).groupby(pos).rank(method="average").to_numpy()
        y = pd.Series(y).groupby(pos).rank(method="average").to_numpy()
    r = (kendall(pos, x, y, n_nodes) if correlation == "kendall"
         else pearson(pos, x, y, n_nodes))
    if isinstance(column1, tuple):
        head = column1[0] if column1[0] == column2[0] else "Union statistics"
        name: Any = (head, f"{column1[-1]}_vs_{column2[-1]} {correlation}")
    else:
        name = f"{column1}_vs_{column2} {correlation}"
    _common.put(thicket.statsframe.dataframe, name, r)
    return [name]


def pearson(group: np.ndarray, x: np.ndarray, y: np.ndarray, n: int) -> np.ndarray:
    """Pearson's r of x and y within each group 0..n-1 (NaN with < 2 values or no spread).

    Examples
    --------
    >>> pearson(np.array([0, 0, 0, 1]), np.array([1.0, 2, 3, 5]), np.array([2.0, 4, 6, 1]), 2)
    array([ 1., nan])
    """
    count = np.bincount(group, minlength=n).astype(np.float64)
    with np.errstate(all="ignore"):
        mx = np.bincount(group, x, minlength=n) / count
        my = np.bincount(group, y, minlength=n) / count
        dx, dy = x - mx[group], y - my[group]
        sxy = np.bincount(group, dx * dy, minlength=n)
        sxx = np.bincount(group, dx * dx, minlength=n)
        syy = np.bincount(group, dy * dy, minlength=n)
        r = sxy / np.sqrt(sxx * syy)
    r[(count < 2) | ~np.isfinite(r)] = np.nan
    return np.clip(r, -1.0, 1.0)


def kendall(group: np.ndarray, x: np.ndarray, y: np.ndarray, n: int) -> np.ndarray:
    """Kendall's tau-b within each group (NaN with < 2 values or no spread).

    Examples
    --------
    >>> kendall(np.array([0, 0, 0, 0]), np.array([1.0, 2, 3, 4]), np.array([1.0, 3, 2, 4]), 1)
    array([0.66666667])
    """
    order = np.argsort(group, kind="stable")
    group, x, y = group[order], x[order], y[order]
    count = np.bincount(group, minlength=n)
    starts = np.concatenate([[0], np.cumsum(count)])
    width = int(count.max()) if n and len(group) else 0
    slot = np.arange(len(group)) - starts[group]
    out = np.full(n, np.nan)
    step = max(1, BLOCK_CELLS // max(width * width, 1))
    for g0 in range(0, n, step):   # blocks of nodes, each a (nodes, width) padded matrix
        g1 = min(n, g0 + step)
        rows = slice(starts[g0], starts[g1])
        bx = np.full((g1 - g0, width), np.nan)
        by = np.full((g1 - g0, width), np.nan)
        bx[group[rows] - g0, slot[rows]] = x[rows]
        by[group[rows] - g0, slot[rows]] = y[rows]
        sx = np.sign(bx[:, :, None] - bx[:, None, :])
        sy = np.sign(by[:, :, None] - by[:, None, :])
        sx, sy = np.nan_to_num(sx), np.nan_to_num(sy)
        concord = (sx * sy).sum(axis=(1, 2))
        with np.errstate(all="ignore"):
            tau = concord / np.sqrt(np.abs(sx).sum(axis=(1, 2)) * np.abs(sy).sum(axis=(1, 2)))
        out[g0:g1] = np.where(np.isfinite(tau), tau, np.nan)
    out[count < 2] = np.nan
    return out
