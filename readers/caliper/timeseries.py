"""Caliper timeseries: one ``.cali`` file split into one profile per iteration block.

Caliper's timeseries service writes a snapshot of every region each few
iterations; each snapshot's records carry the loop's first iteration
(``loop.start_iteration`` by default). Hatchet's ``from_timeseries`` splits the
record stream where that value changes: a new profile starts at each record
whose value differs from the current one (the current value starts at 0);
records without the attribute stay in the current profile. Each profile holds
every node of the file's hierarchy (so all share one graph) and merges its
records like :func:`~graphframe_readers.caliper.read_caliper` does (metrics by their
operator, attributes first value; nodes without a record get zeros).

Differences from Hatchet (``docs/readers/caliper.md``): Hatchet keeps only the
*first* record of each node per block (records that differ by another
attribute, e.g. LULESH's ``lulesh.region``, are dropped) and carries the
first snapshot's rows into every block; here a block's records all count.
An attribute that no record has is an :class:`~graphframe_readers.errors.ArgumentError`
(Hatchet silently returns one profile).
"""

from __future__ import annotations

from typing import Any, List, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError
from ..profile import RawProfile
from ..progress import ProgressArg
from .names import UNATTRIBUTED, UNATTRIBUTED_SHARE
from .reader import record_table
from .records import RecordTable, to_raw_profile

LEVEL = "loop.start_iteration"


def read_caliper_timeseries(path: Any, level: str = LEVEL, *, native: bool = False,
                            string_attributes: Sequence[str] = (), node_ordering: bool = True,
                            no_path: str = "drop",
                            progress: ProgressArg = None) -> List[RawProfile]:
    """One RawProfile per block of a Caliper timeseries (see the module docs).

    Parameters
    ----------
    path : path-like, file-like or ``caliperreader.CaliperReader``
        What :func:`~graphframe_readers.caliper.read_caliper` reads.
    level : str
        The record attribute whose changes start a new block (its alias or
        its Caliper name).
    native, string_attributes, node_ordering, no_path, progress
        As for :func:`~graphframe_readers.caliper.read_caliper`.

    Returns
    -------
    list of RawProfile
        In file order; every profile has the same nodes.

    Raises
    ------
    ArgumentError
        No record has ``level``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "ts.cali")
    >>> with open(p, "w") as f:
    ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
    ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
    ...                 "__rec=node,id=14,attr=10,data=2113,parent=5\\n"
    ...                 "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
    ...                 "__rec=node,id=18,attr=8,data=loop.start_iteration,parent=14\\n"
    ...                 "__rec=node,id=16,attr=13,data=main\\n"
    ...                 "__rec=ctx,ref=16,attr=15=18,data=1.5=0\\n"
    ...                 "__rec=ctx,ref=16,attr=15=18,data=2.5=0\\n"
    ...                 "__rec=ctx,ref=16,attr=15=18,data=4.0=2\\n")
    >>> [raw.metrics["time"].tolist() for raw in read_caliper_timeseries(p)]
    [[4.0], [4.0]]
    """
    table = record_table(path, native=native, string_attributes=string_attributes,
                         no_path=no_path, progress=progress)
    values = np.asarray(_level_values(table, level), dtype=object)
    # each record's block value: its own, else the last one before it (0 before any)
    last = np.maximum.accumulate(np.where(pd.isna(values), -1, np.arange(len(values))))
    filled = np.where(last >= 0, values[np.maximum(last, 0)], 0)
    starts = np.r_[True, filled[1:] != filled[:-1]]
    starts[0] = not _same(filled[0], 0)
    block = np.cumsum(starts)  # an empty block (the file starts elsewhere than 0) is skipped
    out = []
    for b in np.unique(block):
        rows = np.flatnonzero(block == b)
        out.append(to_raw_profile(_subset(table, rows), node_ordering=node_ordering))
    return out


def _level_values(table: RecordTable, level: str) -> np.ndarray:
    for spec, values in table.columns:
        if level in (spec.name, spec.native):
            return np.asarray(values)
    names = sorted(str(spec.name) for spec, _ in table.columns)
    raise ArgumentError(f"{table.source}: no record has the attribute {level!r}, so the "
                        f"timeseries cannot be split by it; the records' attributes are "
                        f"{', '.join(names)}")


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _subset(table: RecordTable, rows: np.ndarray) -> RecordTable:
    """The records ``rows`` of ``table``, on the same hierarchy (arrays copied)."""
    def take(values: Any) -> Any:
        return None if values is None else np.asarray(values)[rows]

    return RecordTable(source=table.source, hierarchy=table.hierarchy, node=take(table.node),
                       columns=[(spec, take(values)) for spec, values in table.columns],
                       rank=take(table.rank), order=take(table.order),
                       sourceloc=take(table.sourceloc),
                       # the file's totals without a call path are not one block's
                       metadata={k: v for k, v in table.metadata.items()
                                 if k not in (UNATTRIBUTED, UNATTRIBUTED_SHARE)},
                       layout=table.layout, units=dict(table.units))
