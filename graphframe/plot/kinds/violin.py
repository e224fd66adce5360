"""Violins of call paths across ranks, or across the profiles of an ensemble."""

from __future__ import annotations

from .. import ensemble as ensemble_plots
from ..distribution import violin
from ..registry import PlotKind
from .box import distribution_cli

PLOT = PlotKind(
    name="violin",
    help="as box, with violins",
    draw={"graphframe": violin, "ensemble": ensemble_plots.violin},
    cli=lambda req: distribution_cli(req, PLOT, violin, ensemble_plots.violin),
    size=(8.0, 4.5),
)
