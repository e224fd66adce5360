"""The unit of a metric: what its reader recorded, else what its name and format tell.

Exports (speedscope's ``unit``, the note of the folded stacks' scale), tree
headers and plot axes look units up here, in this order:

1. the unit the reader recorded for the column (``metadata["units"]``, see
   :mod:`graphframe_readers.common.units`: HPCToolkit's ``CPUTIME (usec)`` renamed
   ``time`` is in microseconds, Caliper's ``sum#time.duration`` too, a Caliper
   attribute with ``attribute.unit=sec`` in seconds); an inclusive column
   ``X (inc)`` has the unit of ``X``;
2. a unit written in the name: ``(sec)``/``(s)``, ``(ms)``, ``(us)``/``usec``,
   ``(ns)``/``.ns``, ``(B)``/``bytes``;
3. else, for a time metric (a name with the word ``time`` or ``wall_clock``/
   ``cpu_clock``) of a format whose reader records no units, the unit that
   format writes: microseconds for TAU, seconds for cProfile, pyinstrument and
   timemory;
4. else ``"none"`` (counts, cycles, percentages such as gprof2dot's ``time``,
   and every format that does not say, e.g. Hatchet's literal).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from graphframe_readers.common.units import UNITS, unit_in_name

#: ``Ensemble.metadata.attrs`` key holding the units the profiles' readers recorded
#: (column -> unit, where they agree); not a metadata column.
UNITS_ATTR = "graphframe.units"

#: Unit of the time metrics of each source format (``metadata["format"]``) whose reader
#: records no units: Python profilers write seconds, TAU microseconds.
TIME_UNIT_OF_FORMAT = {
    "tau": "microseconds",
    "cprofile": "seconds",
    "pyinstrument": "seconds",
    "timemory": "seconds",
}

_TIME_WORD = re.compile(r"(?:^|[^a-z])(?:time|wall_clock|cpu_clock)(?:[^a-z]|$)", re.I)

#: Short unit names for labels (``unicode=False``: ``us``).
SYMBOLS = {"seconds": "s", "milliseconds": "ms", "microseconds": "µs",
           "nanoseconds": "ns", "bytes": "B"}


def metric_unit(metric: Any, source_format: Any = None,
                units: Optional[Mapping[Any, Any]] = None) -> str:
    """One of :data:`UNITS` for ``metric`` read from ``source_format`` with the reader's
    ``units`` (``metadata["units"]``; see the module docs).

    Examples
    --------
    >>> metric_unit("time (inc)", "hpctoolkit", {"time": "microseconds"})
    'microseconds'
    >>> metric_unit("GKER (sec) (inc)"), metric_unit("time.duration.ns", "caliper")
    ('seconds', 'nanoseconds')
    >>> metric_unit("time (inc)", "tau"), metric_unit("time", "caliper")
    ('microseconds', 'none')
    >>> metric_unit("time", "gprof-dot"), metric_unit("cycles", "hpctoolkit-latest")
    ('none', 'none')
    """
    if isinstance(units, Mapping) and units:
        for key in (metric, _exclusive_name(metric)):
            found = units.get(key)
            if found in UNITS:
                return str(found)
    named = unit_in_name(metric)
    if named is not None:
        return named
    if _TIME_WORD.search(str(metric)):
        return TIME_UNIT_OF_FORMAT.get(str(source_format), "none")
    return "none"


def unit_of(gf: Any, metric: Any) -> str:
    """:func:`metric_unit` of a column of ``gf`` (a GraphFrame or anything with
    ``metadata``).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> gf = SimpleNamespace(metadata={"format": "hpctoolkit", "units": {"time": "microseconds"}})
    >>> unit_of(gf, "time (inc)"), unit_of(gf, "cycles")
    ('microseconds', 'none')
    """
    meta = getattr(gf, "metadata", None) or {}
    return metric_unit(metric, meta.get("format"), meta.get("units"))


def with_unit(label: Any, unit: str, unicode: bool = True) -> str:
    """``label`` followed by the unit's symbol in brackets (``time (inc) [µs]``), or
    ``label`` alone when the unit is ``none`` or the label already states one.

    Examples
    --------
    >>> with_unit("time (inc)", "microseconds"), with_unit("time", "seconds", unicode=False)
    ('time (inc) [µs]', 'time [s]')
    >>> with_unit("GKER (sec) (inc)", "seconds"), with_unit("cycles", "none")
    ('GKER (sec) (inc)', 'cycles')
    """
    text = str(label)
    symbol = SYMBOLS.get(unit)
    if symbol is None or unit_in_name(text) is not None:
        return text
    if not unicode:
        symbol = symbol.replace("µ", "u")
    return f"{text} [{symbol}]"


def _exclusive_name(metric: Any) -> Any:
    text = str(metric)
    return text[: -len(" (inc)")] if text.endswith(" (inc)") else metric


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
