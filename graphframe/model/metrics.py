"""Metric naming rules shared by operations (Hatchet's conventions)."""

from __future__ import annotations

from typing import Dict, Sequence, Union

MetricName = Union[str, tuple]

INC_SUFFIX = " (inc)"
EXC_SUFFIX = " (exc)"


def inclusive_name(metric: MetricName) -> MetricName:
    """Name of the inclusive partner of an exclusive metric.

    Examples
    --------
    >>> inclusive_name("time"), inclusive_name("cycles (exc)")
    ('time (inc)', 'cycles')
    >>> inclusive_name(("a", "time"))
    ('a', 'time (inc)')
    """
    if isinstance(metric, tuple):
        return metric[:-1] + (inclusive_name(metric[-1]),)
    if metric.endswith(EXC_SUFFIX):
        return metric[: -len(EXC_SUFFIX)]
    return metric + INC_SUFFIX


def exclusive_name(metric: MetricName) -> MetricName:
    """Name of the exclusive partner of an inclusive metric.

    Examples
    --------
    >>> exclusive_name("time (inc)"), exclusive_name("cycles")
    ('time', 'cycles (exc)')
    """
    if isinstance(metric, tuple):
        return metric[:-1] + (exclusive_name(metric[-1]),)
    if metric.endswith("(inc)"):
        return metric[: -len("(inc)")].rstrip()
    return metric + EXC_SUFFIX


def default_pairs(exc: Sequence[MetricName], inc: Sequence[MetricName]) -> Dict:
    """Exclusive -> inclusive pairs implied by the names of declared metrics."""
    inc_set = set(inc)
    return {m: inclusive_name(m) for m in exc if inclusive_name(m) in inc_set}
