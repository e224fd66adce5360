"""Timeline of a trace: ranks (threads) x time, calls coloured by function."""

from __future__ import annotations

from typing import Any

from .. import _mpl
from .._sources import ArgumentError
from ..registry import PlotKind, PlotRequest
from ..timeline import timeline
from ._cli import names


def _cli(req: PlotRequest) -> Any:
    if len(req.paths) != 1:
        raise ArgumentError(f"timeline draws one trace; got {len(req.paths)}")
    trace = req.read_trace(req.paths[0])
    fig = req.figure(tuple(req.get("size") or PLOT.size))
    rank = req.get("rank")
    timeline(trace, ranks=None if rank is None else [rank], colors=req.get("top") or 12,
             ax=fig.axes[0])
    _mpl.fit_title(fig, req.get("title") or f"timeline: {names(req.paths)}")
    return fig


PLOT = PlotKind(
    name="timeline",
    help="TRACE: ranks x time, calls coloured by function (--top N functions coloured, "
         "--rank R for one rank)",
    draw={"trace": timeline},
    cli=_cli,
    size=(12.0, 4.5),
)
