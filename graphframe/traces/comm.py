"""Communication analyses over SEND (and RECV) events of an events table."""

from __future__ import annotations

from typing import Iterable, Optional, Tuple, Union

import numpy as np
import pandas as pd

from graphframe.errors import ArgumentError

from .bins import time_bins


def _messages(events: pd.DataFrame) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(sender, receiver, bytes, time) of every message: SEND events, or RECV events when
    the trace has no SEND events."""
    if "peer" not in events.columns:
        return (np.zeros(0, np.int64),) * 3 + (np.zeros(0, np.int64),)
    cols = [c for c in ("rank", "peer", "bytes", "time") if c in events.columns]
    kind = events["kind"]
    sends = events.loc[(kind == "send").to_numpy(), cols]
    if len(sends):
        sender, receiver = sends["rank"].to_numpy(), sends["peer"].to_numpy()
        rows = sends
    else:
        rows = events.loc[(kind == "recv").to_numpy(), cols]
        sender, receiver = rows["peer"].to_numpy(), rows["rank"].to_numpy()
    nbytes = rows["bytes"].to_numpy() if "bytes" in rows.columns else np.full(len(rows), -1)
    ok = (sender >= 0) & (receiver >= 0)
    return sender[ok], receiver[ok], np.maximum(nbytes[ok], 0), rows["time"].to_numpy()[ok]


def comm_matrix(events: pd.DataFrame, kind: str = "bytes",
                ranks: Optional[Iterable[int]] = None) -> pd.DataFrame:
    """Sender x receiver matrix of bytes (``kind="bytes"``) or message counts (``"count"``).

    Rows and columns are every rank of the trace, in order: ``ranks`` (the
    ranks the trace defines) and every rank a message names; without
    ``ranks``, the ranks of the events.

    Examples
    --------
    >>> ev = pd.DataFrame({"time": [1], "kind": ["send"], "rank": [0], "peer": [1],
    ...                    "bytes": [8]})
    >>> comm_matrix(ev, ranks=[0, 1, 2]).to_numpy().tolist()
    [[0, 8, 0], [0, 0, 0], [0, 0, 0]]
    """
    if kind not in ("bytes", "count"):
        raise ArgumentError(f"kind={kind!r}: use 'bytes' or 'count'")
    sender, receiver, nbytes, _ = _messages(events)
    known = np.fromiter(ranks, dtype=np.int64) if ranks is not None else np.zeros(0, np.int64)
    if not len(known):  # no definitions: the ranks of the events (hash-based, no sort)
        known = pd.unique(events["rank"].to_numpy())
    ranks = np.unique(np.concatenate([known.astype(np.int64), sender, receiver]))
    si, ri = np.searchsorted(ranks, sender), np.searchsorted(ranks, receiver)
    mat = np.zeros((len(ranks), len(ranks)), dtype=np.int64)
    np.add.at(mat, (si, ri), nbytes if kind == "bytes" else 1)
    return pd.DataFrame(mat, index=pd.Index(ranks, name="sender"),
                        columns=pd.Index(ranks, name="receiver"))


def message_histogram(events: pd.DataFrame, bins: Union[int, np.ndarray] = 20
                      ) -> Tuple[np.ndarray, np.ndarray]:
    """``numpy.histogram`` of message sizes (bytes): (counts, bin edges)."""
    _, _, nbytes, _ = _messages(events)
    return np.histogram(nbytes, bins=bins)


def comm_over_time(events: pd.DataFrame, bins: int = 50, kind: str = "bytes") -> pd.DataFrame:
    """Bytes (or message count) sent per time bin: index = bin start (ns)."""
    if kind not in ("bytes", "count"):
        raise ArgumentError(f"kind={kind!r}: use 'bytes' or 'count'")
    _, _, nbytes, time = _messages(events)
    found = time_bins(events["time"], bins)
    if found is None:  # no events: no bins
        return pd.DataFrame({kind: np.zeros(0, np.int64)},
                            index=pd.Index([], dtype=np.int64, name="time"))
    t0, edges, bin_start = found
    rel = (np.asarray(time, dtype=np.int64) - t0).astype(np.float64)  # int64 first (epoch ns)
    values, _ = np.histogram(rel, bins=edges, weights=nbytes if kind == "bytes" else None)
    return pd.DataFrame({kind: values.astype(np.int64)}, index=pd.Index(bin_start, name="time"))
