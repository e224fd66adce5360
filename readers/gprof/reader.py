"""GNU gprof's text output (``gprof`` / ``gprof -b``: flat profile and call graph).

The call graph is the source of the nodes and edges: one entry per function,
between lines of dashes::

                    0.00    0.45       1/1           main [1]           <- parent
    [3]     50.0    0.00    0.45       1         simulate [3]           <- primary
                    0.30    0.15    1800/1800        compute_forces [2] <- child

A primary line has the function's index, % time, self and children seconds and
the call count (``1+402816``: non-recursive calls + recursive ones; blank for a
function nobody called, shown with ``<spontaneous>`` above it). A child line has
the time propagated from the child to this function, and ``calls/total calls``
(just ``calls`` for a recursive or in-cycle call). Cycles of mutual recursion
have their own entry ``<cycle 1 as a whole>`` listing the members, which carry
``<cycle 1>`` after their names. The flat profile adds the functions the call
graph does not list (functions sampled without call counts). The index by
function name gives each function's file (``[19] apply_boundary (workload.c)``).

The result is a call graph as gprof2dot's DOT of the same output reads (the same
functions, call counts and edges): one node per function, an edge per caller ->
callee pair (recursion is a cycle). Columns:

``name``, ``file``, ``index``, ``cycle``
    The function, its file (when the index names one), gprof's index number and
    its cycle number (None outside cycles).
``time (inc)``, ``time``
    Seconds: self + children (gprof's own propagation), and self. A member of a
    cycle: the larger of that and the time gprof propagates from it to its
    callers outside the cycle (for the cycle's entry: the whole cycle).
``calls``, ``recursive_calls``
    All calls into the function (``1+402816`` is 402817, as gprof2dot counts) and
    the recursive ones; NaN where gprof prints no count.
``caller_calls``, ``caller_time``
    Per node ``((caller, calls), ...)`` and ``((caller, seconds), ...)``: the calls
    on each incoming edge and the time gprof propagates along it (self +
    children of the child line; NaN on recursive and in-cycle edges).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.callers import per_callee
from ..common.callgraph import parents_from_edges
from ..common.source import decode_text, read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .text import (FLAT_ROW, GRAPH_LINE, OTHER, PRIMARY, ROW_KIND, SEPARATOR, SPONTANEOUS,
                   find_sections, index_files, line_of, rows, split_cycle, whole_cycle)

__all__ = ["parse_gprof", "read_gprof"]

NAN = math.nan
INT = np.int64
_EXPECTED_GRAPH = ("a call graph line as gprof prints it: '[index] %time self children "
                   "called name [index]', '[self children] called[/total] name [index]', "
                   "'<spontaneous>' or a line of dashes")
_EXPECTED_FLAT = ("a flat profile row: '% time, cumulative seconds, self seconds[, calls, "
                  "self/call, total/call], name'")
_UNIT = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "Ts": 1e-12}


def read_gprof(path: Any) -> RawProfile:
    """Read gprof's text output (``gprof PROGRAM gmon.out > profile.txt``, with or
    without ``-b``).

    Parameters
    ----------
    path : str, path-like or file-like
        The text file, or an open stream of it.

    Returns
    -------
    RawProfile
        See :func:`parse_gprof`.

    Examples
    --------
    >>> import io
    >>> text = ("index % time    self  children    called     name\\n"
    ...         "                                                 <spontaneous>\\n"
    ...         "[1]    100.0    0.10    0.30                 main [1]\\n"
    ...         "                0.30    0.00       2/2           work [2]\\n"
    ...         "-----------------------------------------------\\n"
    ...         "                0.30    0.00       2/2           main [1]\\n"
    ...         "[2]     75.0    0.30    0.00       2         work [2]\\n"
    ...         "-----------------------------------------------\\n")
    >>> raw = read_gprof(io.StringIO(text))
    >>> raw.metrics[["name", "time (inc)", "time", "calls"]].values.tolist()
    [['main', 0.4, 0.1, nan], ['work', 0.3, 0.3, 2.0]]
    """
    data, source = read_source(path)
    return parse_gprof(data, source=source)


def parse_gprof(text: Any, source: Any = None) -> RawProfile:
    """Decode gprof's text output (``str`` or UTF-8/Latin-1 ``bytes``).

    Raises
    ------
    ReadError
        At the line of a row that cannot be read, an entry without its primary
        line (or with two), a call to a function that has no entry (a truncated
        file: entries are cut off), entries after the last separator, a
        text that is neither a flat profile nor a call graph.

    Examples
    --------
    >>> parse_gprof("index % time    self  children    called     name\\n"
    ...             "[1]    100.0    0.10    0.30                 main [1]\\n"
    ...             "                0.30    0.00       2/2           work [2]\\n"
    ...             "-----------------------------------------------\\n", source="g.txt")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: g.txt: line 3: the call graph lists a call to work [2], which has no entry: the file is truncated or damaged (expected an entry '[2] ... work [2]')
    """
    if not isinstance(text, str):
        try:
            text = decode_text(text, source, "gprof's text output")
        except ReadError:
            text = text.decode("latin-1")  # symbol names are bytes; keep them all
    text = text.replace("\r\n", "\n")
    sections = find_sections(text, source)
    graph = _graph(text, sections.graph, source) if sections.graph else None
    flat = _flat(text, sections.flat, source) if sections.flat else []
    files = index_files(text, sections.index) if sections.index else {}
    return _build(graph, flat, files, sections.metadata, source)


# ------------------------------------------------------------------ call graph
class _Graph:
    """The call graph's functions (per entry) and edges, as arrays."""

    def __init__(self, n_edges: int = 0) -> None:
        self.index = np.zeros(0, dtype=INT)
        self.name: List[str] = []
        self.cycle: List[Optional[int]] = []
        self.self_time = np.zeros(0)
        self.children = np.zeros(0)
        self.called = np.zeros(0)
        self.recursive = np.zeros(0)
        self.entered = np.zeros(0)   # time passed to callers outside the function's cycle
        self.src = np.zeros(0, dtype=INT)    # edges by gprof index: caller, callee
        self.dst = np.zeros(0, dtype=INT)
        self.count = np.zeros(0, dtype=INT)
        self.time = np.zeros(0)
        self.cycles: Dict[int, List[int]] = {}
        self.unlisted: Dict[int, str] = {}   # "(i)" references: functions without entries


def _floats(column: np.ndarray) -> np.ndarray:
    """Numbers of a column of strings (object array); NaN where a field is empty."""
    arr = column.copy()
    arr[arr == ""] = "nan"
    return arr.astype(float)


def _graph(text: str, span: Tuple[int, int], source: Any) -> _Graph:
    """The call graph, from the rows of its table: entries are the rows between
    separators; in each, the rows before the primary line are its callers, those
    after it its callees (or, for ``<cycle N as a whole>``, the cycle's members).

    The rows are read kind by kind (one ``findall`` each: primary lines, the
    others), and put back in order by the kind of every line."""
    begin, end = span
    kinds = np.array(ROW_KIND.findall(text, begin, end), dtype="<U1")
    prim_t = PRIMARY.findall(text, begin, end)
    other_t = OTHER.findall(text, begin, end)
    sep = kinds == "-"
    prim = kinds == "["
    spont = kinds == "<"
    other = ~(sep | prim | spont)
    if (len(prim_t) != int(prim.sum()) or len(other_t) != int(other.sum())
            or len(SEPARATOR.findall(text, begin, end)) != int(sep.sum())
            or len(SPONTANEOUS.findall(text, begin, end)) != int(spont.sum())):
        rows(GRAPH_LINE, text, span, source, _EXPECTED_GRAPH)  # finds the line and raises
        raise ReadError(source, "a call graph line is read two ways",
                        position="call graph", expected=_EXPECTED_GRAPH)  # pragma: no cover
    _check_rest(text, end, source)
    if not len(kinds):
        raise ReadError(source, "the call graph has no entry",
                        position=f"line {line_of(text, begin)}", expected=_EXPECTED_GRAPH)
    p_col = [np.array(c, dtype=object) for c in zip(*prim_t)] if prim_t else \
        [np.zeros(0, dtype=object)] * 7
    o_col = [np.array(c, dtype=object) for c in zip(*other_t)] if other_t else \
        [np.zeros(0, dtype=object)] * 6
    entry = np.cumsum(sep) - sep  # entry of each row (separators end entries)
    prim_rows = np.flatnonzero(prim)
    n_entries = int(entry[-1]) + 1
    primary_of = np.full(n_entries, -1, dtype=INT)
    twice = np.flatnonzero(np.bincount(entry[prim_rows], minlength=n_entries) > 1)
    if len(twice):
        k = int(prim_rows[entry[prim_rows] == twice[0]][1])
        raise ReadError(source, "a call graph entry has two primary lines",
                        position=f"line {_line(text, span, k)}",
                        expected="a line of dashes between entries")
    primary_of[entry[prim_rows]] = np.arange(len(prim_rows), dtype=INT)  # -> primary number
    prim_row_of = np.full(n_entries, -1, dtype=INT)
    prim_row_of[entry[prim_rows]] = prim_rows
    orphan = np.flatnonzero(other & (primary_of[entry] < 0))
    if len(orphan):
        raise ReadError(source, "a call graph entry has no primary line",
                        position=f"line {_line(text, span, int(orphan[0]))}",
                        expected="'[index] %time self children called name [index]'")
    index_l, index_r = p_col[0], p_col[6]
    bad = np.flatnonzero(index_l != index_r)
    if len(bad):
        k = int(prim_rows[bad[0]])
        raise ReadError(source, f"the primary line starts with [{index_l[bad[0]]}] and ends "
                        f"with [{index_r[bad[0]]}]", position=f"line {_line(text, span, k)}",
                        expected="the same index at both ends")
    g = _Graph()
    names = p_col[5]
    whole = np.array([x.startswith("<cycle ") and whole_cycle(x) is not None
                      for x in names.tolist()], dtype=bool)
    funcs = np.flatnonzero(~whole)  # primary numbers of functions
    g.index = index_l[funcs].astype(INT)
    names_cycles = [split_cycle(x) if x.endswith(">") else (x, None)
                    for x in names[funcs].tolist()]
    g.name = [x[0] for x in names_cycles]
    g.cycle = [x[1] for x in names_cycles]
    g.self_time = _floats(p_col[1][funcs])
    g.children = _floats(p_col[2][funcs])
    called = _floats(p_col[3][funcs])
    g.recursive = np.nan_to_num(_floats(p_col[4][funcs]))
    g.called = called + g.recursive
    # the other rows: callers (before the primary) and callees/members (after it)
    rows_o = np.flatnonzero(other)
    pnum = primary_of[entry[rows_o]]
    prow = prim_row_of[entry[rows_o]]
    in_whole = whole[pnum]
    target = o_col[5].astype(INT)
    bracket = o_col[4]
    o_split = [split_cycle(x) if x.endswith(">") else (x, None) for x in o_col[3].tolist()]
    o_cycle = np.array([-1 if c is None else c for _, c in o_split], dtype=INT)
    o_time = _floats(o_col[0]) + _floats(o_col[1])
    o_count = o_col[2].astype(INT)
    entry_index = index_l[pnum]
    for k in np.flatnonzero(in_whole).tolist():  # members of a <cycle N as a whole>
        number = whole_cycle(names[int(pnum[k])])
        g.cycles.setdefault(number, []).append(int(target[k]))
    for k in np.flatnonzero(bracket == "(").tolist():
        g.unlisted.setdefault(int(target[k]), o_split[k][0])
    caller_row = (rows_o < prow) & ~in_whole
    callee_row = (rows_o > prow) & ~in_whole
    # edges: from the callee lines; and from the caller lines of callers without an entry
    from_unlisted = caller_row & (bracket == "(")
    e_sel = callee_row | from_unlisted
    owner = entry_index[e_sel].astype(INT)
    g.src = np.where(callee_row[e_sel], owner, target[e_sel])
    g.dst = np.where(callee_row[e_sel], target[e_sel], owner)
    g.count = o_count[e_sel]
    g.time = o_time[e_sel]
    # time each function passes to its callers outside its cycle (caller lines with times)
    func_pos = np.full(int(g.index.max()) + 1 if len(g.index) else 1, -1, dtype=INT)
    func_pos[g.index] = np.arange(len(g.index), dtype=INT)
    own_cycle = np.array([-1 if c is None else c for c in g.cycle], dtype=INT)
    at = func_pos[entry_index[caller_row].astype(INT)]
    outside = ~np.isnan(o_time[caller_row]) & ((own_cycle[at] < 0)
                                               | (o_cycle[caller_row] != own_cycle[at]))
    g.entered = np.bincount(at[outside], weights=o_time[caller_row][outside],
                            minlength=len(g.index))
    # a call to a function without an entry: the file is cut (or damaged)
    listed = np.zeros(max(int(target.max()) if len(target) else 0,
                          int(g.index.max()) if len(g.index) else 0) + 1, dtype=bool)
    listed[g.index] = True
    missing = np.flatnonzero(callee_row & (bracket == "[") & ~listed[target])
    if len(missing):
        k = int(missing[0])
        name, number = o_split[k][0], int(target[k])
        raise ReadError(source, f"the call graph lists a call to {name} [{number}], which "
                        "has no entry: the file is truncated or damaged",
                        position=f"line {_line(text, span, int(rows_o[k]))}",
                        expected=f"an entry '[{number}] ... {name} [{number}]'")
    return g


def _line(text: str, span: Tuple[int, int], k: int) -> int:
    """The line of the ``k``-th row of the call graph (error path only)."""
    for j, m in enumerate(GRAPH_LINE.finditer(text, span[0], span[1])):
        if j == k:
            return line_of(text, m.start())
    return line_of(text, span[1])  # pragma: no cover


def _check_rest(text: str, end: int, source: Any) -> None:
    """After the call graph's last separator: no entry lines (a truncated file
    ends inside an entry)."""
    stop = text.find("\f", end)
    stop = len(text) if stop < 0 else stop
    m = GRAPH_LINE.search(text, end, stop)
    if m is not None and not m.group(18):
        raise ReadError(source, "the call graph ends inside an entry: the file is truncated "
                        "or damaged", position=f"line {line_of(text, m.start())}",
                        expected="a line of dashes after every entry")


# ------------------------------------------------------------------ flat profile
def _flat(text: str, span: Tuple[int, int], source: Any) -> List[tuple]:
    return rows(FLAT_ROW, text, span, source, _EXPECTED_FLAT)


# ------------------------------------------------------------------ model
def _build(g: Optional[_Graph], flat: List[tuple], files: Dict[int, str],
           metadata: Dict[str, Any], source: Any) -> RawProfile:
    g = g or _Graph()
    index = g.index.tolist()
    names = list(g.name)
    cycles = list(g.cycle)
    self_time = g.self_time.tolist()
    inc_arr = g.self_time + g.children
    in_cycle = np.array([c is not None for c in cycles], dtype=bool)
    # a cycle member: the time it passes to callers outside the cycle when larger
    inc_arr[in_cycle] = np.maximum(inc_arr[in_cycle], g.entered[in_cycle])
    inc = inc_arr.tolist()
    called = g.called.tolist()
    recursive = g.recursive.tolist()
    entries = set(index)
    for target, name in g.unlisted.items():  # "(i)": called, but without an entry
        if target not in entries:
            index.append(target)
            names.append(name)
            cycles.append(None)
            self_time.append(NAN)
            inc.append(NAN)
            called.append(NAN)
            recursive.append(NAN)
    unit = _UNIT.get(str(metadata.get("per_call_unit")), NAN)
    listed = set(names)
    for r in flat:  # functions only the flat profile lists (sampled, no call counts)
        name = r[6]
        if name in listed:
            continue
        listed.add(name)
        index.append(int(r[7]) if r[7] else -1)
        names.append(name)
        cycles.append(None)
        self_time.append(float(r[2]))
        calls = float(r[3]) if r[3] else NAN
        total = float(r[5]) * calls * unit if r[5] else float(r[2])
        inc.append(max(total, float(r[2])))
        called.append(calls)
        recursive.append(0.0 if r[3] else NAN)
    n = len(names)
    if not n:
        raise ReadError(source, "the profile lists no function", position="line 1",
                        expected="flat profile rows or call graph entries")
    index_arr = np.array(index, dtype=INT)
    pos = np.full(int(index_arr.max(initial=0)) + 2, -1, dtype=INT)
    known = index_arr >= 0
    pos[index_arr[known]] = np.flatnonzero(known)
    src, dst = pos[g.src], pos[g.dst]
    parent, extra_src, extra_dst = parents_from_edges(n, src, dst, np.array(inc, dtype=float))
    labels = np.array(_labels(names, index), dtype=object)
    caller_calls = per_callee(dst, n, labels[src], g.count.tolist())
    caller_time = per_callee(dst, n, labels[src], g.time.tolist())
    file_col = np.array([files.get(ix) for ix in index], dtype=object)
    name_arr = np.array(names, dtype=object)
    frames: Dict[str, Any] = {"type": np.full(n, "function", dtype=object), "name": name_arr}
    if any(f is not None for f in file_col):
        frames["file"] = file_col
    b = ProfileBuilder(source)
    ids = b.add_nodes(parent, frames, columns={"name": name_arr})
    b.add_edges(extra_src, extra_dst)
    b.add_rows(ids, {
        "name": name_arr, "file": file_col,
        "index": index_arr,
        "cycle": np.array(cycles, dtype=object),
        "time (inc)": np.array(inc, dtype=float),
        "time": np.array(self_time, dtype=float),
        "calls": np.array(called, dtype=float),
        "recursive_calls": np.array(recursive, dtype=float),
        "caller_calls": caller_calls, "caller_time": caller_time})
    where = {ix: k for k, ix in enumerate(index)}
    meta = {"format": "gprof", "cycles": {c: [names[where[m]] for m in members if m in where]
                                          for c, members in sorted(g.cycles.items())}}
    meta.update(metadata)
    meta["total_self_seconds"] = float(np.nansum(np.array(self_time, dtype=float)))
    return b.build(exc_metrics=["time"], inc_metrics=["time (inc)"],
                   inclusive_of={"time": "time (inc)"}, default_metric="time",
                   metadata=meta, aggregations={"calls": "sum", "recursive_calls": "sum"},
                   columns=["name", "file", "index", "cycle", "time (inc)", "time", "calls",
                            "recursive_calls", "caller_calls", "caller_time"])


def _labels(names: List[str], index: List[int]) -> List[str]:
    """A caller's name, or ``name [index]`` where two functions share the name."""
    seen: Dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return [n if seen[n] == 1 else f"{n} [{i}]" for n, i in zip(names, index)]


# ------------------------------------------------------------------ sniff
_HEAD = re.compile(r"\A[\s\f]*(?:Flat profile:|Call graph\b|index[ \t]+%[ \t]+(?:time[ \t]+)?"
                   r"self[ \t]+children)")


def sniff_gprof(path: Path, head: bytes) -> bool:
    """True for gprof's text output: it starts with ``Flat profile:`` or the call
    graph's title or header.

    Examples
    --------
    >>> sniff_gprof(Path("p.txt"), b"Flat profile:\\n\\nEach sample counts as 0.01 seconds.\\n")
    True
    >>> sniff_gprof(Path("p.txt"), b"\\t\\t     Call graph (explanation follows)\\n")
    True
    >>> sniff_gprof(Path("p.txt"), b"digraph {")
    False
    """
    return bool(_HEAD.match(head.decode("latin-1")))


FORMAT = FormatInfo(
    name="gprof",
    read=read_gprof,
    sniff=sniff_gprof,
    description="GNU gprof text output (flat profile and call graph; gprof -b)",
)
