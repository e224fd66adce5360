"""``graphframe plot KIND PATH...`` for many profiles: they are read as one Ensemble.

Several paths, or one folder holding several profiles, make an ensemble for the
kinds that draw one (``heatmap``, ``bar``, ``hist``, ``box``, ``violin``: see the
plot registry); ``--by KEY`` (a metadata column) makes the columns, stacks or
samples the values of ``KEY``. ``scaling`` of a folder reads the profiles in it.
What a folder holds is the resolver's answer (:func:`graphframe.io.resolve.members`).
"""

from __future__ import annotations

import os
from typing import List, Sequence

from ..ensemble import Ensemble
from ..errors import ReadError
from ..io.resolve import is_one_input, members
from ..plot.kinds._cli import ensemble_title
from .common import ensemble_reader_options

__all__ = ["ensemble_title", "profile_paths", "read_ensemble"]


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


def read_ensemble(paths: Sequence[str], options: Sequence[str] = ()) -> Ensemble:
    """The profiles at ``paths`` as one Ensemble; ``options`` are ``--option`` texts
    (``KEY=VALUE``, ``FORMAT:KEY=VALUE``)."""
    plain, keyed = ensemble_reader_options(options)
    return Ensemble.read(profile_paths(paths), options=keyed or None, **plain)
