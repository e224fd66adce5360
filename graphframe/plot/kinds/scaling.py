"""Scaling: time, speedup and efficiency of call paths against a metadata key (3 panels)."""

from __future__ import annotations

from typing import Any

import os
from typing import Sequence

from .. import _mpl
from .. import ensemble as ensemble_plots
from .._sources import ArgumentError, key_text
from ..registry import PlotKind, PlotRequest
from ..scaling import scaling, scaling_table


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
    _mpl.fit_title(fig, req.get("title") or scaling_title(paths, table))
    return fig


def scaling_title(paths: Sequence[str], table: Any) -> str:
    """Default title of ``plot scaling``: how many profiles, where, and the key's range
    (in key order, never a list of file names).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"main": [4.0, 2.0, 1.0]},
    ...                  index=pd.Index([1.0, 8.0, 64.0], name="ranks"))
    >>> scaling_title(["runs/a.json", "runs/b.json", "runs/c.json"], t)
    'scaling: 3 profiles in runs, ranks 1 to 64'
    >>> scaling_title(["x/a.json", "y/b.json"], t.iloc[:2])
    'scaling: 2 profiles, ranks 1 to 8'
    """
    folders = {os.path.basename(os.path.dirname(os.path.abspath(p))) for p in paths}
    where = f" in {folders.pop()}" if len(folders) == 1 else ""
    keys = table.index
    return (f"scaling: {len(paths)} profiles{where}, {keys.name} {key_text(keys[0])} to "
            f"{key_text(keys[-1])}")


def ensemble_scaling(ens: Any, *args: Any, by: Any = None, metric: Any = None,
                     **options: Any) -> Any:
    """:func:`graphframe.plot.ensemble.scaling` with the key first (``ens.plot.scaling``).

    ``ens.plot.scaling("mpi.world.size")``, ``ens.plot.scaling("mpi.world.size",
    "time (inc)")``; as keywords, ``by=`` and ``metric=`` (``ens.plot.scaling("time
    (inc)", by=KEY)`` still reads a positional name as the metric). Returns the Figure.
    """
    if len(args) > 2 or (by is not None and len(args) > 1):
        raise ArgumentError(f"scaling takes the key and the metric ({len(args)} given "
                            "positionally); e.g. ens.plot.scaling('mpi.world.size', "
                            "'time (inc)')")
    if by is None:
        if not args:
            raise ArgumentError("scaling needs a key: a metadata column such as "
                                "ens.plot.scaling('mpi.world.size')")
        by, args = args[0], args[1:]
    if args:
        if metric is not None:
            raise ArgumentError("scaling: the metric is given twice (positionally and "
                                "as metric=)")
        metric = args[0]
    return ensemble_plots.scaling(ens, metric, by=by, **options)


PLOT = PlotKind(
    name="scaling",
    help="PATH PATH... or FOLDER: time, speedup and efficiency against --by KEY (a metadata "
         "key; default the rank count)",
    draw={"ensemble": ensemble_scaling},
    cli=_cli,
    size=(15.0, 4.8),
)
