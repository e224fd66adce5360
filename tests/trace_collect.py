"""Test helper: decode a trace and keep every event as one pandas table."""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pandas as pd

import graphframe_readers.traces as rt
from graphframe_readers.traces.events import ATTRIBUTES, kind_names


class Collect(rt.EventHandler):
    """Keeps the batches it receives (and checks each stream's time order)."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: List[rt.EventBatch] = []

    def on_batch(self, batch: rt.EventBatch) -> None:
        self.batches.append(batch)

    def frame(self) -> pd.DataFrame:
        """All events: kind (name), time, rank, thread, name, every attribute column."""
        parts = []
        for b in self.batches:
            cols = {"kind": kind_names(b.kind), "time": b.time, "rank": b.rank,
                    "thread": b.thread, "name": b.names()}
            for col in ATTRIBUTES:
                values = b.column(col)
                if col == "file":
                    table = np.array(list(b.strings.strings) + [None], dtype=object)
                    values = table[np.where(values < 0, len(b.strings), values)]
                cols[col] = values
            parts.append(pd.DataFrame(cols))
        if not parts:
            return pd.DataFrame(columns=["kind", "time", "rank", "thread", "name"])
        return pd.concat(parts, ignore_index=True)


def events(path: Any, **options: Any) -> pd.DataFrame:
    """Decode ``path`` and return its events (streams checked to be time-ordered)."""
    df = rt.decode(path, Collect(), **options).frame()
    for _, stream in df.groupby(["rank", "thread"]):
        assert (np.diff(stream["time"].to_numpy()) >= 0).all(), "stream not in time order"
    return df


def calls(df: pd.DataFrame) -> pd.DataFrame:
    """ENTER rows matched with their LEAVE (per stream stack): adds ``end``/``duration``."""
    out = []
    for _, stream in df[df.kind.isin(["enter", "leave"])].groupby(["rank", "thread"]):
        stack, ends = [], {}
        for idx, kind, time in zip(stream.index, stream.kind, stream.time):
            if kind == "enter":
                stack.append(idx)
            else:
                ends[stack.pop()] = time
        rows = stream.loc[sorted(ends)].copy()
        rows["end"] = [ends[i] for i in rows.index]
        rows["duration"] = rows["end"] - rows["time"]
        out.append(rows)
    return pd.concat(out)


def located(err: Any, file: str) -> tuple:
    """A ReadError's (file name, position, expected), after checking all three are given."""
    from pathlib import Path

    value = err.value if hasattr(err, "value") else err
    assert value.position and value.expected, str(value)
    return Path(str(value.source)).name, value.position, value.expected
