"""What the plot kinds' command-line drawing shares: one profile or an ensemble, titles."""

from __future__ import annotations

import os
from typing import Any, Callable, List, Optional, Sequence

from .. import _mpl
from .._sources import ArgumentError
from ..registry import PlotKind, PlotRequest

#: Options of one profile that mean nothing for an ensemble: (name, default).
SINGLE_ONLY = (("rank", None), ("imbalance", False), ("over", "rank"), ("stacked", None),
               ("inclusive", False), ("color", None))


def node_ids(nodes: Optional[Sequence[str]]) -> Any:
    """Command-line node names; all-digit ones are node ids.

    Examples
    --------
    >>> node_ids(["solve", "12"]), node_ids(None)
    (['solve', 12], None)
    """
    if not nodes:
        return None
    return [int(n) if str(n).isdigit() else n for n in nodes]


def names(paths: Sequence[str]) -> str:
    """``"a.cali → b.cali"``: the inputs' base names, for titles."""
    return " → ".join(os.path.basename(os.path.normpath(p)) for p in paths)


def ensemble_title(kind: str, paths: Sequence[str], count: int, by: Optional[str]) -> str:
    """Default title: ``"heatmap: 5 profiles in mpi_scaling_cali by mpi.world.size"``.

    Examples
    --------
    >>> ensemble_title("bar", ["runs/a.cali", "runs/b.cali"], 2, None)
    'bar: 2 profiles in runs'
    """
    folders = {os.path.basename(os.path.dirname(os.path.abspath(p))) for p in paths}
    where = f" in {folders.pop()}" if len(folders) == 1 else ""
    return f"{kind}: {count} profiles{where}" + (f" by {by}" if by else "")


def one_profile(req: PlotRequest, kind: PlotKind) -> Any:
    """The one profile ``kind`` draws (an ArgumentError for several)."""
    if len(req.paths) != 1:
        raise ArgumentError(f"{kind.name} draws one profile; got {len(req.paths)}")
    return req.read_profile(req.paths[0])


def single_or_ensemble(req: PlotRequest, kind: PlotKind,
                       single: Callable[[Any, Any], Any],
                       ensemble: Callable[[Any, Any], Any]) -> Any:
    """Draw one profile with ``single(gf, ax)``, or several (or a folder of them) as an
    Ensemble with ``ensemble(ens, ax)``; returns the Figure, titled."""
    paths: List[str] = req.expand(req.paths)
    fig = req.figure(tuple(req.get("size") or kind.size))
    ax = fig.axes[0]
    if len(paths) > 1:
        given = [f"--{name}" for name, default in SINGLE_ONLY
                 if req.options.get(name, default) not in (default, None)]
        if given:
            raise ArgumentError(f"{', '.join(given)}: not for several profiles (an ensemble); "
                                "use it with one profile")
        ens = req.read_ensemble(paths)
        ensemble(ens, ax)
        _mpl.fit_title(fig, req.get("title") or ensemble_title(kind.name, paths,
                                                               ens.num_profiles, req.get("by")))
        return fig
    single(req.read_profile(paths[0]), ax)
    _mpl.fit_title(fig, req.get("title") or f"{kind.name}: {names(paths)}")
    return fig
