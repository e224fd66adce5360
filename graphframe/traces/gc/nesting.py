"""Which GC event encloses which: the GC -> phase -> sub-phase nesting of a GC log.

Per ``(log, gc_id)``, the event that stands for the whole GC (its *anchor*)
is the first found of: a whole collection (ZGC's ``Garbage Collection``,
``Major Collection``, ``Minor Collection``), a concurrent cycle
(``Concurrent Cycle``, ``Concurrent Mark Cycle``), the last pause not
indented. The other phases of the GC nest under it (depth 1), generational
ZGC's ``Y:``/``O:`` phases under their ``Young Generation`` / ``Old
Generation`` line (depth 2), and G1's indented sub-phases under the nearest
line before them that is one step less indented. A GC without an anchor
(Shenandoah logs no line for its whole cycle) has its phases at depth 0.
Safepoints and heap, metaspace and code-cache figures are not nested
(depth 0, no parent). The columns are computed with numpy over the whole
table (a loop over indentation levels, not over events).

Examples
--------
>>> ev = pd.DataFrame({
...     "log": ["a"] * 4, "gc_id": [3, 3, 3, -1],
...     "event_type": ["phase", "phase", "pause", "safepoint"],
...     "name": ["Pre Evacuate", "Merge Heap Roots", "Pause Young", "G1Collect"],
...     "level": [1, 2, 0, 0], "prefix": ["", "", "", ""]})
>>> depth, parent = nest(ev)
>>> depth.tolist(), parent.tolist()
([1, 2, 0, 0], [2, 0, -1, -1])
"""

from __future__ import annotations

from typing import Any, Mapping, Tuple

import numpy as np
import pandas as pd

#: event types that take part in the nesting
PHASE_TYPES = ("pause", "concurrent", "phase", "collection")
GENERATION_NODES = ("Young Generation", "Old Generation")


def _array(col):
    """The values of a column (a Series' array; arrays as they are)."""
    return col.array if isinstance(col, pd.Series) else col


def _codes(col) -> np.ndarray:
    """Integer codes of a column (categorical codes, or factorised)."""
    col = _array(col)
    if isinstance(col, pd.Categorical):
        return np.asarray(col.codes, dtype=np.int64)
    return pd.factorize(np.asarray(col))[0].astype(np.int64)


def _values(col) -> np.ndarray:
    """A column as an object array of its values (through its categories when it has them)."""
    col = _array(col)
    if isinstance(col, pd.Categorical):
        cats = np.array(list(col.categories) + [None], dtype=object)
        codes = np.asarray(col.codes, dtype=np.int64)
        return cats[np.where(codes >= 0, codes, len(cats) - 1)]
    return np.asarray(col, dtype=object)


class _Values:
    """A column's distinct values and each row's code: a test of the rows' values is
    answered once per distinct value."""

    def __init__(self, col) -> None:
        col = _array(col)
        if isinstance(col, pd.Categorical):
            codes, uniques = np.asarray(col.codes, dtype=np.int64), list(col.categories)
        else:
            codes, uniques = pd.factorize(_values(col))
        self.values = list(uniques)
        self.codes = np.where(codes >= 0, codes, len(self.values))  # missing: never true

    def at(self, rows: np.ndarray) -> "_Values":
        """The same for some rows only."""
        out = object.__new__(_Values)
        out.values, out.codes = self.values, self.codes[rows]
        return out

    def test(self, test) -> np.ndarray:
        """Per row, ``test`` of its value (False where it has none)."""
        answers = np.array([bool(test(u)) for u in self.values] + [False], dtype=bool)
        return answers[self.codes]


def nest(ev: Mapping[str, Any]) -> Tuple[np.ndarray, np.ndarray]:
    """(depth, parent) per row of a GC events table (parent: row position or -1).

    ``ev`` is a DataFrame or a mapping of its columns (arrays or Series of one length).
    """
    n = len(ev) if isinstance(ev, pd.DataFrame) else len(ev["gc_id"])
    depth = np.zeros(n, np.int64)
    parent = np.full(n, -1, np.int64)
    # tests of a column's values are answered once per distinct value (codes, not strings)
    etype = ev["event_type"]
    gc_id = np.asarray(_array(ev["gc_id"]), dtype=np.int64)
    etypes = _Values(etype)
    member = etypes.test(lambda x: x in PHASE_TYPES) & (gc_id >= 0)
    if not member.any():
        return depth, parent
    rows = np.flatnonzero(member)
    etypes, names = etypes.at(rows), _Values(ev["name"]).at(rows)
    log_codes = _codes(ev["log"])
    key = log_codes[rows] * (1 << 40) + gc_id[rows]
    level = np.asarray(_array(ev["level"]), dtype=np.int64)[rows]
    no_prefix = _Values(ev["prefix"]).at(rows).test(lambda x: x == "")
    young_node = names.test(lambda x: x == GENERATION_NODES[0])
    old_node = names.test(lambda x: x == GENERATION_NODES[1])
    is_collection = etypes.test(lambda x: x == "collection")
    is_gen_node = is_collection & (young_node | old_node)
    prio = np.zeros(len(rows), np.int64)
    prio[etypes.test(lambda x: x == "pause") & (level == 0) & no_prefix] = 1
    cycle = etypes.test(lambda x: x == "concurrent") & \
        names.test(lambda x: str(x).endswith("Cycle"))
    prio[cycle] = 2
    prio[is_collection & ~is_gen_node & no_prefix] = 3
    # anchor of each key: highest priority, then the last row
    order = np.lexsort((rows, prio, key))
    k_sorted = key[order]
    last = np.ones(len(order), bool)
    last[:-1] = k_sorted[1:] != k_sorted[:-1]
    anchor_of_key = {}
    a_rows = order[last]
    anchor_pos = np.where(prio[a_rows] > 0, rows[a_rows], -1)
    uniq_keys = k_sorted[last]
    idx = np.searchsorted(uniq_keys, key)
    anchor = anchor_pos[idx]
    del anchor_of_key
    has_anchor = anchor >= 0
    is_anchor = anchor == rows
    # generation nodes of generational ZGC, per (key, prefix)
    gen_prefix = np.where(young_node, "Y", np.where(old_node, "O", ""))
    gen_key = {}
    for r, k, p in zip(rows[is_gen_node].tolist(), key[is_gen_node].tolist(),
                       gen_prefix[is_gen_node].tolist()):
        gen_key[(k, p)] = r  # the last line of the node (with its figures) wins
    if gen_key:  # generational ZGC
        prefix = _values(ev["prefix"])[rows]
        node = np.array([gen_key.get((k, p), -1) for k, p in zip(key.tolist(),
                                                                   prefix.tolist())], np.int64)
    else:
        node = np.full(len(rows), -1, np.int64)
    under_gen = (node >= 0) & ~is_gen_node
    base = np.where(has_anchor & ~is_anchor, 1, 0) + under_gen
    d = np.where(is_anchor, 0, base + np.maximum(level - 1, 0))
    par = np.where(is_anchor | ~has_anchor, -1, anchor)
    par = np.where(under_gen, node, par)
    # deeper indentation: the nearest earlier row of the same GC one level up
    pos = np.arange(len(rows))
    for lev in range(2, int(level.max()) + 1 if len(level) else 0):
        cand = np.where(level == lev - 1, pos, -1)
        # rows are in file order; a GC's rows may interleave with others: per key
        kord = np.lexsort((pos, key))
        c = cand[kord]
        best = np.maximum.accumulate(c)
        same = best >= 0
        same[same] = key[best[same]] == key[kord][same]
        found = np.full(len(rows), -1, np.int64)
        found[kord] = np.where(same, best, -1)
        here = (level == lev) & (found >= 0)
        par[here] = rows[found[here]]
    depth[rows] = d
    parent[rows] = par
    return depth, parent
