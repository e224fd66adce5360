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

import pandas as pd

from .rma import rma_operations, rma_rows, rma_summary, rma_syncs


def _counts(names: pd.Series) -> str:
    counts = names.value_counts()  # on category codes when the names are categorical
    return ", ".join(f"{k} {int(v)}" for k, v in sorted((str(k), v) for k, v in counts.items())
                     if v)


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
    ops = rma_operations(table)
    syncs = rma_syncs(table)
    opened = ops[ops["epoch"] >= 0][["rank", "window", "epoch"]].drop_duplicates()
    lines = [f"foRMA report: {source}",
             f"{ops['rank'].nunique()} rank(s), {ops['window'].nunique()} window(s), "
             f"{len(opened)} epoch(s)",
             f"{len(ops)} one-sided operations ({_counts(ops['op'])}), {len(syncs)} "
             f"synchronisation calls ({_counts(syncs['op'])})",
             f"{int(ops['bytes'].clip(lower=0).sum())} bytes moved; "
             f"{ops['duration'].sum() / 1e9:.9f} s in operations, "
             f"{syncs['duration'].sum() / 1e9:.9f} s in synchronisation",
             "", "Totals"]
    lines += _table(rma_summary(table, per=()))
    for title, per in (("Statistics per rank", ("rank",)),
                       ("Statistics per window", ("window",)),
                       ("Statistics per rank and window", ("rank", "window")),
                       ("Statistics per epoch (rank, window, epoch)", ("rank", "window", "epoch"))):
        lines += ["", title]
        stats = rma_summary(table, per=per)
        if "epoch" in per and epochs and len(stats) > epochs:
            lines += _table(stats.iloc[:epochs])
            lines.append(f"  ... {len(stats) - epochs} more epochs (graphframe rma --epochs 0 "
                         "shows every one)")
        else:
            lines += _table(stats)
    return lines
