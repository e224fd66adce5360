"""Thicket's per-node summary statistics: ``mean``, ``median``, ``std``, ``variance``,
``minimum``, ``maximum``, ``sum`` and ``percentiles``.

Each writes ``<column>_<stat>`` columns into ``tk.statsframe.dataframe``
(``_mean``, ``_median``, ``_std``, ``_var``, ``_min``, ``_max``, ``_sum``,
``_percentiles_<q>``), registers them as exclusive or inclusive like their
source column and returns the names, as Thicket does. ``std``/``variance``
use ``ddof=1``. All of them are one vectorised pass over the rows
(:mod:`graphframe.kernels.level_stats`) rather than one pandas aggregation per
function.

Differences from Thicket: percentile names use the rounded percentage
(``0.29`` -> ``_percentiles_29``; Thicket truncates ``0.29 * 100`` to 28);
``sum`` of a node without any value is NaN (pandas gives 0).

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 3)
>>> th.stats.mean(tk, ["time"]), th.stats.std(tk, ["time"])
(['time_mean'], ['time_std'])
>>> tk.statsframe.dataframe[["time_mean", "time_std"]].values.tolist()
[[1.0, 0.0], [1.0, 0.0]]
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ...kernels.level_stats import percentile_name
from . import _common


def _one(tk: Any, columns: Any, stat: str, ddof: int = 1) -> List[Any]:
    columns = _common.check_columns(tk, columns)
    table = _common.node_stats(tk, columns, [stat], ddof=ddof)
    out: List[Any] = []
    for c in columns:
        name = _common.thicket_column(c, stat)
        out += _common.write(tk, c, {name: table[name]})
    return out


def mean(thicket: Any, columns: Any = None) -> List[Any]:
    """Mean of each column per node -> ``<column>_mean``."""
    return _one(thicket, columns, "mean")


def median(thicket: Any, columns: Any = None) -> List[Any]:
    """Median of each column per node -> ``<column>_median``."""
    return _one(thicket, columns, "median")


def std(thicket: Any, columns: Any = None) -> List[Any]:
    """Sample standard deviation (ddof=1) per node -> ``<column>_std``."""
    return _one(thicket, columns, "std")


def variance(thicket: Any, columns: Any = None) -> List[Any]:
    """Sample variance (ddof=1) per node -> ``<column>_var``."""
    return _one(thicket, columns, "var")


def minimum(thicket: Any, columns: Any = None) -> List[Any]:
    """Minimum per node -> ``<column>_min``."""
    return _one(thicket, columns, "min")


def maximum(thicket: Any, columns: Any = None) -> List[Any]:
    """Maximum per node -> ``<column>_max``."""
    return _one(thicket, columns, "max")


def sum(thicket: Any, columns: Any = None) -> List[Any]:   # noqa: A001 (Thicket's name)
    """Sum per node -> ``<column>_sum`` (NaN for a node without values)."""
    return _one(thicket, columns, "sum")


def percentiles(thicket: Any, columns: Any = None,
                percentiles: Optional[Sequence[float]] = (0.25, 0.50, 0.75)) -> List[Any]:
    """Percentiles (fractions 0..1, linear interpolation) -> ``<column>_percentiles_<q>``;
    ``percentiles=None`` (or empty) means Thicket's default ``[0.25, 0.5, 0.75]``.

    Examples
    --------
    >>> import graphframe.thicket as th
    >>> from graphframe import GraphFrame
    >>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main",))] * 2)
    >>> th.stats.percentiles(tk, ["time"], [0.5, 0.9])
    ['time_percentiles_50', 'time_percentiles_90']
    """
    columns = _common.check_columns(thicket, columns)
    qs = list(percentiles or ()) or [0.25, 0.50, 0.75]
    for q in qs:
        if not 0.0 <= q <= 1.0:
            raise _common.ArgumentError(f"percentile {q!r} is out of the range [0.0, 1.0]")
    table = _common.node_stats(thicket, columns, [], percentiles=[q * 100.0 for q in qs])
    out: List[Any] = []
    for c in columns:
        for q in qs:
            src = _common.thicket_column(c, percentile_name(q * 100.0))
            out += _common.write(thicket, c, {_percentile_column(c, q): table[src]})
    return out


def _percentile_column(column: Any, q: float) -> Any:
    label = f"percentiles_{int(round(q * 100))}"
    if isinstance(column, tuple):
        return column[:-1] + (f"{column[-1]}_{label}",)
    return f"{column}_{label}"
