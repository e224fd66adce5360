"""Thicket's ``calc_boxplot_statistics``: quartiles, IQR, fences and outlier profiles.

Columns (``q`` = ``str(tuple(quartiles))``, Thicket's suffix):
``<c>_q1<q>``, ``<c>_q2<q>``, ``<c>_q3<q>``, ``<c>_iqr<q>`` (q3 - q1),
``<c>_lowerfence<q>`` (q1 - 1.5 IQR), ``<c>_upperfence<q>`` (q3 + 1.5 IQR)
and ``<c>_outliers<q>``: the list of profiles (one entry per row, so a
profile appears once per rank) whose value lies outside the fences.
Quartiles use numpy's linear interpolation over the values a node has (NaN
skipped; Thicket's ``np.quantile`` turns a node with one NaN into NaN
quartiles). One vectorised pass; only the outlier lists are built per node.

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> gfs = [GraphFrame.from_literal([{"frame": {"name": "m"}, "metrics": {"t": v},
...                                  "children": []}]) for v in (1.0, 2.0, 3.0, 4.0, 40.0)]
>>> tk = th.Thicket.from_graphframes(gfs)
>>> cols = th.stats.calc_boxplot_statistics(tk, ["t"])
>>> row = tk.statsframe.dataframe.loc[0]
>>> row[cols[:6]].astype(float).tolist(), row[cols[6]]
([2.0, 3.0, 4.0, 2.0, -1.0, 7.0], [4])
"""

from __future__ import annotations

from typing import Any, List, Sequence

import numpy as np
import pandas as pd

from ...kernels.level_stats import percentile_name
from . import _common


def calc_boxplot_statistics(thicket: Any, columns: Any = (),
                            quartiles: Sequence[float] = (0.25, 0.5, 0.75),
                            **kwargs: Any) -> List[Any]:
    """Boxplot statistics of each column per node (see the module docstring)."""
    quartiles = list(quartiles)
    if len(quartiles) != 3 or not all(0.0 <= q <= 1.0 for q in quartiles):
        raise _common.ArgumentError(f"quartiles={quartiles!r}: give three numbers between "
                                    "0 and 1")
    columns = _common.check_columns(thicket, list(columns) if columns is not None else None)
    suffix = str(tuple(quartiles))
    table = _common.node_stats(thicket, columns, [], percentiles=[q * 100 for q in quartiles])
    node_pos = _common.node_positions(thicket)
    profiles = thicket.dataframe.index.get_level_values(
        getattr(thicket, "profile_idx_name", "profile"))
    out: List[Any] = []
    for i, c in enumerate(columns):
        q1, q2, q3 = (table[_common.thicket_column(c, percentile_name(q * 100))]
                      for q in quartiles)
        iqr = q3 - q1
        low, high = q1 - 1.5 * iqr, q3 + 1.5 * iqr
        v = _common.values(thicket, c)
        with np.errstate(invalid="ignore"):
            outside = (v > high[node_pos]) | (v < low[node_pos])
        outliers = _lists(len(q1), node_pos[outside], profiles[outside])
        parts = {"q1": q1, "q2": q2, "q3": q3, "iqr": iqr, "lowerfence": low,
                 "upperfence": high, "outliers": outliers}
        named = {_name(c, k, suffix): vals for k, vals in parts.items()}
        out += _common.write(thicket, c, named)
    return out


def _lists(n: int, positions: np.ndarray, labels: pd.Index) -> np.ndarray:
    """A list of labels per node position (empty lists where none)."""
    order = np.argsort(positions, kind="stable")
    ordered = np.asarray(labels, dtype=object)[order].tolist()
    bounds = np.searchsorted(positions[order], np.arange(n + 1)).tolist()
    cells = np.empty(n, dtype=object)
    cells[:] = [ordered[bounds[i]:bounds[i + 1]] for i in range(n)]   # one list per node
    return cells


def _name(column: Any, part: str, suffix: str) -> Any:
    if isinstance(column, tuple):
        return column[:-1] + (f"{column[-1]}_{part}{suffix}",)
    return f"{column}_{part}{suffix}"
