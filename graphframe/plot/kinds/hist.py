"""Histogram: one call path's values across ranks, or across the profiles of an ensemble."""

from __future__ import annotations

from typing import Any

from .. import ensemble as ensemble_plots
from ..distribution import hist
from ..registry import PlotKind, PlotRequest
from ._cli import node_ids, single_or_ensemble


def _cli(req: PlotRequest) -> Any:
    metric, nodes = req.get("metric"), node_ids(req.get("nodes"))
    return single_or_ensemble(
        req, PLOT,
        lambda gf, ax: hist(gf, nodes, metric, inclusive=bool(req.get("inclusive")), ax=ax),
        lambda ens, ax: ensemble_plots.hist(ens, nodes, metric, by=req.get("by"),
                                            aggregate=req.get("aggregate", "mean"), ax=ax))


PLOT = PlotKind(
    name="hist",
    help="PATH: one call path's values across ranks (--node, default the largest); "
         "PATH PATH...: across profiles (--by KEY: one histogram per value)",
    draw={"graphframe": hist, "ensemble": ensemble_plots.hist},
    cli=_cli,
    size=(8.0, 4.5),
)
