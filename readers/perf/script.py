"""The lines of ``perf script`` output: sample headers and their frames.

``perf script`` prints one sample per header line, then (when the samples have
call chains, ``perf record -g``) one frame per line, innermost first, each
starting with a tab, and an empty line::

    prog 23033/23036  2600.255198:    1001001  cpu-clock:
    \\t            1192 leaf+0x29 (/tmp/perfw/prog)
    \\t            125d worker+0x20 (/tmp/perfw/prog)
    \\t           891f5 start_thread+0x305 (/usr/lib/x86_64-linux-gnu/libc.so.6)

Without call chains the sample's one frame follows the event on the header line
(and the command name is right-aligned). A header holds the command name
(``comm``, which may contain spaces), the thread id or ``pid/tid``, optionally
``[cpu]``, the time, the period, then the event name and ``:`` (tracepoint
events carry their fields after it).

Lines are told apart by their first byte (numpy over the buffer: a tab starts a
frame, ``#`` a comment); headers and frames are then each decoded by one
regular expression over the text of all of them at once (``re.findall``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, List, Tuple

import numpy as np

from ..errors import ReadError

INT = np.int64
HEADER = re.compile(
    r"^[ \t]*(\S.*?)[ \t]+(\d+)(?:/(\d+))?(?:[ \t]+\[(\d+)\])?(?:[ \t]+(\d+\.\d+):)?"
    r"(?:[ \t]+(\d+))?[ \t]+(\S+):(?:[ \t]+([^\n]*?))?[ \t]*$", re.M)
FRAME = re.compile(r"^\t[ \t]*([0-9a-fA-F]+)[ \t]+([^\n]*?)(?:\+0x[0-9a-fA-F]+)?[ \t]+"
                   r"\(([^\n]*)\)[ \t]*$", re.M)
ONE_FRAME = re.compile(r"^([0-9a-fA-F]+)[ \t]+(.*?)[ \t]+\((.*)\)$")
OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")
EXPECTED_HEADER = ("a sample header as perf script prints it: 'COMM PID[/TID] [CPU] TIME: "
                   "[PERIOD] EVENT:'")
EXPECTED_FRAME = "a frame line: a tab, the address, the symbol[+0xOFFSET], '(DSO)'"


@dataclass
class ScriptLines:
    """The decoded lines: per sample its header fields (strings, in file order)
    and the line it starts on; per frame line its address, symbol, DSO and sample."""

    header_rows: np.ndarray        # 0-based line of each sample's header
    headers: List[tuple]           # HEADER groups of each header
    frame_sample: np.ndarray       # the sample of each frame line
    frames: List[tuple]            # FRAME groups (address, symbol, dso) of each frame line


def split_lines(data: bytes, source: Any) -> ScriptLines:
    """Find the headers and frames of ``perf script`` output and decode them."""
    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], nl + 1]).astype(INT)
    ends = np.concatenate([nl, [len(buf)]]).astype(INT)
    if len(buf) and buf[-1] == 10:
        starts, ends = starts[:-1], ends[:-1]
    first = np.zeros(len(starts), dtype=np.uint8)
    full = ends > starts
    first[full] = buf[starts[full]]
    blank = ~full | _blank_lines(data, starts, ends, first)
    is_frame = (first == 9) & ~blank
    is_header = ~(is_frame | blank | (first == ord("#")))
    header_rows = np.flatnonzero(is_header)
    frame_rows = np.flatnonzero(is_frame)
    if len(frame_rows) and (not len(header_rows) or frame_rows[0] < header_rows[0]):
        raise ReadError(source, "a frame line comes before any sample header",
                        position=f"line {frame_rows[0] + 1}", expected=EXPECTED_HEADER)
    headers = _decode(data, buf, starts, ends, header_rows, HEADER, source, EXPECTED_HEADER)
    frames = _decode(data, buf, starts, ends, frame_rows, FRAME, source, EXPECTED_FRAME)
    sample = np.searchsorted(header_rows, frame_rows, side="right") - 1
    return ScriptLines(header_rows, headers, sample.astype(INT), frames)


def _blank_lines(data: bytes, starts: np.ndarray, ends: np.ndarray, first: np.ndarray
                 ) -> np.ndarray:
    """Lines of blanks only (checked for the few lines that start with a blank)."""
    out = np.zeros(len(starts), dtype=bool)
    short_tab = (first == 9) & (ends - starts <= 16)  # a frame line is never this short blank
    candidates = np.flatnonzero((first == 32) | (first == 13) | short_tab)
    if len(candidates):
        out[candidates] = [not data[a:b].strip() for a, b in
                           zip(starts[candidates].tolist(), ends[candidates].tolist())]
    return out


def _decode(data: bytes, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray,
            rows: np.ndarray, pattern: re.Pattern, source: Any, expected: str) -> List[tuple]:
    """``pattern.findall`` over the text of the lines ``rows`` only (their bytes
    gathered with numpy); every line must match."""
    if not len(rows):
        return []
    keep_line = np.zeros(len(starts), dtype=bool)
    keep_line[rows] = True
    # every byte of a kept line, its newline included
    span = np.empty(len(starts), dtype=INT)
    span[:-1] = starts[1:] - starts[:-1]
    span[-1] = len(buf) - starts[-1]
    keep = np.repeat(keep_line, span)
    text = buf[keep].tobytes().decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n")
    found = pattern.findall(text)
    if len(found) != len(rows):
        _first_bad(data, starts, ends, rows, pattern, source, expected)
    return found


def _first_bad(data, starts, ends, rows, pattern, source, expected) -> None:
    for r in rows.tolist():
        line = data[starts[r]:ends[r]].decode("utf-8", errors="replace").rstrip("\r")
        if not pattern.fullmatch(line):
            raise ReadError(source, f"cannot read the line {line.strip()[:80]!r}",
                            position=f"line {r + 1}", expected=expected)
    raise ReadError(source, "a line holds a line break that perf does not write",
                    position="unknown line", expected=expected)  # pragma: no cover


def symbol_names(symbols: List[str], addresses: List[str]) -> np.ndarray:
    """Function names (an object array): the symbol (the frame patterns leave its
    ``+0xOFFSET`` out); an unknown symbol (``[unknown]`` or empty) is named by its
    address, as gprof2dot does.

    Examples
    --------
    >>> symbol_names(["leaf", "[unknown]", "operator new(unsigned long)"],
    ...              ["1192", "7f3a", "9a0"]).tolist()
    ['leaf', '7f3a', 'operator new(unsigned long)']
    """
    names = np.array(symbols, dtype=object)
    unknown = (names == "[unknown]") | (names == "")
    if unknown.any():
        names[unknown] = np.array(addresses, dtype=object)[unknown]
    return names


def header_frame(rest: str) -> Tuple[str, str, str] | None:
    """The one frame a header without call chain carries after its event.

    Examples
    --------
    >>> header_frame("55c7e1ff8192 leaf+0x29 (/tmp/perfw/prog)")
    ('55c7e1ff8192', 'leaf', '/tmp/perfw/prog')
    >>> header_frame("prev_comm=a prev_pid=1") is None
    True
    """
    m = ONE_FRAME.match(rest)
    return None if m is None else (m.group(1), OFFSET.sub("", m.group(2)), m.group(3))
