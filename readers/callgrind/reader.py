"""Callgrind and cachegrind profiles (``callgrind.out.*``, ``cachegrind.out.*``).

The format (Valgrind's "Callgrind Format Specification", version 1) is text:
a header of ``key: value`` lines (``events: Ir Dr ...``, ``positions: line``
or ``instr line``, ``summary:``/``totals:``, ``part:``, ``thread:``...), then
position lines (``ob=`` object, ``fl=``/``fi=``/``fe=`` file, ``fn=``
function; with name compression ``(id) name`` once and ``(id)`` afterwards)
and cost lines: subpositions (``N``, ``0xH``, ``+N``/``-N`` relative to the
previous one, ``*`` the same) then one count per event (missing trailing
counts are 0). ``cfn=`` (with ``cob=``, ``cfi=``/``cfl=``) and ``calls=COUNT
TARGET`` announce a call: the cost line after ``calls=`` is the call site and
the *inclusive* cost of those calls. Cachegrind writes the same without calls
and without compression.

The result is a call graph, as gprof2dot's DOT of the same run reads: one node
per function, an edge per caller -> callee pair (recursion is a cycle), so
``GraphFrame.from_raw`` treats it as the DOT reader's graphs
(:mod:`graphframe_readers.common.callgraph`). Columns:

``name``, ``module``, ``file``
    The function, the base name of its object (``ob=``; gprof2dot's label
    line) and its file (``fl=``).
``<event>``, ``<event> (inc)``
    Per event of ``events:``: the self cost (every cost line of the function
    that is not a call) and the inclusive cost (self cost plus the inclusive
    cost of its calls to *other* functions; recursive calls ``f -> f`` are
    inside ``f`` already). Exact integers (int64).
``calls``
    Calls into the function (the sum of the ``calls=`` counts naming it).
``caller_calls``, ``caller_costs``
    Per node, one entry per caller: ``(caller, calls)`` and ``(caller,
    (inclusive cost per event, ...))``, callers named by :func:`caller_labels`.

Parts (``part:``) are summed, except parts of different threads (``thread:``
headers with more than one value): those become the ``thread`` index level.
Every part's self costs must add up to its ``summary:``/``totals:`` line when it
has one: a truncated or damaged file is an error, never a smaller profile.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.callgraph import parents_from_edges
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .callgraph import caller_columns, caller_labels, function_nodes, inclusive_costs
from .costs import cost_lines
from .lines import Lines
from .specs import CALLS, Part, Specs, read_specs

__all__ = ["parse_callgrind", "read_callgrind"]

INT = np.int64
_COST_FIRST = np.zeros(256, dtype=bool)
_COST_FIRST[list(b"0123456789+-*")] = True


def read_callgrind(path: Any, merge_by_name: bool = False) -> RawProfile:
    """Read a callgrind (or cachegrind) profile, or the files of one run.

    Parameters
    ----------
    path : str, path-like, file-like, or a list of paths
        ``callgrind.out.PID`` (or ``cachegrind.out.PID``), or an open stream; or
        several files of one run: one per thread (``--separate-threads=yes``:
        ``callgrind.out.PID-01``, ``-02``...; their ``thread:`` headers become the
        ``thread`` index level) or several dumps (summed).
    merge_by_name : bool
        One node per function *name*, as gprof2dot draws it (its callgrind
        parser keys functions by name alone), instead of one per (object,
        file, name): ``strcmp`` of ``ld.so`` and of ``libc.so.6`` become one
        node, with the module of the first one seen.

    Returns
    -------
    RawProfile
        See :func:`parse_callgrind`.

    Examples
    --------
    >>> import io
    >>> text = b"events: Ir\\nfn=(1) main\\n3 10\\ncfn=(2) work\\ncalls=2 9\\n4 30\\nfn=(2)\\n9 30\\n"
    >>> raw = read_callgrind(io.BytesIO(text))
    >>> raw.metrics[["name", "Ir", "Ir (inc)", "calls"]].values.tolist()
    [['main', 10, 40, 0], ['work', 30, 30, 2]]
    """
    if isinstance(path, (list, tuple)):
        if not path:
            raise ReadError(path, "an empty list of files was given",
                            expected="one callgrind file or the files of one run")
        decoded, sources = [], []
        for one in path:
            data, source = read_source(one)
            decoded.append(_decode_file(data, source))
            sources.append(str(source))
        combined = _combine(decoded)
        meta = _metadata(decoded[0].specs, combined.events, len(combined.parts),
                         merge_by_name)
        meta["sources"] = sources
        return _build(combined, sources[0], merge_by_name, meta)
    data, source = read_source(path)
    return parse_callgrind(data, source=source, merge_by_name=merge_by_name)


def parse_callgrind(data: bytes, source: Any = None, merge_by_name: bool = False
                    ) -> RawProfile:
    """Decode the bytes of a callgrind/cachegrind profile (see :func:`read_callgrind`).

    Raises
    ------
    ReadError
        At the line (1-based) of a malformed line, a cost line with too many
        values or a value that is not a count, a compressed name never defined,
        a ``calls=`` line without its cost line, cost lines before ``events:``
        or outside a function; and when a part's costs do not add up to its
        ``summary:``/``totals:`` (a truncated file).

    Examples
    --------
    >>> parse_callgrind(b"events: Ir\\nfn=main\\n3 x\\n", source="bad.out")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: bad.out: line 3: the cost 'x' is not a whole number (expected one count per event of 'events: Ir')
    """
    decoded = _decode_file(data, source)
    meta = _metadata(decoded.specs, decoded.events, len(decoded.parts), merge_by_name)
    return _build(decoded, source, merge_by_name, meta)


def _decode_file(data: Any, source: Any) -> "_Decoded":
    """One file's lines, specification lines and cost lines, decoded and checked."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data.strip():
        raise ReadError(source, "the file is empty", position="line 1",
                        expected="a callgrind profile ('events:' and cost lines)")
    lines = Lines.of(data)
    first = lines.first_bytes()
    is_cost = _COST_FIRST[first]
    blank = lines.ends == lines.starts
    indented = np.flatnonzero((first == 32) | (first == 9))
    if len(indented):  # a line of blanks is a blank line (others are malformed)
        blank[indented] = [not data[a:b].strip() for a, b in
                           zip(lines.starts[indented].tolist(), lines.ends[indented].tolist())]
    comment = first == ord("#")
    spec_rows = np.flatnonzero(~(is_cost | blank | comment))
    cost_rows = np.flatnonzero(is_cost)
    specs = read_specs(lines, spec_rows, cost_rows, source)
    return _Decoded(lines, cost_rows, specs, source)


# ------------------------------------------------------------------ model
class _Decoded:
    """One file's functions, parts, self costs and calls (function ids and parts
    local to the file, counts in the columns of ``events``)."""

    def __init__(self, lines: Lines, rows: np.ndarray, specs: Specs, source: Any) -> None:
        costs = cost_lines(lines, rows, specs, source)
        self.events = costs.events
        if not self.events:
            raise ReadError(source, "the file has no events: line",
                            position=f"line {len(lines)}",
                            expected="'events: NAME...' in the header (a callgrind profile)")
        nparts = len(specs.parts)
        call_spec = np.concatenate(costs.call_spec) if costs.call_spec else np.zeros(0, INT)
        self.call_values = np.concatenate(costs.call_values) if costs.call_values else \
            np.zeros((0, len(self.events)), dtype=INT)
        _check_calls_have_costs(specs, call_spec, source)
        per_part = costs.self_sums.reshape(-1, nparts, len(self.events)).sum(axis=0)
        _check_totals(specs, per_part, self.events, source, len(lines))
        self.specs = specs
        self.keys = specs.keys
        self.parts = specs.parts
        self.self_sums = costs.self_sums  # (function, part) rows
        self.caller = specs.function[call_spec]
        self.callee = specs.call_callee[call_spec]
        self.count = specs.call_count[call_spec]
        self.call_part = specs.part[call_spec]


def _combine(decoded: List[_Decoded]) -> _Decoded:
    """Several files (one per thread, or dumps of one run) as one: functions by their
    (object, file, name) key, parts one after the other, events united."""
    if len(decoded) == 1:
        return decoded[0]
    out = object.__new__(_Decoded)
    out.events = []
    for d in decoded:
        out.events.extend(e for e in d.events if e not in out.events)
    index: Dict[Tuple[str, str, str], int] = {}
    out.keys, out.parts = [], []
    fmaps, part_base = [], []
    for d in decoded:
        fmap = np.empty(len(d.keys), dtype=INT)
        for k, key in enumerate(d.keys):
            fmap[k] = index.setdefault(key, len(index))
            if fmap[k] == len(out.keys):
                out.keys.append(key)
        fmaps.append(fmap)
        part_base.append(len(out.parts))
        out.parts.extend(d.parts)
    nfun, nparts, ne = len(out.keys), len(out.parts), len(out.events)
    out.self_sums = np.zeros((nfun * nparts, ne), dtype=INT)
    callers, callees, counts, parts, values = [], [], [], [], []
    for d, fmap, base in zip(decoded, fmaps, part_base):
        cols = np.array([out.events.index(e) for e in d.events], dtype=INT)
        local_parts = len(d.parts)
        fn = np.repeat(fmap, local_parts)
        part = np.tile(np.arange(local_parts, dtype=INT), len(d.keys)) + base
        rows = fn * nparts + part
        out.self_sums[rows[:, None], cols[None, :]] += d.self_sums
        callers.append(fmap[d.caller])
        callees.append(fmap[d.callee])
        counts.append(d.count)
        parts.append(d.call_part + base)
        v = np.zeros((len(d.caller), ne), dtype=INT)
        v[:, cols] = d.call_values
        values.append(v)
    out.caller, out.callee = np.concatenate(callers), np.concatenate(callees)
    out.count, out.call_part = np.concatenate(counts), np.concatenate(parts)
    out.call_values = np.concatenate(values)
    out.specs = decoded[0].specs
    return out


def _build(decoded: _Decoded, source: Any, merge_by_name: bool,
           metadata: Dict[str, Any]) -> RawProfile:
    events = decoded.events
    keys = decoded.keys
    nparts = len(decoded.parts)
    thread_of_part = _threads(decoded.parts)
    part_level = thread_of_part if thread_of_part is not None else np.zeros(nparts, INT)
    caller, callee, count = decoded.caller, decoded.callee, decoded.count
    call_vals = decoded.call_values
    call_level = part_level[decoded.call_part]
    costs = decoded

    node_of, names, modules, files = function_nodes(keys, merge_by_name)
    n = len(names)
    caller_node, callee_node = node_of[caller], node_of[callee]
    levels = np.unique(part_level)
    nl = len(levels)
    part_lev = np.searchsorted(levels, part_level)
    call_lev = np.searchsorted(levels, call_level)
    # self costs: (function, part) sums -> (node, level) rows
    fn_of_row = np.repeat(np.arange(len(keys), dtype=INT), nparts)
    lev_of_row = np.tile(part_lev, len(keys))
    self_cost = np.zeros((n * nl, len(events)), dtype=INT)
    np.add.at(self_cost, node_of[fn_of_row] * nl + lev_of_row, costs.self_sums)
    calls = np.zeros(n * nl, dtype=INT)
    np.add.at(calls, callee_node * nl + call_lev, count)

    # edges: caller -> callee pairs, in the order of their first call
    pair = caller_node * n + callee_node
    uniq, first = np.unique(pair, return_index=True) if len(pair) else (pair, pair)
    order = np.argsort(first, kind="stable")
    src, dst = uniq[order] // n, uniq[order] % n
    inc = inclusive_costs(self_cost, n, nl, caller_node, callee_node, call_lev, call_vals,
                          src, dst)
    weight = inc.reshape(n, nl, len(events))[:, :, 0].sum(axis=1).astype(float)
    parent, extra_src, extra_dst = parents_from_edges(n, src, dst, weight)

    labels = caller_labels(names, modules, files)
    caller_calls, caller_costs = caller_columns(labels, caller_node, callee_node, call_lev,
                                                 count, call_vals, n, nl)
    b = ProfileBuilder(source, index_levels=("thread",) if thread_of_part is not None else ())
    name_arr = np.array(names, dtype=object)
    frames: Dict[str, Any] = {"type": np.full(n, "function", dtype=object), "name": name_arr}
    if not merge_by_name:  # functions of one name in two objects/files stay apart
        frames["module"] = np.array(modules, dtype=object)
        frames["file"] = np.array(files, dtype=object)
    ids = b.add_nodes(parent, frames, columns={"name": name_arr})
    b.add_edges(extra_src, extra_dst)
    cols: Dict[str, Any] = {
        "name": np.repeat(name_arr, nl),
        "module": np.repeat(np.array(modules, dtype=object), nl),
        "file": np.repeat(np.array(files, dtype=object), nl)}
    for j, e in enumerate(events):
        cols[f"{e} (inc)"] = inc[:, j]
        cols[e] = self_cost[:, j]
    cols["calls"] = calls
    cols["caller_calls"] = caller_calls
    cols["caller_costs"] = caller_costs
    levels_kw = {"thread": np.tile(levels, n)} if thread_of_part is not None else {}
    b.add_rows(np.repeat(ids, nl), cols, **levels_kw)
    exc = list(events)
    inc_names = [f"{e} (inc)" for e in events]
    column_order = ["name", "module", "file"] + [c for e in events for c in (f"{e} (inc)", e)] \
        + ["calls", "caller_calls", "caller_costs"]
    return b.build(exc_metrics=exc, inc_metrics=inc_names,
                   inclusive_of=dict(zip(exc, inc_names)), default_metric=events[0],
                   metadata=metadata,
                   aggregations={"calls": "sum"}, columns=column_order)


# ------------------------------------------------------------------ checks
def _check_calls_have_costs(specs: Specs, used: np.ndarray, source: Any) -> None:
    has_cost = np.zeros(len(specs.kind), dtype=bool)
    has_cost[used] = True
    missing = np.flatnonzero((specs.kind == CALLS) & ~has_cost)
    if len(missing):
        raise ReadError(source, "a calls= line is not followed by the cost line of its call",
                        position=f"line {specs.line[missing[0]] + 1}",
                        expected="'calls=COUNT TARGET' then the call site's cost line")


def _threads(parts: List[Part]):
    threads = [p.thread for p in parts]
    distinct = {t for t in threads if t is not None}
    if len(distinct) <= 1:
        return None
    return np.array([t if t is not None else 0 for t in threads], dtype=INT)


def _check_totals(specs: Specs, sums: np.ndarray, events: List[str], source: Any,
                  n_lines: int) -> None:
    """Every part's self costs (``sums``: parts x events) must equal its totals: and
    summary: lines."""
    for k, p in enumerate(specs.parts):
        for key, text, line in (("totals", p.totals, p.totals_line),
                                ("summary", p.summary, p.summary_line)):
            if text is None:
                continue
            said = text.split()
            if len(said) > len(p.events) or not all(s.isdigit() for s in said):
                raise ReadError(source, f"the {key}: line {text!r} cannot be read",
                                position=f"line {line + 1}",
                                expected=f"one count per event of 'events: {' '.join(p.events)}'")
            for e, s in zip(p.events, said):
                got = int(sums[k, events.index(e)])
                if got != int(s):
                    where = f"part {p.number}, " if len(specs.parts) > 1 else ""
                    raise ReadError(
                        source, f"the costs of {where}event {e} add up to {got} but the "
                        f"{key}: line (line {line + 1}) says {int(s)}: the file is truncated "
                        "or damaged", position=f"line {n_lines} (end of the file)"
                        if got < int(s) else f"line {line + 1}",
                        expected="a complete callgrind profile")


def _metadata(specs: Specs, events: List[str], parts: int, merge_by_name: bool
              ) -> Dict[str, Any]:
    meta: Dict[str, Any] = {"format": "callgrind", "events": list(events),
                            "parts": parts, "merge_by_name": merge_by_name}
    for key in ("creator", "version", "cmd", "pid", "desc"):
        if key in specs.header:
            meta[key] = specs.header[key]
    # cachegrind writes neither version:, creator: nor calls
    creator = str(specs.header.get("creator", ""))
    plain = not ({"creator", "version"} & set(specs.header)) and not (specs.kind == CALLS).any()
    meta["tool"] = "cachegrind" if creator.startswith("cachegrind") or plain else "callgrind"
    return meta


# ------------------------------------------------------------------ sniff
_NAME = re.compile(r"^(?:callgrind|cachegrind)\.out(?:\.|$)")
_HEAD = re.compile(rb"\A(?:# callgrind format|version:[ \t]*1\b|creator:[ \t]*(?:callgrind|"
                   rb"cachegrind)|(?:(?:desc|cmd|pid):[^\n]*\n)+events:)")


def sniff_callgrind(path: Path, head: bytes) -> bool:
    """True for a callgrind/cachegrind profile: the header callgrind writes
    (``# callgrind format``, ``version: 1``, ``creator: callgrind-...``),
    cachegrind's ``desc:``/``cmd:`` lines then ``events:``, or the tools'
    file names (``callgrind.out.*``, ``cachegrind.out.*``) on a text file
    of ``key: value`` header lines.

    Examples
    --------
    >>> sniff_callgrind(Path("x"), b"# callgrind format\\nversion: 1\\n")
    True
    >>> sniff_callgrind(Path("cachegrind.out.12"), b"desc: I1 cache: 32768 B\\ncmd: ./a\\nevents: Ir\\n")
    True
    >>> sniff_callgrind(Path("x.dot"), b"digraph {")
    False
    """
    text = head.lstrip(b"\xef\xbb\xbf")
    if _HEAD.match(text):
        return True
    return bool(_NAME.match(path.name)) and bool(re.match(rb"\A(?:#[^\n]*\n|\s*\n)*"
                                                          rb"[A-Za-z]+:", text))


FORMAT = FormatInfo(
    name="callgrind",
    read=read_callgrind,
    sniff=sniff_callgrind,
    description="callgrind/cachegrind profile (callgrind.out.*, cachegrind.out.*)",
    several_files=True,
)
