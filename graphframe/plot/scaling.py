"""Scaling studies: a metric against a key (rank count, problem size) per region.

The input is a plain table: rows = key values, columns = regions, cells =
the metric (time). :func:`scaling_table` makes it from several GraphFrames;
an ensemble makes it from its profiles and a metadata key.

Formulas (``k0`` and ``T0`` are the smallest key and its value):

============  ==================  ======================  ===============
mode          ideal time          speedup                 efficiency
============  ==================  ======================  ===============
``strong``    ``T0 * k0 / k``     ``T0 / T``              ``speedup / (k / k0)``
``weak``      ``T0``              ``(k / k0) * T0 / T``   ``T0 / T``
============  ==================  ======================  ===============

The ideal speedup is ``k / k0`` in both modes and the ideal efficiency 1.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

from . import _mpl
from ._sources import ArgumentError
from ._sources import key_text
from .common import PATH_SEPARATOR, check_top, names, node_metric

MODES = ("strong", "weak")
PANELS = ("time", "speedup", "efficiency")


def check_table(table: Any) -> pd.DataFrame:
    """``table`` as floats sorted by a positive, unique, numeric index (2+ rows)."""
    if not isinstance(table, pd.DataFrame) or table.empty:
        raise ArgumentError("table: give a non-empty DataFrame (rows = key values such as "
                            "rank counts, columns = regions)")
    try:
        keys = pd.to_numeric(table.index).astype(np.float64)
        out = table.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ArgumentError("table: the index (key values) and cells must be numbers") from exc
    if len(out) < 2 or not keys.is_unique or (np.asarray(keys) <= 0).any():
        raise ArgumentError(f"table: need 2 or more distinct positive key values, got "
                            f"{list(table.index)}")
    out.index = pd.Index(np.asarray(keys), name=table.index.name)
    return out.sort_index(kind="stable")


def scaling_data(table: pd.DataFrame, mode: str = "strong") -> Dict[str, Any]:
    """Time, ideal time, speedup, ideal speedup and efficiency of every region.

    Examples
    --------
    >>> t = pd.DataFrame({"solve": [8.0, 4.4, 2.5]}, index=pd.Index([1, 2, 4], name="ranks"))
    >>> d = scaling_data(t)
    >>> d["ideal time"]["solve"].tolist(), d["speedup"]["solve"].round(3).tolist()
    ([8.0, 4.0, 2.0], [1.0, 1.818, 3.2])
    >>> d["efficiency"]["solve"].round(3).tolist(), d["ideal speedup"].tolist()
    ([1.0, 0.909, 0.8], [1.0, 2.0, 4.0])
    """
    if mode not in MODES:
        raise ArgumentError(f"mode={mode!r}: choose one of {', '.join(MODES)}")
    time = check_table(table)
    k = np.asarray(time.index, dtype=np.float64)
    factor = pd.Series(k / k[0], index=time.index)
    t0 = time.iloc[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        if mode == "strong":
            ideal = pd.DataFrame(np.outer(1.0 / factor, t0), index=time.index,
                                 columns=time.columns)
            speedup = t0 / time
            efficiency = speedup.div(factor, axis=0)
        else:
            ideal = pd.DataFrame(np.tile(t0.to_numpy(), (len(time), 1)), index=time.index,
                                 columns=time.columns)
            speedup = (t0 / time).mul(factor, axis=0)
            efficiency = t0 / time
    return {"time": time, "ideal time": ideal, "speedup": speedup,
            "ideal speedup": factor, "efficiency": efficiency}


def scaling(table: pd.DataFrame, *, mode: str = "strong",
            panels: Sequence[str] = PANELS, ax: Any = None, key_label: Optional[str] = None,
            value_label: str = "time", log: bool = True) -> Any:
    """Draw a scaling study: time with its ideal, speedup and efficiency panels.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows = key values (rank counts...), columns = regions, cells = time.
    mode : {"strong", "weak"}
        Which ideal (see the module docs).
    panels : sequence of {"time", "speedup", "efficiency"}
        Panels drawn, left to right.
    ax : sequence of Axes, optional
        One per panel (default: a new figure).
    key_label, value_label : str
        Axis titles (default: the index name, and ``"time"``).
    log : bool
        Logarithmic key axis (and time and speedup axes).

    Returns
    -------
    matplotlib.figure.Figure
        Each region is one line per panel (dashed in the same colour: its ideal
        time); the black dashed lines are the ideal speedup and efficiency.

    Examples
    --------
    >>> t = pd.DataFrame({"solve": [8.0, 4.4, 2.5]}, index=pd.Index([1, 2, 4], name="ranks"))
    >>> fig = scaling(t)   # doctest: +SKIP
    """
    panels = list(panels)
    bad = [p for p in panels if p not in PANELS]
    if bad or not panels or len(set(panels)) != len(panels):
        raise ArgumentError(f"panels={panels!r}: choose distinct ones of {', '.join(PANELS)}")
    data = scaling_data(table, mode)
    keys = np.asarray(data["time"].index, dtype=np.float64)
    key_label = key_label or str(table.index.name or "key")
    colours = _mpl.require("matplotlib").colormaps["tab10"].colors
    with _mpl.panels(len(panels), ax, figsize=(5.0 * len(panels), 4.2)) as axes:
        for a, panel in zip(axes, panels):
            _PANEL[panel](a, data, keys, colours, mode)
            a.set_xlabel(key_label)
            if log:
                a.set_xscale("log")
                a.set_xticks(keys)
                a.set_xticklabels([key_text(v) for v in keys], rotation=45 if len(keys) > 6 else 0)
                a.minorticks_off()
                if panel in ("time", "speedup"):
                    a.set_yscale("log")
                    _mpl.plain_log_labels(a.yaxis)
            if panel == "time":
                a.set_ylabel(value_label)
        return axes[0].figure


def region_labels(regions: Sequence[Any]) -> List[str]:
    """Legend names: the shortest end of each call path that tells them apart.

    Examples
    --------
    >>> region_labels(["main > solve > mpi", "main > io > mpi", "main > solve"])
    ['solve > mpi', 'io > mpi', 'solve']
    """
    parts = [str(r).split(PATH_SEPARATOR) for r in regions]
    take = [1] * len(parts)
    while True:
        labels = [PATH_SEPARATOR.join(p[-k:]) for p, k in zip(parts, take)]
        clash = [i for i, t in enumerate(labels) if labels.count(t) > 1 and take[i] < len(parts[i])]
        if not clash:
            return labels
        for i in clash:
            take[i] += 1


def _time(a: Any, data: Dict[str, Any], keys: np.ndarray, colours: Any, mode: str) -> None:
    names = region_labels(data["time"].columns)
    for i, region in enumerate(data["time"].columns):
        c = colours[i % len(colours)]
        a.plot(keys, data["time"][region].to_numpy(), marker="o", color=c, label=names[i])
        a.plot(keys, data["ideal time"][region].to_numpy(), linestyle="--", color=c,
               linewidth=1.0, label=f"_ideal {region}")
    a.set_title(f"time ({mode} scaling; dashed: ideal)")
    a.legend(fontsize=7)


def _speedup(a: Any, data: Dict[str, Any], keys: np.ndarray, colours: Any, mode: str) -> None:
    for i, region in enumerate(data["speedup"].columns):
        a.plot(keys, data["speedup"][region].to_numpy(), marker="o",
               color=colours[i % len(colours)], label=str(region))
    a.plot(keys, data["ideal speedup"].to_numpy(), linestyle="--", color="black",
           linewidth=1.0, label="ideal")
    a.set_ylabel("speedup" if mode == "strong" else "scaled speedup")
    a.set_title("speedup")


def _efficiency(a: Any, data: Dict[str, Any], keys: np.ndarray, colours: Any,
                mode: str) -> None:
    for i, region in enumerate(data["efficiency"].columns):
        a.plot(keys, data["efficiency"][region].to_numpy(), marker="o",
               color=colours[i % len(colours)], label=str(region))
    a.axhline(1.0, linestyle="--", color="black", linewidth=1.0, label="ideal")
    a.set_ylabel("parallel efficiency")
    a.set_ylim(bottom=0.0)
    a.set_title("efficiency")


_PANEL = {"time": _time, "speedup": _speedup, "efficiency": _efficiency}


def scaling_table(profiles: Union[Mapping[Any, Any], Sequence[Any]], metric: Any = None, *,
                  by: Optional[str] = None, regions: Optional[Sequence[str]] = None,
                  top: Optional[int] = 5, inclusive: bool = True,
                  aggregate: str = "mean") -> pd.DataFrame:
    """Rows = key values, columns = regions: the input of :func:`scaling`.

    Parameters
    ----------
    profiles : mapping key -> GraphFrame, or a sequence of GraphFrames
        With a sequence, each profile's key is ``metadata[by]``, or with
        ``by=None`` the number of ranks in its index (1 without a rank level).
    metric : str, optional
        Default: each profile's default metric, inclusive form.
    regions : sequence of str, optional
        Call paths (``"main > solve"``) or their last names; default the
        ``top`` call paths of the profile with the smallest key.
    aggregate : {"mean", "sum", "min", "max"}
        How a node's ranks combine ("max" for the slowest rank).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> small = GraphFrame.from_lists(("main", "solve"))
    >>> scaling_table({1: small, 2: small}, top=2)
         main  main > solve
    key
    1.0   2.0           1.0
    2.0   2.0           1.0
    """
    top = check_top(top)
    keyed = _keyed(profiles, by)
    series = {}
    for key, gf in keyed.items():
        nv = node_metric(gf, metric, inclusive=inclusive, aggregate=aggregate)
        paths = _paths(gf)
        ok = np.isfinite(nv.values)
        series[key] = pd.Series(nv.values[ok], index=paths[ok]).groupby(level=0, sort=False).sum()
    keys = sorted(series)
    first = series[keys[0]]
    if regions is None:
        chosen = list(first.sort_values(ascending=False, kind="stable").index[:top])
    else:
        chosen = [_match(r, first, series) for r in regions]
    if not chosen:
        raise ArgumentError("nothing to draw: the first profile has no region with a value")
    name = by if by is not None else ("key" if isinstance(profiles, Mapping) else "ranks")
    return pd.DataFrame({r: [series[k].get(r, np.nan) for k in keys] for r in chosen},
                        index=pd.Index(np.asarray(keys, dtype=np.float64), name=name))


def _keyed(profiles: Any, by: Optional[str]) -> Dict[Any, Any]:
    if isinstance(profiles, Mapping):
        keyed = dict(profiles)
    else:
        keyed = {}
        for gf in profiles:
            key = _key_of(gf, by)
            if key in keyed:
                raise ArgumentError(f"two profiles have {by or 'ranks'} = {key}; a scaling "
                                    "study needs one profile per key value")
            keyed[key] = gf
    if len(keyed) < 2:
        raise ArgumentError("a scaling study needs 2 or more profiles")
    return keyed


def _key_of(gf: Any, by: Optional[str]) -> float:
    if by is None:
        index = gf.dataframe.index
        return float(len(index.unique(level="rank"))) if "rank" in index.names else 1.0
    if by not in gf.metadata:
        raise ArgumentError(f"by={by!r} is not in a profile's metadata; its keys: "
                            f"{', '.join(map(str, sorted(gf.metadata, key=str)))}")
    try:
        return float(gf.metadata[by])
    except (TypeError, ValueError) as exc:
        raise ArgumentError(f"metadata[{by!r}] = {gf.metadata[by]!r} is not a number") from exc


def _paths(gf: Any) -> np.ndarray:
    """Full call path of every node, one depth level at a time."""
    labels = names(gf)
    parent = gf.graph.parent
    depth = gf.graph.depth
    out = labels.copy()
    order = np.argsort(depth, kind="stable")
    bounds = np.cumsum(np.bincount(depth)) if len(depth) else np.zeros(0, dtype=np.int64)
    for level in np.split(order, bounds[:-1])[1:]:
        out[level] = out[parent[level]] + PATH_SEPARATOR + labels[level]
    return out


def _match(region: str, first: pd.Series, series: Dict[Any, pd.Series]) -> str:
    every = pd.Index(sorted(set().union(*[s.index for s in series.values()])))
    if region in every:
        return region
    tail = PATH_SEPARATOR + region
    hits = [p for p in every if p.endswith(tail)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise ArgumentError(f"region {region!r} is in no profile; regions include "
                            f"{', '.join(list(first.index[:8]))}")
    raise ArgumentError(f"region {region!r} matches {len(hits)} call paths: "
                        f"{', '.join(hits[:6])}; give a longer path")
