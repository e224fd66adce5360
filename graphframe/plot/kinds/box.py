"""Box plots of call paths across ranks, or across the profiles of an ensemble."""

from __future__ import annotations

from typing import Any, Callable

from .. import ensemble as ensemble_plots
from ..distribution import box
from ..registry import PlotKind, PlotRequest
from ._cli import node_ids, single_or_ensemble


def distribution_cli(req: PlotRequest, kind: PlotKind, single: Callable[..., Any],
                     ensemble: Callable[..., Any]) -> Any:
    """Box and violin from the command line (the same options)."""
    metric, nodes, top = req.get("metric"), node_ids(req.get("nodes")), req.get("top")
    return single_or_ensemble(
        req, kind,
        lambda gf, ax: single(gf, nodes, metric, inclusive=bool(req.get("inclusive")),
                              top=top or 5, ax=ax),
        lambda ens, ax: ensemble(ens, nodes, metric, by=req.get("by"), top=top or 5,
                                 aggregate=req.get("aggregate", "mean"), ax=ax))


PLOT = PlotKind(
    name="box",
    help="PATH: box plots of call paths across ranks (--node, repeatable); PATH PATH...: "
         "across profiles (--by KEY: one box per value)",
    draw={"graphframe": box, "ensemble": ensemble_plots.box},
    cli=lambda req: distribution_cli(req, PLOT, box, ensemble_plots.box),
    size=(8.0, 4.5),
)
