"""The unit of a metric, as far as its name and the source format tell it.

Readers keep metric names as the tools write them and record no units, so
the exports that can state a unit (speedscope's ``unit``, the note of the
folded stacks' scale) look it up here:

1. a unit written in the name: ``(sec)``/``(s)``, ``(ms)``, ``(us)``/``usec``,
   ``(ns)``/``.ns``, ``(B)``/``bytes``;
2. else, for a time metric (a name with the word ``time`` or ``wall_clock``/
   ``cpu_clock``, such as ``time``, ``time (inc)``, ``Min time/rank``,
   ``time.duration``, ``sum.wall_clock``), the unit its format records:
   microseconds for TAU, seconds for Caliper, HPCToolkit, cProfile,
   pyinstrument and timemory;
3. else ``"none"`` (counts, cycles, percentages such as gprof2dot's ``time``,
   and every format that does not say, e.g. Hatchet's literal).
"""

from __future__ import annotations

import re
from typing import Any

#: speedscope's units.
UNITS = ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes")

_IN_NAME = [
    (re.compile(r"\((?:sec|s|seconds?)\)|\bseconds\b", re.I), "seconds"),
    (re.compile(r"\((?:ms|msec)\)|\bmsec\b", re.I), "milliseconds"),
    (re.compile(r"\((?:us|usec|µs)\)|\busec\b", re.I), "microseconds"),
    (re.compile(r"\((?:ns|nsec)\)|[._]ns\b|\bnsec\b", re.I), "nanoseconds"),
    (re.compile(r"\(b\)|\bbytes\b", re.I), "bytes"),
]
_TIME_WORD = re.compile(r"(?:^|[^a-z])(?:time|wall_clock|cpu_clock)(?:[^a-z]|$)", re.I)

#: Unit of the time metrics of each source format (``metadata["format"]``).
TIME_UNIT_OF_FORMAT = {
    "tau": "microseconds",
    "caliper": "seconds",
    "caliper-json": "seconds",
    "hpctoolkit": "seconds",
    "hpctoolkit-latest": "seconds",
    "cprofile": "seconds",
    "pyinstrument": "seconds",
    "timemory": "seconds",
}


def metric_unit(metric: Any, source_format: Any = None) -> str:
    """One of :data:`UNITS` for ``metric`` read from ``source_format`` (see module docs).

    Examples
    --------
    >>> metric_unit("GKER (sec) (inc)"), metric_unit("time.duration.ns", "caliper")
    ('seconds', 'nanoseconds')
    >>> metric_unit("Min time/rank", "caliper"), metric_unit("time (inc)", "tau")
    ('seconds', 'microseconds')
    >>> metric_unit("time", "gprof-dot"), metric_unit("cycles", "hpctoolkit-latest")
    ('none', 'none')
    """
    name = str(metric)
    for pattern, unit in _IN_NAME:
        if pattern.search(name):
            return unit
    if _TIME_WORD.search(name):
        return TIME_UNIT_OF_FORMAT.get(str(source_format), "none")
    return "none"


#: Names of the scaled units: (unit, scale) -> unit.
_SCALED = {("seconds", 1e3): "milliseconds", ("seconds", 1e6): "microseconds",
           ("seconds", 1e9): "nanoseconds", ("milliseconds", 1e3): "microseconds",
           ("milliseconds", 1e6): "nanoseconds", ("microseconds", 1e3): "nanoseconds"}


def scaled_unit(unit: str, scale: float) -> str:
    """The unit of values in ``unit`` multiplied by ``scale`` ("" when it has no name).

    Examples
    --------
    >>> scaled_unit("seconds", 1e6), scaled_unit("bytes", 1.0), scaled_unit("none", 1e3)
    ('microseconds', 'bytes', '')
    """
    if scale == 1:
        return "" if unit == "none" else unit
    return _SCALED.get((unit, scale), "")
