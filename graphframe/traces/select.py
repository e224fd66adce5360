"""Selecting events: filters that keep enter/leave pairs together, and time windows."""

from __future__ import annotations

from typing import Any, Iterable, Optional

import numpy as np
import pandas as pd

from graphframe.errors import ArgumentError
from graphframe_readers.traces import KIND_NAMES

from graphframe_readers.traces.table import finish_table

_DERIVED = ("match", "depth", "parent", "duration", "exclusive")


def _rematch(events: pd.DataFrame) -> pd.DataFrame:
    """Recompute the matching columns of a selection (rows stay in stream order)."""
    names = list(events["name"].cat.categories) if hasattr(events["name"], "cat") else None
    base = events.drop(columns=[c for c in _DERIVED if c in events.columns])
    base = base.reset_index(drop=True)
    cols = {c: base[c].to_numpy() for c in ("time", "rank", "thread")}
    cols["kind"] = pd.Categorical(base["kind"].astype(str), categories=list(KIND_NAMES)).codes
    cats = names if names is not None else sorted(set(base["name"].dropna().astype(str)))
    cols["name"] = pd.Categorical(base["name"].astype(object), categories=cats).codes
    attrs = [c for c in base.columns if c not in ("time", "kind", "name", "rank", "thread")]
    for c in attrs:
        if c == "file":
            cols[c] = pd.Categorical(base[c].astype(object), categories=cats).codes
        else:
            cols[c] = base[c].to_numpy()
    return finish_table(cols, cats, attrs, warn=False)


def filter_events(events: pd.DataFrame, mask: Any = None, names: Optional[Iterable[str]] = None,
                  ranks: Optional[Iterable[int]] = None,
                  kinds: Optional[Iterable[str]] = None) -> pd.DataFrame:
    """The rows selected by all given criteria; pairs are kept or dropped together."""
    keep = np.ones(len(events), dtype=bool)
    if mask is not None:
        m = mask(events) if callable(mask) else mask
        m = np.asarray(m, dtype=bool)
        if m.shape != keep.shape:
            raise ArgumentError(f"the mask has {m.size} values for {len(events)} events")
        keep &= m
    if names is not None:
        keep &= events["name"].isin(list(names)).to_numpy()
    if ranks is not None:
        keep &= events["rank"].isin(list(ranks)).to_numpy()
    if kinds is not None:
        keep &= events["kind"].isin(list(kinds)).to_numpy()
    match = events["match"].to_numpy()
    paired = match >= 0
    both = keep.copy()
    both[paired] = keep[paired] & keep[match[paired]]
    return _rematch(events[both])


def window(events: pd.DataFrame, start: Optional[int], end: Optional[int]) -> pd.DataFrame:
    """Events with ``start <= time < end``; calls crossing a bound are clipped to it."""
    t = events["time"].to_numpy(np.int64)
    lo = int(t.min()) if start is None else int(start)
    hi = int(t.max()) + 1 if end is None else int(end)
    if hi < lo:
        raise ArgumentError(f"window end {hi} is before its start {lo}")
    match = events["match"].to_numpy()
    kind = events["kind"].astype(str).to_numpy()
    inside = (t >= lo) & (t < hi)
    enter = (kind == "enter") & (match >= 0)
    span_in = np.zeros(len(t), dtype=bool)
    e_rows = np.flatnonzero(enter)
    overlap = (t[e_rows] < hi) & (t[match[e_rows]] >= lo)
    span_in[e_rows[overlap]] = True
    span_in[match[e_rows[overlap]]] = True
    keep = inside & ~((kind == "enter") | (kind == "leave")) | span_in
    keep |= inside & ((kind == "enter") | (kind == "leave")) & (match < 0)
    out = events[keep].copy()
    out["time"] = np.clip(out["time"].to_numpy(np.int64), lo, hi - 1)
    order = np.lexsort((np.arange(len(out)), out["time"].to_numpy(), out["thread"].to_numpy(),
                        out["rank"].to_numpy()))
    return _rematch(out.iloc[order])
