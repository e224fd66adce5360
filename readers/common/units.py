"""Units of metrics, as readers record them in ``metadata["units"]``.

A reader that knows the unit of a metric column (HPCToolkit's ``(usec)``/
``(sec)`` metric names, Caliper's ``attribute.unit`` and timer attributes,
TAU's ``TIME`` metric) writes ``metadata["units"] = {column: unit}`` with one
of :data:`UNITS` (speedscope's vocabulary); exports, tree headers and plot
axes read it (``graphframe.render.units``). A column without an entry has no
known unit.
"""

from __future__ import annotations

import re
from typing import Any, Optional

#: The units (speedscope's names).
UNITS = ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes")

_IN_NAME = [
    (re.compile(r"\((?:sec|s|seconds?)\)|\bseconds\b", re.I), "seconds"),
    (re.compile(r"\((?:ms|msec)\)|\bmsec\b", re.I), "milliseconds"),
    (re.compile(r"\((?:us|usec|µs)\)|\busec\b", re.I), "microseconds"),
    (re.compile(r"\((?:ns|nsec)\)|[._]ns\b|\bnsec\b", re.I), "nanoseconds"),
    (re.compile(r"\(b\)|\bbytes\b", re.I), "bytes"),
]

_WORDS = {"s": "seconds", "sec": "seconds", "secs": "seconds", "second": "seconds",
          "seconds": "seconds", "ms": "milliseconds", "msec": "milliseconds",
          "millisecond": "milliseconds", "milliseconds": "milliseconds",
          "us": "microseconds", "usec": "microseconds", "µs": "microseconds",
          "microsecond": "microseconds", "microseconds": "microseconds",
          "ns": "nanoseconds", "nsec": "nanoseconds", "nanosecond": "nanoseconds",
          "nanoseconds": "nanoseconds", "b": "bytes", "byte": "bytes", "bytes": "bytes"}


def unit_in_name(name: Any) -> Optional[str]:
    """The unit a metric name states (``CPUTIME (usec)``, ``GKER (sec)``, ``time.ns``,
    ``GMEM (B)``), or None.

    Examples
    --------
    >>> unit_in_name("CPUTIME (usec) (I)"), unit_in_name("time.duration.ns")
    ('microseconds', 'nanoseconds')
    >>> unit_in_name("GXCOPY:D2H (B)"), unit_in_name("cycles")
    ('bytes', None)
    """
    text = str(name)
    for pattern, unit in _IN_NAME:
        if pattern.search(text):
            return unit
    return None


def unit_from_text(text: Any) -> Optional[str]:
    """One of :data:`UNITS` for a unit written as text (Caliper's ``attribute.unit``:
    ``sec``, ``usec``, ``ns``, ``bytes``...), or None when it is not a unit of time or
    size.

    Examples
    --------
    >>> unit_from_text("sec"), unit_from_text(" USEC "), unit_from_text("flop/s")
    ('seconds', 'microseconds', None)
    """
    return _WORDS.get(str(text).strip().lower()) if text is not None else None
