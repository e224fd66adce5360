"""GC statistics per group: pauses, throughput, concurrent time, allocation, safepoints.

All functions take the GC view's events table (:mod:`.frame`) and work with
pandas group-bys (no loop over events).

Derived per-GC figures (:func:`gc_heap_rows`): the rows that give a whole
GC's heap before/after (pauses and collections with heap figures, not
generational ZGC's per-generation lines), per log in time order; the bytes
allocated before a GC = its heap before minus the heap after of the
previous GC of the same log (first GC: its heap before), never below 0;
reclaimed = heap before - heap after. Promoted bytes = the growth of the
old space (``ParOldGen``, ``PSOldGen``, ``Tenured``, ``CMS``, G1's ``Old
regions``) during young collections, where the log shows it.
"""

from __future__ import annotations

from typing import List, Sequence, Union

import numpy as np
import pandas as pd

By = Union[None, str, Sequence[str]]

#: the default percentiles (of pause durations)
PERCENTILES = (50, 90, 99, 99.9)
OLD_SPACES = ("ParOldGen", "PSOldGen", "Tenured", "CMS", "Old regions")
GENERATION_LINES = ("Young Generation", "Old Generation")


def group_keys(by: By) -> List[str]:
    """``by`` as a list of columns (None -> ``["log"]``)."""
    if by is None:
        return ["log"]
    return [by] if isinstance(by, str) else list(by)


def run_times(ev: pd.DataFrame) -> pd.Series:
    """Per log: the time of its last event (s since JVM start, or since its first line)."""
    t = ev.groupby("log", observed=True)["time"]
    return (t.max() - np.minimum(t.min(), 0.0)).fillna(0.0)


def gc_heap_rows(ev: pd.DataFrame) -> pd.DataFrame:
    """The whole-GC heap rows with ``allocated`` and ``reclaimed`` (bytes) added."""
    mask = ev["event_type"].isin(["pause", "collection"]) & ev["heap_before"].notna() & \
        ev["heap_after"].notna() & ~ev["name"].isin(GENERATION_LINES)
    rows = ev[mask].sort_values(["log", "time"], kind="stable")
    prev_after = rows.groupby("log", observed=True)["heap_after"].shift(1)
    allocated = (rows["heap_before"] - prev_after.fillna(0.0)).clip(lower=0.0)
    return rows.assign(allocated=allocated, reclaimed=rows["heap_before"] - rows["heap_after"])


def promoted_rows(ev: pd.DataFrame) -> pd.DataFrame:
    """Old-space transitions during young GCs, with ``promoted`` (bytes) added."""
    young = ev[(ev["event_type"] == "pause") & (ev["generation"] == "young")]
    keys = set(zip(young["log"].astype(object), young["gc_id"]))
    old = ev[(ev["event_type"] == "heap") & ev["name"].isin(OLD_SPACES)]
    if not len(old) or not keys:
        return old.assign(promoted=pd.Series(dtype=float))
    inside = pd.MultiIndex.from_arrays([old["log"].astype(object), old["gc_id"]]).isin(
        list(keys))
    old = old[inside]
    return old.assign(promoted=(old["heap_after"] - old["heap_before"]).clip(lower=0.0))


def _quantile_frame(values: pd.core.groupby.SeriesGroupBy, qs: Sequence[float],
                    prefix: str) -> pd.DataFrame:
    out = {}
    for q in qs:
        out[f"{prefix}p{q:g}"] = values.quantile(q / 100.0)
    return pd.DataFrame(out)


def summary(ev: pd.DataFrame, by: By = "log",
            percentiles: Sequence[float] = PERCENTILES) -> pd.DataFrame:
    """One row per group (see :meth:`GcView.summary`)."""
    keys = group_keys(by)
    run = run_times(ev)
    # the logs of each group, for run time and throughput
    logs = ev.groupby(keys, observed=True)["log"].unique() if keys != ["log"] else None
    pauses = ev[ev["event_type"] == "pause"]
    g_p = pauses.groupby(keys, observed=True)["duration"]
    gcs = ev[ev["event_type"].isin(["pause", "concurrent", "phase", "collection"]) &
             (ev["gc_id"] >= 0)]
    out = pd.DataFrame(index=ev.groupby(keys, observed=True).size().index)
    if keys == ["log"]:
        out["run_time"] = run.reindex(out.index).to_numpy()
    else:
        out["run_time"] = [float(run.reindex(list(v)).sum()) for v in logs.reindex(out.index)]
    out["gc_count"] = _distinct_gcs(gcs, keys).reindex(out.index).fillna(0).astype(np.int64)
    out["pause_count"] = g_p.count().reindex(out.index).fillna(0).astype(np.int64)
    out["pause_total"] = g_p.sum().reindex(out.index).fillna(0.0)
    out["pause_mean"] = g_p.mean().reindex(out.index)
    out["pause_max"] = g_p.max().reindex(out.index)
    q = _quantile_frame(g_p, percentiles, "pause_") if len(pauses) else \
        pd.DataFrame(index=out.index, columns=[f"pause_p{x:g}" for x in percentiles],
                     dtype=float)
    out = out.join(q.reindex(out.index))
    with np.errstate(divide="ignore", invalid="ignore"):
        out["throughput"] = np.where(out["run_time"] > 0,
                                     1.0 - out["pause_total"] / out["run_time"], np.nan)
    out["concurrent_time"] = concurrent_time(ev, keys).reindex(out.index).fillna(0.0)
    full = gcs[gcs["generation"] == "full"]
    out["full_gc_count"] = _distinct_gcs(full, keys).reindex(out.index).fillna(0).astype(
        np.int64)
    heap = gc_heap_rows(ev)
    g_h = heap.groupby(keys, observed=True)
    out["allocated"] = g_h["allocated"].sum().reindex(out.index) if len(heap) else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        out["allocation_rate"] = out["allocated"] / out["run_time"].where(out["run_time"] > 0)
    out["reclaimed"] = g_h["reclaimed"].sum().reindex(out.index) if len(heap) else np.nan
    prom = promoted_rows(ev)
    out["promoted"] = prom.groupby(keys, observed=True)["promoted"].sum().reindex(out.index) \
        if len(prom) else np.nan
    sp = ev[ev["event_type"] == "safepoint"]
    g_s = sp.groupby(keys, observed=True)
    out["safepoint_count"] = g_s.size().reindex(out.index).fillna(0).astype(np.int64) \
        if len(sp) else 0
    out["safepoint_total"] = g_s["total"].sum().reindex(out.index).fillna(0.0) if len(sp) \
        else 0.0
    out["time_to_reach_total"] = g_s["time_to_reach"].sum().reindex(out.index).fillna(0.0) \
        if len(sp) else 0.0
    out["time_to_reach_max"] = g_s["time_to_reach"].max().reindex(out.index) if len(sp) \
        else np.nan
    return out


def _distinct_gcs(ev: pd.DataFrame, keys: List[str]) -> pd.Series:
    """Per group, the number of distinct (log, gc_id)."""
    cols = list(dict.fromkeys(keys + ["log", "gc_id"]))
    return ev[cols].drop_duplicates().groupby(keys, observed=True).size()


def concurrent_time(ev: pd.DataFrame, keys: List[str]) -> pd.Series:
    """Concurrent time per group: concurrent events not inside a concurrent event of their GC."""
    conc = ev[ev["event_type"] == "concurrent"]
    if not len(conc):
        return pd.Series(dtype=float)
    parent = conc["parent"].to_numpy()
    ptype = np.where(parent >= 0, ev["event_type"].astype(object).to_numpy()[
        np.maximum(parent, 0)], "")
    top = conc[ptype != "concurrent"]
    return top.groupby(keys, observed=True)["duration"].sum()


def percentiles(ev: pd.DataFrame, q: Sequence[float] = PERCENTILES + (100,), by: By = "log",
                column: str = "duration") -> pd.DataFrame:
    """Percentiles of ``column`` per group: rows = groups, columns = ``p50``, ``p90``..."""
    keys = group_keys(by)
    values = ev.dropna(subset=[column]).groupby(keys, observed=True)[column]
    return _quantile_frame(values, q, "")
