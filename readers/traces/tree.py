"""CallTreeBuilder: the calling-context tree of a trace, built without keeping events.

A handler that matches ENTER/LEAVE events with one stack per (rank, thread)
and adds each call's inclusive time to its call-tree node. It keeps only
the tree, one open-frame stack per stream and the per-(node, rank, thread)
sums, so its memory does not grow with the length of the trace.

Per batch, everything is numpy: events are grouped by stream; depths are a
cumulative sum (floored at zero: a LEAVE with nothing open is dropped and
counted); enters and leaves pair up level by level; call paths are
interned one depth level at a time (a sorted ``(parent, name)`` key array
and ``searchsorted``). Open frames carry over to the next batch.

Policy for unmatched events (one :class:`~graphframe_readers.traces.warnings.TraceWarning`
counts them): a LEAVE without an open ENTER in its stream is dropped; an
ENTER never left is closed at the end of the trace (the largest time of
any event).

Examples
--------
>>> from graphframe_readers.traces import EventBatch, Kind, StringTable
>>> t = StringTable(["main", "solve"])
>>> E, L = Kind.ENTER, Kind.LEAVE
>>> b = CallTreeBuilder()
>>> b.on_batch(EventBatch.build(t, kind=[E, E, L, E, L, L], time=[0, 1, 3, 4, 8, 10],
...                             rank=0, name=[0, 1, 1, 1, 1, 0]))
>>> b.on_end()
>>> raw = b.result()
>>> raw.nodes["name"].tolist(), raw.metrics[["time (inc)", "time", "count"]].values.tolist()
(['main', 'solve'], [[1e-08, 4e-09, 1.0], [6e-09, 6e-09, 2.0]])

``graphframe.traces.TreeBuilder`` is this handler with a GraphFrame as its result;
``graphframe.read`` of a trace builds its GraphFrame from :meth:`CallTreeBuilder.result`.
"""

from __future__ import annotations

import warnings
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import ReadError
from ..profile import RawProfile
from .events import EventBatch, Kind, stream_pairs
from .handler import EventHandler
from .matching import stable_order
from .names import NameMap
from .warnings import TraceWarning

#: Name ids must stay below this (the call-path key is parent * NAME_SPAN + name).
NAME_SPAN = 1 << 24


def tree_depth(parent: np.ndarray) -> np.ndarray:
    """Depth of every node of a forest (roots 0) by repeated parent lookups, one pass per level.

    Examples
    --------
    >>> tree_depth(np.array([-1, 0, 1, 0, -1])).tolist()
    [0, 1, 2, 1, 0]
    """
    parent = np.asarray(parent, dtype=np.int64)
    depth = np.zeros(len(parent), dtype=np.int64)
    up = parent.copy()
    while True:
        live = up >= 0
        if not live.any():
            return depth
        depth[live] += 1
        up[live] = parent[up[live]]


class CallTreeBuilder(EventHandler):
    """Builds the calling-context tree (see the module docs); memory independent of length."""

    def __init__(self) -> None:
        super().__init__()
        self.names = NameMap()
        self.parent = np.zeros(0, dtype=np.int64)     # per node
        self.node_name = np.zeros(0, dtype=np.int64)  # per node, global name id
        self._keys = np.zeros(0, dtype=np.int64)      # sorted (parent+1)*NAME_SPAN+name
        self._key_node = np.zeros(0, dtype=np.int64)
        self.streams: Dict[Tuple[int, int], int] = {}
        self.stacks: List[Tuple[np.ndarray, np.ndarray]] = []  # per stream (nodes, times)
        self._acc: List[np.ndarray] = []   # chunks of (key, inc, count) rows
        self._acc_rows = 0
        self.first_time: Optional[int] = None
        self.last_time: Optional[int] = None
        self.dropped_leaves = 0
        self.closed_at_end = 0
        self.finished = False

    # ---------------------------------------------------------------- events
    def on_batch(self, batch: EventBatch) -> None:
        if len(batch):
            lo, hi = int(batch.time.min()), int(batch.time.max())
            self.first_time = lo if self.first_time is None else min(lo, self.first_time)
            self.last_time = hi if self.last_time is None else max(hi, self.last_time)
        sel = np.flatnonzero((batch.kind == Kind.ENTER) | (batch.kind == Kind.LEAVE))
        if not len(sel):
            return
        names = self.names.ids(batch.strings, batch.name[sel]).astype(np.int64)
        enter = batch.kind[sel] == Kind.ENTER
        time = batch.time[sel]
        codes = self._stream_codes(batch.rank[sel], batch.thread[sel])
        order = stable_order(codes)
        codes, enter, time, names = codes[order], enter[order], time[order], names[order]
        bounds = np.flatnonzero(np.diff(codes)) + 1
        for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(codes)]):
            self._stream_run(int(codes[lo]), enter[lo:hi], time[lo:hi], names[lo:hi])
        if self._acc_rows > 4 * max(len(self.parent), 1) * max(len(self.streams), 1) + 200_000:
            self._compact()

    def on_end(self) -> None:
        """Close frames still open at the end of the trace; warn once with the counts."""
        end = self.last_time if self.last_time is not None else 0
        for s, (nodes, times) in enumerate(self.stacks):
            if len(nodes):
                self.closed_at_end += len(nodes)
                self._add(nodes, np.full(len(nodes), s), end - times, np.zeros(len(nodes)))
                self.stacks[s] = (nodes[:0], times[:0])
        self._compact()
        self.finished = True
        if self.dropped_leaves or self.closed_at_end:
            warnings.warn(
                f"unmatched events: {self.closed_at_end} enter(s) without a leave were closed "
                f"at the end of the trace, {self.dropped_leaves} leave(s) without an enter "
                "were dropped", TraceWarning, stacklevel=2)

    # ---------------------------------------------------------------- parallel
    def fork(self) -> "CallTreeBuilder":
        return type(self)()

    def join(self, others: Sequence["CallTreeBuilder"]) -> None:
        for other in others:
            self.on_definitions(other.definitions)
            other._compact()
            names = self.names.ids(other.names.names,
                                   other.node_name.astype(np.int32)).astype(np.int64)
            remap = self._intern_tree(other.parent, names)
            smap = np.array([self._stream_codes(np.array([r]), np.array([t]))[0]
                             for r, t in other.streams], dtype=np.int64)
            for (r, t), s in other.streams.items():
                nodes, times = other.stacks[s]
                self.stacks[smap[s]] = (remap[nodes], times)
            if other._acc:
                key, inc, cnt = other._acc[0]
                node, stream = np.divmod(key.astype(np.int64), 1 << 20)
                self._add(remap[node], smap[stream], inc, cnt)
            self.dropped_leaves += other.dropped_leaves
            for t in (other.first_time, other.last_time):
                if t is not None:
                    self.first_time = t if self.first_time is None else min(t, self.first_time)
                    self.last_time = t if self.last_time is None else max(t, self.last_time)

    # ---------------------------------------------------------------- internals
    def _stream_codes(self, rank: np.ndarray, thread: np.ndarray) -> np.ndarray:
        uniq, inverse = stream_pairs(rank, thread)
        codes = np.empty(len(uniq), dtype=np.int64)
        for i, (r, t) in enumerate(uniq):  # one step per stream, not per event
            code = self.streams.get((r, t))
            if code is None:
                code = self.streams[(r, t)] = len(self.streams)
                self.stacks.append((np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)))
            codes[i] = code
        return codes[inverse]

    def _stream_run(self, s: int, enter: np.ndarray, time: np.ndarray, names: np.ndarray) -> None:
        open_nodes, open_times = self.stacks[s]
        base = len(open_nodes)
        c = base + np.cumsum(np.where(enter, 1, -1))
        floor = np.minimum(np.minimum.accumulate(c), 0)
        dropped = np.zeros(len(c), dtype=bool)
        dropped[1:] = floor[1:] < floor[:-1]
        dropped[0] = floor[0] < 0
        if dropped.any():
            self.dropped_leaves += int(dropped.sum())
            keep = ~dropped
            enter, time, names, c, floor = enter[keep], time[keep], names[keep], c[keep], floor[keep]
        depth = c - floor                      # depth after each event
        level = np.where(enter, depth, depth + 1)
        order = stable_order(level)  # by level, then position
        lv, ent = level[order], enter[order]
        first = np.ones(len(lv), dtype=bool)
        first[1:] = lv[1:] != lv[:-1]
        # a run of one level alternates enter, leave; a leading leave closes a carried frame
        carried_close = first & ~ent
        node = np.full(len(level), -1, dtype=np.int64)
        self._assign_nodes(level, enter, names, open_nodes, node)
        # pairs inside the batch: an enter followed (in its level run) by a leave
        nxt_leave = np.zeros(len(lv), dtype=bool)
        nxt_leave[:-1] = ent[:-1] & ~ent[1:] & (lv[:-1] == lv[1:])
        e_idx = order[np.flatnonzero(nxt_leave)]
        l_idx = order[np.flatnonzero(nxt_leave) + 1]
        c_idx = order[np.flatnonzero(carried_close)]
        c_lvl = level[c_idx] - 1
        inc = np.concatenate([time[l_idx] - time[e_idx], time[c_idx] - open_times[c_lvl]])
        nodes = np.concatenate([node[e_idx], open_nodes[c_lvl]])
        counts = np.zeros(len(inc))
        counts[:len(e_idx)] = 1
        # enters left open: counted now, timed when they close
        last = np.ones(len(lv), dtype=bool)
        last[:-1] = lv[:-1] != lv[1:]
        still_open = order[np.flatnonzero(last & ent)]
        self._add(np.concatenate([nodes, node[still_open]]),
                  np.full(len(nodes) + len(still_open), s),
                  np.concatenate([inc, np.zeros(len(still_open), dtype=np.int64)]),
                  np.concatenate([counts, np.ones(len(still_open))]))
        final = int(depth[-1]) if len(depth) else base
        new_nodes = open_nodes[:final].copy() if final <= base else np.concatenate(
            [open_nodes, np.zeros(final - base, dtype=np.int64)])
        new_times = open_times[:final].copy() if final <= base else np.concatenate(
            [open_times, np.zeros(final - base, dtype=np.int64)])
        lvl_open = level[still_open] - 1
        new_nodes[lvl_open] = node[still_open]
        new_times[lvl_open] = time[still_open]
        self.stacks[s] = (new_nodes, new_times)

    def _assign_nodes(self, level, enter, names, open_nodes, node) -> None:
        """Call-tree node of every enter, one depth level at a time."""
        idx_e = np.flatnonzero(enter)
        if not len(idx_e):
            return
        lvl_e = level[idx_e]
        for lvl in range(int(lvl_e.min()), int(lvl_e.max()) + 1):
            at = idx_e[lvl_e == lvl]
            if not len(at):
                continue
            if lvl == 1:
                parent = np.full(len(at), -1, dtype=np.int64)
            else:
                above = idx_e[lvl_e == lvl - 1]
                k = np.searchsorted(above, at) - 1
                carried = open_nodes[lvl - 2] if lvl - 2 < len(open_nodes) else -1
                parent = np.where(k >= 0, node[above[np.maximum(k, 0)]] if len(above) else 0,
                                  carried)
            node[at] = self._intern(parent, names[at])

    def _intern(self, parent: np.ndarray, names: np.ndarray) -> np.ndarray:
        if len(names) and names.max() >= NAME_SPAN:
            raise graphframe_readers.ReadError(
                "<trace>", f"more than {NAME_SPAN} distinct region names",
                position=f"region name {int(names.max())}",
                expected=f"at most {NAME_SPAN} distinct names")
        key = (parent + 1) * NAME_SPAN + names
        pos = np.searchsorted(self._keys, key)
        found = pos < len(self._keys)
        found[found] = self._keys[pos[found]] == key[found]
        if not found.all():
            new_keys, first = np.unique(key[~found], return_index=True)
            src = np.flatnonzero(~found)[first]
            ids = np.arange(len(self.parent), len(self.parent) + len(new_keys))
            self.parent = np.concatenate([self.parent, parent[src]])
            self.node_name = np.concatenate([self.node_name, names[src]])
            allk = np.concatenate([self._keys, new_keys])
            alln = np.concatenate([self._key_node, ids])
            o = np.argsort(allk, kind="stable")
            self._keys, self._key_node = allk[o], alln[o]
            pos = np.searchsorted(self._keys, key)
        return self._key_node[pos]

    def _intern_tree(self, parent: np.ndarray, names: np.ndarray) -> np.ndarray:
        """Map another tree (parents created before children) into this one."""
        remap = np.full(len(parent), -1, dtype=np.int64)
        depth = tree_depth(parent)
        for d in range(int(depth.max()) + 1 if len(depth) else 0):
            at = np.flatnonzero(depth == d)
            par = np.where(parent[at] < 0, -1, remap[np.maximum(parent[at], 0)])
            remap[at] = self._intern(par, names[at])
        return remap

    def _add(self, nodes, streams, inc, counts) -> None:
        if not len(nodes):
            return
        key = np.asarray(nodes, dtype=np.int64) * (1 << 20) + np.asarray(streams, dtype=np.int64)
        self._acc.append(np.stack([key.astype(np.float64), np.asarray(inc, dtype=np.float64),
                                   np.asarray(counts, dtype=np.float64)]))
        self._acc_rows += len(key)

    def _compact(self) -> None:
        if not self._acc:
            return
        allc = np.concatenate(self._acc, axis=1)
        key = allc[0].astype(np.int64)
        node, stream = np.divmod(key, 1 << 20)
        width = max(len(self.streams), 1)
        if len(key) and (int(node.max()) + 1) * width <= 1 << 22:
            # (node, stream) pairs numbered densely, in key order: sums by bincount, no sort
            dense = node * width + stream
            size = (int(node.max()) + 1) * width
            slot = np.flatnonzero(np.bincount(dense, minlength=size))
            uniq = (slot // width << 20) + slot % width
            inc = np.bincount(dense, weights=allc[1], minlength=size)[slot]
            cnt = np.bincount(dense, weights=allc[2], minlength=size)[slot]
        else:
            uniq, inverse = np.unique(key, return_inverse=True)
            inc = np.bincount(inverse, weights=allc[1], minlength=len(uniq))
            cnt = np.bincount(inverse, weights=allc[2], minlength=len(uniq))
        self._acc = [np.stack([uniq.astype(np.float64), inc, cnt])]
        self._acc_rows = len(uniq)

    # ---------------------------------------------------------------- result
    def raw_profile(self) -> RawProfile:
        """The tree as a RawProfile (index levels ``rank``, ``thread``)."""
        self._compact()
        if not len(self.parent):
            raise ReadError("<trace>", "the trace has no enter/leave events",
                                    expected="regions to build a call tree from")
        key, inc, cnt = (self._acc[0] if self._acc else np.zeros((3, 0)))
        node, stream = np.divmod(key.astype(np.int64), 1 << 20)
        exc = inc.copy()
        par = self.parent[node]
        has = par >= 0
        pkey = par[has] * (1 << 20) + stream[has]
        ppos = np.searchsorted(key.astype(np.int64), pkey)
        np.add.at(exc, ppos, -inc[has])
        ranks = np.array([r for r, _ in self.streams], dtype=np.int64)
        threads = np.array([t for _, t in self.streams], dtype=np.int64)
        names = self.names.names.as_array()
        # plain column mappings: RawProfile keeps them without building DataFrames
        nodes = {"node": np.arange(len(self.parent)), "parent": np.asarray(self.parent),
                 "name": names[self.node_name]}
        regions = self.definitions.regions
        used, where = np.unique(self.node_name, return_inverse=True)  # names of nodes only
        entries = [regions.get(n, {}) for n in names[used].tolist()]
        for attr in ("file", "line", "module"):
            values = [e.get(attr) for e in entries]
            if any(v is not None for v in values):
                nodes[attr] = np.asarray(values, dtype=object)[where.reshape(-1)]
        metrics = {"node": node, "rank": ranks[stream], "thread": threads[stream],
                   "time (inc)": inc / 1e9, "time": exc / 1e9, "count": cnt.astype(np.int64)}
        return RawProfile(
            nodes=nodes, metrics=metrics, index_levels=("rank", "thread"),
            exc_metrics=("time", "count"), inc_metrics=("time (inc)",),
            inclusive_of={"time": "time (inc)"}, default_metric="time",
            metadata={"source": "trace", "time_unit": "s", **self.definitions.metadata},
            columns=("name", "time (inc)", "time", "count"))

    def result(self) -> RawProfile:
        """The tree as a RawProfile (:meth:`raw_profile`)."""
        return self.raw_profile()
