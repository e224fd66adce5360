"""Scaling: time, speedup and efficiency of call paths against a metadata key (3 panels)."""

from __future__ import annotations

from typing import Any

from .. import _mpl
from .. import ensemble as ensemble_plots
from .._sources import ArgumentError
from ..registry import PlotKind, PlotRequest
from ..scaling import scaling, scaling_table
from ._cli import names


def _cli(req: PlotRequest) -> Any:
    paths = req.expand(req.paths)
    if len(paths) < 2:
        raise ArgumentError(f"scaling needs 2 or more profiles; got {len(paths)}")
    profiles = [req.read_profile(p) for p in paths]
    by = req.get("by")
    table = scaling_table(profiles, req.get("metric"), by=by, top=req.get("top") or 5,
                          aggregate=req.get("aggregate", "mean"))
    figure = _mpl.require("matplotlib.figure")
    fig = figure.Figure(figsize=tuple(req.get("size") or PLOT.size), layout="constrained")
    axes = fig.subplots(1, 3)
    scaling(table, mode=req.get("mode", "strong"), ax=list(axes), key_label=by or "ranks")
    fig.suptitle(req.get("title") or f"scaling: {names(paths)}")
    return fig


PLOT = PlotKind(
    name="scaling",
    help="PATH PATH... or FOLDER: time, speedup and efficiency against --by KEY (a metadata "
         "key; default the rank count)",
    draw={"ensemble": ensemble_plots.scaling},
    cli=_cli,
    size=(15.0, 4.8),
)
