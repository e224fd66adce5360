"""Performance models per node with Extra-P: ``ens.fit_models(parameter, metrics)``.

For a scaling study (profiles whose metadata column ``parameter`` holds, e.g.,
the rank count or the problem size) every node gets an Extra-P model of each
metric as a function of the parameter, written into the statsframe with
Thicket's column names:

* ``<metric>_extrap-model``: an :class:`ExtrapModel` (``str()`` is the formula,
  e.g. ``"-1.2e-14 + 3.0 * p^(1)"``; call it, or ``.eval(x)``, at parameter
  values; ``.coefficients`` maps ``"c"`` and each term, e.g.
  ``"p^(1) * log2(p)^(1)"``, to its coefficient);
* ``<metric>_RSS_extrap-model``, ``_rRSS_``, ``_SMAPE_``, ``_AR2_`` and
  ``_RE_``: the fit's quality as Extra-P reports it (residual sum of squares,
  relative RSS, symmetric mean absolute percentage error, adjusted R², relative
  error), with ``add_stats=True``.

Data: a profile's rows of one node (ranks, threads) are first combined with
``ranks`` (``"mean"``, Thicket's default, or another of ``mean median min max
sum``); profiles sharing a parameter value are repetitions of one measurement
point (Extra-P models their mean). A node is modelled when it has values at
no fewer than Extra-P's minimum number of points (5 for one parameter); other
nodes get ``None`` and NaN qualities (no Extra-P warning per node). Missing rows
and NaN are no value. The data are arranged with whole-array operations; Extra-P
itself builds one object per measurement and fits each (node, metric) in turn
(its API), which dominates the time (about 0.1-0.5 s per model).

Needs the optional ``extrap`` package (``pip install "graphframe[extrap]"``;
Extra-P 4.2 requires numpy < 2, hence pyarrow < 21 - see ``docs/guide/ensembles.md``).
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError, MetricError
from ._internal import plain_values

#: Thicket's suffix of model columns.
MODEL_TAG = "_extrap-model"
#: Extra-P's quality measures of a fit, in Thicket's column order.
QUALITY = ("RSS", "rRSS", "SMAPE", "AR2", "RE")
RANK_AGGS = ("mean", "median", "min", "max", "sum")


class ExtrapModel:
    """One node's Extra-P model of one metric (Thicket's ``ModelWrapper`` has the same
    ``mdl``, ``param_name``, ``eval`` and ``str()``).

    Calling it evaluates the formula (numbers or numpy arrays); ``coefficients`` gives
    its parts; ``quality`` the fit measures.
    """

    def __init__(self, mdl: Any, param_name: str) -> None:
        self.mdl = mdl
        self.param_name = param_name

    @property
    def function(self) -> Any:
        """Extra-P's hypothesis function."""
        return self.mdl.hypothesis.function

    def eval(self, value: Any) -> Any:
        """The model at ``value`` (a number or an array of parameter values)."""
        if np.ndim(value) == 0:
            return float(self.function.evaluate(float(value)))
        return np.asarray(self.function.evaluate(np.asarray(value, dtype=np.float64)),
                          dtype=np.float64)

    __call__ = eval

    @property
    def coefficients(self) -> Dict[str, float]:
        """``{"c": constant, "<term>": coefficient, ...}``; a term's variables are joined
        by ``" * "`` (e.g. ``"p^(1) * log2(p)^(1)"``)."""
        out = {"c": float(self.function.constant_coefficient)}
        for term in self.function.compound_terms:
            label = " * ".join(t.to_string() for t in term.simple_terms)
            out[label] = float(term.coefficient)
        return out

    @property
    def quality(self) -> Dict[str, float]:
        """Extra-P's fit measures (``RSS``, ``rRSS``, ``SMAPE``, ``AR2``, ``RE``)."""
        h = self.mdl.hypothesis
        return {q: float(getattr(h, q)) for q in QUALITY}

    def __str__(self) -> str:
        return str(self.function)

    def __repr__(self) -> str:
        return f"<ExtrapModel {self.param_name}: {self}>"


def model_column(metric: Any, part: str = "") -> Any:
    """Thicket's statsframe column of a model (``part=""``) or of one quality measure.

    Examples
    --------
    >>> model_column("time"), model_column("time", "AR2"), model_column(("a", "t"))
    ('time_extrap-model', 'time_AR2_extrap-model', ('a', 't_extrap-model'))
    """
    suffix = (f"_{part}" if part else "") + MODEL_TAG
    if isinstance(metric, tuple):
        return metric[:-1] + (f"{metric[-1]}{suffix}",)
    return f"{metric}{suffix}"


def extrap_available() -> bool:
    """Whether Extra-P can be imported here."""
    try:
        _extrap()
    except ArgumentError:
        return False
    return True


def fit_models(ens: Any, parameter: Any, metrics: Any = None, ranks: str = "mean",
               add_stats: bool = True, min_points: Optional[int] = None) -> List[Any]:
    """Fit an Extra-P model per node of each metric over the metadata column ``parameter``
    and write them into ``ens.statsframe`` (see the module docs); returns the new columns.

    Parameters
    ----------
    ens : Ensemble
    parameter : metadata column
        Numeric values (rank counts, problem sizes...), one per profile.
    metrics : column or list of columns, optional
        Default: the ensemble's metrics (exclusive, then inclusive).
    ranks : str
        How a profile's rows of one node combine: mean (default), median, min, max, sum.
    add_stats : bool
        Also write the fit measures (``<metric>_<RSS|rRSS|SMAPE|AR2|RE>_extrap-model``).
    min_points : int, optional
        Fewest parameter values with data for a node to be modelled (default: Extra-P's
        own minimum, 5; fewer is allowed, and fits what few points there are).
    """
    xp = _extrap()
    metrics = _metrics(ens, metrics)
    if ranks not in RANK_AGGS:
        raise ArgumentError(f"ranks={ranks!r}: use one of {', '.join(RANK_AGGS)}")
    keys = _parameter_values(ens, parameter)
    # the points in the order the profiles first have them (as Thicket gives them to
    # Extra-P): Extra-P's constant model reports the relative error of the last point
    # it was given as its RE (docs/guide/coming-from-thicket.md, "Extra-P models")
    points = pd.unique(np.asarray(keys))
    frame = ens.statsframe
    nodes = plain_values(frame.index)
    tables = {m: _node_by_profile(ens, m, ranks, nodes) for m in metrics}
    experiment, callpaths, metric_objs = _experiment(xp, str(parameter), points)
    profile_point = pd.Index(points).get_indexer(keys)   # each profile's point
    generator = xp["ModelGenerator"](experiment)
    modeler = generator.modeler
    need = int(min_points if min_points is not None
               else getattr(modeler, "min_measurement_points", 5))
    if need < 1:
        raise ArgumentError(f"min_points={min_points!r}: at least 1")
    if hasattr(modeler, "min_measurement_points"):   # asked for fewer: no warning per node
        modeler.min_measurement_points = min(need, modeler.min_measurement_points)
    modelled: Dict[Any, np.ndarray] = {}
    for m in metrics:
        matrix = tables[m]
        has = np.zeros((len(nodes), len(points)), dtype=bool)
        np.logical_or.at(has.T, profile_point, ~np.isnan(matrix.T))
        ok = has.sum(axis=1) >= need
        modelled[m] = np.flatnonzero(ok)
        metric_obj = xp["Metric"](str(m))
        experiment.add_metric(metric_obj)
        metric_objs[m] = metric_obj
        _add_measurements(xp, experiment, callpaths, metric_obj, matrix, profile_point,
                          points, modelled[m], nodes)
    if experiment.callpaths:
        experiment.call_tree = xp["create_call_tree"](experiment.callpaths)
    generator.model_all()
    return _write(frame, generator, callpaths, metric_objs, modelled, nodes, str(parameter),
                  add_stats)


# --------------------------------------------------------------- helpers
def _extrap() -> Dict[str, Any]:
    """The Extra-P classes used here, or an ArgumentError naming the extra."""
    try:
        with warnings.catch_warnings():   # its dependencies' deprecation notices on import
            warnings.simplefilter("ignore")
            classes = _import_extrap()
    except ImportError as err:   # optional dependency
        raise ArgumentError("performance models need Extra-P: pip install "
                            "'graphframe[extrap]'") from err
    return classes


def _import_extrap() -> Dict[str, Any]:
    from extrap.entities.callpath import Callpath
    from extrap.entities.coordinate import Coordinate
    from extrap.entities.experiment import Experiment
    from extrap.entities.measurement import Measurement
    from extrap.entities.metric import Metric
    from extrap.entities.parameter import Parameter
    from extrap.fileio.io_helper import create_call_tree
    from extrap.modelers.model_generator import ModelGenerator
    return dict(Callpath=Callpath, Coordinate=Coordinate, Experiment=Experiment,
                Measurement=Measurement, Metric=Metric, Parameter=Parameter,
                create_call_tree=create_call_tree, ModelGenerator=ModelGenerator)


def _metrics(ens: Any, metrics: Any) -> List[Any]:
    if metrics is None:
        found = [m for m in ens.metric_columns if m in ens.dataframe.columns]
        if not found:
            raise MetricError("the ensemble declares no metric; pass metrics=[...]")
        return found
    if isinstance(metrics, (str, tuple)):
        metrics = [metrics]
    metrics = list(metrics)
    for m in metrics:
        if m not in ens.dataframe.columns:
            raise MetricError(f"no column {m!r} to model; columns: "
                              f"{', '.join(map(str, ens.dataframe.columns))}")
        if not pd.api.types.is_numeric_dtype(ens.dataframe[m]):
            raise MetricError(f"column {m!r} holds {ens.dataframe[m].dtype} values, not numbers")
    return metrics


def _parameter_values(ens: Any, parameter: Any) -> np.ndarray:
    """The parameter's value of every profile (profile order), as positive floats."""
    meta = ens.metadata
    if parameter not in meta.columns:
        raise ArgumentError(f"no metadata column {parameter!r} to model over; the metadata "
                            f"columns are {', '.join(map(str, meta.columns)) or 'none'}")
    try:
        values = meta[parameter].to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError) as err:
        raise ArgumentError(f"metadata column {parameter!r} must hold numbers (rank counts, "
                            f"sizes), not {meta[parameter].tolist()[:3]}") from err
    if np.isnan(values).any():
        raise ArgumentError(f"metadata column {parameter!r} has no value for profile(s) "
                            f"{meta.index[np.isnan(values)].tolist()[:5]}")
    return values


def _node_by_profile(ens: Any, metric: Any, ranks: str, nodes: np.ndarray) -> np.ndarray:
    """(statsframe nodes x profiles) matrix of the metric, ranks combined, NaN = no value."""
    values = ens.dataframe[metric].astype(np.float64)
    if ens.dataframe.index.nlevels > 2:
        values = values.groupby(level=["node", "profile"], sort=True).agg(ranks)
    table = values.unstack("profile")
    return table.reindex(index=nodes, columns=ens.metadata.index).to_numpy(dtype=np.float64)


def _experiment(xp: Dict[str, Any], name: str, points: np.ndarray):
    experiment = xp["Experiment"]()
    experiment.add_parameter(xp["Parameter"](name))
    for p in points.tolist():
        experiment.add_coordinate(xp["Coordinate"](p))
    return experiment, {}, {}


def _add_measurements(xp, experiment, callpaths, metric_obj, matrix, profile_point, points,
                      rows, nodes) -> None:
    """One Extra-P measurement per (node, point) with data: the point's profiles' values."""
    order = np.argsort(profile_point, kind="stable")
    bounds = np.searchsorted(profile_point[order], np.arange(len(points) + 1))
    coordinates = experiment.coordinates
    for r in rows.tolist():   # Extra-P's API: one object per measurement
        node = int(nodes[r])
        cp = callpaths.get(node)
        if cp is None:
            cp = callpaths[node] = xp["Callpath"](f"node {node}")
            experiment.add_callpath(cp)
        line = matrix[r, order]
        for k in range(len(points)):
            reps = line[bounds[k]:bounds[k + 1]]
            reps = reps[~np.isnan(reps)]
            if len(reps):
                experiment.add_measurement(xp["Measurement"](coordinates[k], cp, metric_obj,
                                                             reps))


def _write(frame, generator, callpaths, metric_objs, modelled, nodes, parameter,
           add_stats) -> List[Any]:
    out: List[Any] = []
    for m, rows in modelled.items():
        cells = np.full(len(nodes), None, dtype=object)
        quality = {q: np.full(len(nodes), np.nan) for q in QUALITY}
        for r in rows.tolist():
            fitted = generator.models.get((callpaths[int(nodes[r])], metric_objs[m]))
            if fitted is None:
                continue
            wrapped = ExtrapModel(fitted, parameter)
            cells[r] = wrapped
            for q, v in wrapped.quality.items():
                quality[q][r] = v
        name = model_column(m)
        frame[name] = cells
        out.append(name)
        if add_stats:
            for q in QUALITY:
                frame[model_column(m, q)] = quality[q]
                out.append(model_column(m, q))
    return out
