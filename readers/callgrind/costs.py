"""Callgrind cost lines, decoded and added up a block at a time.

A cost line belongs to the function of the last ``fn=`` line before it; the first
cost line after a ``calls=`` line is that call's (its inclusive cost), the first
after ``jump=``/``jcnd=`` the jump's source position (no cost). Lines are decoded
:data:`BLOCK_BYTES` of text at a time with the vectorised token decoding of
:mod:`graphframe_readers.callgrind.lines`, so the temporary arrays stay bounded.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from ..errors import ReadError
from .lines import Lines, Tokens, blocks, decimal_values, position_tokens_ok, tokens
from .specs import CALLS, JUMP, Specs

INT = np.int64

#: bytes of cost lines decoded at a time (bounds the temporary arrays)
BLOCK_BYTES = 1 << 22


class Costs:
    """What the cost lines add up to: self costs per (function id, part), and the
    specification line and counts of every call's cost line."""

    def __init__(self, events: List[str], functions: int, parts: int) -> None:
        self.events = events
        self.self_sums = np.zeros((functions * parts, len(events)), dtype=INT)
        self.call_spec: List[np.ndarray] = []
        self.call_values: List[np.ndarray] = []


def cost_lines(lines: Lines, rows: np.ndarray, specs: Specs, source: Any) -> Costs:
    """Decode the cost lines block by block and add them up (see :class:`Costs`).

    A cost line belongs to the function of the last ``fn=`` before it; the first
    cost line after a ``calls=`` line is that call's (its inclusive cost), the
    first after ``jump=``/``jcnd=`` the jump's source (no cost)."""
    events: List[str] = []
    for p in specs.parts:
        events.extend(e for e in p.events if e not in events)
    nparts = len(specs.parts)
    out = Costs(events, len(specs.keys), nparts)
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


