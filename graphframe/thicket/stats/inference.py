"""Thicket's tests and distances: ``check_normality``, ``confidence_interval``,
``preference`` (Welch's t-test between two columns), ``bhattacharyya_distance``
and ``hellinger_distance``.

* ``check_normality`` (SciPy): Shapiro-Wilk per node over its values;
  ``<c>_normality`` holds real booleans (pandas ``boolean``: True when
  p > 0.05, False when p < 0.05, ``<NA>`` when undefined, e.g. fewer than 3
  values); Thicket stores the strings ``"True"``/``"False"``.
* ``confidence_interval``: ``mean -+ z * std / sqrt(n)`` with ``z`` the
  normal quantile (Python's ``statistics.NormalDist``, no SciPy), ``std``
  with ddof=1 and ``n`` the number of values of the node (Thicket counts
  rows, NaN included); column ``confidence_interval_<level>_<c>`` of
  ``(low, high)`` tuples; ``<c>_mean`` and ``<c>_std`` are added too.
* ``preference`` (SciPy): Welch's t statistic of the two columns' per-node
  means/stds with each node's own value counts (Thicket uses the first
  node's row count of the first column for both); where ``|t|`` exceeds the
  two-sided critical value at ``alpha`` the ``comparison_func`` picks, else
  ``"No preference"``. Columns ``<c0> vs <c1>_tvalue``, ``_tstatistic``,
  ``_std_preferred``, ``_mean_preferred``.
* distances from the per-node means and stds (ddof=1) of two columns:
  Bhattacharyya ``1/4 ln(1/4 (s1^2/s2^2 + s2^2/s1^2 + 2)) + 1/4 (m1 - m2)^2 /
  (s1^2 + s2^2)`` and Hellinger ``1 - sqrt(2 s1 s2 / (s1^2 + s2^2))
  exp(-1/4 (m1 - m2)^2 / (s1^2 + s2^2))``, evaluated as Thicket evaluates them
  (inf or NaN where a std is 0).

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> gfs = [GraphFrame.from_literal([{"frame": {"name": "m"}, "metrics": {"a": a, "b": b},
...                                  "children": []}]) for a, b in ((1, 2), (2, 4), (3, 5))]
>>> tk = th.Thicket.from_graphframes(gfs)
>>> th.stats.confidence_interval(tk, ["a"], 0.95)
['confidence_interval_0.95_a']
>>> [round(v, 4) for v in tk.statsframe.dataframe.loc[0, "confidence_interval_0.95_a"]]
[0.8684, 3.1316]
>>> th.stats.hellinger_distance(tk, ["a", "b"])
['a_b_hellinger_distance']
"""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist
from typing import Any, Callable, List

import numpy as np
import pandas as pd

from . import _common
from .basic import mean, std


def check_normality(thicket: Any, columns: Any = None) -> List[Any]:
    """Shapiro-Wilk normality per node -> ``<c>_normality``: the text ``"True"`` (p-value
    above 0.05) or ``"False"`` (below), as Thicket writes it; missing (``pd.NA``) when
    the p-value is 0.05 or undefined (a node with a missing value or fewer than 3)
    (needs SciPy)."""
    st = _common.scipy_stats()
    columns = _common.check_columns(thicket, columns)
    n = len(thicket.statsframe.dataframe)
    pos = _common.node_positions(thicket)
    out: List[Any] = []
    for c in columns:
        v = _common.values(thicket, c)
        ok = ~np.isnan(v) & (pos >= 0)
        order = np.argsort(pos[ok], kind="stable")
        p_sorted, v_sorted = pos[ok][order], v[ok][order]
        bounds = np.searchsorted(p_sorted, np.arange(n + 1))
        missing = np.bincount(pos[np.isnan(v) & (pos >= 0)], minlength=n) > 0
        result = np.full(n, pd.NA, dtype=object)
        for node in range(n):   # SciPy's test runs per node; numbers only, no pandas
            sample = v_sorted[bounds[node]:bounds[node + 1]]
            if len(sample) < 3 or missing[node]:
                continue
            with warnings.catch_warnings():   # a constant sample: SciPy warns, p = 1
                warnings.simplefilter("ignore")
                p = float(st.shapiro(sample).pvalue)
            if p != 0.05 and p == p:
                result[node] = "True" if p > 0.05 else "False"
        name = _suffix(c, "normality")
        out += _common.write(thicket, c, {name: result})
    return out


def confidence_interval(thicket: Any, columns: Any = None,
                        confidence_level: float = 0.95) -> List[Any]:
    """Normal confidence interval of the mean per node (see the module docstring)."""
    columns = _common.check_columns(thicket, columns)
    if not isinstance(confidence_level, float) or not 0 < confidence_level < 1:
        raise _common.ArgumentError(f"confidence_level={confidence_level!r}: give a float "
                                    "in (0, 1)")
    mean(thicket, columns)
    std(thicket, columns)
    z = NormalDist().inv_cdf((1 + confidence_level) / 2)
    counts = _common.node_stats(thicket, columns, ["count"])
    frame = thicket.statsframe.dataframe
    out: List[Any] = []
    for c in columns:
        m = frame[_common.thicket_column(c, "mean")].to_numpy(dtype=np.float64)
        s = frame[_common.thicket_column(c, "std")].to_numpy(dtype=np.float64)
        n = counts[_common.thicket_column(c, "count")].astype(np.float64)
        with np.errstate(all="ignore"):
            half = z * s / np.sqrt(n)
        pairs = np.empty(len(m), dtype=object)
        pairs[:] = list(zip((m - half).tolist(), (m + half).tolist()))
        name = (c[:-1] + (f"confidence_interval_{confidence_level}_{c[-1]}",)
                if isinstance(c, tuple) else f"confidence_interval_{confidence_level}_{c}")
        _common.put(frame, name, pairs)
        out.append(name)
    return out


def preference(thicket: Any, columns: Any, comparison_func: Callable[[Any, Any], Any],
               *args: Any, test: str = "ttest", alpha: float = 0.05) -> List[Any]:
    """Which of two columns is preferred per node, where Welch's t-test finds a difference."""
    st = _common.scipy_stats()
    if test != "ttest":
        raise _common.ArgumentError(f"test={test!r}: only 'ttest' is available")
    columns = _common.check_columns(thicket, columns)
    if len(columns) != 2:
        raise _common.ArgumentError(f"give 2 columns, not {len(columns)}")
    if not 0 < alpha < 1:
        raise _common.ArgumentError(f"alpha={alpha!r} must be between 0 and 1")
    mean(thicket, columns)
    std(thicket, columns)
    frame = thicket.statsframe.dataframe
    counts = _common.node_stats(thicket, columns, ["count"])
    m = [frame[_common.thicket_column(c, "mean")].to_numpy(dtype=float) for c in columns]
    s = [frame[_common.thicket_column(c, "std")].to_numpy(dtype=float) for c in columns]
    n = [counts[_common.thicket_column(c, "count")].astype(float) for c in columns]
    with np.errstate(all="ignore"):
        t = st.ttest_ind_from_stats(m[0], s[0], n[0], m[1], s[1], n[1],
                                    equal_var=False).statistic
        tvalue = st.t.ppf(1 - alpha / 2, n[0] + n[1] - 2)
    tvalue = np.where((n[0] < 2) | (n[1] < 2), np.nan, tvalue)   # no sample variance
    significant = np.abs(t) > tvalue
    pref_mean = np.full(len(t), "No preference", dtype=object)
    pref_std = pref_mean.copy()
    for i in np.flatnonzero(significant).tolist():   # the user's function, per node
        pref_mean[i] = comparison_func(m[0][i], m[1][i])
        pref_std[i] = comparison_func(s[0][i], s[1][i])
    base = f"{columns[0]} vs {columns[1]}"
    named = {base + "_tvalue": tvalue, base + "_tstatistic": t,
             base + "_std_preferred": pref_std, base + "_mean_preferred": pref_mean}
    for k, v in named.items():
        _common.put(frame, k, v)
    return list(named)


def bhattacharyya_distance(thicket: Any, columns: Any = None,
                           output_column_name: Any = None) -> List[Any]:
    """Bhattacharyya distance of two columns per node (normal approximation)."""
    return _distance(thicket, columns, output_column_name, "bhattacharyya_distance",
                     _bhattacharyya)


def hellinger_distance(thicket: Any, columns: Any = None,
                       output_column_name: Any = None) -> List[Any]:
    """Hellinger distance of two columns per node (normal approximation)."""
    return _distance(thicket, columns, output_column_name, "hellinger_distance", _hellinger)


def _bhattacharyya(m1, m2, s1, s2):
    """Bhattacharyya distance of two normal distributions from their means and standard
    deviations (the statsframe's ``_mean`` and ``_std``), evaluated as Thicket does."""
    return 0.25 * np.log(0.25 * ((s1 ** 2 / s2 ** 2) + (s2 ** 2 / s1 ** 2) + 2)) + \
        0.25 * ((m1 - m2) ** 2 / (s1 ** 2 + s2 ** 2))


def _hellinger(m1, m2, s1, s2):
    """Hellinger distance of two normal distributions (as :func:`_bhattacharyya`)."""
    exponent = -0.25 * ((m1 - m2) ** 2) / (s1 ** 2 + s2 ** 2)
    # math.exp per node: numpy's vectorised exp may differ from the C library's by one
    # unit in the last place, and Thicket's values are the C library's
    scale = np.array([math.exp(x) if x == x else math.nan for x in exponent.tolist()])
    return 1 - np.sqrt((2 * s1 * s2) / (s1 ** 2 + s2 ** 2)) * scale


def _distance(thicket, columns, output, label, formula) -> List[Any]:
    if not isinstance(columns, list) or len(columns) != 2:
        raise _common.ArgumentError(f"columns={columns!r}: give a list of 2 columns")
    columns = _common.check_columns(thicket, columns)
    means, stds = mean(thicket, columns), std(thicket, columns)
    frame = thicket.statsframe.dataframe
    m1, m2 = (frame[c].to_numpy(dtype=np.float64) for c in means)
    s1, s2 = (frame[c].to_numpy(dtype=np.float64) for c in stds)
    with np.errstate(all="ignore"):   # Thicket's arithmetic: inf where a std is 0
        d = formula(m1, m2, s1, s2)
    if output is None:
        flat = [str(p) for c in columns for p in (c if isinstance(c, tuple) else (c,))]
        output = "_".join(flat + [label])
    _common.put(thicket.statsframe.dataframe, output, d)
    return [output]


def _suffix(column: Any, label: str) -> Any:
    if isinstance(column, tuple):
        return column[:-1] + (f"{column[-1]}_{label}",)
    return f"{column}_{label}"
