"""``graphframe plot KIND PATH...`` for many profiles: they are read as one Ensemble.

Several paths, or one folder holding several profiles, make an ensemble for
``heatmap`` (call paths x profiles), ``bar`` (stacked by profile), ``hist``,
``box`` and ``violin`` (one call path across profiles); ``--by KEY`` (a
metadata column) makes the columns, stacks or samples the values of ``KEY``.
``scaling`` of a folder reads the profiles in it.
"""

from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence

from ..ensemble import Ensemble
from ..errors import ReadError
from ..io.resolve import is_one_input, members
from ..plot import ensemble as ensemble_plots
from ..plot._sources import ArgumentError
from .common import ensemble_reader_options

#: Kinds that draw an Ensemble when given several profiles.
ENSEMBLE_KINDS = ("heatmap", "bar", "hist", "box", "violin")

#: Options of one profile that mean nothing for an ensemble: (name, default).
SINGLE_ONLY = (("rank", None), ("imbalance", False), ("over", "rank"), ("stacked", None),
               ("inclusive", False), ("color", None))


def profile_paths(paths: Sequence[str]) -> List[str]:
    """The profiles ``paths`` name: a folder that is not one input (an HPCToolkit
    database, a TAU directory, a trace folder: the resolver's answer) stands for the
    profiles inside it.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name in ("b.cali", "a.cali"):
    ...     open(os.path.join(d, name), "w").close()
    >>> [os.path.basename(p) for p in profile_paths([d])]
    ['a.cali', 'b.cali']
    >>> profile_paths(["x.cali", "y.cali"])
    ['x.cali', 'y.cali']
    """
    out: List[str] = []
    for p in paths:
        inside = _inside(p)
        out.extend(inside if len(inside) > 1 else [p])
    return out


def _inside(path: str) -> List[str]:
    if not os.path.isdir(path) or is_one_input(path):
        return [path]
    try:
        return [str(m) for m in members(path)]
    except ReadError:  # no profile files in it: read as one profile, which says what is wrong
        return [path]


def is_ensemble(kind: str, paths: Sequence[str]) -> bool:
    """True when ``kind`` of ``paths`` is drawn as an Ensemble."""
    return kind in ENSEMBLE_KINDS and len(profile_paths(paths)) > 1


def draw_ensemble(kind: str, paths: Sequence[str], ax: Any, *, metric: Any, top: Any,
                  by: Optional[str], stat: Optional[str], nodes: Any, aggregate: str,
                  options: Sequence[str] = (), **single: Any) -> Ensemble:
    """Read ``paths`` as one Ensemble and draw ``kind`` on ``ax``; returns the Ensemble.

    ``options`` are ``--option`` texts (``KEY=VALUE``, ``FORMAT:KEY=VALUE``)."""
    given = [f"--{name}" for name, default in SINGLE_ONLY
             if single.get(name, default) != default]
    if given:
        raise ArgumentError(f"{', '.join(given)}: not for several profiles (an ensemble); "
                            "use it with one profile")
    plain, keyed = ensemble_reader_options(options)
    ens = Ensemble.read(profile_paths(paths), options=keyed or None, **plain)
    if kind == "heatmap":
        ensemble_plots.heatmap(ens, metric, by=by, top=top or 20, stat=stat or "max",
                               aggregate=aggregate, ax=ax)
    elif kind == "bar":
        ensemble_plots.bar(ens, metric, by=by, top=top or 10, aggregate=aggregate, ax=ax)
    elif kind == "hist":
        ensemble_plots.hist(ens, nodes, metric, by=by, aggregate=aggregate, ax=ax)
    else:
        draw = ensemble_plots.box if kind == "box" else ensemble_plots.violin
        draw(ens, nodes, metric, by=by, top=top or 5, aggregate=aggregate, ax=ax)
    return ens


def ensemble_title(kind: str, paths: Sequence[str], count: int, by: Optional[str]) -> str:
    """Default title: ``"heatmap: 5 profiles in mpi_scaling_cali by mpi.world.size"``."""
    listed = profile_paths(paths)
    folders = {os.path.basename(os.path.dirname(os.path.abspath(p))) for p in listed}
    where = f" in {folders.pop()}" if len(folders) == 1 else ""
    return f"{kind}: {count} profiles{where}" + (f" by {by}" if by else "")
