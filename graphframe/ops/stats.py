"""Statistics across the ranks and threads of one profile; load imbalance.

``rank_stats`` answers "how do the ranks differ at each call path?": per
node, the sum, min, max, mean, median, standard deviation, imbalance and the
ranks holding the extremes of each metric across ranks (or threads, or
(rank, thread) pairs), in one vectorised pass
(:mod:`graphframe.kernels.level_stats`). ``load_imbalance`` is Hatchet's
analysis of the same name (its column names: ``<m>.mean``, ``<m>.max``,
``<m>.imbalance``, ``<m>.ranks``) returning a GraphFrame, so the result can
be printed as a tree and filtered.

Definitions
-----------
* The *imbalance* of a node is ``max / mean`` of its per-rank values: the
  load-imbalance factor used in HPC performance analysis (the time the
  slowest process spends there relative to the average, so 1 means perfectly
  balanced and 2 means the slowest rank needs twice the average; the other
  ranks wait for it). It is NaN when the mean is 0 (no work to balance) or
  when no rank has a value, and is meaningful for non-negative metrics.
* ``std`` is the population standard deviation (``ddof=0``) by default: the
  ranks of a run are the whole population, not a sample of one (Thicket's
  statistics over runs use ``ddof=1``; pass ``ddof=1`` for that).
* A missing (node, rank) row or a NaN value is "no value", never 0: a node
  run by 3 of 4 ranks has count 3 and mean over those 3. A node whose rows
  hold no value at all gets NaN statistics and missing (``<NA>``) ranks. A
  single rank gives min = max = mean = median, std 0, imbalance 1.
* ``argmax``/``argmin`` are rank labels (the lowest rank among equal
  values); with ``over=("rank", "thread")`` they are ``(rank, thread)``
  tuples.
* Index levels that are not in ``over`` are merged first with the metric's
  declared aggregation (``sum`` by default): over ranks, the threads of a
  rank are added up, so each rank counts once.
* A profile without the level asked for (a serial profile has no ``rank``
  level) is an :class:`~graphframe.errors.ArgumentError` naming its levels.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from ..errors import ArgumentError, MetricError
from ..kernels.level_stats import DEFAULT_STATS, LevelPlan, level_stats, stat_column
from ..model.dataframe import frame_from_columns
from ..model.text import as_text
from .filter import filter_rows

Over = Union[str, Sequence[str]]


def rank_stats(gf: Any, metrics: Union[None, Any, Sequence[Any]] = None,
               stats: Sequence[str] = DEFAULT_STATS, over: Over = "rank", top: int = 0,
               percentiles: Sequence[float] = (), ddof: int = 0) -> pd.DataFrame:
    """Per-node statistics of ``metrics`` across ``over`` (see the module docstring).

    Returns a dataframe indexed by ``node`` (the nodes that have rows): the
    node's ``name`` when the profile has one, then ``<metric>.<stat>``
    columns per metric, ``<metric>.p<q>`` per percentile and
    ``<metric>.top1`` ... ``top<k>`` (the ranks with the largest values).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> st = rank_stats(example_graphframe(), "time", stats=["min", "max", "imbalance", "argmax"])
    >>> st.loc[[2, 10]]
                   name  time.min  time.max  time.imbalance  time.argmax
    node
    2         MPI_Bcast      0.02      0.05        1.428571            3
    10    MPI_Allreduce      0.70      1.75        1.428571            3
    """
    over = over_levels(gf, over)
    metrics = metric_list(gf, metrics)
    df = gf.dataframe
    plan = LevelPlan.of(df.index, over)
    table = level_stats(df, metrics, over, stats=stats, percentiles=percentiles, top=top,
                        ddof=ddof, merge=merge_rules(gf, metrics), plan=plan)
    if "name" in df.columns and "name" not in metrics:
        table.insert(0, "name", as_text(pd.Series(first_values(df["name"], plan),
                                                  index=table.index, dtype=object)))
    return table


def load_imbalance(gf: Any, metric: Union[None, Any, Sequence[Any]] = None,
                   threshold: Optional[float] = None, top: int = 5,
                   over: Over = "rank") -> Any:
    """A node-indexed GraphFrame with Hatchet's load-imbalance columns.

    For each metric ``m``: ``m.mean``, ``m.max``, ``m.imbalance`` (max /
    mean) and ``m.ranks`` (a tuple of the ``top`` ranks with the largest
    values, largest first). Like ``drop_index_levels()``, every other metric
    becomes its mean over the ranks and every attribute keeps its first value.
    ``threshold`` keeps the nodes whose ``m.max`` exceeds ``threshold`` times
    the largest value of ``m`` in the profile (Hatchet's rule), the others
    are squashed away (inclusive values are kept as they were).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> li = load_imbalance(example_graphframe(), "time", top=2)
    >>> li.default_metric, li.dataframe.loc[2, "time.ranks"]
    ('time.imbalance', (3, 2))
    >>> li.dataframe.loc[[2, 10], ["name", "time.mean", "time.max", "time.imbalance"]]
                                                       name  ...  time.imbalance
    node                                                     ...
    {'name': 'MPI_Bcast', 'type': 'mpi'}          MPI_Bcast  ...        1.428571
    {'name': 'MPI_Allreduce', 'type': 'mpi'}  MPI_Allreduce  ...        1.428571
    <BLANKLINE>
    [2 rows x 4 columns]
    """
    over = over_levels(gf, over)
    metrics = metric_list(gf, gf.default_metric if metric is None else metric)
    top = _non_negative_int(top, "top")
    df = gf.dataframe
    plan = LevelPlan.of(df.index, over)
    others = [m for m in declared_metrics(gf) if m not in metrics]
    means = level_stats(df, others, over, stats=("mean",), merge=merge_rules(gf, others),
                        name=lambda m, s: m, plan=plan)
    new = level_stats(df, metrics, over, stats=("mean", "max", "imbalance"), top=top,
                      merge=merge_rules(gf, metrics), plan=plan)
    columns: Dict[Any, Any] = {}
    for col in df.columns:
        if col in metrics:
            columns[col] = new[stat_column(col, "mean")].to_numpy()
        elif col in means.columns:
            columns[col] = means[col].to_numpy()
        else:
            columns[col] = first_values(df[col], plan)
    for m in metrics:
        for stat in ("mean", "max", "imbalance"):
            columns[stat_column(m, stat)] = new[stat_column(m, stat)].to_numpy()
        picks = [new[stat_column(m, f"top{i + 1}")] for i in range(top)]
        columns[stat_column(m, _top_name(over))] = _tuples(picks, len(new))
    out = frame_from_columns(columns, plan.index)  # text stays text
    result = _imbalance_frame(gf, out, metrics, over)
    if threshold is not None:
        result = _above_threshold(result, df, metrics[0], threshold)
    return result


def _imbalance_frame(gf: Any, df: pd.DataFrame, metrics: List[Any], over) -> Any:
    exc, inc = list(gf.exc_metrics), list(gf.inc_metrics)
    aggregations = {c: k for c, k in gf.aggregations.items() if c in df.columns}
    for m in metrics:
        target = inc if m in inc else exc
        target.extend(stat_column(m, s) for s in ("mean", "max", "imbalance"))
        aggregations[stat_column(m, "max")] = "max"
        aggregations[stat_column(m, "imbalance")] = "max"
    return type(gf)(graph=gf.graph, dataframe=df, exc_metrics=exc, inc_metrics=inc,
                    default_metric=stat_column(metrics[0], "imbalance"),
                    metadata=dict(gf.metadata), inclusive_of=gf.inclusive_of,
                    aggregations=aggregations)


def _above_threshold(result: Any, original: pd.DataFrame, metric: Any, threshold: Any) -> Any:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.integer,
                                                                 np.floating)) \
            or not threshold >= 0:
        raise ArgumentError(f"threshold={threshold!r} is not a number >= 0 (a fraction of the "
                            "largest value, e.g. 0.01)")
    values = original[metric].to_numpy(dtype=np.float64, na_value=np.nan)
    top = np.nanmax(values) if len(values) and not np.isnan(values).all() else np.nan
    with np.errstate(invalid="ignore"):
        keep = result.dataframe[stat_column(metric, "max")].to_numpy() > threshold * top
    return filter_rows(result, keep, squash=True, update_inc_cols=False)


# ------------------------------------------------------------- significance
#: Noise threshold of imbalance rankings, percent of the largest value: ``graphframe
#: stats`` and the imbalance heatmaps (the HTML report's among them) leave out the nodes
#: whose largest value is under it (one rank ran 1 µs, the others 0: imbalance 64, cost 0).
IMBALANCE_THRESHOLD = 1.0


def significant_nodes(maxima: Any, threshold: Optional[float] = IMBALANCE_THRESHOLD
                      ) -> np.ndarray:
    """True for each node whose largest value (over ranks) is at least ``threshold``
    percent of the largest value of all nodes; NaN is never significant.

    Examples
    --------
    >>> significant_nodes([300.0, 3.0, 2.9, float("nan"), 0.0]).tolist()
    [True, True, False, False, False]
    >>> significant_nodes([1.0, 0.0], threshold=0).tolist()
    [True, True]
    """
    maxima = np.asarray(maxima, dtype=np.float64)
    if threshold is None:
        return ~np.isnan(maxima)
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.integer,
                                                                 np.floating)) \
            or not threshold >= 0:
        raise ArgumentError(f"threshold={threshold!r} is not a percentage >= 0")
    finite = maxima[np.isfinite(maxima)]
    if not len(finite):
        return np.zeros(len(maxima), dtype=bool)
    with np.errstate(invalid="ignore"):
        return maxima >= float(finite.max()) * float(threshold) / 100.0


def imbalance_order(imbalance: Any, maxima: Any, nodes: Any) -> np.ndarray:
    """Positions sorting nodes most imbalanced first, then by larger max, then by id;
    imbalances equal to 9 decimals tie (1.8 / 1.35 and 0.6 / 0.45 differ in the last bit).

    Examples
    --------
    >>> imbalance_order([1.5, 2.0, 1.5000000000001], [3.0, 1.0, 4.0], [0, 1, 2]).tolist()
    [1, 2, 0]
    """
    return np.lexsort((np.asarray(nodes), -np.asarray(maxima, dtype=np.float64),
                       -np.round(np.asarray(imbalance, dtype=np.float64), 9)))


# ------------------------------------------------------------- arguments
def over_levels(gf: Any, over: Over) -> Tuple[str, ...]:
    """``over`` as a tuple of index levels of ``gf``'s dataframe (checked).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> over_levels(example_graphframe(), "rank")
    ('rank',)
    >>> over_levels(example_graphframe(), "thread")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: no 'thread' level to compute statistics over: the profile's index levels are node, rank
    """
    levels = (over,) if isinstance(over, str) else tuple(over)
    names = [str(n) for n in gf.dataframe.index.names]
    if not levels:
        raise ArgumentError("over names no index level; use 'rank', 'thread' or both")
    for level in levels:
        if level == "node" or level not in names:
            raise ArgumentError(f"no {level!r} level to compute statistics over: the profile's "
                                f"index levels are {', '.join(names)}")
    return levels


def metric_list(gf: Any, metrics: Any) -> List[Any]:
    """The metrics asked for (default: every declared numeric metric), checked."""
    if metrics is None:
        found = declared_metrics(gf)
        if not found:
            raise MetricError("the profile declares no numeric metric; name the columns, "
                              f"e.g. metrics=[...] from {[str(c) for c in gf.dataframe.columns]}")
        return found
    if isinstance(metrics, list) or (isinstance(metrics, tuple)
                                     and metrics not in gf.dataframe.columns):
        listed = list(metrics)
    else:
        listed = [metrics]
    for m in listed:
        if m not in gf.dataframe.columns:
            raise MetricError(f"no metric {m!r}; the dataframe's columns are "
                              f"{', '.join(map(str, gf.dataframe.columns))}")
    return listed


def declared_metrics(gf: Any) -> List[Any]:
    """Declared exclusive then inclusive metrics that are numeric columns."""
    df = gf.dataframe
    out: List[Any] = []
    for m in list(gf.exc_metrics) + list(gf.inc_metrics):
        if m in df.columns and m not in out and pd.api.types.is_numeric_dtype(df[m]) \
                and not pd.api.types.is_bool_dtype(df[m]):
            out.append(m)
    return out


def merge_rules(gf: Any, metrics: Sequence[Any]) -> Dict[Any, str]:
    """How rows of merged-away levels combine: the declared aggregation, else ``sum``."""
    declared = gf.aggregations
    return {m: declared.get(m, "sum") for m in metrics}


def first_values(column: pd.Series, plan: LevelPlan) -> Any:
    """The value of each group's first row (dtype kept)."""
    return column.array.take(plan.first_row)


def _non_negative_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ArgumentError(f"{what}={value!r} is not allowed (expected an integer >= 0)")
    return int(value)


def _top_name(over: Tuple[str, ...]) -> str:
    """``ranks`` (Hatchet's name), ``threads``, or ``top`` for several levels."""
    return f"{over[0]}s" if len(over) == 1 else "top"


def _tuples(columns: List[pd.Series], n: int) -> np.ndarray:
    """Row-wise tuples of the non-missing labels of ``columns`` (an object array)."""
    if not columns:
        return np.fromiter((() for _ in range(n)), dtype=object, count=n)
    labels = [c.to_numpy(dtype=object, na_value=None) for c in columns]
    rows = list(zip(*labels))
    short = np.flatnonzero(np.equal(labels[-1], None))
    for i in short.tolist():  # nodes with fewer values than asked for
        rows[i] = tuple(v for v in rows[i] if v is not None)
    return np.fromiter(rows, dtype=object, count=n)
