"""Emulated call stacks: method enter/leave events -> closed calls, as mprof-report pairs them.

One stack per thread. An enter pushes the method; a leave (or exception
leave) pops it only when it is the method on top, otherwise it is an
unmatched leave (counted, the stack unchanged) - mprof-report's rule. A
closed call gives its method, inclusive time and the inclusive time of the
calls it made (``callee``), so self time is ``inclusive - callee``; with
``paths=True`` each open frame also carries its call-path node (interned
``(parent node, method)`` pairs: the calling-context tree), for the tree
builder. Frames still open at the end are closed at each thread's last
time (:meth:`CallStacks.close`). Memory: the open frames and the path
table, never the events.

Examples
--------
>>> cs = CallStacks(paths=True)
>>> out = cs.feed([1, 1, 1, 1], [0, 2, 5, 9], [10, 20, 20, 10], [True, True, False, False])
>>> [out[k].tolist() for k in ("method", "inclusive", "callee", "node")]
[[20, 10], [3, 9], [0, 3], [1, 0]]
>>> cs.path_parent, cs.path_method
([-1, 0], [10, 20])
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import numpy as np

from .pairing import MIN_VECTOR_RUN, pair_thread


class CallStacks:
    """Per-thread emulated stacks (see the module docs)."""

    def __init__(self, paths: bool = False) -> None:
        self.paths = paths
        self.stacks: Dict[int, List[list]] = {}
        self.unmatched = 0
        self.unmatched_methods: List[tuple] = []     # (depth, method) of the first few
        # calling-context tree shared by the threads: node -> parent node, method
        self.path_parent: List[int] = []
        self.path_method: List[int] = []
        self._path_ids: Dict[tuple, int] = {}
        # sorted keys (parent + 1) * 2**24 + method index, and their nodes
        self._table_keys = np.zeros(0, dtype=np.int64)
        self._table_nodes = np.zeros(0, dtype=np.int64)
        self._method_index: Dict[int, int] = {}

    def _node(self, parent: int, method: int) -> int:
        key = (parent, method)
        node = self._path_ids.get(key)
        if node is None:
            node = self._path_ids[key] = len(self.path_parent)
            self.path_parent.append(parent)
            self.path_method.append(method)
        return node

    def _intern_many(self, parents: np.ndarray, methods: np.ndarray) -> np.ndarray:
        """Node ids of (parent, method) pairs, new ones numbered in order of appearance.

        Known pairs are found in a sorted table of int64 keys (one per pair); only
        pairs new to it are looked at one by one.
        """
        mu, minv = np.unique(methods, return_inverse=True)
        midx = np.array([self._method_index.setdefault(m, len(self._method_index))
                         for m in mu.tolist()], dtype=np.int64)[minv.reshape(-1)]
        keys = (parents + 1) * (1 << 24) + midx        # one int per (parent, method)
        uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        table, nodes = self._table_keys, self._table_nodes
        at = np.searchsorted(table, uniq)
        found = at < len(table)
        found[found] = table[at[found]] == uniq[found]
        ids = np.empty(len(uniq), dtype=np.int64)
        ids[found] = nodes[at[found]]
        new = np.flatnonzero(~found)
        if len(new):
            new = new[np.argsort(first[new], kind="stable")]
            for i, p_pos in zip(new.tolist(), first[new].tolist()):
                ids[i] = self._node(int(parents[p_pos]), int(methods[p_pos]))
            merged = np.concatenate([table, uniq[new]])
            order = np.argsort(merged, kind="stable")
            self._table_keys = merged[order]
            self._table_nodes = np.concatenate([nodes, ids[new]])[order]
        return ids[inverse.reshape(-1)]

    def feed(self, threads: Sequence[int], times: Sequence[int], methods: Sequence[int],
             enters: Sequence[bool], queries: Optional[Sequence[bool]] = None
             ) -> Dict[str, np.ndarray]:
        """Process events in order; returns the calls they closed (arrays per field).

        Each thread's events are paired with numpy (:mod:`.pairing`) when there are
        many and they pair regularly, else one at a time with mprof-report's rule.
        Rows marked in ``queries`` (allocations, say) are not calls: for each, the
        result's ``query_node`` holds the call-path node of its thread's innermost open
        frame at that moment (``-1``: none, or no paths), in the rows' order.
        """
        threads = np.asarray(threads, dtype=np.int64)
        times = np.asarray(times, dtype=np.int64)
        methods = np.asarray(methods, dtype=np.int64)
        enters = np.asarray(enters, dtype=bool)
        is_query = np.zeros(len(threads), dtype=bool) if queries is None \
            else np.asarray(queries, dtype=bool)
        query_node = np.full(len(threads), -1, dtype=np.int64)
        parts: List[Dict[str, np.ndarray]] = []
        if len(threads):
            uniq, first, inverse = np.unique(threads, return_index=True, return_inverse=True)
            inverse = inverse.reshape(-1)
            for u in np.argsort(first, kind="stable").tolist():    # threads in file order
                sel = np.flatnonzero(inverse == u)
                ev, qs = sel[~is_query[sel]], sel[is_query[sel]]
                thread = int(uniq[u])
                stack = self.stacks.setdefault(thread, [])
                done = None
                if len(ev) >= MIN_VECTOR_RUN:
                    done = pair_thread(times[ev], methods[ev], enters[ev], stack,
                                       self._intern_many if self.paths else None,
                                       query_at=np.searchsorted(ev, qs))
                if done is not None:
                    self.stacks[thread] = done.pop("stack")
                else:
                    kinds = np.where(is_query[sel], 2, enters[sel].astype(np.int64))
                    done = self._feed_one_by_one(thread, times[sel].tolist(),
                                                 methods[sel].tolist(), kinds.tolist())
                query_node[qs] = done.pop("query_node")
                done["thread"] = np.full(len(done["method"]), thread, dtype=np.int64)
                parts.append(done)
        keys = ("method", "inclusive", "callee", "node", "thread")
        out = {k: np.concatenate([np.asarray(p[k], dtype=np.int64) for p in parts])
               if parts else np.zeros(0, np.int64) for k in keys}
        out["query_node"] = query_node[is_query]
        return out

    def _feed_one_by_one(self, thread: int, times: List[int], methods: List[int],
                         kinds: List[int]) -> Dict[str, list]:
        """mprof-report's rule, one event at a time (kinds: 1 enter, 0 leave, 2 query)."""
        out_m: List[int] = []
        out_inc: List[int] = []
        out_callee: List[int] = []
        out_node: List[int] = []
        out_query: List[int] = []
        stack = self.stacks[thread]
        paths = self.paths
        for time, method, kind in zip(times, methods, kinds):
            if kind == 2:
                out_query.append(stack[-1][3] if stack else -1)
            elif kind == 1:
                node = -1
                if paths:
                    node = self._node(stack[-1][3] if stack else -1, method)
                stack.append([method, time, 0, node])
            elif stack and stack[-1][0] == method:
                frame = stack.pop()
                inc = time - frame[1]
                if stack:
                    stack[-1][2] += inc
                out_m.append(method)
                out_inc.append(inc)
                out_callee.append(frame[2])
                out_node.append(frame[3])
            else:
                self.unmatched += 1
                if len(self.unmatched_methods) < 100:
                    self.unmatched_methods.append((len(stack), method))
        return {"method": out_m, "inclusive": out_inc, "callee": out_callee, "node": out_node,
                "query_node": out_query}

    def close(self, last_time: Dict[int, int]) -> Dict[str, list]:
        """Close every open frame at its thread's last time (innermost first)."""
        threads, times, methods = [], [], []
        for thread, stack in self.stacks.items():
            end = last_time.get(thread, stack[-1][1] if stack else 0)
            for frame in reversed(stack):
                threads.append(thread)
                times.append(end)
                methods.append(frame[0])
        return self.feed(threads, times, methods, [False] * len(threads))
