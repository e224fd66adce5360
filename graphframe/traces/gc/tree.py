"""The GC phase tree of GC logs as a GraphFrame: GC -> phase -> sub-phase.

Nodes are paths of event names along the nesting of :mod:`.nesting`
(``Pause Young`` -> ``Evacuate Collection Set`` -> ``Merge Heap Roots``;
``Garbage Collection`` -> ``Concurrent Mark``; generational ZGC's ``Major
Collection`` -> ``Young Generation`` -> ``Concurrent Mark``), plus one
``Safepoints`` root with a child per safepoint operation. Per node and log
(the ``log`` index level): ``count`` (events), ``time (inc)`` (the sum of
their logged durations, s) and ``time`` (that minus the children's, never
below 0: concurrent phases overlap and ZGC's collection lines before JDK 21
have no duration). With several logs the rows are indexed by ``log`` too
(the log's number; ``gf.metadata["logs"]`` names them). Tree printing, filtering and
diffing two runs work as
on any GraphFrame.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import graphframe_readers
from graphframe.graphframe import GraphFrame

from .nesting import PHASE_TYPES

SAFEPOINTS = "Safepoints"


def phase_tree(ev: pd.DataFrame) -> GraphFrame:
    """The GraphFrame of the GC view's events (see the module docs)."""
    etype = ev["event_type"].astype(object).to_numpy()
    member = np.isin(etype, PHASE_TYPES + ("safepoint",))
    if not member.any():
        raise graphframe_readers.ReadError("<gc log>", "no GC phase or safepoint to build a "
                                           "tree from", expected="pause, concurrent or "
                                           "collection lines")
    names = ev["name"].astype(object).to_numpy()
    parent = ev["parent"].to_numpy()
    # the path of each event: its ancestors' names (depth is small: a loop over levels)
    label = np.array([str(x) for x in names], dtype=object)
    full = label.copy()
    cur = parent.copy()
    for _ in range(8):
        has = (cur >= 0) & member
        if not has.any():
            break
        full[has] = label[cur[has]] + "\x1f" + full[has]
        cur = np.where(has, parent[np.maximum(cur, 0)], -1)
    sp = etype == "safepoint"
    full[sp] = SAFEPOINTS + "\x1f" + full[sp]
    rows = np.flatnonzero(member)
    keys = full[rows]
    logs = ev["log"].astype(object).to_numpy()[rows]
    dur = np.nan_to_num(ev["duration"].to_numpy(dtype=float)[rows])
    # nodes: every prefix of every path
    uniq = sorted(set(keys.tolist()))
    all_paths = set()
    for k in uniq:
        parts = k.split("\x1f")
        for j in range(1, len(parts) + 1):
            all_paths.add("\x1f".join(parts[:j]))
    ordered = sorted(all_paths, key=lambda p: (p.split("\x1f")))
    node_of = {p: i for i, p in enumerate(ordered)}
    par = np.array([node_of.get(p.rsplit("\x1f", 1)[0], -1) if "\x1f" in p else -1
                    for p in ordered], np.int64)
    node_names = [p.rsplit("\x1f", 1)[-1] for p in ordered]
    df = pd.DataFrame({"node": [node_of[k] for k in keys.tolist()], "log": logs,
                       "dur": dur})
    agg = df.groupby(["node", "log"], sort=True).agg(count=("dur", "size"),
                                                     inc=("dur", "sum")).reset_index()
    # every node appears for every log that has events below it
    inc = agg.set_index(["node", "log"])["inc"]
    cnt = agg.set_index(["node", "log"])["count"]
    log_names = sorted(set(logs.tolist()), key=logs.tolist().index)
    full_idx = pd.MultiIndex.from_product([range(len(ordered)), log_names],
                                          names=["node", "log"])
    inc = inc.reindex(full_idx, fill_value=0.0)
    cnt = cnt.reindex(full_idx, fill_value=0)
    # inclusive sums for synthetic nodes (Safepoints root): the children's
    inc_arr = inc.to_numpy().reshape(len(ordered), len(log_names)).copy()
    cnt_arr = cnt.to_numpy().reshape(len(ordered), len(log_names))
    child_sum = np.zeros_like(inc_arr)
    for i in range(len(ordered) - 1, -1, -1):
        if par[i] >= 0:
            child_sum[par[i]] += inc_arr[i]
    synthetic = np.array([p == SAFEPOINTS for p in ordered])
    inc_arr[synthetic] = child_sum[synthetic]
    exc_arr = np.maximum(inc_arr - child_sum, 0.0)
    present = (cnt_arr > 0) | (child_sum > 0) | synthetic[:, None] & (inc_arr > 0)
    node_idx, log_idx = np.nonzero(present)
    metrics = {"node": node_idx, "time (inc)": inc_arr[node_idx, log_idx],
               "time": exc_arr[node_idx, log_idx],
               "count": cnt_arr[node_idx, log_idx].astype(np.int64)}
    levels = ()
    if len(log_names) > 1:  # index level ``log``: the log's number in metadata["logs"]
        metrics["log"] = log_idx.astype(np.int64)
        levels = ("log",)
    raw = graphframe_readers.RawProfile(
        nodes={"node": np.arange(len(ordered)), "parent": par,
               "name": np.array(node_names, dtype=object)},
        metrics=metrics, index_levels=levels, exc_metrics=("time", "count"),
        inc_metrics=("time (inc)",), inclusive_of={"time": "time (inc)"},
        default_metric="time (inc)",
        metadata={"source": "jvm-gc", "time_unit": "s", "logs": list(log_names)},
        columns=("name", "time (inc)", "time", "count"))
    return GraphFrame.from_raw(raw)
