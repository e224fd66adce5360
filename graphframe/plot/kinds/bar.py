"""Bars: the top call paths of one profile, or stacked by profile for an ensemble."""

from __future__ import annotations

from typing import Any

from .. import ensemble as ensemble_plots
from ..bar import bar
from ..registry import PlotKind, PlotRequest
from ._cli import single_or_ensemble


def _cli(req: PlotRequest) -> Any:
    metric, top = req.get("metric"), req.get("top")
    return single_or_ensemble(
        req, PLOT,
        lambda gf, ax: bar(gf, metric, top=top or 10, inclusive=bool(req.get("inclusive")),
                           stacked=req.get("stacked"), rank=req.get("rank"),
                           aggregate=req.get("aggregate", "mean"), ax=ax),
        lambda ens, ax: ensemble_plots.bar(ens, metric, by=req.get("by"), top=top or 10,
                                           aggregate=req.get("aggregate", "mean"), ax=ax))


PLOT = PlotKind(
    name="bar",
    help="PATH: top call paths by exclusive (--inclusive) value; --stacked rank; "
         "PATH PATH...: stacked by profile (or by --by KEY)",
    draw={"graphframe": bar, "ensemble": ensemble_plots.bar},
    cli=_cli,
    size=(9.0, 5.0),
)
