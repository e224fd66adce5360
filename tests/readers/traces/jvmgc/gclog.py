"""Reading hand-made GC log text in tests."""

from __future__ import annotations

import warnings
from typing import List, Tuple

import pandas as pd

from graphframe_readers.traces import MemorySource, decode
from graphframe_readers.traces.jvmgc.table import GcTableBuilder


def read(text: str, name: str = "gc.log", block_size: int = 1 << 20,
         **kwargs) -> Tuple[pd.DataFrame, dict]:
    """(events table, metadata) of log text, the format forced, warnings kept away."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    b = GcTableBuilder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = decode(MemorySource(data, name=name, block_size=block_size), b, format="jvm-gc")
    return ev, b.definitions.metadata


def rows(ev: pd.DataFrame, *cols: str) -> List[list]:
    """The columns as plain lists per row (NaN kept; a missing category is None)."""
    out = ev[list(cols)].astype(object)
    for c in cols:
        if isinstance(ev[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].where(ev[c].notna(), None)
    return out.values.tolist()


def lines(*body: str, prefix: str = "[{t:.3f}s][info][gc] ") -> str:
    """Log text: each body line behind the default decorators at 1 ms steps."""
    return "".join(prefix.format(t=1.0 + i / 1000) + b + "\n" for i, b in enumerate(body))
