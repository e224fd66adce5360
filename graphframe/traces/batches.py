"""An events table as one EventBatch (to feed any handler from a TraceFrame)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from graphframe_readers.traces import ATTRIBUTES, KIND_NAMES, EventBatch, StringTable


def table_batch(events: pd.DataFrame) -> EventBatch:
    """The rows of an events table as a batch (string columns re-interned).

    Examples
    --------
    >>> ev = pd.DataFrame({"time": [1, 2], "kind": ["enter", "leave"], "name": ["f", "f"],
    ...                    "rank": [0, 0], "thread": [0, 0]})
    >>> b = table_batch(ev); b.kind.tolist(), b.names().tolist()
    ([0, 1], ['f', 'f'])
    """
    strings = StringTable()
    kinds = pd.Categorical(events["kind"].astype(str), categories=list(KIND_NAMES)).codes
    attrs = {}
    for col in ATTRIBUTES:
        if col in events.columns:
            if col == "file":
                attrs[col] = _ids(events[col], strings)
            else:
                attrs[col] = events[col].to_numpy()
    return EventBatch.build(strings, kind=kinds, time=events["time"].to_numpy(np.int64),
                            rank=events["rank"].to_numpy(np.int64),
                            thread=events["thread"].to_numpy(np.int64),
                            name=_ids(events["name"], strings), **attrs)


def _ids(column: pd.Series, strings: StringTable) -> np.ndarray:
    codes, uniq = pd.factorize(column.astype(object), use_na_sentinel=True)
    table = strings.intern_many([str(u) for u in uniq])
    return np.where(codes < 0, -1, np.append(table, -1)[codes]).astype(np.int32)
