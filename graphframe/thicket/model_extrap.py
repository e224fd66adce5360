"""Thicket's ``thicket.model_extrap``: Extra-P models per node, on graphframe.

``Modeling(tk, param_name, params=None, chosen_metrics=None).produce_models()``
fits one Extra-P model per node and metric over the metadata column
``param_name`` and writes Thicket's columns into ``tk.statsframe.dataframe``:
``<metric>_extrap-model`` (a :class:`ModelWrapper`: ``str()`` the formula,
``eval(x)``) and, with ``add_stats=True``, ``<metric>_<RSS|rRSS|SMAPE|AR2|RE>_extrap-model``.
``componentize_statsframe()`` adds a ``(column, term)`` column per coefficient
(``"c"`` for the constant). The fitting is :func:`graphframe.ensemble.models.fit_models`.

Differences from Thicket: profiles with the same parameter value are
repetitions of one measurement point (Thicket passes each profile as its own
point); a node with values at fewer than 5 points gets no model (``None``)
instead of an Extra-P warning; ``params`` maps profile labels (or file paths, as
Thicket's) to values; ``to_html`` and ``ModelWrapper.display`` (plots) are not
provided. Needs the optional ``extrap`` package.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..ensemble.models import MODEL_TAG, RANK_AGGS, ExtrapModel, fit_models
from ..errors import ArgumentError

#: Thicket's name for one node's model.
ModelWrapper = ExtrapModel

__all__ = ["MODEL_TAG", "ModelWrapper", "Modeling"]


class Modeling:
    """Extra-P models of ``chosen_metrics`` (default: the Thicket's metrics) over the
    metadata column ``param_name`` (or over ``params``: profile or file -> value)."""

    def __init__(self, tht: Any, param_name: str, params: Optional[Dict[Any, Any]] = None,
                 chosen_metrics: Optional[Sequence[Any]] = None) -> None:
        self.tht = tht
        self.param_name = param_name
        if params:
            if not isinstance(params, dict):
                raise ArgumentError("params must be a dict: profile (or file) -> value")
            if len(params) != len(tht.profile):
                raise ArgumentError(f"params has {len(params)} values for "
                                    f"{len(tht.profile)} profiles")
            by_file = {v: k for k, v in tht.profile_mapping.items()}
            profiles = [p if p in tht.profile else by_file.get(p) for p in params]
            if any(p is None for p in profiles):
                raise ArgumentError("params keys must be profiles or their files")
            tht.metadata[param_name] = pd.Series(list(params.values()), index=profiles) \
                .reindex(tht.metadata.index)
        elif param_name not in tht.metadata.columns:
            raise ArgumentError(f"no metadata column {param_name!r}; give params= or one of "
                                f"{', '.join(map(str, tht.metadata.columns))}")
        self.params = tht.metadata[param_name].tolist()
        self.chosen_metrics = list(chosen_metrics) if chosen_metrics else \
            list(tht.exc_metrics) + list(tht.inc_metrics)

    def produce_models(self, agg_func: Any = "mean", add_stats: bool = True) -> None:
        """Fit the models (``agg_func`` combines a profile's rows of a node: ``mean``,
        Thicket's default, ``median``, ``min``, ``max`` or ``sum``, as a name or the
        function of that name)."""
        ranks = agg_func if isinstance(agg_func, str) else getattr(agg_func, "__name__", None)
        if ranks not in RANK_AGGS:
            raise ArgumentError(f"agg_func={agg_func!r}: use one of {', '.join(RANK_AGGS)}")
        ens = self.tht.ensemble
        fit_models(ens, self.param_name, self.chosen_metrics, ranks, add_stats)
        self.tht.statsframe.dataframe = ens.statsframe

    def componentize_statsframe(self, columns: Optional[List[Any]] = None) -> None:
        """Add a ``(column, term)`` statsframe column per coefficient of the models in
        ``columns`` (default: every model column); NaN where a node has no such term."""
        frame = self.tht.statsframe.dataframe
        if columns is None:
            columns = [c for c in frame.columns if str(c).endswith(MODEL_TAG)
                       and frame[c].map(lambda v: isinstance(v, ExtrapModel)).any()]
        parts = [frame]
        for c in columns:
            if c not in frame.columns:
                raise ArgumentError(f"no column {c!r} in the statsframe")
            cells = frame[c].tolist()
            if not any(isinstance(v, ExtrapModel) for v in cells):
                raise ArgumentError(f"column {c!r} holds no Extra-P models")
            rows = [v.coefficients if isinstance(v, ExtrapModel) else {} for v in cells]
            table = pd.DataFrame(rows, index=frame.index, dtype=np.float64)
            table.columns = pd.MultiIndex.from_product([[c], table.columns.tolist()])
            parts.append(table)
        self.tht.statsframe.dataframe = pd.concat(parts, axis=1)
