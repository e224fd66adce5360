"""Plots of an Ensemble: call paths x profiles (or x a metadata key's values).

Every plot starts from one table of cells, computed with numpy over the whole
dataframe (:func:`profile_matrix`):

- a **cell** is one call path in one profile: the node's rows of that
  profile (ranks, threads) combined with ``aggregate`` (NaN skipped);
- with ``by=KEY`` (a metadata column) the cells of the profiles that share a
  value of ``KEY`` are averaged, so a column is one key value (rank count,
  problem size, compiler...), sorted.

The drawing is done by the single-profile plots' functions for plain data
(:func:`~graphframe.plot.heatmap.heatmap_matrix`,
:func:`~graphframe.plot.bar.bar_chart`,
:func:`~graphframe.plot.distribution.distribution`,
:func:`~graphframe.plot.scaling.scaling`), so they look and behave the same.
``ens.plot.<kind>(...)`` calls these functions.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from ._sources import (UNITS_ATTR, ArgumentError, check_metric, key_text, level_ids,
                       metric_unit, with_unit)
from .bar import bar_chart
from .common import check_aggregate, check_top, resolve_node, short_labels
from .distribution import Samples, distribution
from .heatmap import heatmap_matrix
from .matrix import NodeMatrix, _cells, _dense, _node_stats, check_stat
from .scaling import PANELS, scaling as draw_scaling

NodeSpec = Union[int, str]


def key_values(ens: Any, by: str) -> pd.Series:
    """``ens.metadata[by]`` checked: present, no missing values; numbers as floats.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> ens = Ensemble.from_graphframes([gf, gf], metadata={"ranks": [2, 4]})
    >>> key_values(ens, "ranks").tolist()
    [2.0, 4.0]
    >>> key_values(ens, "nodes")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: by='nodes' is not a metadata column; choose one of path, format, ranks, threads
    """
    meta = ens.metadata
    if by not in meta.columns:
        raise ArgumentError(f"by={by!r} is not a metadata column; choose one of "
                            f"{', '.join(map(str, meta.columns)) or '(none)'}")
    col = meta[by]
    missing = col.isna()
    if missing.any():
        raise ArgumentError(f"by={by!r}: profiles {list(meta.index[missing])} have no value "
                            "for it; filter them out first (ens.filter_metadata)")
    numeric = pd.to_numeric(col, errors="coerce")
    if not numeric.isna().any():
        return numeric.astype(np.float64)
    return col.astype(str)


def profile_matrix(ens: Any, metric: Any = None, *, by: Optional[str] = None,
                   top: Optional[int] = 20, stat: str = "max",
                   aggregate: str = "mean") -> NodeMatrix:
    """The top call paths x profiles (or x values of ``by``) matrix of ``metric``.

    Parameters
    ----------
    ens : Ensemble
    metric : str, optional
        A numeric column (default: the ensemble's default metric).
    by : str, optional
        A metadata column: one matrix column per distinct value (the mean of
        its profiles' cells), sorted.
    top : int, optional
        Rows kept (None: every call path with a value).
    stat : str
        Ranks the rows over their columns: ``max``, ``mean``, ``sum``, ``min``,
        ``std`` or ``imbalance`` (max / mean); largest first, ties by node id.
    aggregate : {"mean", "sum", "min", "max"}
        How a node's rows within one profile (ranks, threads) combine.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> b = a.copy(); b.dataframe[["time", "time (inc)"]] *= 3
    >>> ens = Ensemble.from_graphframes([a, b])
    >>> m = profile_matrix(ens, "time", top=2, stat="sum")
    >>> m.row_labels, m.columns.tolist(), m.values.tolist()
    (['main', 'solve'], [0, 1], [[1.0, 3.0], [1.0, 3.0]])
    """
    cells, name, label = _profile_cells(ens, metric, by, aggregate)
    top = check_top(top)
    stat = check_stat(stat)
    stats = _node_stats(cells)
    order = np.flatnonzero(np.isfinite(stats[stat]))
    order = order[np.lexsort((stats["node"][order], -stats[stat][order]))][:top]
    if not len(order):
        raise ArgumentError(f"nothing to draw: no call path has a {name} value in any profile")
    nodes = stats["node"][order]
    return NodeMatrix(_dense(cells, nodes, ens.graph.num_nodes), nodes, cells["columns"],
                      short_labels(ens, nodes), stats[stat][order], stat,
                      _value_label(ens, name, by, aggregate), label)


def _profile_cells(ens: Any, metric: Any, by: Optional[str],
                   aggregate: str) -> Tuple[Dict[str, np.ndarray], str, str]:
    """Cells (node, column, value) sorted by node then column; the metric; the column title."""
    name = check_metric(ens, metric)
    aggregate = check_aggregate(aggregate)
    index = ens.dataframe.index
    values = ens.dataframe[name].to_numpy(dtype=np.float64, na_value=np.nan)
    cells = _cells(level_ids(index), np.asarray(index.get_level_values("profile")), values,
                   aggregate)
    if by is None:
        return cells, str(name), "profile"
    keys = key_values(ens, by)
    key_of_cell = keys.reindex(cells["columns"]).to_numpy()[cells["col"]]
    return _cells(cells["node"], key_of_cell, cells["value"], "mean"), str(name), str(by)


def _value_label(ens: Any, name: str, by: Optional[str], aggregate: str) -> str:
    levels = [str(lv) for lv in ens.dataframe.index.names[2:]]
    label = ensemble_metric_label(ens, name) + \
        (f", {aggregate} over {' x '.join(lv + 's' for lv in levels)}" if levels else "")
    return label + (f", mean over profiles per {by}" if by is not None else "")


def heatmap(ens: Any, metric: Any = None, *, by: Optional[str] = None, top: Optional[int] = 20,
            stat: str = "max", aggregate: str = "mean", ax: Any = None,
            cmap: Optional[str] = None, log: bool = False) -> Any:
    """Heatmap of the top call paths x profiles (or x the values of metadata ``by``).

    See :func:`profile_matrix` for the cells and the parameters; ``ax``,
    ``cmap`` and ``log`` as in :func:`~graphframe.plot.heatmap.heatmap_matrix`.
    Returns the Axes (``ax.images[0].get_array()`` holds the cells).

    Examples
    --------
    >>> ax = heatmap(ens, "time", by="ranks", top=10)  # doctest: +SKIP
    """
    m = profile_matrix(ens, metric, by=by, top=top, stat=stat, aggregate=aggregate)
    return heatmap_matrix(m.values, m.row_labels, _tick_labels(m.columns), ax=ax, cmap=cmap,
                          log=log, value_label=m.value_label, xlabel=m.column_label,
                          ylabel=f"call paths (top {len(m.nodes)} by {stat})")


def _tick_labels(columns: Any) -> List[str]:
    """Key values as text: whole numbers without a decimal point (``8388608``, not ``8.38861e+06``).

    Examples
    --------
    >>> _tick_labels(np.array([2.0, 8388608.0, 0.5])), _tick_labels(np.array(["gcc"]))
    (['2', '8388608', '0.5'], ['gcc'])
    """
    return [key_text(v) for v in np.asarray(columns).tolist()]


def bar(ens: Any, metric: Any = None, *, by: Optional[str] = None, top: Optional[int] = 10,
        stacked: bool = True, aggregate: str = "mean", ax: Any = None,
        cmap: Optional[str] = None) -> Any:
    """Bars of the top call paths, stacked by profile (or by the values of ``by``).

    Stacked, a bar is the sum of its segments (one per profile or key value,
    empty cells count 0) and call paths are ranked by it; not stacked, a bar
    is the mean over the profiles that have the call path.

    Examples
    --------
    >>> ax = bar(ens, "time", top=5)  # doctest: +SKIP
    """
    m = profile_matrix(ens, metric, by=by, top=top, stat="sum" if stacked else "mean",
                       aggregate=aggregate)
    if stacked:
        return bar_chart(m.row_labels, np.nan_to_num(m.values), series=_tick_labels(m.columns),
                         ax=ax, value_label=f"{m.value_label}, stacked by {m.column_label}",
                         series_label=m.column_label, cmap=cmap)
    return bar_chart(m.row_labels, m.stat, ax=ax,
                     value_label=f"{m.value_label}, mean over {m.column_label}s")


def ensemble_samples(ens: Any, nodes: Union[None, NodeSpec, Sequence[NodeSpec]] = None,
                     metric: Any = None, *, by: Optional[str] = None, top: int = 1,
                     aggregate: Optional[str] = "mean") -> Samples:
    """One call path's values across profiles (one sample per node, or per value of ``by``).

    Parameters
    ----------
    nodes : node id, name, call path or a list of them
        Default: the ``top`` call paths by mean over profiles. With ``by``,
        exactly one.
    by : str, optional
        A metadata column: one sample per value (the profiles having it).
    aggregate : {"mean", "sum", "min", "max"} or None
        A profile's rows (ranks, threads) combine into one value; None keeps
        every row (as Thicket's ``display_histogram`` does).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> runs = [a.copy() for _ in range(3)]
    >>> for run, k in zip(runs, [1, 2, 5]): run.dataframe[["time", "time (inc)"]] *= k
    >>> ens = Ensemble.from_graphframes(runs, metadata={"n": [1, 2, 1]})
    >>> s = ensemble_samples(ens, "solve", "time")
    >>> s.labels, s.values[0].tolist(), s.count_label
    (['solve'], [1.0, 2.0, 5.0], 'profiles')
    >>> s = ensemble_samples(ens, "solve", by="n")
    >>> [(label, v.tolist()) for label, v in zip(s.labels, s.values)]
    [('1', [1.0, 5.0]), ('2', [2.0])]
    """
    name = str(check_metric(ens, metric))
    if nodes is None:
        chosen = profile_matrix(ens, name, top=1 if by else top, stat="mean",
                                aggregate=aggregate or "mean").nodes
    else:
        listed = list(nodes) if isinstance(nodes, (list, tuple, np.ndarray)) else [nodes]
        if not listed:
            raise ArgumentError("nodes=[]: name at least one call path")
        chosen = np.array([resolve_node(ens, spec) for spec in listed], dtype=np.int64)
    if by is not None and len(chosen) != 1:
        raise ArgumentError(f"by={by!r} draws one call path per key value; give one node, "
                            f"not {len(chosen)}")
    index = ens.dataframe.index
    node = level_ids(index)
    profile = np.asarray(index.get_level_values("profile"))
    values = ens.dataframe[name].to_numpy(dtype=np.float64, na_value=np.nan)
    if aggregate is not None:
        cells = _cells(node, profile, values, check_aggregate(aggregate))
        node, profile, values = cells["node"], cells["columns"][cells["col"]], cells["value"]
    labels = short_labels(ens, chosen)
    count = "profiles" if aggregate is not None else "rows"
    if by is None:
        out = [values[(node == v) & ~np.isnan(values)] for v in chosen.tolist()]
        _check_nonempty(ens, chosen, labels, out, name)
        return Samples(labels, out, chosen, name, count)
    keys = key_values(ens, by)
    picked = (node == chosen[0]) & ~np.isnan(values)
    row_key = keys.reindex(profile[picked]).to_numpy()
    distinct = pd.unique(keys.sort_values(kind="stable"))
    out = [values[picked][row_key == k] for k in distinct]
    keep = [i for i, v in enumerate(out) if len(v)]
    _check_nonempty(ens, chosen, labels, [np.concatenate(out)] if out else [], name)
    klabels = [key_text(k) for k in distinct]
    return Samples([klabels[i] for i in keep], [out[i] for i in keep], chosen,
                   f"{name} of {labels[0]}", count)


def _check_nonempty(ens: Any, chosen: np.ndarray, labels: List[str], out: List[np.ndarray],
                    name: str) -> None:
    for v, label, sample in zip(chosen.tolist(), labels, out):
        if not len(sample):
            raise ArgumentError(f"call path {label!r} (node {v}) has no {name} value in any "
                                "profile")


def hist(ens: Any, node: Union[None, NodeSpec, Sequence[NodeSpec]] = None, metric: Any = None,
         *, by: Optional[str] = None, aggregate: Optional[str] = "mean", bins: Any = 20,
         ax: Any = None) -> Any:
    """Histogram of one call path's values across profiles (see :func:`ensemble_samples`).

    Examples
    --------
    >>> ax = hist(ens, "solve", by="compiler")  # doctest: +SKIP
    """
    s = ensemble_samples(ens, node, metric, by=by, top=1, aggregate=aggregate)
    a = distribution(s, "hist", ax=ax, bins=bins)
    if by is not None:
        a.legend(title=by, fontsize=8)
    return a


def box(ens: Any, nodes: Union[None, NodeSpec, Sequence[NodeSpec]] = None, metric: Any = None,
        *, by: Optional[str] = None, top: int = 5, aggregate: Optional[str] = "mean",
        ax: Any = None) -> Any:
    """Box plots of call paths' values across profiles (or of one, per value of ``by``).

    Examples
    --------
    >>> ax = box(ens, ["solve", "io"])  # doctest: +SKIP
    """
    s = ensemble_samples(ens, nodes, metric, by=by, top=top, aggregate=aggregate)
    return _key_axis(distribution(s, "box", ax=ax), by)


def violin(ens: Any, nodes: Union[None, NodeSpec, Sequence[NodeSpec]] = None,
           metric: Any = None, *, by: Optional[str] = None, top: int = 5,
           aggregate: Optional[str] = "mean", ax: Any = None) -> Any:
    """Violin plots of call paths' values across profiles (or of one, per value of ``by``).

    Examples
    --------
    >>> ax = violin(ens, "solve", by="ranks")  # doctest: +SKIP
    """
    s = ensemble_samples(ens, nodes, metric, by=by, top=top, aggregate=aggregate)
    return _key_axis(distribution(s, "violin", ax=ax), by)


def _key_axis(a: Any, by: Optional[str]) -> Any:
    if by is not None:
        a.set_xlabel(by)
    return a


def scaling_table(ens: Any, metric: Any = None, *, by: str,
                  regions: Optional[Sequence[NodeSpec]] = None, top: Optional[int] = 5,
                  aggregate: str = "mean") -> pd.DataFrame:
    """Rows = values of metadata ``by`` (numbers), columns = regions: the input of
    :func:`~graphframe.plot.scaling.scaling`.

    A cell is the mean over the profiles with that key value of the region's
    value (its rows combined with ``aggregate``; ``"max"`` for the slowest
    rank). Default regions: the ``top`` call paths at the smallest key value.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> runs = [a.copy() for _ in range(3)]
    >>> for run, k in zip(runs, [4, 2, 1]): run.dataframe[["time", "time (inc)"]] *= k
    >>> ens = Ensemble.from_graphframes(runs, metadata={"n": [1, 2, 4]})
    >>> scaling_table(ens, "time (inc)", by="n", top=2)
         main  solve
    n
    1.0   8.0    4.0
    2.0   4.0    2.0
    4.0   2.0    1.0
    """
    m = profile_matrix(ens, metric, by=by, top=None, stat="max", aggregate=aggregate)
    if m.columns.dtype.kind not in "fiu":
        raise ArgumentError(f"by={by!r}: a scaling study needs numeric key values, got "
                            f"{_tick_labels(m.columns)[:6]}")
    if regions is None:
        first = m.values[:, 0]
        has = np.flatnonzero(np.isfinite(first))
        rows = has[np.lexsort((m.nodes[has], -first[has]))][:check_top(top)]
    else:
        row_of = {int(v): i for i, v in enumerate(m.nodes.tolist())}
        wanted = [resolve_node(ens, r) for r in regions]
        lacking = [r for r, v in zip(regions, wanted) if v not in row_of]
        if lacking:
            raise ArgumentError(f"regions {lacking} have no {m.value_label} value in any "
                                "profile")
        rows = np.array([row_of[v] for v in wanted], dtype=np.int64)
    if not len(rows):
        raise ArgumentError(f"nothing to draw: no region has a value at {by} = "
                            f"{m.columns[0]:g}")
    labels = short_labels(ens, m.nodes[rows])
    return pd.DataFrame(m.values[rows].T, columns=labels,
                        index=pd.Index(m.columns.astype(np.float64), name=by))


def scaling(ens: Any, metric: Any = None, *, by: str, regions: Optional[Sequence[Any]] = None,
            top: Optional[int] = 5, aggregate: str = "mean", mode: str = "strong",
            panels: Sequence[str] = PANELS, ax: Any = None, log: bool = True) -> Any:
    """Scaling study of an ensemble: ``metric`` against metadata ``by`` per region,
    with ideal-scaling reference, speedup and efficiency panels.

    See :func:`scaling_table` (the data) and :func:`graphframe.plot.scaling`
    (``mode``, ``panels``, ``ax``, ``log``). Returns the Figure.

    Examples
    --------
    >>> fig = scaling(ens, "time (inc)", by="mpi.world.size")  # doctest: +SKIP
    """
    table = scaling_table(ens, metric, by=by, regions=regions, top=top, aggregate=aggregate)
    return draw_scaling(table, mode=mode, panels=panels, ax=ax, key_label=by,
                        value_label=ensemble_metric_label(ens, check_metric(ens, metric)),
                        log=log)


def ensemble_metric_label(ens: Any, metric: Any) -> str:
    """``metric`` with the unit its profiles' readers recorded (``time [µs]``).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "solve"))] * 2)
    >>> ensemble_metric_label(ens, "time")
    'time'
    """
    units = getattr(ens.metadata, "attrs", {}).get(UNITS_ATTR)
    return with_unit(metric, metric_unit(metric, None, units))
