"""Write callgrind profiles of any size, with the values they must read back as.

(Named ``generate_*``, not ``write_callgrind``: ``write_<format>(raw, path)`` is the
contract of the writers that ``python -m benchmarks.generate`` finds, and this one
makes its own call graph instead of writing a RawProfile.)

:func:`generate_callgrind` makes a random acyclic call graph (function ``k`` calls
only functions after it), gives every function self costs spread over source
lines, and splits each function's inclusive cost over the calls into it, so
that the file is consistent the way callgrind's are (a function's inclusive
cost is the sum of the costs of the calls into it). It uses what callgrind
writes: name compression, relative subpositions (``+N``, ``-N``, ``*``),
``fi=``/``fe=`` for inlined files, ``cob=``/``cfi=`` for callees elsewhere,
trailing zero counts left out, ``summary:`` and ``totals:``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, List, Sequence

import numpy as np

from ..samples import groups, random_call_dag


@dataclass(frozen=True)
class CallgrindTruth:
    """What the written file holds, per function (in function order): names,
    objects, files, self and inclusive costs (functions x events), calls into each
    function, and the edges ``(caller, callee, calls)``."""

    names: List[str]
    objects: List[str]
    files: List[str]
    self_cost: np.ndarray
    inclusive: np.ndarray
    calls: np.ndarray
    edges: np.ndarray


def generate_callgrind(path: Any, functions: int = 50, calls_per_function: int = 3,
                    lines_per_function: int = 8, events: Sequence[str] = ("Ir", "Dr"),
                    seed: int = 0, instr: bool = False) -> CallgrindTruth:
    """Write a random consistent callgrind profile to ``path``; return its truth.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    functions, calls_per_function, lines_per_function : int
        Size: number of functions, distinct callees per caller (at most), cost
        lines per function.
    events : sequence of str
        The ``events:`` line.
    seed : int
        Random seed (the same seed writes the same bytes).
    instr : bool
        ``positions: instr line`` instead of ``positions: line``.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe_readers.callgrind import read_callgrind
    >>> p = os.path.join(tempfile.mkdtemp(), "callgrind.out.1")
    >>> truth = generate_callgrind(p, functions=5)
    >>> m = read_callgrind(p).metrics.set_index("name").loc[truth.names]
    >>> m["Ir (inc)"].tolist() == truth.inclusive[:, 0].tolist()
    True
    """
    rng = np.random.default_rng(seed)
    n, ne = functions, len(events)
    objects = [f"/usr/lib/lib{k % 3}.so" for k in range(n)]
    objects[0] = "/opt/app/bin/app"
    files = [f"src/file{k % 7}.c" for k in range(n)]
    names = [f"fn_{k}" if k else "main" for k in range(n)]
    self_cost = rng.integers(1, 1000, size=(n, lines_per_function, ne)) * \
        (rng.random((n, lines_per_function, 1)) < 0.8)
    own = self_cost.sum(axis=1)
    edges = random_call_dag(n, calls_per_function, rng)
    count = rng.integers(1, 50, size=len(edges))
    inclusive = own.copy()
    edge_cost = np.zeros((len(edges), ne), dtype=np.int64)
    into_each = groups(edges[:, 1], n)
    for callee in range(n - 1, 0, -1):  # callees first: k only calls functions after k
        into = into_each[callee]
        share = count[into] / count[into].sum()
        cost = np.floor(inclusive[callee][None, :] * share[:, None]).astype(np.int64)
        cost[-1] += inclusive[callee] - cost.sum(axis=0)
        edge_cost[into] = cost
        for e, c in zip(into, cost):
            inclusive[edges[e, 0]] += c
    calls = np.bincount(edges[:, 1], weights=count, minlength=n).astype(np.int64)
    text = _text(names, objects, files, self_cost, edges, count, edge_cost, events, instr, rng)
    with open(os.fspath(path), "w", encoding="utf-8") as fh:
        fh.write(text)
    return CallgrindTruth(names, objects, files, own, inclusive, calls,
                          np.column_stack([edges, count]))


def _text(names, objects, files, self_cost, edges, count, edge_cost, events, instr, rng) -> str:
    n, lines_per_function, ne = self_cost.shape
    total = self_cost.sum(axis=(0, 1))
    out = ["# callgrind format", "version: 1", "creator: graphframe-testing", "pid: 1",
           "cmd: ./app", "part: 1", "", f"positions: {'instr line' if instr else 'line'}",
           f"events: {' '.join(events)}", "summary: " + " ".join(map(str, total.tolist())), ""]
    defined = {"ob": {}, "fl": {}, "fn": {}}

    def name(space: str, value: str) -> str:
        table = defined[space]
        if value in table:
            return f"({table[value]})"
        table[value] = len(table) + 1
        return f"({table[value]}) {value}"

    by_caller = groups(edges[:, 0], n)
    for k in range(n):
        out.append("ob=" + name("ob", objects[k]))
        out.append("fl=" + name("fl", files[k]))
        out.append("fn=" + name("fn", names[k]))
        line = 10 * k + 1
        addr = 0x1000 + 64 * k
        prev_line = prev_addr = None
        calls_here = list(by_caller[k])
        for j in range(lines_per_function):
            if j == lines_per_function // 2 and k % 4 == 1:
                out.append("fi=" + name("fl", "include/inline.h"))
            if j == lines_per_function // 2 + 1 and k % 4 == 1:
                out.append("fe=" + name("fl", files[k]))
            values = self_cost[k, j].tolist()
            while values and values[-1] == 0:
                values.pop()  # trailing zero counts are left out
            pos = _position(line, prev_line, addr, prev_addr, instr)
            prev_line, prev_addr = line, addr
            out.append(" ".join([pos] + [str(v) for v in values]))
            if calls_here and rng.random() < 0.5 or (j == lines_per_function - 1):
                while calls_here and (rng.random() < 0.6 or j == lines_per_function - 1):
                    e = calls_here.pop(0)
                    callee = int(edges[e, 1])
                    if objects[callee] != objects[k]:
                        out.append("cob=" + name("ob", objects[callee]))
                    if files[callee] != files[k] or (k % 4 == 1 and j == lines_per_function // 2):
                        out.append("cfi=" + name("fl", files[callee]))
                    out.append("cfn=" + name("fn", names[callee]))
                    out.append(f"calls={int(count[e])} {10 * callee + 1}")
                    cost = edge_cost[e].tolist()
                    out.append(" ".join([_position(line, prev_line, addr, prev_addr, instr)]
                                        + [str(v) for v in cost]))
            line += int(rng.integers(-2, 4))
            line = max(line, 1)
            addr += int(rng.integers(1, 9))
        out.append("")
    out.append("totals: " + " ".join(map(str, total.tolist())))
    return "\n".join(out) + "\n"


def _position(line: int, prev_line, addr: int, prev_addr, instr: bool) -> str:
    def rel(value: int, prev) -> str:
        if prev is None:
            return str(value)
        if value == prev:
            return "*"
        return f"{value - prev:+d}"
    if instr:
        return (f"0x{addr:x}" if prev_addr is None else rel(addr, prev_addr)) + " " + \
            rel(line, prev_line)
    return rel(line, prev_line)
