"""Statistics over the runs of an ensemble, per node, written into its statsframe.

``ensemble_stats(ens, metrics, stats, over="profile")`` treats every profile
(or every (profile, rank) pair with ``over=("profile", "rank")``) as one
sample and computes, for every node, statistics of each metric over its
samples in one vectorised pass (the same core as ``GraphFrame.rank_stats``:
:mod:`graphframe.kernels.level_stats`). Columns are named as Thicket names
them: ``<metric>_<stat>`` (``time_mean``, ``time_std``, ``time_var``,
``time_min``, ``time_max``, ``time_sum``, ``time_median``) and
``<metric>_percentiles_<q>`` for percentiles.

Definitions
-----------
* A node missing from a profile (no row) and a NaN value are "no value":
  statistics are over the values a node has, so sparse and dense ensembles
  give the same numbers (pandas' ``groupby().agg`` on Thicket's dense table
  skips NaN the same way).
* ``std`` and ``var`` use ``ddof=1`` (the sample statistics Thicket reports;
  pass ``ddof=0`` for the population ones); they are NaN for a node with one
  value. Every statistic of a node without values is NaN (``count`` 0).
* With ``over="profile"`` on an ensemble with ``rank``/``thread`` levels the
  rows of one profile are first combined by the metric's aggregation rule
  (``sum`` unless declared), so each run counts once.
* Percentiles are numpy's linear interpolation, as pandas' ``quantile``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
import pandas as pd

from ..errors import ArgumentError, MetricError
from ._internal import LevelPlan, level_stats, plain_values

#: Statistics computed by default.
DEFAULT_STATS = ("mean", "median", "std", "var", "min", "max", "sum")


def thicket_column(metric: Any, stat: str) -> Any:
    """Thicket's statsframe column name for ``stat`` of ``metric``.

    Examples
    --------
    >>> thicket_column("time (exc)", "mean"), thicket_column("time", "p25")
    ('time (exc)_mean', 'time_percentiles_25')
    >>> thicket_column(("gcc", "time"), "std")
    ('gcc', 'time_std')
    """
    if stat.startswith("p") and stat[1:2].isdigit():
        stat = "percentiles_" + stat[1:]
    if isinstance(metric, tuple):
        return metric[:-1] + (f"{metric[-1]}_{stat}",)
    return f"{metric}_{stat}"


def ensemble_stats(ens: Any, metrics: Union[None, Any, Sequence[Any]] = None,
                   stats: Sequence[str] = DEFAULT_STATS,
                   over: Union[str, Sequence[str]] = "profile",
                   percentiles: Sequence[float] = (), ddof: int = 1) -> pd.DataFrame:
    """Per-node statistics over profiles, written into ``ens.statsframe`` (returned).

    Parameters
    ----------
    ens : Ensemble
    metrics : column or list of columns, optional
        Default: the ensemble's metrics (exclusive, then inclusive).
    stats : sequence of str
        From ``count sum min max mean median std var imbalance argmax argmin``.
    over : str or sequence of str
        ``"profile"`` (default) or ``("profile", "rank")`` (also ``"thread"``).
    percentiles : sequence of float
        Percentiles from 0 to 100: ``<metric>_percentiles_<q>`` columns.
    ddof : int
        Delta degrees of freedom of ``std``/``var`` (1, as Thicket).

    Returns
    -------
    pandas.DataFrame
        The ensemble's statsframe (every node of the graph) with the new
        columns; nodes without values hold NaN (``count`` 0).

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> runs = [GraphFrame.from_lists(("main", "a")), GraphFrame.from_lists(("main", "b"))]
    >>> ens = Ensemble.from_graphframes(runs)
    >>> ensemble_stats(ens, "time (inc)", stats=["mean", "max", "count"])
                                      name  ...  time (inc)_count
    node                                    ...
    {'name': 'main', 'type': 'None'}  main  ...                 2
    {'name': 'a', 'type': 'None'}        a  ...                 1
    {'name': 'b', 'type': 'None'}        b  ...                 1
    <BLANKLINE>
    [3 rows x 4 columns]
    """
    metrics = _metrics(ens, metrics)
    over = (over,) if isinstance(over, str) else tuple(over)
    if not over or over[0] != "profile":
        raise ArgumentError(f"over={over!r}: statistics over runs go over 'profile' first "
                            "(over='profile' or over=('profile', 'rank'))")
    df = ens.dataframe
    plan = LevelPlan.of(df.index, over)
    merge = {m: rule for m, rule in ens.aggregations.items() if m in metrics
             and rule in ("sum", "min", "max", "mean", "first")}
    table = level_stats(df, metrics, over, stats=stats, percentiles=percentiles, ddof=ddof,
                        merge=merge, name=thicket_column, plan=plan)
    frame = ens.statsframe
    nodes = frame.index
    counts = {thicket_column(m, "count") for m in metrics}
    for column in table.columns:
        values = table[column]
        if column in counts:
            full = np.zeros(len(nodes), dtype=np.int64)
            full[nodes.get_indexer(table.index)] = values.to_numpy()
            frame[column] = full
        else:
            frame[column] = values.reindex(nodes)
    return frame


def per_node_counts(ens: Any, metric: Any, over: Sequence[str] = ("profile",)) -> np.ndarray:
    """How many samples (profiles) have a value of ``metric`` at each node of the graph.

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a")),
    ...                                  GraphFrame.from_lists(("main",))])
    >>> per_node_counts(ens, "time").tolist()
    [2, 1]
    """
    table = level_stats(ens.dataframe, [metric], tuple(over), stats=["count"])
    out = np.zeros(ens.graph.num_nodes, dtype=np.int64)
    out[plain_values(table.index)] = table.iloc[:, 0].to_numpy()
    return out


def _metrics(ens: Any, metrics: Any) -> List[Any]:
    if metrics is None:
        found = [m for m in ens.metric_columns if m in ens.dataframe.columns]
        if not found:
            raise MetricError("the ensemble declares no metric; pass metrics=[...] (numeric "
                              f"columns: {', '.join(map(str, _numeric(ens.dataframe)))})")
        return found
    if isinstance(metrics, (str, tuple)) or not isinstance(metrics, Sequence):
        metrics = [metrics]
    return list(metrics)


def _numeric(df: pd.DataFrame) -> List[Any]:
    return [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
