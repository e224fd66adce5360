"""``graphframe stats DIR_OR_GLOB --by KEY``: a scaling table of an ensemble.

Every profile under the folder (or matching the glob) is read into one
:class:`graphframe.Ensemble`; the metric (by default the inclusive form of
the default metric) is tabulated per call path and per value of the
metadata column ``KEY`` (``Ensemble.pivot(KEY, by="path")``: ranks averaged
within a profile, profiles with the same value averaged). The ``K`` call
paths with the largest value at the base (the smallest value of ``KEY``,
or ``--base``) are printed, one row each, with one column per value of
``KEY``; ``--speedup`` / ``--efficiency`` (with ``--weak`` for weak
scaling) print ratios to the base instead (see
:mod:`graphframe.ensemble.scaling`).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
import pandas as pd

from ..ensemble import Ensemble
from ..ensemble.scaling import default_metric
from ..errors import ArgumentError
from ..render.numbers import key_text
from .common import ensemble_reader_options


def scaling_report(path: str, key: str, metric: Optional[str] = None, top: int = 10,
                   base: Optional[str] = None, mode: str = "value", weak: bool = False,
                   format: Optional[str] = None, progress: bool = False,
                   options: Sequence[str] = ()) -> str:
    """The text ``graphframe stats PATH --by KEY`` prints; ``options`` are ``--option``
    texts (``KEY=VALUE`` for every format that takes it, ``FORMAT:KEY=VALUE`` for one)."""
    plain, keyed = ensemble_reader_options(options)
    ens = Ensemble.read(path, format=format, progress=True if progress else None,
                        options=keyed or None, **plain)
    return scaling_text(ens, key, metric, top, base, mode, weak,
                        title=str(path).rstrip("/").split("/")[-1])


def scaling_text(ens: Any, key: str, metric: Optional[str] = None, top: int = 10,
                 base: Optional[str] = None, mode: str = "value", weak: bool = False,
                 title: str = "ensemble") -> str:
    """Text of the scaling table of ``ens`` (see the module docstring).

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": t},
    ...                                  "children": []}]) for t in (8.0, 5.0, 4.0)]
    >>> ens = Ensemble.from_graphframes(gfs, metadata={"np": [1, 2, 4]})
    >>> print(scaling_text(ens, "np", "time", title="demo"), end="")
    demo: 3 profiles, 1 nodes; time by np (mean over profiles)
    <BLANKLINE>
             1          2          4  call path
             8          5          4  main
    >>> print(scaling_text(ens, "np", "time", mode="speedup").splitlines()[-1])
             1        1.6          2  main
    """
    metric = default_metric(ens, metric)
    table = ens.pivot(key, metric, by="path")
    if not len(table):
        raise ArgumentError(f"no profile has a value of {key!r}")
    base_value = _base(table.index, base, key)
    order = np.argsort(-np.nan_to_num(table.loc[base_value].to_numpy(), nan=-np.inf),
                       kind="stable")[:top]
    shown = table.iloc[:, order]
    if mode != "value":
        ratios = ens.speedup(key, base=base_value, weak=weak, efficiency=mode == "efficiency",
                             metric=metric, by="path")
        shown = ratios.iloc[:, order]
    what = {"value": "", "speedup": f"; {'weak' if weak else 'strong'} scaling speedup",
            "efficiency": f"; {'weak' if weak else 'strong'} scaling efficiency"}[mode]
    lines = [f"{title}: {ens.num_profiles} profiles, {ens.graph.num_nodes} nodes; {metric} "
             f"by {key} (mean over profiles){what}"
             + (f", base {key} = {key_text(base_value)}" if mode != "value" else "") + "\n",
             "\n"]
    labels = [key_text(v) for v in shown.index]
    w = max([10] + [len(x) for x in labels])
    lines.append(" ".join(f"{x:>{w}}" for x in labels) + "  call path\n")
    values = shown.to_numpy()
    for j, path in enumerate(shown.columns):
        cells = " ".join(f"{_num(v):>{w}}" for v in values[:, j].tolist())
        lines.append(f"{cells}  {path}\n")
    return "".join(lines)


def _base(values: pd.Index, base: Optional[str], key: str) -> Any:
    if base is None:
        return values[0]
    for v in values:
        if str(base) in (str(v), key_text(v)):
            return v
    raise ArgumentError(f"--base {base}: {key} has the values "
                        f"{', '.join(key_text(v) for v in values)}")


def _num(value: float) -> str:
    return "-" if value != value else format(float(value), ".4g")

