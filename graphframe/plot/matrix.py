"""Node x rank (or x thread) matrices for heatmaps, and where imbalance sits.

:func:`rank_matrix` turns a metric's rows into one cell per (node, rank),
ranks the nodes by a statistic over their cells and keeps the top ones. Only
the kept rows are made dense, so a million-node profile never becomes a
million x ranks matrix. Everything is sorting, ``bincount`` and ``reduceat``.

Cells
-----
- A cell is the row of that node and rank; when the index has more levels
  (threads under ranks), a cell combines them with ``aggregate``.
- A node without a row (or with NaN) on some rank has an empty cell there;
  statistics use the cells that exist.
- ``imbalance=True`` divides every cell by its node's mean over ranks, so 1
  is the average rank, 2 a rank twice as slow.

Statistics (``by``): ``max``, ``mean``, ``sum``, ``min``, ``std`` (over ranks,
``ddof=0``), ``imbalance`` (max / mean, Hatchet's load imbalance; NaN when
the mean is 0). Rows are sorted by it, largest first, ties by node id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import numpy as np

from ._sources import (IMBALANCE_THRESHOLD, ArgumentError, imbalance_order, level_ids,
                       significant_nodes)
from .common import check_aggregate, check_top, row_metric, short_labels

STATS = ("max", "mean", "sum", "min", "std", "imbalance")


@dataclass(frozen=True)
class NodeMatrix:
    """Rows = call paths, columns = ranks (threads, profiles...), ready to draw.

    Attributes
    ----------
    values : numpy.ndarray
        ``(rows, columns)`` floats; NaN for an empty cell.
    nodes : numpy.ndarray
        Node id of each row.
    columns : numpy.ndarray
        Column values (the ranks).
    row_labels : list of str
        Short call paths of the rows.
    stat : numpy.ndarray
        The ranking statistic of each row.
    stat_name, value_label, column_label : str
        What ``stat``, the cells and the columns are.
    """

    values: np.ndarray
    nodes: np.ndarray
    columns: np.ndarray
    row_labels: List[str]
    stat: np.ndarray
    stat_name: str
    value_label: str
    column_label: str


def check_stat(by: Any) -> str:
    """``by`` if it is a known statistic.

    Examples
    --------
    >>> check_stat("p99")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: by='p99' is not a statistic; choose one of max, mean, sum, min, std, imbalance
    """
    if by not in STATS:
        raise ArgumentError(f"by={by!r} is not a statistic; choose one of {', '.join(STATS)}")
    return by


def rank_matrix(gf: Any, metric: Any = None, *, over: str = "rank", inclusive: bool = False,
                imbalance: bool = False, top: Optional[int] = 20, by: Optional[str] = None,
                aggregate: str = "mean", threshold: Optional[float] = None) -> NodeMatrix:
    """The top call paths x ranks matrix of ``metric``.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        A numeric column (default: the default metric).
    over : str
        The index level of the columns: ``"rank"`` or ``"thread"``.
    inclusive : bool
        Use the metric's inclusive form (computed when the profile has none).
    imbalance : bool
        Cells are value / the node's mean over ``over`` (1 = average).
    top : int, optional
        Rows kept (None: every node with a value).
    by : str, optional
        Statistic that ranks rows (default ``"imbalance"`` with
        ``imbalance=True``, else ``"max"``); see the module docs.
    aggregate : {"mean", "sum", "min", "max"}
        How the other index levels (threads) combine into a cell.
    threshold : float, optional
        Leave out the call paths whose largest cell is under this percent of
        the largest cell of all (:func:`~graphframe.ops.stats.significant_nodes`,
        the rule of ``graphframe stats``). Default: 1 when ranking by
        ``imbalance`` (a call path one rank ran for 1 µs is not where
        imbalance sits), none otherwise.

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> m = rank_matrix(example_graphframe(), "time", top=2)
    >>> m.row_labels, m.columns.tolist(), m.values[0].round(2).tolist()
    (['spmv', 'compute_fluxes'], [0, 1, 2, 3], [8.0, 8.5, 9.0, 9.5])
    """
    aggregate = check_aggregate(aggregate)
    top = check_top(top)
    by = check_stat(by if by is not None else ("imbalance" if imbalance else "max"))
    index = gf.dataframe.index
    levels = [str(n) for n in index.names[1:]]
    if over not in levels:
        have = ", ".join(levels) if levels else "none (one row per node)"
        raise ArgumentError(f"over={over!r} is not an index level of this profile; its levels "
                            f"besides node: {have}")
    values, name = row_metric(gf, metric, inclusive)
    cells = _cells(level_ids(index), np.asarray(index.get_level_values(over)), values, aggregate)
    stats = _node_stats(cells)
    if threshold is None and by == "imbalance":
        threshold = IMBALANCE_THRESHOLD
    order = np.flatnonzero(np.isfinite(stats[by]) & significant_nodes(stats["max"], threshold))
    if by == "imbalance":  # the order of graphframe stats
        order = order[imbalance_order(stats[by][order], stats["max"][order],
                                      stats["node"][order])][:top]
    else:
        order = order[np.lexsort((stats["node"][order], -stats[by][order]))][:top]
    if not len(order):
        raise ArgumentError(f"nothing to draw: no call path has a {name} value on any {over}"
                            + (f" of at least {threshold:g}% of the largest"
                               if threshold else ""))
    nodes = stats["node"][order]
    mat = _dense(cells, nodes, gf.graph.num_nodes)
    label = f"{name}" + (f", {aggregate} over {', '.join(lv for lv in levels if lv != over)}s"
                         if len(levels) > 1 else "")
    if imbalance:
        with np.errstate(invalid="ignore", divide="ignore"):
            mat = mat / stats["mean"][order][:, None]
        label = f"{name} / mean over {over}s"
    return NodeMatrix(mat, nodes, cells["columns"], short_labels(gf, nodes),
                      stats[by][order], by, label, over)


def _cells(node: np.ndarray, column: np.ndarray, values: np.ndarray,
           aggregate: str) -> Dict[str, np.ndarray]:
    """Non-empty (node, column) cells sorted by node then column."""
    columns, col_code = np.unique(column, return_inverse=True)
    ok = ~np.isnan(values)
    ncol = max(len(columns), 1)
    key = node[ok] * ncol + col_code[ok]
    keys, inverse = np.unique(key, return_inverse=True)
    v = values[ok]
    if len(keys) == len(key):  # one row per cell: no combining needed
        cell = np.empty(len(keys))
        cell[inverse] = v
    elif aggregate in ("sum", "mean"):
        cell = np.bincount(inverse, weights=v, minlength=len(keys))
        if aggregate == "mean":
            cell = cell / np.bincount(inverse, minlength=len(keys))
    else:
        cell = np.full(len(keys), np.inf if aggregate == "min" else -np.inf)
        (np.minimum if aggregate == "min" else np.maximum).at(cell, inverse, v)
    return {"node": keys // ncol, "col": keys % ncol, "value": cell, "columns": columns}


def _node_stats(cells: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
    """Every statistic for every node that has a cell."""
    node, value = cells["node"], cells["value"]
    if not len(node):
        empty = np.zeros(0)
        return {"node": node, **{s: empty for s in STATS}}
    starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
    count = np.diff(np.r_[starts, len(node)])
    total = np.add.reduceat(value, starts)
    mean = total / count
    spread = value - np.repeat(mean, count)
    out = {"node": node[starts], "sum": total, "mean": mean,
           "max": np.maximum.reduceat(value, starts), "min": np.minimum.reduceat(value, starts),
           "std": np.sqrt(np.add.reduceat(spread * spread, starts) / count)}
    with np.errstate(invalid="ignore", divide="ignore"):
        out["imbalance"] = np.where(mean != 0, out["max"] / mean, np.nan)
    return out


def _dense(cells: Dict[str, np.ndarray], nodes: np.ndarray, n_nodes: int) -> np.ndarray:
    row = np.full(n_nodes, -1, dtype=np.int64)
    row[nodes] = np.arange(len(nodes))
    mat = np.full((len(nodes), len(cells["columns"])), np.nan)
    r = row[cells["node"]]
    hit = r >= 0
    mat[r[hit], cells["col"][hit]] = cells["value"][hit]
    return mat
