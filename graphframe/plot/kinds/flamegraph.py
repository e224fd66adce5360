"""Flame graph: width = inclusive value, colour = module or name; two profiles: their diff."""

from __future__ import annotations

from typing import Any

from .. import _mpl
from .._sources import ArgumentError, diff
from ..flame import flamegraph
from ..registry import PlotKind, PlotRequest
from ._cli import names


def draw_flame_cli(req: PlotRequest, kind: PlotKind, draw: Any) -> Any:
    """One profile, or two (BEFORE AFTER) drawn as their diff, coloured by change."""
    if len(req.paths) not in (1, 2):
        raise ArgumentError(f"{kind.name} draws one profile, or two (BEFORE AFTER) as a diff; "
                            f"got {len(req.paths)}")
    profiles = [req.read_profile(p) for p in req.paths]
    gf, metric = profiles[0], req.get("metric")
    if len(profiles) == 2:
        gf, metric = diff(profiles[0], profiles[1], metric), None
    fig = req.figure(tuple(req.get("size") or kind.size))
    draw(gf, metric, color=req.get("color"), rank=req.get("rank"),
         aggregate=req.get("aggregate", "mean"), ax=fig.axes[0])
    _mpl.fit_title(fig, req.get("title") or f"{kind.name}: {names(req.paths)}")
    return fig


PLOT = PlotKind(
    name="flamegraph",
    help="PATH: width = inclusive value, colour = module or name; BEFORE AFTER: coloured by "
         "change (red slower, blue faster)",
    draw={"graphframe": flamegraph},
    cli=lambda req: draw_flame_cli(req, PLOT, flamegraph),
    size=(12.0, 6.0),
)
