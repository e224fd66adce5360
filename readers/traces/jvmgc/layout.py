"""Decorators: which bracketed fields open every line of a unified-logging log.

HotSpot writes the same decorators, in the same order, in front of every
line of one log (``-Xlog:gc*:file=gc.log:uptime,level,tags`` gives
``[0.237s][info][gc          ] ...``). The layout is read once, from the
first decorated line, and each field is classified by its text:

==============  ==================================  ===========================
decorator       example                             kind
==============  ==================================  ===========================
time, utctime   ``2026-12-01T19:47:50.572+0000``    ``date``
uptime          ``0.123s``                          ``uptime`` (unit s)
uptimemillis    ``91ms``                            ``uptime`` (unit ms)
uptimenanos     ``91000000ns``                      ``uptime`` (unit ns)
timemillis      ``1764618470572ms`` (>= 1e11)       ``epoch`` (unit ms)
timenanos       ``1764618470572000000ns`` (>= 1e17)  ``epoch`` (unit ns)
pid, tid        ``26795``                           ``pid`` then ``tid``
level           ``info``, ``info   ``               ``level``
tags            ``gc,phases   ``                    ``tags``
hostname        anything else                       ``hostname``
==============  ==================================  ===========================

Examples
--------
>>> line = b"[2026-12-01T19:47:50.572+0000][0.123s][26795][26802][info] GC(0) x"
>>> lay = sniff_layout([b"$ banner", line])
>>> lay.kinds, lay.time_field, lay.date_field
(('date', 'uptime', 'pid', 'tid', 'level'), 1, 0)
>>> sniff_layout([b"[91ms][info][gc] Using G1"]).uptime_scale
0.001
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional, Tuple

_FIELDS = re.compile(rb"^((?:\[[^\]\n]*\])+)")
_ONE = re.compile(rb"\[([^\]\n]*)\]")
_DATE = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:[+-]\d{4}|Z)?$")
_SECONDS = re.compile(rb"^\d+(?:\.\d+)?s$")
_WHOLE = re.compile(rb"^(\d+)(ms|ns)$")
_INT = re.compile(rb"^\d+$")
_LEVEL = re.compile(rb"^\s*(?:trace|debug|info|warning|error)\s*$")
_TAGS = re.compile(rb"^\s*[a-z][a-z0-9]*(?:,[a-z0-9]+)*\s*$")

#: units of the time decorators, in seconds
SCALES = {"s": 1.0, "ms": 1e-3, "ns": 1e-9}


@dataclass(frozen=True)
class Layout:
    """The decorators of a log: one kind per bracketed field (see the module docs)."""

    kinds: Tuple[str, ...]
    #: per field, the unit suffix of time fields ("s", "ms", "ns") or ""
    units: Tuple[str, ...]

    @property
    def count(self) -> int:
        """Number of bracketed fields in front of each line."""
        return len(self.kinds)

    def _find(self, kind: str) -> Optional[int]:
        return self.kinds.index(kind) if kind in self.kinds else None

    @property
    def time_field(self) -> Optional[int]:
        """Field holding the time since JVM start (uptime*), or None."""
        return self._find("uptime")

    @property
    def date_field(self) -> Optional[int]:
        """Field holding the date (time/utctime), or None."""
        return self._find("date")

    @property
    def epoch_field(self) -> Optional[int]:
        """Field holding timemillis/timenanos, or None."""
        return self._find("epoch")

    @property
    def uptime_scale(self) -> float:
        """Seconds per unit of the uptime field."""
        f = self.time_field
        return SCALES[self.units[f]] if f is not None else 1.0

    @property
    def epoch_scale(self) -> float:
        """Seconds per unit of the timemillis/timenanos field."""
        f = self.epoch_field
        return SCALES[self.units[f]] if f is not None else 1.0

    @property
    def has_time(self) -> bool:
        """True when some field gives a time (uptime, date or epoch)."""
        return any(k in ("uptime", "date", "epoch") for k in self.kinds)

    def describe(self) -> str:
        """The decorators as HotSpot names them, e.g. ``uptime,level,tags``."""
        names = {"date": "time", "uptime": {"s": "uptime", "ms": "uptimemillis",
                                           "ns": "uptimenanos"},
                 "epoch": {"ms": "timemillis", "ns": "timenanos"}}
        out = []
        for kind, unit in zip(self.kinds, self.units):
            name = names.get(kind, kind)
            out.append(name[unit] if isinstance(name, dict) else name)
        return ",".join(out)


def classify_field(text: bytes, seen: Tuple[str, ...]) -> Tuple[str, str]:
    """(kind, unit) of one decorator's text; ``seen`` are the kinds before it."""
    if _DATE.match(text):
        return "date", ""
    if _SECONDS.match(text):
        return "uptime", "s"
    m = _WHOLE.match(text)
    if m:
        value, unit = int(m.group(1)), m.group(2).decode()
        epoch = value >= (10 ** 11 if unit == "ms" else 10 ** 17)
        return ("epoch" if epoch else "uptime"), unit
    if _INT.match(text):
        return ("tid" if "pid" in seen else "pid"), ""
    if _LEVEL.match(text):
        return "level", ""
    if _TAGS.match(text):
        return "tags", ""
    return "hostname", ""


def layout_of(line: bytes) -> Optional[Layout]:
    """The layout of one line, or None when it does not start with ``[...]``."""
    m = _FIELDS.match(line)
    if not m:
        return None
    kinds, units = [], []
    for field in _ONE.findall(m.group(1)):
        kind, unit = classify_field(field, tuple(kinds))
        kinds.append(kind)
        units.append(unit)
    tags = [i for i, k in enumerate(kinds) if k == "tags"]
    for i in tags[:-1]:  # HotSpot prints the tags last: an earlier word is the host name
        kinds[i] = "hostname"
    return Layout(tuple(kinds), tuple(units))


def sniff_layout(lines: Iterable[bytes]) -> Optional[Layout]:
    """The layout of the first line that has a time decorator, or None."""
    for line in lines:
        lay = layout_of(line)
        if lay is not None and lay.has_time:
            return lay
    return None
