"""Rows for filter callables: what Hatchet passes, without a pandas Series per row.

Hatchet filters with ``dataframe.reset_index().apply(func, axis=1)``: the
callable gets each row as an object-dtype Series whose entries are the index
levels (``node`` holding a Node, ``rank``...) then the columns, as Python
scalars, and whose ``name`` is the row's position. Building a Series per row
costs tens of microseconds; a :class:`Row` answers the common questions
(``row["time"]``, ``row.get("rank")``, ``"rank" in row``, ``row.time``,
``row.name``) from column arrays converted once, and builds that same Series
only when asked anything else (``row.index``, ``row.sum()``, iteration,
comparison...), so every use behaves as under Hatchet.

Examples
--------
>>> import pandas as pd
>>> table = RowTable(pd.DataFrame({"time": [1.5, 2.0], "name": ["a", "b"]}))
>>> row = table.row(1)
>>> row["time"], row.name, row.get("rank", 0), "name" in row
(2.0, 1, 0, True)
>>> row.index.tolist(), row.tolist()
(['time', 'name'], [2.0, 'b'])
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

import numpy as np
import pandas as pd

_SERIES_ATTRS = frozenset(dir(pd.Series))


class RowTable:
    """Column arrays of a flat table, converted to Python objects on first use.

    ``special`` maps a column to a function returning its object array
    (e.g. ``node`` -> Nodes), built lazily too.
    """

    def __init__(self, flat: pd.DataFrame,
                 special: Optional[Dict[Any, Callable[[], np.ndarray]]] = None) -> None:
        self.flat = flat
        self.columns: List[Any] = list(flat.columns)
        self.position = {c: i for i, c in enumerate(self.columns)}
        self.special = dict(special or {})
        self._arrays: List[Optional[np.ndarray]] = [None] * len(self.columns)

    def __len__(self) -> int:
        return len(self.flat)

    def array(self, pos: int) -> np.ndarray:
        """Column ``pos`` as an object array of Python scalars (as Hatchet's rows hold)."""
        arr = self._arrays[pos]
        if arr is None:
            col = self.columns[pos]
            if col in self.special:
                arr = self.special[col]()
            else:
                arr = self.flat.iloc[:, pos].to_numpy(dtype=object)
            self._arrays[pos] = arr
        return arr

    def row(self, i: int) -> "Row":
        return Row(self, i)

    def series(self, i: int) -> pd.Series:
        """Row ``i`` exactly as ``DataFrame.apply(axis=1)`` would pass it."""
        values = [self.array(p)[i] for p in range(len(self.columns))]
        return pd.Series(values, index=pd.Index(self.columns), name=i, dtype=object)


class Row:
    """One row of a :class:`RowTable`; reads like the pandas Series Hatchet passes."""

    __slots__ = ("_table", "_i", "_series")

    def __init__(self, table: RowTable, i: int) -> None:
        self._table = table
        self._i = i
        self._series: Optional[pd.Series] = None

    def _as_series(self) -> pd.Series:
        if self._series is None:
            self._series = self._table.series(self._i)
        return self._series

    @property
    def name(self) -> int:
        """The row's position (the Series' name under ``apply``)."""
        return self._i

    def __getitem__(self, key: Any) -> Any:
        try:
            pos = self._table.position.get(key)
        except TypeError:  # unhashable: a list of labels, a mask...
            pos = None
        if pos is None:
            return self._as_series()[key]
        return self._table.array(pos)[self._i]

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            pos = self._table.position.get(key)
        except TypeError:
            return self._as_series().get(key, default)
        return default if pos is None else self._table.array(pos)[self._i]

    def __contains__(self, key: Any) -> bool:
        try:
            return key in self._table.position
        except TypeError:
            return key in self._as_series()

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") or attr in _SERIES_ATTRS:
            return getattr(self._as_series(), attr)
        pos = self._table.position.get(attr)
        if pos is not None:
            return self._table.array(pos)[self._i]
        return getattr(self._as_series(), attr)

    def __iter__(self):
        return iter(self._as_series())

    def __len__(self) -> int:
        return len(self._table.columns)

    def __repr__(self) -> str:
        return repr(self._as_series())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._as_series(), dtype=dtype)


def _delegate(op: str):
    def method(self: Row, *args: Any) -> Any:
        return getattr(self._as_series(), op)(*args)
    method.__name__ = op
    return method


for _op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__radd__",
            "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
            "__and__", "__or__", "__invert__", "__neg__", "__abs__", "__bool__"):
    setattr(Row, _op, _delegate(_op))
Row.__hash__ = None  # type: ignore[assignment]  # like a Series
