"""Thicket's plot names over our plots: ``display_histogram``, ``display_boxplot``,
``display_violinplot`` and ``display_heatmap``, each returning the Axes.

Each takes a :class:`graphframe.Ensemble` or a :class:`graphframe.thicket.Thicket`
(anything with an ``ensemble`` attribute is used through it) and draws with
matplotlib alone. Differences from Thicket 2026.1.1, on purpose:

- No seaborn: Thicket needs it and prints a message when it is missing; these
  need only matplotlib and raise :class:`~graphframe.plot.PlotDependencyError`.
- Leaving ``node``/``nodes`` out draws the call path(s) with the largest mean
  (Thicket raises); leaving ``column``/``columns`` out uses the default metric
  (for ``display_heatmap``: every numeric statsframe column).
- Bad input raises our :class:`~graphframe.errors.ArgumentError` /
  :class:`~graphframe.errors.MetricError` naming the choices (both are
  ``ValueError``, as Thicket's are), and no half-drawn figure stays open.
- ``**kwargs`` are not seaborn options: only the keywords listed are accepted.

The values are those Thicket plots: every row of the node in the performance
data (all profiles, and all ranks/threads when the profiles have them).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np
import pandas as pd

from . import _mpl
from ._sources import ArgumentError, MetricError, level_ids
from .common import resolve_node, short_labels
from .distribution import Samples, distribution
from .ensemble import profile_matrix
from .heatmap import heatmap_matrix

__all__ = ["display_boxplot", "display_heatmap", "display_histogram", "display_violinplot"]


def _ensemble(thicket: Any) -> Any:
    ens = getattr(thicket, "ensemble", thicket)
    if not hasattr(ens, "dataframe") or not hasattr(ens, "statsframe") \
            or not hasattr(ens, "graph"):
        raise ArgumentError(f"thicket={type(thicket).__name__}: give a graphframe Ensemble "
                            "or Thicket")
    return ens


def _columns(ens: Any, columns: Any) -> List[Any]:
    if columns is None:
        return [ens.default_metric]
    listed = list(columns) if isinstance(columns, list) else [columns]
    if not listed:
        raise ArgumentError("columns=[]: name at least one performance data column")
    numeric = [c for c in ens.dataframe.columns if pd.api.types.is_numeric_dtype(
        ens.dataframe[c]) and not pd.api.types.is_bool_dtype(ens.dataframe[c])]
    for c in listed:
        if c not in numeric:
            raise MetricError(f"column {c!r} is not a numeric column of the performance data; "
                              f"choose one of {', '.join(map(str, numeric))}")
    return listed


def _nodes(ens: Any, nodes: Any, column: Any, top: int) -> np.ndarray:
    if nodes is None:
        return profile_matrix(ens, column, top=top, stat="mean").nodes
    listed = list(nodes) if isinstance(nodes, (list, tuple, np.ndarray)) else [nodes]
    if not listed:
        raise ArgumentError("nodes=[]: name at least one call path")
    return np.array([resolve_node(ens, spec) for spec in listed], dtype=np.int64)


def row_samples(thicket: Any, nodes: Any = None, columns: Any = None, *,
                top: int = 1) -> Samples:
    """Every row's value of each (node, column): what Thicket's display plots show.

    Labels are the call paths, followed by ``": column"`` when several columns
    are drawn.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> ens = Ensemble.from_graphframes([a, a])
    >>> s = row_samples(ens, ["solve"], ["time", "time (inc)"])
    >>> s.labels, [v.tolist() for v in s.values]
    (['solve: time', 'solve: time (inc)'], [[1.0, 1.0], [1.0, 1.0]])
    """
    ens = _ensemble(thicket)
    cols = _columns(ens, columns)
    chosen = _nodes(ens, nodes, cols[0], top)
    node = level_ids(ens.dataframe.index)
    paths = short_labels(ens, chosen)
    labels, out = [], []
    for v, path in zip(chosen.tolist(), paths):
        rows = node == v
        for c in cols:
            values = ens.dataframe[c].to_numpy(dtype=np.float64, na_value=np.nan)[rows]
            values = values[~np.isnan(values)]
            if not len(values):
                raise ArgumentError(f"call path {path!r} (node {v}) has no {c} value")
            labels.append(path if len(cols) == 1 else f"{path}: {c}")
            out.append(values)
    return Samples(labels, out, chosen, str(cols[0]) if len(cols) == 1 else "value", "rows")


def display_histogram(thicket: Any, node: Any = None, column: Any = None, *, bins: Any = 20,
                      ax: Any = None) -> Any:
    """Histogram of one node's ``column`` over every row (profiles, ranks).

    Thicket's ``display_histogram(thicket, node, column)``; returns the Axes.

    Examples
    --------
    >>> ax = display_histogram(tk, tk.graph.roots[0], "time")  # doctest: +SKIP
    """
    if isinstance(node, (list, tuple)) or isinstance(column, list):
        raise ArgumentError("display_histogram draws one node and one column")
    return distribution(row_samples(thicket, node, column), "hist", ax=ax, bins=bins)


def display_boxplot(thicket: Any, nodes: Any = None, columns: Any = None, *,
                    ax: Any = None) -> Any:
    """Box plots of each node's ``columns`` over every row; Thicket's
    ``display_boxplot(thicket, nodes, columns)``. Returns the Axes.

    Examples
    --------
    >>> ax = display_boxplot(tk, tk.graph.roots, ["time"])  # doctest: +SKIP
    """
    return distribution(row_samples(thicket, nodes, columns, top=5), "box", ax=ax)


def display_violinplot(thicket: Any, nodes: Any = None, columns: Any = None,
                       percentiles: Optional[Sequence[float]] = None, *,
                       percentile_linestyles: Optional[Sequence[str]] = None,
                       percentile_colors: Optional[Sequence[Any]] = None,
                       ax: Any = None) -> Any:
    """Violins of each node's ``columns`` over every row, with optional percentile
    lines (``percentiles`` in [0, 1]; styles default ``"--"``, colours black).

    Thicket's ``display_violinplot``; returns the Axes. The percentile lines are
    the last ``len(percentiles) x violins`` entries of ``ax.lines``.

    Examples
    --------
    >>> ax = display_violinplot(tk, tk.graph.roots, ["time"], [0.25, 0.75])  # doctest: +SKIP
    """
    qs = [] if percentiles is None else [float(q) for q in percentiles]
    if any(not 0.0 <= q <= 1.0 for q in qs):
        raise ArgumentError(f"percentiles={list(percentiles or [])}: each must be in [0, 1]")
    styles = list(percentile_linestyles or [])
    colours = list(percentile_colors or [])
    samples = row_samples(thicket, nodes, columns, top=5)
    with _mpl.axes(ax, figsize=(8.0, 4.5)) as a:
        distribution(samples, "violin", ax=a)
        for i, values in enumerate(samples.values):
            for j, q in enumerate(qs):
                a.hlines(float(np.quantile(values, q)), i + 0.75, i + 1.25,
                         linestyles=styles[j] if j < len(styles) else "--",
                         colors=colours[j] if j < len(colours) else "black", linewidth=1.0)
        return a


def display_heatmap(thicket: Any, columns: Any = None, *, ax: Any = None,
                    cmap: Optional[str] = None) -> Any:
    """Heatmap of every node x statsframe ``columns`` (the statistics over
    profiles); Thicket's ``display_heatmap(thicket, columns)``. Returns the Axes.

    Examples
    --------
    >>> ax = display_heatmap(tk, ["time_std"])  # doctest: +SKIP
    """
    ens = _ensemble(thicket)
    stats = ens.statsframe
    stats = getattr(stats, "dataframe", stats)
    numeric = [c for c in stats.columns if pd.api.types.is_numeric_dtype(stats[c])
               and not pd.api.types.is_bool_dtype(stats[c])]
    listed = numeric if columns is None else \
        (list(columns) if isinstance(columns, list) else [columns])
    if not listed:
        raise ArgumentError("the statsframe has no numeric column: compute statistics first "
                            "(for example graphframe.thicket.stats.mean)")
    for c in listed:
        if c not in numeric:
            raise MetricError(f"column {c!r} is not a numeric statsframe column; choose one of "
                              f"{', '.join(map(str, numeric)) or '(none yet)'}")
    nodes = np.asarray(stats.index.get_level_values(0), dtype=np.int64)
    values = stats[listed].to_numpy(dtype=np.float64, na_value=np.nan)
    return heatmap_matrix(values, short_labels(ens, nodes), [str(c) for c in listed], ax=ax,
                          cmap=cmap, xlabel="statistic", ylabel="call paths")
