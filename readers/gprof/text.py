"""The sections of GNU gprof's text output and the rows of their tables.

gprof prints up to three sections, separated by form feeds (``\\f``): the flat
profile, the call graph and the index by function name; without ``-b`` each is
followed (or preceded) by a text explaining it. Each table is decoded by one
regular expression over the table's whole text (``re.findall``, C-level), so no
Python code runs per line on the common path; a line no pattern takes is found
afterwards, only to report it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..errors import ReadError

NUM = r"\d+\.\d+"
#: a flat profile row: % time, cumulative, self seconds, [calls, self/call, total/call], name
FLAT_ROW = re.compile(
    rf"^[ \t]*({NUM})[ \t]+({NUM})[ \t]+({NUM})"
    rf"(?:[ \t]+(\d+)(?:[ \t]+({NUM})[ \t]+({NUM}))?)?"
    r"[ \t]+(\S[^\n]*?)(?:[ \t]+\[(\d+)\])?[ \t]*$", re.M)
#: a call graph line, one of: a primary line ``[i] %time self children called name [i]``,
#: a parent/child/member line ``[self children] called[/total|+self] name [i]`` (or
#: ``(i)`` for a function without an entry), ``<spontaneous>``, or the separator
GRAPH_LINE = re.compile(
    r"^(?:"
    rf"\[(\d+)\][ \t]+({NUM})[ \t]+({NUM})[ \t]+({NUM})(?:[ \t]+(\d+)(?:\+(\d+))?)?"
    r"[ \t]+(\S[^\n]*?)[ \t]+\[(\d+)\]"
    r"|"
    rf"[ \t]+(?:({NUM})[ \t]+({NUM})[ \t]+)?(\d+)(?:([/+])(\d+))?[ \t]+(\S[^\n]*?)"
    r"[ \t]+([\[(])(\d+)[\])]"
    r"|"
    r"[ \t]+(<spontaneous>)"
    r"|"
    r"(-{10,})"
    r")[ \t]*$", re.M)
#: the call graph's rows again, one pattern per kind (fewer groups: fewer strings made):
#: the first non-blank character of every non-empty line ("[" primary, "-" separator,
#: "<" spontaneous, a digit for the others), the primary lines, the other lines
ROW_KIND = re.compile(r"^[ \t]*(\S)", re.M)
PRIMARY = re.compile(
    rf"^\[(\d+)\][ \t]+{NUM}[ \t]+({NUM})[ \t]+({NUM})(?:[ \t]+(\d+)(?:\+(\d+))?)?"
    r"[ \t]+(\S[^\n]*?)[ \t]+\[(\d+)\][ \t]*$", re.M)
OTHER = re.compile(
    rf"^[ \t]+(?:({NUM})[ \t]+({NUM})[ \t]+)?(\d+)(?:[/+]\d+)?[ \t]+(\S[^\n]*?)"
    r"[ \t]+([\[(])(\d+)[\])][ \t]*$", re.M)
SEPARATOR = re.compile(r"^-{10,}[ \t]*$", re.M)
SPONTANEOUS = re.compile(r"^[ \t]+<spontaneous>[ \t]*$", re.M)
_CYCLE = re.compile(r"^(.*?)[ \t]+<cycle (\d+)>$")
_WHOLE = re.compile(r"^<cycle (\d+) as a whole>$")
_PERIOD = re.compile(r"Each sample counts as ([\d.eE+-]+) (\w+)")
_GRANULARITY = re.compile(r"granularity: .*? of ([\d.]+) seconds")
FLAT_HEADER = re.compile(r"^[ \t]*time[ \t]+seconds[ \t]+seconds[ \t]+calls[ \t]+(\S+)/call",
                         re.M)
GRAPH_HEADER = re.compile(r"^index[ \t]+%[ \t]+(?:time[ \t]+)?self[ \t]+children[ \t]+called"
                          r"[ \t]+name[ \t]*$", re.M)


@dataclass
class Sections:
    """Where the tables are: ``(start, end)`` character offsets of each table's
    rows (None when the output has no such table), and what the texts say."""

    flat: Optional[Tuple[int, int]] = None
    graph: Optional[Tuple[int, int]] = None
    index: Optional[Tuple[int, int]] = None
    metadata: Dict[str, Any] = field(default_factory=dict)


def find_sections(text: str, source: Any) -> Sections:
    """Locate the flat profile, call graph and index tables of gprof's output.

    Examples
    --------
    >>> s = find_sections("Flat profile:\\n\\nEach sample counts as 0.01 seconds.\\n"
    ...                   "  %   cumulative   self              self     total\\n"
    ...                   " time   seconds   seconds    calls  ms/call  ms/call  name\\n"
    ...                   " 60.00      0.03     0.03        1    30.00    30.00  main\\n", "x")
    >>> s.flat is not None, s.graph, s.metadata
    (True, None, {'sample_period': 0.01, 'sample_unit': 'seconds', 'per_call_unit': 'ms'})
    """
    out = Sections()
    flat_at = text.find("Flat profile:")
    graph_head = GRAPH_HEADER.search(text)
    if flat_at >= 0:
        stop = graph_head.start() if graph_head else len(text)
        header = FLAT_HEADER.search(text, flat_at, stop)
        period = _PERIOD.search(text, flat_at, stop)
        if period:
            out.metadata["sample_period"] = float(period.group(1))
            out.metadata["sample_unit"] = period.group(2)
        if header is None:
            if "no time accumulated" not in text[flat_at:stop]:
                raise ReadError(source, "the flat profile has no table header",
                                position=f"line {line_of(text, flat_at)}",
                                expected="'time   seconds   seconds    calls ...' as gprof "
                                         "prints it")
        else:
            out.metadata["per_call_unit"] = header.group(1)
            begin = text.find("\n", header.end()) + 1 or len(text)
            end = _table_end(text, begin, stop)
            out.flat = (begin, end)
    if graph_head is not None:
        granularity = _GRANULARITY.search(text, max(0, graph_head.start() - 400),
                                          graph_head.start())
        if granularity:
            out.metadata["total_seconds"] = float(granularity.group(1))
        begin = text.find("\n", graph_head.end())
        begin = len(text) if begin < 0 else begin + 1
        # the table ends with the separator after its last entry; then the
        # explanation (without -b) or a form feed
        stop = text.find("\f", begin)
        stop = len(text) if stop < 0 else stop
        last_sep = text.rfind("\n---", begin - 1, stop)
        if last_sep < 0:
            raise ReadError(source, "the call graph has no entry",
                            position=f"line {line_of(text, begin)}",
                            expected="call graph entries separated by lines of dashes")
        end = text.find("\n", last_sep + 1)
        out.graph = (begin, len(text) if end < 0 else end)
        index_at = text.find("Index by function name", out.graph[1])
        if index_at >= 0:
            begin = text.find("\n", index_at) + 1 or len(text)
            stop = text.find("\f", begin)
            out.index = (begin, len(text) if stop < 0 else stop)
    if out.flat is None and out.graph is None and flat_at < 0:
        raise ReadError(source, "neither a flat profile nor a call graph was found",
                        position="line 1", expected="gprof's text output ('Flat profile:', "
                        "'Call graph' with its 'index % time self children called name' "
                        "header)")
    return out


def _table_end(text: str, begin: int, stop: int) -> int:
    """The end of a table: its first empty line or form feed (or ``stop``)."""
    blank = re.compile(r"^[ \t]*$|\f", re.M).search(text, begin, stop)
    return stop if blank is None else blank.start()


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


_BLANK_LINE = re.compile(r"^[^\S\n]*$", re.M)  # blank as str.strip() sees it


def rows(pattern: re.Pattern, text: str, span: Tuple[int, int], source: Any,
         expected: str) -> List[tuple]:
    """All rows of a table; every non-empty line must match ``pattern``."""
    begin, end = span
    if begin >= end:
        return []
    found = pattern.findall(text, begin, end)
    lines = text.count("\n", begin, end) + (0 if text[end - 1:end] == "\n" else 1)
    blank = len(_BLANK_LINE.findall(text, begin, end)) if begin < end else 0
    if begin < end and text[end - 1:end] == "\n":
        blank -= 1  # the empty string after the last newline
    if len(found) != lines - blank:
        _first_bad(pattern, text, begin, end, source, expected)
    return found


def _first_bad(pattern: re.Pattern, text: str, begin: int, end: int, source: Any,
               expected: str) -> None:
    pos = begin
    while pos < end:
        stop = text.find("\n", pos, end)
        stop = end if stop < 0 else stop
        line = text[pos:stop]
        if line.strip() and not pattern.fullmatch(line):
            raise ReadError(source, f"cannot read the line {line.strip()[:70]!r}",
                            position=f"line {line_of(text, pos)}", expected=expected)
        pos = stop + 1
    raise AssertionError("every line matched")  # pragma: no cover


def split_cycle(name: str) -> Tuple[str, Optional[int]]:
    """``("is_even", 1)`` for ``"is_even <cycle 1>"``; ``(name, None)`` otherwise.

    Examples
    --------
    >>> split_cycle("is_even <cycle 1>"), split_cycle("main")
    (('is_even', 1), ('main', None))
    """
    m = _CYCLE.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


def whole_cycle(name: str) -> Optional[int]:
    """The cycle number of a ``<cycle N as a whole>`` entry's name, else None."""
    m = _WHOLE.match(name)
    return int(m.group(1)) if m else None


_INDEX_ITEM = re.compile(r"\[(\d+)\] (\S.*?)(?=[ \t]+\[\d+\] |[ \t]*$)", re.M)


def index_files(text: str, span: Tuple[int, int]) -> Dict[int, str]:
    """``{index: file}`` from the index by function name (``[19] apply_boundary
    (workload.c)``), for the entries that name a file.

    Examples
    --------
    >>> t = "  [2] f (a.c)      [10] g (b.c)  [1] <cycle 1>\\n   [3] h\\n"
    >>> index_files(t, (0, len(t)))
    {2: 'a.c', 10: 'b.c'}
    """
    out: Dict[int, str] = {}
    for number, entry in _INDEX_ITEM.findall(text, span[0], span[1]):
        if entry.endswith(")") and " (" in entry:
            out[int(number)] = entry[entry.rindex(" (") + 2:-1]
    return out
