"""foRMA's report as text: totals, then statistics per rank, per window and per epoch.

:func:`rma_report` is pure (tables in, lines out); ``graphframe rma TRACE`` prints it.

Examples
--------
>>> import pandas as pd
>>> rows = pd.DataFrame({"rank": 0, "window": 1, "kind": ["rma_sync", "rma", "rma_sync"],
...     "name": ["MPI_Win_fence", "MPI_Put", "MPI_Win_fence"], "start": [0, 10, 30],
...     "end": [2, 14, 35], "bytes": [-1, 64, -1], "peer": [-1, 1, -1]})
>>> print("\\n".join(rma_report(rows, "t")[:3]))
foRMA report: t
1 rank(s), 1 window(s), 1 epoch(s)
1 one-sided operations (MPI_Put 1), 2 synchronisation calls (MPI_Win_fence 2)
"""

from __future__ import annotations

from typing import List

import numpy as np
import pandas as pd

from .rma import operation_arrays, rma_rows, summarise


def _counts(op: pd.Categorical, sel: np.ndarray) -> str:
    """``name count, ...`` of the rows ``sel`` (names sorted, zero counts left out)."""
    codes = op.codes[sel]
    counts = np.bincount(codes[codes >= 0], minlength=len(op.categories))
    return ", ".join(f"{k} {int(v)}" for k, v in sorted(
        (str(k), v) for k, v in zip(op.categories, counts.tolist())) if v)


def _distinct(values: np.ndarray) -> int:
    """The number of distinct values (a count of changes when they are sorted)."""
    if len(values) < 2:
        return len(values)
    if (values[1:] >= values[:-1]).all():
        return int(np.count_nonzero(values[1:] != values[:-1])) + 1
    return len(np.unique(values))


def _epochs(ops: dict) -> int:
    """The number of distinct (rank, window, epoch) of the operations in an opened epoch."""
    opened = ops["epoch"] >= 0
    rank, window, epoch = ops["rank"][opened], ops["window"][opened], ops["epoch"][opened]
    if len(rank) < 2:
        return len(rank)
    same = (rank[1:] == rank[:-1]) & (window[1:] == window[:-1])
    if ((rank[1:] > rank[:-1]) | (same & (window[1:] > window[:-1]))
            | (same & (window[1:] == window[:-1]) & (epoch[1:] >= epoch[:-1]))).all():
        return int(np.count_nonzero(~same | (epoch[1:] != epoch[:-1]))) + 1
    return len(np.unique(np.stack([rank, window, epoch], axis=1), axis=0))


def _table(frame: pd.DataFrame) -> List[str]:
    shown = frame.copy()
    for col in shown.columns:
        if col.startswith(("duration", "bound")):
            shown[col] = shown[col].map(lambda x: "" if pd.isna(x) else f"{x:.9f}")
        elif col.startswith("bytes") and col != "bytes sum":
            shown[col] = shown[col].map(lambda x: "" if pd.isna(x) else f"{x:.1f}")
    return ["  " + line for line in shown.to_string().splitlines()]


def rma_report(table: pd.DataFrame, source: str, epochs: int = 50) -> List[str]:
    """The report's lines for the RMA/RMA_SYNC rows of an events or call table (durations
    and bounds in seconds); the per-epoch table shows its first ``epochs`` rows (0: all)."""
    table = rma_rows(table)  # once for every table below
    ops = operation_arrays(table)
    is_op = table["kind"].cat.codes.to_numpy() == 1
    op = table["op"].array
    duration = table["duration"].to_numpy()
    lines = [f"foRMA report: {source}",
             f"{_distinct(ops['rank'])} rank(s), {_distinct(ops['window'])} window(s), "
             f"{_epochs(ops)} epoch(s)",
             f"{len(ops['rank'])} one-sided operations ({_counts(op, is_op)}), "
             f"{int(np.count_nonzero(~is_op))} synchronisation calls ({_counts(op, ~is_op)})",
             f"{int(np.maximum(ops['bytes'], 0).sum())} bytes moved; "
             f"{int(ops['duration'].sum()) / 1e9:.9f} s in operations, "
             f"{int(duration[~is_op].sum()) / 1e9:.9f} s in synchronisation",
             "", "Totals"]
    lines += _table(summarise(ops, per=()))
    for title, per in (("Statistics per rank", ("rank",)),
                       ("Statistics per window", ("window",)),
                       ("Statistics per rank and window", ("rank", "window")),
                       ("Statistics per epoch (rank, window, epoch)", ("rank", "window", "epoch"))):
        lines += ["", title]
        stats = summarise(ops, per=per)
        if "epoch" in per and epochs and len(stats) > epochs:
            lines += _table(stats.iloc[:epochs])
            lines.append(f"  ... {len(stats) - epochs} more epochs (graphframe rma --epochs 0 "
                         "shows every one)")
        else:
            lines += _table(stats)
    return lines
