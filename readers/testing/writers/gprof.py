"""Write GNU gprof text output of any size (``gprof -b`` layout), with its truth.

:func:`generate_gprof` makes a random acyclic call graph (function ``k`` calls
only functions after it, some call themselves), gives every function a self
time, propagates the time to callers by call counts as gprof does, and prints
the flat profile, the call graph (``<spontaneous>`` above the root, recursive
counts ``1+N``) and the index by function name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, List

import numpy as np

from ..samples import groups, random_call_dag

SEP = "-" * 47


@dataclass(frozen=True)
class GprofTruth:
    """Per function (in function order): names, self and inclusive seconds (as
    printed, rounded to 0.01 s), calls (recursive ones included; NaN for ``main``,
    which nobody calls), the edges ``(caller, callee, calls)`` between different
    functions, and the recursive calls of each function."""

    names: List[str]
    self_time: np.ndarray
    inclusive: np.ndarray
    calls: np.ndarray
    edges: np.ndarray
    recursive: np.ndarray  # recursive calls of each function (its edge to itself)


def generate_gprof(path: Any, functions: int = 50, calls_per_function: int = 3,
                   seed: int = 0) -> GprofTruth:
    """Write a random gprof text profile to ``path``; return what it holds.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe_readers.gprof import read_gprof
    >>> p = os.path.join(tempfile.mkdtemp(), "prof.txt")
    >>> truth = generate_gprof(p, functions=6)
    >>> m = read_gprof(p).metrics.set_index("name").loc[truth.names]
    >>> bool(np.array_equal(m["calls"].to_numpy(), truth.calls, equal_nan=True))
    True
    """
    rng = np.random.default_rng(seed)
    n = functions
    names = ["main"] + [f"fn_{k}" for k in range(1, n)]
    self_ticks = rng.integers(0, 40, size=n)
    edges = random_call_dag(n, calls_per_function, rng)
    count = rng.integers(1, 5000, size=len(edges))
    recursive = np.where(rng.random(n) < 0.2, rng.integers(1, 1000, size=n), 0)
    recursive[0] = 0
    called = np.bincount(edges[:, 1], weights=count, minlength=n).astype(np.int64)
    self_time = self_ticks / 100.0
    inclusive = self_time.copy()
    share = np.zeros(len(edges))  # callee's time propagated along each edge
    callees = groups(edges[:, 0], n)
    callers = groups(edges[:, 1], n)
    for k in range(n - 1, -1, -1):  # callees first
        out = callees[k]
        c = edges[out, 1]
        share[out] = inclusive[c] * count[out] / called[c]
        inclusive[k] = self_time[k] + share[out].sum()
    text = _text(names, self_time, inclusive, called, recursive, edges, count, share,
                 callers, callees)
    with open(os.fspath(path), "w", encoding="utf-8") as fh:
        fh.write(text)
    printed = np.round(self_time, 2) + np.round(inclusive - self_time, 2)
    calls = (called + recursive).astype(float)
    calls[0] = np.nan  # main: nobody calls it, gprof prints no count
    return GprofTruth(names, self_time, printed, calls, np.column_stack([edges, count]),
                      recursive)


def _text(names, self_time, inclusive, called, recursive, edges, count, share, callers,
          callees) -> str:
    n = len(names)
    total = self_time.sum() or 1.0
    order = np.argsort(-self_time, kind="stable")
    out = ["Flat profile:", "", "Each sample counts as 0.01 seconds.",
           "  %   cumulative   self              self     total           ",
           " time   seconds   seconds    calls  ms/call  ms/call  name    "]
    cumulative = 0.0
    for k in order.tolist():
        cumulative += self_time[k]
        calls = called[k] + recursive[k]
        if k == 0:
            out.append(f"{100 * self_time[k] / total:6.2f} {cumulative:9.2f} "
                       f"{self_time[k]:8.2f} {'':8} {'':8} {'':8}  {names[k]}")
            continue
        per_self = 1000 * self_time[k] / max(calls, 1)
        per_total = 1000 * inclusive[k] / max(calls, 1)
        out.append(f"{100 * self_time[k] / total:6.2f} {cumulative:9.2f} {self_time[k]:8.2f} "
                   f"{calls:8d} {per_self:8.2f} {per_total:8.2f}  {names[k]}")
    out += ["", "\f", "\t\t\tCall graph", "", "",
            f"granularity: each sample hit covers 2 byte(s) for {100 / max(total * 100, 1):.2f}% "
            f"of {total:.2f} seconds", "",
            "index % time    self  children    called     name"]
    index = {k: i + 1 for i, k in enumerate(np.argsort(-inclusive, kind="stable").tolist())}
    for k in sorted(range(n), key=lambda x: index[x]):
        if k == 0:
            out.append(" " * 49 + "<spontaneous>")
        if recursive[k]:
            out.append(f"{'':30}{recursive[k]:<18d} {names[k]} [{index[k]}]")
        for e in callers[k].tolist():
            c = edges[e, 0]
            prop_self = share[e] * self_time[k] / inclusive[k] if inclusive[k] else 0.0
            out.append(f"{'':12} {prop_self:7.2f} {max(share[e] - prop_self, 0.0):7.2f}"
                       f" {count[e]:7d}/{called[k]:<10d}   {names[c]} [{index[c]}]")
        calls = f"{called[k]}" + (f"+{recursive[k]}" if recursive[k] else "") if k else ""
        out.append(f"{'[' + str(index[k]) + ']':<6} {100 * inclusive[k] / total:5.1f}"
                   f" {self_time[k]:7.2f} {inclusive[k] - self_time[k]:7.2f} {calls:>8}"
                   f"         {names[k]} [{index[k]}]")
        for e in callees[k].tolist():
            c = edges[e, 1]
            prop_self = share[e] * self_time[c] / inclusive[c] if inclusive[c] else 0.0
            out.append(f"{'':12} {prop_self:7.2f} {max(share[e] - prop_self, 0.0):7.2f}"
                       f" {count[e]:7d}/{called[c]:<10d}   {names[c]} [{index[c]}]")
        if recursive[k]:
            out.append(f"{'':30}{recursive[k]:<18d} {names[k]} [{index[k]}]")
        out.append(SEP)
    out += ["", "\f", "Index by function name", ""]
    entries = sorted(range(n), key=lambda x: names[x])
    for a in range(0, n, 3):
        out.append("".join(f"  [{index[k]}] {names[k]} (app.c)" for k in entries[a:a + 3]))
    return "\n".join(out) + "\n"
