"""Scaling studies: one table of a metric by a metadata key, speedup and efficiency.

``pivot(ens, index="mpi.world.size", metric="time (inc)")`` gives one row per
value of the metadata column ``index`` (rank counts, problem sizes...) and
one column per region: ``by="name"`` (regions with the same name in one
profile are added up, e.g. every ``MPI_Allreduce``), ``by="path"`` (one
column per call path, ``"main > solve"``) or ``by="node"`` (node ids).

How a value is made:

1. rows of one (node, profile) on several ranks/threads are combined with
   ``ranks=`` (``"mean"`` by default, as Hatchet's ``drop_index_levels``;
   ``"max"`` gives the slowest rank, ``"sum"`` the total over ranks);
2. with ``by="name"``, nodes of the same name in one profile are added up;
3. profiles with the same ``index`` value (trials) are combined with
   ``agg`` (``"mean"`` by default), NaN skipped. A region a profile does not
   have is missing there (NaN), never 0.

``speedup(ens, key, base=None)`` divides the base row (``base`` value of
``key``; default the smallest) by every row. With ``p`` the key value and
``b`` the base value (both numbers, e.g. rank counts):

* strong scaling (``weak=False``): speedup ``S = T_b / T_p``, efficiency
  ``E = S * b / p``;
* weak scaling (``weak=True``, the work grows with ``p``): efficiency
  ``E = T_b / T_p`` and (scaled) speedup ``S = E * p / b``.
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pandas as pd

from ..errors import ArgumentError, MetricError
from ._internal import plain_values

BY = ("name", "path", "node")
AGGS = ("mean", "median", "min", "max", "sum")


def pivot(ens: Any, index: Any, metric: Any = None, by: str = "name", agg: str = "mean",
          ranks: str = "mean") -> pd.DataFrame:
    """A table of ``metric``: rows = values of metadata ``index``, columns = regions.

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": t},
    ...                                  "children": []}]) for t in (8.0, 6.0, 4.0)]
    >>> ens = Ensemble.from_graphframes(gfs, metadata={"np": [1, 1, 2]})
    >>> pivot(ens, "np", "time")
    name  main
    np
    1      7.0
    2      4.0
    """
    _check_choice("by", by, BY)
    _check_choice("agg", agg, AGGS)
    _check_choice("ranks", ranks, AGGS)
    metric = default_metric(ens, metric)
    if index not in ens.metadata.columns:
        raise ArgumentError(f"no metadata column {index!r} to pivot on; the metadata columns "
                            f"are {', '.join(map(str, ens.metadata.columns)) or 'none'}")
    values = ens.dataframe[metric]
    if not pd.api.types.is_numeric_dtype(values):
        raise MetricError(f"column {metric!r} holds {values.dtype} values, not numbers")
    values = values.astype(np.float64)
    if ens.dataframe.index.nlevels > 2:
        values = values.groupby(level=["node", "profile"], sort=True).agg(ranks)
    nodes = plain_values(values.index.get_level_values("node"))
    profiles = values.index.get_level_values("profile")
    keys = ens.metadata[index].reindex(profiles).to_numpy()
    labels = column_labels(ens, by)
    column = labels[nodes]
    frame = pd.DataFrame({"profile": profiles.to_numpy(), index: keys, by: column,
                          "value": values.to_numpy()})
    if by == "name":   # regions of one name in one profile add up
        frame = (frame.groupby(["profile", index, by], sort=False, dropna=False)["value"]
                 .sum(min_count=1).reset_index())
    table = frame.groupby([index, by], sort=True)["value"].agg(agg).unstack(by)
    order = pd.unique(labels)   # columns in graph (pre-order) order
    table = table.reindex(columns=[c for c in order if c in table.columns])
    table.columns.name = by
    return table


def speedup(ens: Any, key: Any, base: Any = None, weak: bool = False, efficiency: bool = False,
            metric: Any = None, by: str = "name", agg: str = "mean",
            ranks: str = "mean") -> pd.DataFrame:
    """Speedup (or ``efficiency``) per region and ``key`` value (see the module docs).

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": t},
    ...                                  "children": []}]) for t in (8.0, 5.0, 4.0)]
    >>> ens = Ensemble.from_graphframes(gfs, metadata={"np": [1, 2, 4]})
    >>> speedup(ens, "np", metric="time")["main"].tolist()
    [1.0, 1.6, 2.0]
    >>> speedup(ens, "np", metric="time", efficiency=True)["main"].tolist()
    [1.0, 0.8, 0.5]
    """
    table = pivot(ens, key, metric, by, agg, ranks)
    if not len(table):
        raise ArgumentError(f"no profile has a value of {key!r}")
    if base is None:
        base = table.index[0]
    if base not in table.index:
        raise ArgumentError(f"base={base!r} is not a value of {key!r}; its values are "
                            f"{', '.join(map(str, table.index))}")
    with np.errstate(all="ignore"):
        ratio = table.loc[base].to_numpy()[None, :] / table.to_numpy()
        if weak != efficiency:   # strong efficiency or weak (scaled) speedup need p / b
            p = _numbers(table.index, key)
            b = float(_numbers(pd.Index([base]), key)[0])
            factor = (b / p) if efficiency else (p / b)
            ratio = ratio * factor[:, None]
    return pd.DataFrame(ratio, index=table.index, columns=table.columns)


def default_metric(ens: Any, metric: Any = None) -> Any:
    """``metric`` checked, or the inclusive form of the default metric.

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> default_metric(Ensemble.from_graphframes([GraphFrame.from_lists(("main",))]))
    'time (inc)'
    """
    columns = ens.dataframe.columns
    if metric is not None:
        if metric not in columns:
            raise MetricError(f"no metric {metric!r}; the ensemble's columns are "
                              f"{', '.join(map(str, columns))}")
        return metric
    base = ens.default_metric
    if base is None or base not in columns:
        found = [m for m in ens.metric_columns if m in columns]
        if not found:
            raise MetricError("the ensemble declares no metric; pass metric=")
        base = found[0]
    inc = ens.inclusive_of.get(base)
    return inc if inc in columns else base


def column_labels(ens: Any, by: str) -> np.ndarray:
    """The column label of every node: its name, call path or id.

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", ("solve", "mpi")))])
    >>> column_labels(ens, "path").tolist()
    ['main', 'main > solve', 'main > solve > mpi']
    """
    names = ens.statsframe["name"].reindex(np.arange(ens.graph.num_nodes)).to_numpy(dtype=object)
    names = np.where(pd.isna(names), "<no name>", names).astype(object)
    if by == "name":
        return names
    if by == "node":
        return np.arange(ens.graph.num_nodes)
    parent = np.asarray(ens.graph.parent)
    paths: List[str] = [""] * len(names)
    for v in range(len(names)):   # pre-order: a parent's path is built before its children's
        p = int(parent[v])
        paths[v] = str(names[v]) if p < 0 else f"{paths[p]} > {names[v]}"
    return np.array(paths, dtype=object)


def _numbers(values: pd.Index, key: Any) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ArgumentError(f"efficiency and weak scaling need numeric values of {key!r} "
                            f"(rank counts), not {list(values)[:3]}") from err


def _check_choice(what: str, value: Any, allowed: Any) -> None:
    if value not in allowed:
        raise ArgumentError(f"{what}={value!r}: use one of {', '.join(allowed)}")
