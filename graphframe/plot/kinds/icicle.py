"""Icicle: a flame graph with the roots at the top."""

from __future__ import annotations

from ..flame import icicle
from ..registry import PlotKind
from .flamegraph import draw_flame_cli

PLOT = PlotKind(
    name="icicle",
    help="as flamegraph, roots at the top",
    draw={"graphframe": icicle},
    cli=lambda req: draw_flame_cli(req, PLOT, icicle),
    size=(12.0, 6.0),
)
