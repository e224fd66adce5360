"""One-sided MPI (RMA) analyses in foRMA's terms: operations by rank, window and epoch,
with durations, volumes and data-transfer bounds.

Input: the RMA (``MPI_Put``/``Get``/``Accumulate``...) and RMA_SYNC
(``MPI_Win_fence``/``lock``/``unlock``/``post``/``start``/``complete``/``wait``...)
rows of an events table or a call table, with ``rank``, ``window``,
``name``, start (``time`` or ``start``), ``end``, ``bytes``, ``peer``.

Epochs, per (rank, window), in time order: an epoch is opened by
``MPI_Win_fence``, ``MPI_Win_start`` or ``MPI_Win_lock[_all]``; epochs are
numbered 0, 1... and an operation belongs to the latest one opened before
it (-1: none, e.g. before the first fence). A fence both closes and opens:
it carries the number of the epoch it closes (the first fence of a window:
-1), as the golden tables of foRMA's data do; ``MPI_Win_complete`` and
``MPI_Win_unlock`` carry the epoch they close.

Transfer bound of an operation: from its start to the end of the next call
on its rank and window that completes it (``MPI_Win_fence``, and where
epochs are not fences ``MPI_Win_complete``/``MPI_Win_unlock[_all]``): the
longest the data transfer can have taken. NaN when none follows.

Examples
--------
>>> import pandas as pd
>>> rows = pd.DataFrame({"rank": 0, "window": 1, "kind": ["rma_sync", "rma", "rma_sync"],
...     "name": ["MPI_Win_fence", "MPI_Put", "MPI_Win_fence"], "time": [0, 10, 30],
...     "end": [2, 14, 35], "bytes": [-1, 64, -1], "peer": [-1, 1, -1]})
>>> rma_operations(rows)[["epoch", "op", "start", "duration", "bytes", "bound"]].values.tolist()
[[0, 'MPI_Put', 10, 4, 64, 25.0]]
"""

from __future__ import annotations

from typing import Iterable, List, Sequence

import numpy as np
import pandas as pd

#: calls that open an access epoch on their window
OPENERS = ("MPI_Win_fence", "MPI_Win_start", "MPI_Win_lock", "MPI_Win_lock_all")
#: calls that complete the operations issued before them on their window
CLOSERS = ("MPI_Win_fence", "MPI_Win_complete", "MPI_Win_unlock", "MPI_Win_unlock_all")
#: levels of :func:`rma_summary`
LEVELS = ("rank", "window", "epoch")
_STATS = ["min", "max", "mean"]


def rma_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The RMA and RMA_SYNC rows in order (rank, window, start), with ``start``, ``epoch``
    and ``bound`` (ns; NaN for syncs and unbounded operations)."""
    kind = table["kind"].astype(str)
    rows = table[kind.isin(["rma", "rma_sync"]).to_numpy()]
    start = rows["start"] if "start" in rows.columns else rows["time"]
    cols = {"rank": rows["rank"].to_numpy(np.int64), "window": rows["window"].to_numpy(np.int64),
            "kind": rows["kind"].astype(str).to_numpy(), "op": rows["name"].astype(str).to_numpy(),
            "start": start.to_numpy(np.int64), "end": rows["end"].to_numpy(np.int64)}
    for col in ("bytes", "peer", "assertion"):
        cols[col] = rows[col].to_numpy(np.int64) if col in rows.columns else \
            np.full(len(rows), -1, dtype=np.int64)
    out = pd.DataFrame(cols)
    order = np.lexsort((np.arange(len(out)), out["start"].to_numpy(), out["window"].to_numpy(),
                        out["rank"].to_numpy()))
    out = out.iloc[order].reset_index(drop=True)
    group = np.zeros(len(out), dtype=np.int64)
    if len(out) > 1:
        r, w = out["rank"].to_numpy(), out["window"].to_numpy()
        group[1:] = np.cumsum((r[1:] != r[:-1]) | (w[1:] != w[:-1]))
    op = out["op"].to_numpy()
    opens = np.isin(op, OPENERS)
    count = _group_cumsum(opens.astype(np.int64), group)      # openers so far, this row included
    epoch = count - 1
    fence = op == "MPI_Win_fence"
    epoch[fence] -= 1                                          # a fence closes the epoch before
    out["epoch"] = epoch
    closes = np.flatnonzero(np.isin(op, CLOSERS))
    idx = np.arange(len(out))
    k = np.searchsorted(closes, idx, side="right")
    has = k < len(closes)
    nxt = closes[np.minimum(k, max(len(closes) - 1, 0))] if len(closes) else idx
    has &= group[nxt] == group
    is_op = out["kind"].to_numpy() == "rma"
    bound = np.where(has & is_op, out["end"].to_numpy()[nxt] - out["start"].to_numpy(), np.nan)
    out["bound"] = bound
    out["duration"] = np.where(out["end"] >= 0, out["end"] - out["start"], 0)
    return out


def _group_cumsum(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    total = np.cumsum(values)
    if not len(values):
        return total
    first = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    before = np.r_[0, total][first]  # running total before each group starts
    return total - np.repeat(before, np.diff(np.r_[first, len(values)]))


def rma_operations(table: pd.DataFrame) -> pd.DataFrame:
    """One row per one-sided operation, in foRMA's shape: ``rank``, ``window``, ``epoch``,
    ``op``, ``start`` (ns), ``duration`` (ns), ``bytes``, ``bound`` (ns), ``target``."""
    rows = rma_rows(table)
    ops = rows[rows["kind"] == "rma"]
    return ops[["rank", "window", "epoch", "op", "start", "duration", "bytes", "bound",
                "peer"]].rename(columns={"peer": "target"}).reset_index(drop=True)


def rma_syncs(table: pd.DataFrame) -> pd.DataFrame:
    """One row per synchronisation call: ``rank``, ``window``, ``epoch``, ``op``, ``start``,
    ``duration`` (ns), ``assertion``, ``target`` (lock/unlock: the locked rank)."""
    rows = rma_rows(table)
    syncs = rows[rows["kind"] == "rma_sync"]
    return syncs[["rank", "window", "epoch", "op", "start", "duration", "assertion",
                  "peer"]].rename(columns={"peer": "target"}).reset_index(drop=True)


def rma_summary(table: pd.DataFrame, per: Sequence[str] = LEVELS) -> pd.DataFrame:
    """Per rank / window / epoch (any of them, in that order): the operation count, bytes
    (sum, min, max, mean), durations and transfer bounds (min, max, mean; s)."""
    per = _levels(per)
    ops = rma_operations(table)
    ops = ops.assign(seconds=ops["duration"] / 1e9, bound_s=ops["bound"] / 1e9)
    if per:
        g = ops.groupby(per, sort=True)
        out = pd.DataFrame({"count": g.size()})
        agg = lambda col, stats: g[col].agg(stats)  # noqa: E731
    else:
        out = pd.DataFrame({"count": [len(ops)]}, index=pd.Index(["all"], name="scope"))
        agg = lambda col, stats: pd.DataFrame([ops[col].agg(stats)], index=out.index)  # noqa: E731
    for col, label, stats in (("bytes", "bytes", ["sum"] + _STATS),
                              ("seconds", "duration", ["sum"] + _STATS),
                              ("bound_s", "bound", _STATS)):
        part = agg(col, stats)
        part.columns = [f"{label} {s}" for s in stats]
        out = out.join(part)
    out["bytes sum"] = out["bytes sum"].fillna(0).astype(np.int64)
    return out


def _levels(per: Iterable[str]) -> List[str]:
    per = [per] if isinstance(per, str) else list(per)
    bad = [p for p in per if p not in LEVELS]
    if bad:
        raise ValueError(f"per={bad[0]!r}: use any of " + ", ".join(LEVELS))
    return [p for p in LEVELS if p in per]
