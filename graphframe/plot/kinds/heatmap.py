"""Heatmap: call paths x ranks of one profile, or call paths x profiles of an ensemble."""

from __future__ import annotations

from typing import Any

from .. import ensemble as ensemble_plots
from ..heatmap import heatmap
from ..registry import PlotKind, PlotRequest
from ._cli import single_or_ensemble


def _cli(req: PlotRequest) -> Any:
    metric, top = req.get("metric"), req.get("top")
    return single_or_ensemble(
        req, PLOT,
        lambda gf, ax: heatmap(gf, metric, over=req.get("over", "rank"),
                               imbalance=bool(req.get("imbalance")), top=top or 20,
                               by=req.get("by") or req.get("stat"),
                               inclusive=bool(req.get("inclusive")),
                               aggregate=req.get("aggregate", "mean"), ax=ax),
        lambda ens, ax: ensemble_plots.heatmap(ens, metric, by=req.get("by"), top=top or 20,
                                               stat=req.get("stat") or "max",
                                               aggregate=req.get("aggregate", "mean"), ax=ax))


PLOT = PlotKind(
    name="heatmap",
    help="PATH: top call paths x ranks (--imbalance: value / mean over ranks); --by (or "
         "--stat) picks the statistic that ranks call paths; PATH PATH... or FOLDER: call "
         "paths x profiles, or x --by KEY values",
    draw={"graphframe": heatmap, "ensemble": ensemble_plots.heatmap},
    cli=_cli,
    size=(10.0, 7.0),
)
