"""I/O and MPI one-sided analyses, on the generic IO / RMA / RMA_SYNC event columns.

Any decoder that fills ``fd``/``file``/``bytes``/``offset``/``end`` (IO) or
``window``/``peer``/``bytes``/``end`` (RMA) feeds these: Recorder, OTF2 or
DUMPI alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import rma
from .access import check_calls, is_data_operation

_STATS = ["count", "sum", "min", "max", "mean", "median", "std"]


def io_events(events: pd.DataFrame) -> pd.DataFrame:
    """IO rows with ``file`` filled from the fd -> file mapping where missing, plus ``duration`` (ns)."""
    io = events[events["kind"] == "io"].copy()
    if not len(io):
        return io.assign(file=pd.Series(dtype=object), duration=pd.Series(dtype=float))
    mapping = fd_map(events)
    io["file"] = io["file"].astype(object) if "file" in io.columns else None
    if len(mapping) and "fd" in io.columns:
        # the latest open of (rank, fd) at or before each event
        opens = mapping.sort_values("time", kind="stable")
        found = []
        for (rank, fd), grp in io.groupby(["rank", "fd"], sort=False):
            cand = opens[(opens["rank"] == rank) & (opens["fd"] == fd)]
            if not len(cand):
                found.append(pd.Series(None, index=grp.index, dtype=object))
                continue
            k = np.searchsorted(cand["time"].to_numpy(), grp["time"].to_numpy(), side="right") - 1
            names = np.where(k >= 0, cand["file"].to_numpy(dtype=object)[np.maximum(k, 0)], None)
            found.append(pd.Series(names, index=grp.index, dtype=object))
        filled = pd.concat(found).reindex(io.index)
        io["file"] = io["file"].where(io["file"].notna(), filled)
    end = io["end"] if "end" in io.columns else io["time"]
    io["duration"] = np.where(end >= 0, end - io["time"], 0).astype(np.float64)
    return io


def fd_map(events: pd.DataFrame) -> pd.DataFrame:
    """Every ``open`` (an IO event with a file name whose name contains "open"): rank, fd,
    file, time. Later opens of the same (rank, fd) replace earlier ones from their time on."""
    need = {"fd", "file"}
    if not need <= set(events.columns):
        return pd.DataFrame(columns=["rank", "fd", "file", "time"])
    io = events[(events["kind"] == "io") & events["file"].notna() & (events["fd"] >= 0)]
    io = io[io["name"].astype(str).str.contains("open", case=False)]
    return io[["rank", "fd", "file", "time"]].assign(file=io["file"].astype(object)) \
        .reset_index(drop=True)


def io_summary(events: pd.DataFrame, per: str = "rank", calls: str = "data") -> pd.DataFrame:
    """Per ``per`` (``"rank"``, ``"file"`` or ``"both"``) and I/O function: count, time (s),
    bytes, of the data operations (``calls="data"``) or every I/O call (``"all"``)."""
    io = _accesses(io_events(events), calls)
    keys = [per, "name"] if per != "both" else ["rank", "file", "name"]
    nbytes = io["bytes"].clip(lower=0) if "bytes" in io.columns else 0
    io = io.assign(nbytes=nbytes, seconds=io["duration"] / 1e9)
    g = io.groupby(keys, observed=True, sort=True, dropna=False)
    return pd.DataFrame({"count": g.size(), "time": g["seconds"].sum(), "bytes": g["nbytes"].sum()})


def _accesses(io: pd.DataFrame, calls: str) -> pd.DataFrame:
    if check_calls(calls) == "data":
        return io[is_data_operation(io["name"].astype(str))]
    return io


def files_per_rank(events: pd.DataFrame, calls: str = "data") -> pd.Series:
    """Per rank, the sorted list of files it accessed (``calls``: see :func:`io_summary`)."""
    io = _accesses(io_events(events), calls).dropna(subset=["file"])
    return io.groupby("rank")["file"].agg(lambda f: sorted(set(f)))


def shared_files(events: pd.DataFrame, calls: str = "data") -> pd.Series:
    """Files accessed by more than one rank -> the number of ranks."""
    io = _accesses(io_events(events), calls).dropna(subset=["file"])
    n = io.groupby("file")["rank"].nunique()
    return n[n > 1].sort_index()


def rma_epochs(events: pd.DataFrame) -> pd.DataFrame:
    """RMA data operations with their epoch (see :mod:`.rma`) and ``duration`` (ns)."""
    return rma.rma_operations(events)


def rma_summary(events: pd.DataFrame, per=("rank", "window", "epoch")) -> pd.DataFrame:
    """Per rank / window / epoch: counts, bytes, durations and transfer bounds (:mod:`.rma`)."""
    return rma.rma_summary(events, per)
