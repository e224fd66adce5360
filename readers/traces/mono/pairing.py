"""Enter/leave pairing of one thread's events with numpy (the fast path of :mod:`.calls`).

Depth after each event is a running sum; an event's *level* is the depth of
the frame it opens or closes. Sorted by (level, position), the events of a
level alternate enter, leave, ...: a leave right after an enter of its level
closes that enter, a leave first in its level closes the frame carried over
from before (the thread's stack). The frame a call returns into is the last
enter one level up before it (or a carried frame), which gives callee times
and, level by level, call-path nodes. When the events do not pair this way
(a leave of another method than the one on top, or with nothing open:
mprof-report's unmatched leaves) :func:`pair_thread` returns ``None`` and the
caller takes the one-event-at-a-time path, which applies mprof-report's rule.

Examples
--------
>>> import numpy as np
>>> carried = [[10, 0, 0, 0]]                      # method 10 entered at time 0, node 0
>>> out = pair_thread(np.array([2, 5, 9]), np.array([20, 20, 10]),
...                   np.array([True, False, False]), carried, None)
>>> out["method"].tolist(), out["inclusive"].tolist(), out["callee"].tolist(), out["stack"]
([20, 10], [3, 9], [0, 3], [])
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

import numpy as np

#: Runs shorter than this are paired one event at a time (numpy's fixed costs dominate).
MIN_VECTOR_RUN = 64


def pair_thread(time: np.ndarray, method: np.ndarray, enter: np.ndarray,
                carried: List[list], intern: Optional[Callable],
                query_at: Optional[np.ndarray] = None) -> Optional[Dict]:
    """Pair one thread's events (see the module docs).

    Parameters
    ----------
    time, method, enter : numpy.ndarray
        The thread's events in order.
    carried : list of [method, start, callee, node]
        The frames open before these events, outermost first (not modified).
    intern : callable or None
        ``intern(parents, methods) -> nodes`` (arrays) to number call paths; None: no paths.
    query_at : numpy.ndarray, optional
        Moments between events (the number of events before each): the result's
        ``query_node`` is the node of the innermost frame open then (``-1``: none).

    Returns
    -------
    dict or None
        ``method``, ``inclusive``, ``callee``, ``node`` of the closed calls and
        ``stack``, the frames open afterwards; None when the events do not pair.
    """
    n = len(time)
    d0 = len(carried)
    step = np.where(enter, 1, -1)
    depth = d0 + np.cumsum(step)
    if n and depth.min() < 0:
        return None
    level = np.where(enter, depth, depth + 1)
    order = np.argsort(level, kind="stable")
    lv, en = level[order], enter[order]
    first = np.ones(n, dtype=bool)
    first[1:] = lv[1:] != lv[:-1]
    leave_idx = np.flatnonzero(~en)
    paired = leave_idx[(leave_idx > 0) & ~first[leave_idx]]
    paired = paired[en[paired - 1]]
    carried_close = leave_idx[first[leave_idx]]
    if len(paired) + len(carried_close) != len(leave_idx):
        return None
    e_pos, l_pos = order[paired - 1], order[paired]
    c_pos = order[carried_close]
    c_lvl = level[c_pos]
    if len(c_lvl) and (c_lvl.max() > d0 or c_lvl.min() < 1):
        return None
    car_method = np.array([f[0] for f in carried], dtype=np.int64)
    car_start = np.array([f[1] for f in carried], dtype=np.int64)
    car_callee = np.array([f[2] for f in carried], dtype=np.int64)
    car_node = np.array([f[3] for f in carried], dtype=np.int64)
    if not (np.array_equal(method[e_pos], method[l_pos])
            and np.array_equal(car_method[c_lvl - 1], method[c_pos])):
        return None
    # the enter each event's frame returns into: the last enter one level up before it
    ent = np.flatnonzero(enter)
    ent_key = level[ent] * (n + 1) + ent             # sorted by (level, position)
    key_order = np.argsort(ent_key, kind="stable")
    ent_sorted, key_sorted = ent[key_order], ent_key[key_order]

    def parent_enter(pos: np.ndarray, lvl: np.ndarray) -> np.ndarray:
        """Index (event position) of the enclosing enter, or -1 for a carried frame."""
        at = np.searchsorted(key_sorted, (lvl - 1) * (n + 1) + pos) - 1
        ok = at >= 0
        found = np.where(ok, ent_sorted[np.maximum(at, 0)], -1)
        same = ok & (level[np.maximum(found, 0)] == lvl - 1)
        return np.where(same, found, -1)

    inc_pair = time[l_pos] - time[e_pos]
    inc_car = time[c_pos] - car_start[c_lvl - 1]
    callee_ev = np.zeros(n, dtype=np.int64)          # per enter position
    callee_car = car_callee.copy()
    # a closed pair adds its time to the frame it returns into
    lvl_pair = level[e_pos]
    par = parent_enter(e_pos, lvl_pair)
    inner = lvl_pair >= 2
    to_ev = inner & (par >= 0)
    np.add.at(callee_ev, par[to_ev], inc_pair[to_ev])
    to_car = inner & (par < 0)
    np.add.at(callee_car, lvl_pair[to_car] - 2, inc_pair[to_car])
    # a closed carried frame returns into the carried frame below it
    up = c_lvl >= 2
    np.add.at(callee_car, c_lvl[up] - 2, inc_car[up])
    # call-path nodes, one level at a time
    node_ev = np.full(n, -1, dtype=np.int64)
    if intern is not None and len(ent):
        ent_lvl = level[ent]
        ent_par = parent_enter(ent, ent_lvl)
        for lvl in np.unique(ent_lvl).tolist():
            sel = ent[ent_lvl == lvl]
            psel = ent_par[ent_lvl == lvl]
            if lvl == 1:
                parents = np.full(len(sel), -1, dtype=np.int64)
            else:
                parents = np.where(psel >= 0, node_ev[np.maximum(psel, 0)],
                                   car_node[lvl - 2] if lvl - 2 < d0 else -1)
            node_ev[sel] = intern(parents, method[sel])
    query_node = np.full(0 if query_at is None else len(query_at), -1, dtype=np.int64)
    if query_at is not None and len(query_at):
        qd = np.where(query_at > 0, depth[np.maximum(query_at - 1, 0)] if n else d0, d0)
        inner = parent_enter(query_at, qd + 1) if len(ent) else np.full(len(qd), -1)
        from_carried = np.where((qd >= 1) & (qd <= d0), car_node[np.clip(qd - 1, 0, d0 - 1)]
                                if d0 else -1, -1)
        query_node = np.where(inner >= 0, node_ev[np.maximum(inner, 0)], from_carried)
    # frames still open: carried ones below the lowest depth reached, then the last enter
    # of each level above it
    low = min(d0, int(depth.min()) if n else d0)
    end_depth = int(depth[-1]) if n else d0
    stack = [[int(car_method[i]), int(car_start[i]), int(callee_car[i]), int(car_node[i])]
             for i in range(low)]
    if end_depth > low:
        last_at_level = {}
        for pos in ent[level[ent] > low].tolist():
            last_at_level[int(level[pos])] = pos
        for lvl in range(low + 1, end_depth + 1):
            pos = last_at_level[lvl]
            stack.append([int(method[pos]), int(time[pos]), int(callee_ev[pos]),
                          int(node_ev[pos])])
    return {"method": np.concatenate([method[e_pos], method[c_pos]]),
            "inclusive": np.concatenate([inc_pair, inc_car]),
            "callee": np.concatenate([callee_ev[e_pos], callee_car[c_lvl - 1]]),
            "node": np.concatenate([node_ev[e_pos], car_node[c_lvl - 1]]),
            "query_node": query_node, "stack": stack}
