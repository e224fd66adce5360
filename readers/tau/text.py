"""Decoding one TAU ``profile.<node>.<context>.<thread>`` text file (pure).

Layout::

    23 templated_functions_MULTI_TIME
    # Name Calls Subrs Excl Incl ProfileCalls # <metadata>...</metadata>
    ".TAU application" 1 7 449 51781 0 GROUP="TAU_DEFAULT"
    ".TAU application => MPI_Init()  " 1 0 17983 17983 0 GROUP="TAU_CALLPATH|MPI"
    ...
    0 aggregates
    2 userevents
    # eventname numevents max min mean sumsqr
    "Message size for broadcast" 1 4 4 4 16

The first number counts the timer lines. Call-path timers name the path from
the top-level timer, separated by ``=>``. Values are the call count, the
number of child timers called, exclusive and inclusive value of the metric
(microseconds for TIME). User events (counters) are not read.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..errors import ReadError

_FIRST = re.compile(r"^(\d+)\s+templated_functions(?:_MULTI_(\S+))?\s*$")
_HEADER = re.compile(r"^#\s*Name\s+Calls\s+Subrs\s+Excl\s+Incl\b")
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)"
_TIMER = re.compile(
    rf'^"(.*)"\s+({_NUM})\s+({_NUM})\s+({_NUM})\s+({_NUM})\s+({_NUM})\s+GROUP="([^"\n]*)"[ \t]*$',
    re.M | re.I)
_ATTR = re.compile(r"<attribute><name>(.*?)</name><value>(.*?)</value></attribute>", re.S)
_LOCATION = re.compile(
    r"^(?P<name>.*?)\s*\[\{(?P<file>[^}]*)\}\s*\{(?P<line>\d+)(?:,\d+)?\}"
    r"(?:-\{(?P<end>\d+)(?:,\d+)?\})?\]$")
_LANGUAGE = re.compile(r"\s+(?:C|CXX|C\+\+|F|F90|FORTRAN|UPC)$")
_TAG = re.compile(r"^(\[[A-Z_]+\]\s+)")


@dataclass
class TauFile:
    """Timer records of one profile file."""

    metric: str
    names: List[str]
    groups: List[str]
    values: np.ndarray  # (timers, 4): Calls, Subrs, Excl, Incl
    attributes: Dict[str, str]
    source: Any = None  # the file, for errors; timer k is on line k + 3


def parse_profile_text(text: str, source: Any = None) -> TauFile:
    """Decode the text of one TAU profile file.

    Examples
    --------
    >>> t = parse_profile_text('1 templated_functions_MULTI_TIME\\n'
    ...     '# Name Calls Subrs Excl Incl ProfileCalls #\\n'
    ...     '"main" 1 0 5 5 0 GROUP="TAU_DEFAULT"\\n0 aggregates\\n')
    >>> t.metric, t.names, t.values.tolist()
    ('TIME', ['main'], [[1.0, 0.0, 5.0, 5.0]])
    """
    lines = text.split("\n", 2)
    if len(lines) < 3:
        lines += [""] * (3 - len(lines))
    first = _FIRST.match(lines[0].strip())
    if not first:
        raise ReadError(source, f"the first line is {lines[0][:60]!r}", position="line 1",
                        expected="'<count> templated_functions_MULTI_<METRIC>'")
    if not _HEADER.match(lines[1]):
        raise ReadError(source, f"the second line is {lines[1][:60]!r}", position="line 2",
                        expected="'# Name Calls Subrs Excl Incl ProfileCalls #'")
    count = int(first.group(1))
    attributes = {html.unescape(k): html.unescape(v) for k, v in _ATTR.findall(lines[1])}
    metric = attributes.get("Metric Name") or first.group(2) or "TIME"
    body = lines[2].split("\n", min(count, lines[2].count("\n") + 1))
    block = "\n".join(body[:count])
    found = _TIMER.findall(block)
    if len(found) != count or len(body) <= count:
        _locate_bad_line(body, count, source)
    rest = body[count] if len(body) > count else ""
    if not re.match(r"^\s*\d+\s+aggregates", rest):
        raise ReadError(source, "the timer list is not followed by the aggregates line",
                        position=f"line {count + 3}", expected="'<count> aggregates'")
    names = [f[0] for f in found]
    groups = [f[6] for f in found]
    values = np.array([f[1:5] for f in found], dtype=float).reshape(len(found), 4)
    return TauFile(metric=metric, names=names, groups=groups, values=values,
                   attributes=attributes, source=source)


def _locate_bad_line(body: List[str], count: int, source: Any) -> None:
    expected = f'{count} timer lines: "name" calls subrs excl incl profilecalls GROUP="..."'
    for k in range(count):
        if k >= len(body):
            raise ReadError(source, f"the file ends after {k} of {count} timer lines",
                            position=f"line {k + 3}", expected=expected)
        if not _TIMER.match(body[k]):
            problem = (f"the file ends inside timer line {k + 1}" if k == len(body) - 1
                       else f"timer line {body[k][:60]!r} cannot be decoded")
            raise ReadError(source, problem, position=f"line {k + 3}", expected=expected)
    raise ReadError(source, f"the file ends after the {count} timer lines",
                    position=f"line {count + 3}", expected="'<count> aggregates'")


def split_callpath(name: str) -> Tuple[str, ...]:
    """Elements of a TAU call path (``"a  => b  => c"``), stripped.

    Examples
    --------
    >>> split_callpath(".TAU application => MPI_Finalize()   => MPI_Info_create()")
    ('.TAU application', 'MPI_Finalize()', 'MPI_Info_create()')
    """
    return tuple(part.strip() for part in name.split("=>"))


def clean_timer(name: str) -> str:
    """A flat timer name as it appears inside call paths (markers removed)."""
    name = name.strip()
    if name.endswith("[THROTTLED]"):
        name = name[: -len("[THROTTLED]")].rstrip()
    return name


def describe_timer(label: str) -> Tuple[str, Optional[str], Optional[str], int, int]:
    """``(name, file, module, line, end_line)`` of one timer label.

    Examples
    --------
    >>> describe_timer("int main(int, char **) C [{matmult.c} {209,1}-{299,1}]")
    ('int main(int, char **)', 'matmult.c', None, 209, 299)
    >>> describe_timer("[SAMPLE] foo [{/src/a.c} {12}]")
    ('[SAMPLE] foo', '/src/a.c', None, 12, 0)
    >>> describe_timer("[SAMPLE] UNRESOLVED /lib/libc.so.6")
    ('[SAMPLE] UNRESOLVED', None, '/lib/libc.so.6', 0, 0)
    """
    tag_match = _TAG.match(label)
    tag = tag_match.group(1) if tag_match else ""
    rest = label[len(tag):]
    if " [@] " in rest:  # [UNWIND] callsite [@] function ...
        rest = rest.split(" [@] ", 1)[1]
    file = module = None
    line = end = 0
    m = _LOCATION.match(rest)
    if m:
        rest, file = m.group("name"), m.group("file") or None
        line = int(m.group("line"))
        end = int(m.group("end")) if m.group("end") else 0
    elif tag:
        parts = rest.rsplit(" ", 1)
        if len(parts) == 2 and parts[1].startswith("/"):
            rest, module = parts
    rest = _LANGUAGE.sub("", rest.strip())
    return tag + rest, file, module, line, end
