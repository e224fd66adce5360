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

from typing import Any, Iterable, List, Sequence

import numpy as np
import pandas as pd

from graphframe_readers.traces.call_table import COPY_ON_WRITE

from .counters import enclosing_calls

#: calls that open an access epoch on their window
OPENERS = ("MPI_Win_fence", "MPI_Win_start", "MPI_Win_lock", "MPI_Win_lock_all")
#: calls that complete the operations issued before them on their window
CLOSERS = ("MPI_Win_fence", "MPI_Win_complete", "MPI_Win_unlock", "MPI_Win_unlock_all")
#: levels of :func:`rma_summary`
LEVELS = ("rank", "window", "epoch")
_STATS = ["min", "max", "mean"]


def _codes_in(column: pd.Series, names: Sequence[str]) -> np.ndarray:
    """Boolean mask: the column's value is one of ``names`` (on category codes when it has them)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        hit = np.append(np.isin(np.asarray(column.cat.categories, dtype=object), list(names)),
                        False)
        return hit[column.cat.codes.to_numpy()]
    return np.isin(column.astype(str).to_numpy(), list(names))


def rma_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The RMA and RMA_SYNC rows in order (rank, window, start), with ``start``, ``epoch``
    and ``bound`` (ns; NaN for syncs and unbounded operations)."""
    if "epoch" in table.columns and "bound" in table.columns:
        return table  # already computed
    kind_codes = _codes_in(table["kind"], ["rma", "rma_sync"])
    whole = bool(kind_codes.all())  # every row is kept (a one-sided trace): no gathers
    keep = np.arange(len(table)) if whole else np.flatnonzero(kind_codes)
    start_col = table["start"] if "start" in table.columns else table["time"]
    start = _take(start_col.to_numpy(np.int64), keep, whole)
    rank = _take(table["rank"].to_numpy(np.int64), keep, whole)
    # a trace without one-sided communication has no window column: no rows to keep
    window = _take(table["window"].to_numpy(np.int64), keep, whole) \
        if "window" in table.columns else np.full(len(keep), -1, dtype=np.int64)
    perm = None  # None: the rows' order as they are
    # a stable sort on (rank, window) keeps each rank's time order; sort by start first
    # only where a rank's rows are not in time order already
    if len(start) > 1 and not ((np.diff(rank) > 0) | (np.diff(start) >= 0)).all():
        perm = np.lexsort((start, rank))
    key = rank * (int(window.max()) + 2 if len(window) else 1) + (window + 1)
    sorted_key = key if perm is None else key[perm]
    if len(key) > 1 and not (sorted_key[1:] >= sorted_key[:-1]).all():
        order = np.argsort(sorted_key, kind="stable")
        perm = order if perm is None else perm[order]
    if perm is not None and (len(perm) < 2 or bool((np.diff(perm) == 1).all())):
        perm = None  # sorted back into the same order
    same = whole and perm is None  # the rows are the table's rows, in order
    if same:
        rows = keep
    else:
        perm = np.arange(len(keep)) if perm is None else perm
        rows = keep[perm]
    name = table["name"]
    op = (name if isinstance(name.dtype, pd.CategoricalDtype) else
          name.astype("category")).array
    op = op if same else op[rows]
    kind_rma = _take(_codes_in(table["kind"], ["rma"]), rows, same)
    end = _take(table["end"].to_numpy(np.int64), rows, same) if "end" in table.columns else \
        np.full(len(rows), -1, dtype=np.int64)
    # columns that are still the table's own (the rows are the whole table, in order)
    from_table = {c: s for c, s in (("rank", "rank"), ("window", "window"),
                                    ("start", start_col.name), ("end", "end"))
                  if same and s in table.columns}
    if not same:
        rank, window, start = rank[perm], window[perm], start[perm]
    if (end < 0).any() and {"match", "duration"} <= set(table.columns):
        # point events (OTF2's RmaPut... inside MPI_Put): the operation is its call
        call = enclosing_calls(table, rows)
        at = np.maximum(call, 0)
        dur = table["duration"].to_numpy()[at]
        ok = (end < 0) & (call >= 0) & ~np.isnan(dur)
        call_start = table["time"].to_numpy(np.int64)[at]
        end = np.where(ok, call_start + np.nan_to_num(dur).astype(np.int64), end)
        start = np.where(ok, call_start, start)
        from_table.pop("start", None)
        from_table.pop("end", None)
    cols = {"rank": rank, "window": window,
            "kind": pd.Categorical.from_codes(kind_rma.astype(np.int8), ["rma_sync", "rma"]),
            "op": op, "start": start,
            "end": end}
    for col in ("bytes", "peer", "assertion"):
        cols[col] = _take(table[col].to_numpy(np.int64), rows, same) \
            if col in table.columns else np.full(len(rows), -1, dtype=np.int64)
        if same and col in table.columns:
            from_table[col] = col
    if same and "name" in table.columns and isinstance(table["name"].dtype, pd.CategoricalDtype):
        from_table["op"] = "name"
    for col, source in from_table.items():  # the table's data: shared, or copied
        cols[col] = _shared(table, source, cols[col])
    key = key if same else key[perm]
    out = pd.DataFrame(cols, copy=False)
    group = np.zeros(len(out), dtype=np.int64)
    if len(out) > 1:
        group[1:] = np.cumsum(key[1:] != key[:-1])
    op = out["op"]
    opens = _codes_in(op, OPENERS)
    epoch = _group_cumsum(opens.astype(np.int64), group) - 1
    epoch[_codes_in(op, ["MPI_Win_fence"])] -= 1              # a fence closes the epoch before
    out["epoch"] = epoch
    n = len(out)
    has = np.zeros(n, dtype=bool)
    nxt = np.zeros(n, dtype=np.int64)
    if n:
        # the first closing call after each row: a running minimum from the end
        closer_at = np.where(_codes_in(op, CLOSERS), np.arange(n), n)
        after = np.minimum.accumulate(closer_at[::-1])[::-1]
        nxt[:-1] = after[1:]
        nxt[-1] = n
        has = nxt < n
        nxt = np.minimum(nxt, n - 1)
        has &= group[nxt] == group
    is_op = kind_rma
    out["bound"] = np.where(has & is_op, end[nxt] - start, np.nan)
    out["duration"] = np.where(end >= 0, end - start, 0)
    return out


def _take(values: np.ndarray, rows: np.ndarray, whole: bool) -> np.ndarray:
    """``values[rows]``, or ``values`` itself when ``rows`` is every row in order (then
    :func:`_shared` decides how the result holds it)."""
    return values if whole else values[rows]


def _shared(table: pd.DataFrame, column: str, values: Any) -> Any:
    """Column ``column`` of ``table`` for a frame of the same rows: the table's Series
    where pandas copies on write (no copy now, none shared later), else a copy."""
    series = table[column]
    if COPY_ON_WRITE and isinstance(table.index, pd.RangeIndex) and table.index.start == 0 \
            and table.index.step == 1 and (series.dtype == np.int64 or
                                            isinstance(series.dtype, pd.CategoricalDtype)):
        return series
    return values.copy()


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
    ops = rows[rows["kind"].cat.codes.to_numpy() == 1]
    return ops[["rank", "window", "epoch", "op", "start", "duration", "bytes", "bound",
                "peer"]].rename(columns={"peer": "target"}).reset_index(drop=True)


def rma_syncs(table: pd.DataFrame) -> pd.DataFrame:
    """One row per synchronisation call: ``rank``, ``window``, ``epoch``, ``op``, ``start``,
    ``duration`` (ns), ``assertion``, ``target`` (lock/unlock: the locked rank)."""
    rows = rma_rows(table)
    syncs = rows[rows["kind"].cat.codes.to_numpy() == 0]
    return syncs[["rank", "window", "epoch", "op", "start", "duration", "assertion",
                  "peer"]].rename(columns={"peer": "target"}).reset_index(drop=True)


def rma_summary(table: pd.DataFrame, per: Sequence[str] = LEVELS) -> pd.DataFrame:
    """Per rank / window / epoch (any of them, in that order): the operation count, bytes
    (sum, min, max, mean), durations and transfer bounds (min, max, mean; s). ``table`` may
    be the result of :func:`rma_rows` (computed once for several summaries).

    Groups are contiguous runs after one stable sort by the ``per`` columns, so every
    statistic is one ``reduceat`` over the operations (NaN bounds left out)."""
    return summarise(operation_arrays(rma_rows(table)), per)


def operation_arrays(rows: pd.DataFrame) -> dict:
    """The operations' ``rank``, ``window``, ``epoch``, ``bytes``, ``duration``, ``bound``
    as numpy arrays, from :func:`rma_rows` (once for several :func:`summarise` calls)."""
    sel = rows["kind"].cat.codes.to_numpy() == 1
    every = bool(sel.all())
    ops = {c: rows[c].to_numpy() if every else rows[c].to_numpy()[sel]
           for c in ("rank", "window", "epoch", "bytes", "duration", "bound")}
    # the statistics' values (bytes; seconds), converted once for every summary
    ops["values"] = {"bytes": np.maximum(ops["bytes"].astype(np.int64, copy=False), 0)
                     .astype(np.float64),
                     "duration": ops["duration"].astype(np.float64) / 1e9,
                     "bound": ops["bound"].astype(np.float64) / 1e9}
    ops["nan_free"] = {k: not np.isnan(v).any() for k, v in ops["values"].items()}
    return ops


def summarise(ops: dict, per: Sequence[str] = LEVELS) -> pd.DataFrame:
    """:func:`rma_summary` of :func:`operation_arrays`."""
    per = _levels(per)
    n = len(ops["rank"])
    if per:
        keys = [ops[c].astype(np.int64, copy=False) for c in per]
        # rows are in (rank, window, epoch) order already: a prefix of it needs no sort
        order = np.lexsort(keys[::-1]) if per != list(LEVELS[:len(per)]) else None
        keys = keys if order is None else [k[order] for k in keys]
        change = np.zeros(n, dtype=bool)
        if n:
            change[0] = True
            for k in keys:
                change[1:] |= k[1:] != k[:-1]
        starts = np.flatnonzero(change)
        index = pd.MultiIndex.from_arrays([k[starts] for k in keys], names=per) \
            if len(per) > 1 else pd.Index(keys[0][starts], name=per[0])
    else:
        order = None
        starts = np.zeros(1 if n else 0, dtype=np.int64)
        index = pd.Index(["all"], name="scope")
    if not n:  # no one-sided operation: no group, or totals of zero
        columns = ["count", "bytes sum", "bytes min", "bytes max", "bytes mean",
                   "duration sum", "duration min", "duration max", "duration mean",
                   "bound min", "bound max", "bound mean"]
        empty = pd.DataFrame(np.nan, index=index[:0] if per else index, columns=columns)
        empty[["count", "bytes sum"]] = 0
        return empty.astype({"count": np.int64, "bytes sum": np.int64})
    count = np.diff(np.r_[starts, n])
    out = {"count": count}

    def ordered(values: np.ndarray) -> np.ndarray:
        return values if order is None else values[order]

    for label in ("bytes", "duration", "bound"):
        out.update(_segment_stats(ordered(ops["values"][label]), starts, count, label,
                                  with_sum=label != "bound", nan_free=ops["nan_free"][label]))
    frame = pd.DataFrame(out, index=index)
    frame["bytes sum"] = frame["bytes sum"].fillna(0).astype(np.int64)
    return frame


def _segment_stats(values: np.ndarray, starts: np.ndarray, count: np.ndarray, label: str,
                   with_sum: bool, nan_free: bool = False) -> dict:
    """sum, min, max, mean of each run ``values[starts[i]:starts[i+1]]`` (NaN ignored)."""
    if not len(starts):
        empty = np.zeros(0)
        return {f"{label} {s}": empty for s in (["sum"] if with_sum else []) + _STATS}
    valid = None if nan_free else ~np.isnan(values)
    if valid is None or valid.all():
        total = np.add.reduceat(values, starts)
        present = count
    else:
        total = np.add.reduceat(np.where(valid, values, 0.0), starts)
        present = np.add.reduceat(valid.astype(np.int64), starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(present > 0, total / np.maximum(present, 1), np.nan)
    out = {}
    if with_sum:
        out[f"{label} sum"] = total
    out[f"{label} min"] = np.fmin.reduceat(values, starts)
    out[f"{label} max"] = np.fmax.reduceat(values, starts)
    out[f"{label} mean"] = mean
    return out


def _levels(per: Iterable[str]) -> List[str]:
    per = [per] if isinstance(per, str) else list(per)
    bad = [p for p in per if p not in LEVELS]
    if bad:
        raise ValueError(f"per={bad[0]!r}: use any of " + ", ".join(LEVELS))
    return [p for p in LEVELS if p in per]
