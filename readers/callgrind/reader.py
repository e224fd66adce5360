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

import os
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.callers import per_callee
from ..common.callgraph import parents_from_edges, strongly_connected
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .lines import Lines, Tokens, blocks, decimal_values, position_tokens_ok, tokens
from .specs import CALLS, JUMP, Part, Specs, read_specs

__all__ = ["caller_labels", "parse_callgrind", "read_callgrind"]

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


# ------------------------------------------------------------------ costs
#: bytes of cost lines decoded at a time (bounds the temporary arrays)
BLOCK_BYTES = 1 << 22


class _Costs:
    """What the cost lines add up to: self costs per (function id, part), and the
    specification line and counts of every call's cost line."""

    def __init__(self, events: List[str], functions: int, parts: int) -> None:
        self.events = events
        self.self_sums = np.zeros((functions * parts, len(events)), dtype=INT)
        self.call_spec: List[np.ndarray] = []
        self.call_values: List[np.ndarray] = []


def _cost_lines(lines: Lines, rows: np.ndarray, specs: Specs, source: Any) -> _Costs:
    """Decode the cost lines block by block and add them up (see :class:`_Costs`).

    A cost line belongs to the function of the last ``fn=`` before it; the first
    cost line after a ``calls=`` line is that call's (its inclusive cost), the
    first after ``jump=``/``jcnd=`` the jump's source (no cost)."""
    events: List[str] = []
    for p in specs.parts:
        events.extend(e for e in p.events if e not in events)
    nparts = len(specs.parts)
    out = _Costs(events, len(specs.keys), nparts)
    previous = -1  # the cost line before the block
    if len(rows) and not len(specs.line):
        raise ReadError(source, "a cost line comes before any fn= line",
                        position=f"line {rows[0] + 1}", expected="'fn=NAME' first")
    for block in blocks(lines, rows, BLOCK_BYTES):
        seg = np.searchsorted(specs.line, block) - 1
        outside = np.flatnonzero((seg < 0) | (specs.function[np.maximum(seg, 0)] < 0))
        part = specs.part[np.maximum(seg, 0)]
        values = _block_values(lines, block, part, specs, events, source)
        if len(outside):
            raise ReadError(source, "a cost line comes before any fn= line",
                            position=f"line {block[outside[0]] + 1}",
                            expected="'fn=NAME' first")
        prev_row = np.empty(len(block), dtype=INT)
        prev_row[0] = previous
        prev_row[1:] = block[:-1]
        previous = int(block[-1])
        kind = specs.kind[seg]
        first_after = specs.line[seg] > prev_row
        is_call = first_after & (kind == CALLS)
        own = ~(is_call | (first_after & (kind == JUMP)))
        np.add.at(out.self_sums, specs.function[seg[own]] * nparts + part[own], values[own])
        out.call_spec.append(seg[is_call])
        out.call_values.append(values[is_call])
    return out


def _block_values(lines: Lines, block: np.ndarray, part: np.ndarray, specs: Specs,
                  events: List[str], source: Any) -> np.ndarray:
    """The counts of the cost lines ``block`` (columns: ``events``), each part's
    lines read with that part's ``positions:`` and ``events:``."""
    values = np.zeros((len(block), len(events)), dtype=INT)
    t = tokens(lines, block)
    parts_here = np.unique(part)
    for k in parts_here.tolist():
        p = specs.parts[k]
        mine = np.flatnonzero(part == k)
        if not p.events:
            raise ReadError(source, "a cost line comes before any events: line",
                            position=f"line {block[mine[0]] + 1}",
                            expected="'events: NAME...' in the header")
        cols = np.array([events.index(e) for e in p.events], dtype=INT)
        sel = t if len(parts_here) == 1 else _subset(t, part[t.line] == k, mine)
        decoded = _decode(lines.buf, sel, block[mine], p.positions, p.events, source)
        if len(parts_here) == 1 and len(cols) == len(events):
            values = decoded
        else:
            values[mine[:, None], cols[None, :]] = decoded
    return values


def _subset(t: Tokens, keep: np.ndarray, lines_kept: np.ndarray) -> Tokens:
    """The tokens of some of the lines, lines renumbered ``0..len(lines_kept)-1``."""
    renumber = np.full(len(t.count), -1, dtype=INT)
    renumber[lines_kept] = np.arange(len(lines_kept), dtype=INT)
    return Tokens(renumber[t.line[keep]], t.index[keep], t.start[keep], t.end[keep],
                  t.count[lines_kept])


def _decode(buf: np.ndarray, t: Tokens, rows: np.ndarray, positions: Tuple[str, ...],
            events: Tuple[str, ...], source: Any) -> np.ndarray:
    """The counts of the cost lines ``rows`` (their tokens ``t``), checked."""
    npos, nev = len(positions), len(events)

    def fail(line_index: int, problem: str, expected: str) -> ReadError:
        return ReadError(source, problem, position=f"line {rows[line_index] + 1}",
                         expected=expected)

    short = np.flatnonzero(t.count < npos)
    long = np.flatnonzero(t.count > npos + nev)
    is_pos = t.index < npos
    ok = position_tokens_ok(buf, t.start[is_pos], t.end[is_pos])
    bad_pos = t.line[is_pos][~ok]
    values, bad, problem = decimal_values(buf, t.start[~is_pos], t.end[~is_pos])
    bad_val = t.line[~is_pos][[bad]] if bad is not None else np.zeros(0, dtype=INT)
    firsts = [(int(a[0]), w) for a, w in ((short, "short"), (long, "long"),
                                          (bad_pos, "pos"), (bad_val, "val")) if len(a)]
    if firsts:
        at, what = min(firsts)
        spec = f"'positions: {' '.join(positions)}'"
        if what == "short":
            raise fail(at, f"the cost line has {int(t.count[at])} values, fewer than the "
                       f"{npos} subpositions", f"{spec} then one count per event")
        if what == "long":
            raise fail(at, f"the cost line has {int(t.count[at])} values for {npos} "
                       f"subpositions and {nev} events",
                       f"at most {npos + nev} values ({spec}, 'events: {' '.join(events)}')")
        if what == "pos":
            k = np.flatnonzero(is_pos & (t.line == at))
            k = k[~position_tokens_ok(buf, t.start[k], t.end[k])][0]
            token = bytes(buf[t.start[k]:t.end[k]]).decode("latin-1")
            raise fail(at, f"the subposition {token!r} cannot be read",
                       "a number, 0xHEX, +N, -N or *")
        k = np.flatnonzero(~is_pos)[bad]
        token = bytes(buf[t.start[k]:t.end[k]]).decode("latin-1")
        raise fail(at, f"the cost {token!r} is {problem}",
                   f"one count per event of 'events: {' '.join(events)}'")
    out = np.zeros((len(rows), nev), dtype=INT)
    out[t.line[~is_pos], t.index[~is_pos] - npos] = values
    return out


# ------------------------------------------------------------------ model
class _Decoded:
    """One file's functions, parts, self costs and calls (function ids and parts
    local to the file, counts in the columns of ``events``)."""

    def __init__(self, lines: Lines, rows: np.ndarray, specs: Specs, source: Any) -> None:
        costs = _cost_lines(lines, rows, specs, source)
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

    node_of, names, modules, files = _nodes(keys, merge_by_name)
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
    caller_calls, caller_costs = _caller_columns(labels, caller_node, callee_node, call_lev,
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


def inclusive_costs(self_cost: np.ndarray, n: int, nl: int, caller: np.ndarray,
                    callee: np.ndarray, lev: np.ndarray, costs: np.ndarray, src: np.ndarray,
                    dst: np.ndarray) -> np.ndarray:
    """Inclusive cost per (node, level) row from self costs and call costs.

    A function outside any cycle: its self cost plus the cost of its calls to
    other functions (callgrind measures a call's cost inclusively, so this is
    exact; a recursive call ``f -> f`` is inside the outer call already). A
    function in a cycle (mutual recursion, ``a -> b -> a``): the cost of the
    calls into it from outside the cycle (the whole cycle's run below that
    entry), or, when larger, its self cost plus its calls out of the cycle (a
    member entered only from inside the cycle); adding the calls inside a
    cycle would count the same time once per turn.

    Examples
    --------
    >>> inc = inclusive_costs(np.array([[1], [2], [3]]), 3, 1, np.array([0, 1, 2]),
    ...                       np.array([1, 2, 1]), np.zeros(3, dtype=np.int64),
    ...                       np.array([[9], [7], [4]]), np.array([0, 1, 2]), np.array([1, 2, 1]))
    >>> inc.ravel().tolist()  # 0 -> (1 <-> 2): 1 is the cycle's entry
    [10, 9, 3]
    """
    comp = cycle_components(n, src, dst)
    size = np.bincount(comp, minlength=n) if n else np.zeros(0, dtype=INT)
    cross = comp[caller] != comp[callee]
    inc = self_cost.copy()
    np.add.at(inc, caller[cross] * nl + lev[cross], costs[cross])
    cyclic = np.flatnonzero(size[comp] > 1) if n else np.zeros(0, dtype=INT)
    if len(cyclic):
        entered = np.zeros_like(inc)
        np.add.at(entered, callee[cross] * nl + lev[cross], costs[cross])
        rows = (cyclic[:, None] * nl + np.arange(nl)[None, :]).ravel()
        inc[rows] = np.maximum(inc[rows], entered[rows])
    return inc


def cycle_components(n: int, src: np.ndarray, dst: np.ndarray, rounds: int = 64
                     ) -> np.ndarray:
    """Strongly connected component of every node, found only where cycles can be:
    nodes without callers or without callees (self-calls aside) are peeled off,
    round after round, with numpy (a call graph without mutual recursion peels
    away entirely); what is left after ``rounds`` rounds goes through
    :func:`~graphframe_readers.common.callgraph.strongly_connected`. Peeled nodes
    are components of their own.

    Examples
    --------
    >>> cycle_components(4, np.array([0, 1, 2, 3]), np.array([1, 2, 1, 3])).tolist()
    [0, 1, 1, 2]
    """
    keep = src != dst
    s, d = src[keep], dst[keep]
    alive = np.ones(n, dtype=bool)
    for _ in range(rounds):
        live = alive[s] & alive[d]
        s, d = s[live], d[live]
        has_in = np.zeros(n, dtype=bool)
        has_in[d] = True
        has_out = np.zeros(n, dtype=bool)
        has_out[s] = True
        still = alive & has_in & has_out
        if (still == alive).all():
            break
        alive = still
    comp = np.arange(n, dtype=INT)
    core = np.flatnonzero(alive)
    if len(core):
        local = np.full(n, -1, dtype=INT)
        local[core] = np.arange(len(core), dtype=INT)
        inside = (local[s] >= 0) & (local[d] >= 0)
        sub = strongly_connected(len(core), local[s[inside]], local[d[inside]])
        comp[core] = n + sub  # core components numbered after the peeled nodes
    _, first, comp = np.unique(comp, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=INT)  # components numbered by their first node
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=INT)
    return rank[comp.ravel()]


def _nodes(keys: List[Tuple[str, str, str]], merge_by_name: bool
           ) -> Tuple[np.ndarray, List[str], List[str], List[str]]:
    """Node of every function id, and the nodes' names, modules and files."""
    if not merge_by_name:
        return (np.arange(len(keys), dtype=INT), [k[2] for k in keys],
                [os.path.basename(k[0]) for k in keys], [k[1] for k in keys])
    node: Dict[str, int] = {}
    of = np.empty(len(keys), dtype=INT)
    names, modules, files = [], [], []
    for i, (obj, file, name) in enumerate(keys):
        j = node.get(name)
        if j is None:
            j = node[name] = len(names)
            names.append(name)
            modules.append(os.path.basename(obj))
            files.append(file)
        of[i] = j
    return of, names, modules, files


def caller_labels(names: List[str], modules: List[str], files: List[str]) -> List[str]:
    """A unique label per node: its name; ``name [module]`` where names repeat;
    ``name [module:file]`` where those repeat too.

    Examples
    --------
    >>> caller_labels(["f", "g", "g", "h", "h"], ["a", "a", "b", "c", "c"],
    ...               ["x.c", "x.c", "y.c", "p.c", "q.c"])
    ['f', 'g [a]', 'g [b]', 'h [c:p.c]', 'h [c:q.c]']
    """
    seen: Dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    labels = [n if seen[n] == 1 else f"{n} [{m}]" for n, m in zip(names, modules)]
    again: Dict[str, int] = {}
    for label in labels:
        again[label] = again.get(label, 0) + 1
    return [lab if again[lab] == 1 else f"{n} [{m}:{f}]"
            for lab, n, m, f in zip(labels, names, modules, files)]


def _caller_columns(labels: List[str], caller: np.ndarray, callee: np.ndarray,
                    lev: np.ndarray, count: np.ndarray, costs: np.ndarray, n: int, nl: int
                    ) -> Tuple[np.ndarray, np.ndarray]:
    """Per row (node, level): ``((caller, calls), ...)`` and ``((caller, costs), ...)``,
    callers in the order of their first call, repeated call sites summed."""
    if not len(caller):
        return per_callee(caller, n * nl, []), per_callee(caller, n * nl, [])
    row = callee * nl + lev
    key = row * n + caller
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    summed_calls = np.zeros(len(uniq), dtype=INT)
    np.add.at(summed_calls, inverse, count)
    summed_costs = np.zeros((len(uniq), costs.shape[1]), dtype=INT)
    np.add.at(summed_costs, inverse, costs)
    order = np.argsort(first, kind="stable")  # first call first
    who = np.asarray(labels, dtype=object)[(uniq % n)[order]]
    rows = (uniq // n)[order]
    return (per_callee(rows, n * nl, who, summed_calls[order]),
            per_callee(rows, n * nl, who, [tuple(v) for v in summed_costs[order].tolist()]))


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
