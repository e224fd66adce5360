"""The call graph of a callgrind profile: nodes, inclusive costs, callers.

Functions become nodes (by (object, file, name), or by name with
``merge_by_name``); a function's inclusive cost comes from the measured costs of
its calls, with the rule for cycles of :func:`inclusive_costs`; the per-callee
``caller_calls``/``caller_costs`` columns are made by
:func:`graphframe_readers.common.callers.per_callee`.
"""

from __future__ import annotations

import os
from typing import Dict, List, Tuple

import numpy as np

from ..common.callers import per_callee
from ..common.callgraph import strongly_connected

INT = np.int64


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


def function_nodes(keys: List[Tuple[str, str, str]], merge_by_name: bool
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


def caller_columns(labels: List[str], caller: np.ndarray, callee: np.ndarray,
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
