"""What a profile's reader left out of the tree, said in one line.

Caliper records outside every annotated region have no call path; read with
``no_path="drop"`` (the default, as Hatchet and Thicket) they are not in the
tree, and the reader puts each metric's total over them in
``metadata["unattributed"]``. :func:`unattributed_share` compares that total
with the tree's, and :func:`footer` is the line ``tree()`` and ``graphframe
info`` print when it is more than 1 % of the whole.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

#: The metadata key the Caliper readers write (graphframe_readers.caliper.names.UNATTRIBUTED).
KEY = "unattributed"
#: Metric -> the share of the profile as read (graphframe_readers.caliper.names.UNATTRIBUTED_SHARE).
SHARE_KEY = "unattributed share"
#: Shares above this are printed under ``tree()``.
THRESHOLD = 0.01


def unattributed_totals(metadata: Any, key: str = KEY) -> Dict[Any, float]:
    """``metadata["unattributed"]`` (or another ``key``) as a dict metric -> total (an
    Ensemble's metadata row holds it as a tuple of pairs); ``{}`` when there is none.

    Examples
    --------
    >>> unattributed_totals({"unattributed": (("time", 2.5),)})
    {'time': 2.5}
    >>> unattributed_totals({})
    {}
    """
    value = metadata.get(key) if isinstance(metadata, Mapping) else None
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        try:
            return dict(value)
        except (TypeError, ValueError):
            return {}
    return {}


def unattributed_share(gf: Any, metric: Any) -> Optional[Tuple[float, float]]:
    """``(total left out, its share of the total)`` of ``metric``, or None when the
    reader left nothing of it out.

    The share is the one the reader measured on the profile as read
    (``metadata["unattributed share"]``), so a filtered, squashed or computed
    GraphFrame says what its source left out. Without it, the share is
    measured on ``gf``: the tree's total is the sum of the metric over every
    row (an exclusive metric) or over the roots' rows (an inclusive one), all
    ranks together, as the left-out total is.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> gf.metadata["unattributed"] = {"time": 2.0}
    >>> unattributed_share(gf, "time")
    (2.0, 0.5)
    """
    left_out = unattributed_totals(gf.metadata).get(metric)
    if left_out is None:
        return None
    measured = unattributed_totals(gf.metadata, SHARE_KEY).get(metric)
    if measured is not None:
        return float(left_out), float(measured)
    if metric not in gf.dataframe.columns:
        return None
    values = gf.dataframe[metric]
    if metric in getattr(gf, "inc_metrics", ()):
        nodes = values.index.get_level_values(0).to_numpy(dtype=np.int64)
        values = values[np.isin(nodes, np.asarray(gf.graph.root_ids, dtype=np.int64))]
    shown = float(np.nansum(values.to_numpy(dtype=np.float64, na_value=np.nan)))
    whole = shown + float(left_out)
    return float(left_out), (float(left_out) / whole if whole > 0 else 0.0)


def footer(gf: Any, metric: Any, always: bool = False) -> str:
    """The line saying how much of ``metric`` is outside the tree, when that is more
    than 1 % of the total (any amount with ``always``); else ``""``.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> gf.metadata["unattributed"] = {"time": 2.0}
    >>> print(footer(gf, "time"), end="")
    <BLANKLINE>
    Not in the tree: time 2 (50.0 % of the total) outside every annotated region (no_path="keep" shows it as a '<no path>' root)
    """
    share = unattributed_share(gf, metric)
    if share is None or (share[1] <= THRESHOLD and not always):
        return ""
    total, fraction = share
    return (f"\nNot in the tree: {metric} {total:.6g} ({percent(fraction)} of the total) "
            "outside every annotated region (no_path=\"keep\" shows it as a '<no path>' "
            "root)\n")


def percent(fraction: float) -> str:
    """A share as a percentage: one decimal from 1 %, two significant digits below.

    Examples
    --------
    >>> percent(0.976), percent(0.000105), percent(0.0)
    ('97.6 %', '0.011 %', '0 %')
    """
    value = 100 * fraction
    return f"{value:.1f} %" if value >= 1 else f"{value:.2g} %"
