"""Pairing metrics that two profiles name differently (``diff(..., metric_map=)``).

Two readings of one program can name a metric differently: HPCToolkit's old
layout says ``cycles (E)``/``cycles (I)`` where the current layout says
``cycles``/``cycles (inc)``. ``metric_map={"cycles (E)": "cycles", ...}``
renames the before profile's metrics to the after profile's names before
they are compared; :func:`suggest_pairs` finds such a mapping where the
names differ only by these spellings, for error messages and the CLI.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Mapping, Sequence

from ..errors import MetricError
from ..model.fields import GraphFrameLike, replace

_EXCLUSIVE = re.compile(r"\s*\((E|exc|excl|exclusive)\)$", re.IGNORECASE)
_INCLUSIVE = re.compile(r"\s*\((I|inc|incl|inclusive)\)$", re.IGNORECASE)


def metric_key(name: Any) -> Any:
    """``name`` with its exclusive/inclusive spelling made uniform (``X`` / ``X (inc)``).

    Examples
    --------
    >>> metric_key("cycles (E)"), metric_key("cycles (I)"), metric_key("cycles (inc)")
    ('cycles', 'cycles (inc)', 'cycles (inc)')
    """
    if not isinstance(name, str):
        return name
    if _INCLUSIVE.search(name):
        return _INCLUSIVE.sub("", name) + " (inc)"
    return _EXCLUSIVE.sub("", name)


def suggest_pairs(before: Sequence[Any], after: Sequence[Any]) -> Dict[Any, Any]:
    """``{before name: after name}`` for metrics whose names differ only in spelling.

    Examples
    --------
    >>> suggest_pairs(["cycles (E)", "cycles (I)", "time"], ["cycles", "cycles (inc)", "time"])
    {'cycles (E)': 'cycles', 'cycles (I)': 'cycles (inc)'}
    """
    by_key: Dict[Any, List[Any]] = {}
    for name in after:
        by_key.setdefault(metric_key(name), []).append(name)
    out: Dict[Any, Any] = {}
    for name in before:
        match = by_key.get(metric_key(name), [])
        if len(match) == 1 and match[0] != name and name not in after:
            out[name] = match[0]
    return out


def rename_metrics(gf: GraphFrameLike, mapping: Mapping[Any, Any], side: str = "before") -> Any:
    """``gf`` with its metrics renamed by ``mapping`` (declarations and pairs follow).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> renamed = rename_metrics(gf, {"time": "cycles", "time (inc)": "cycles (inc)"})
    >>> renamed.exc_metrics, renamed.inclusive_of, renamed.default_metric
    (['cycles'], {'cycles': 'cycles (inc)'}, 'cycles')
    """
    columns = gf.dataframe.columns
    missing = [k for k in mapping if k not in columns]
    if missing:
        raise MetricError(f"metric_map names {short_list(missing)}, which the {side} profile "
                          f"does not have; it has {short_list(list(columns))}")
    taken = [v for k, v in mapping.items() if v in columns and v not in mapping]
    if taken:
        raise MetricError(f"metric_map renames to {short_list(taken)}, a column the {side} "
                          "profile already has")
    name = {k: mapping.get(k, k) for k in columns}
    return replace(gf, dataframe=gf.dataframe.rename(columns=dict(mapping)),
                   exc_metrics=[name.get(m, m) for m in gf.exc_metrics],
                   inc_metrics=[name.get(m, m) for m in gf.inc_metrics],
                   inclusive_of={name.get(e, e): name.get(i, i)
                                 for e, i in gf.inclusive_of.items()},
                   default_metric=name.get(gf.default_metric, gf.default_metric),
                   aggregations={name.get(c, c): k for c, k in (gf.aggregations or {}).items()})


def short_list(names: Sequence[Any], limit: int = 4) -> str:
    """At most ``limit`` names and how many there are in all.

    Examples
    --------
    >>> short_list(["a", "b"]), short_list(list("abcdef"))
    ("'a', 'b'", "'a', 'b', 'c', 'd' and 2 more (6 in all)")
    """
    shown = ", ".join(repr(n) for n in list(names)[:limit])
    if len(names) > limit:
        return f"{shown} and {len(names) - limit} more ({len(names)} in all)"
    return shown or "none"
