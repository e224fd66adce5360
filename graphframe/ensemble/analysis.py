"""Statistics over runs and scaling tables of :class:`~graphframe.ensemble.Ensemble`
(a mixin it inherits; the computations are in :mod:`.stats` and :mod:`.scaling`)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import pandas as pd

from . import models, scaling
from . import stats as _stats


class EnsembleAnalysis:
    """Per-node statistics over profiles, pivots and speedups of an Ensemble."""

    def stats(self, metrics: Any = None, stats: Sequence[str] = _stats.DEFAULT_STATS,
              over: Any = "profile", percentiles: Sequence[float] = (),
              ddof: int = 1) -> pd.DataFrame:
        """Per-node statistics over profiles (or ``("profile", "rank")``) as
        ``<metric>_<stat>`` columns of :attr:`statsframe` (written in place, returned);
        see :mod:`graphframe.ensemble.stats` for the definitions.

        Examples
        --------
        >>> from graphframe import Ensemble, GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 3)
        >>> ens.stats("time", stats=["mean", "std"])["time_std"].tolist()
        [0.0, 0.0]
        """
        return _stats.ensemble_stats(self, metrics, stats, over, percentiles, ddof)

    def pivot(self, index: Any, metric: Any = None, by: str = "name",
              agg: str = "mean", ranks: str = "mean") -> pd.DataFrame:
        """One table: a row per value of the metadata column ``index`` (e.g. the rank
        count), a column per region (``by="name"``) or call path (``by="path"``); see
        :mod:`graphframe.ensemble.scaling`."""
        return scaling.pivot(self, index, metric, by, agg, ranks)

    def speedup(self, key: Any, base: Any = None, weak: bool = False,
                efficiency: bool = False, metric: Any = None, by: str = "name",
                agg: str = "mean", ranks: str = "mean") -> pd.DataFrame:
        """Strong (or ``weak``) scaling speedup, or parallel ``efficiency``, of every
        region relative to the profiles whose ``key`` is ``base`` (default: the smallest);
        see :mod:`graphframe.ensemble.scaling`."""
        return scaling.speedup(self, key, base, weak, efficiency, metric, by, agg, ranks)

    def fit_models(self, parameter: Any, metrics: Any = None, ranks: str = "mean",
                   add_stats: bool = True, min_points: Optional[int] = None) -> List[Any]:
        """An Extra-P performance model per node of each metric as a function of the
        metadata column ``parameter`` (rank count, problem size...), written into
        :attr:`statsframe` as ``<metric>_extrap-model`` (and the fit measures
        ``<metric>_<RSS|rRSS|SMAPE|AR2|RE>_extrap-model``); returns the new columns.
        Needs the optional ``extrap`` package; see :mod:`graphframe.ensemble.models`."""
        return models.fit_models(self, parameter, metrics, ranks, add_stats, min_points)
