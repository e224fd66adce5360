"""A table of a RawProfile held as columns until a DataFrame is asked for.

A reader that decodes a small file spends much of its time building pandas
objects: a DataFrame of a few dozen rows costs ~0.2 ms to construct and as
much again to take apart. :class:`~graphframe_readers.profile.RawProfile` therefore
accepts its ``nodes``, ``metrics`` and ``node_columns`` tables either as
DataFrames or as :class:`Columns` (name -> numpy array or pandas extension
array, all of one length). The DataFrame is built on first access of the
attribute (:class:`TableField`) and then replaces the columns, so a table is
never held twice; consumers that only need arrays (validation, the
``graphframe.Ensemble`` reduction) read them with :func:`arrays` without
building one.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Optional

import numpy as np
import pandas as pd


class Columns(Mapping):
    """Named columns of one table (read-only mapping name -> array).

    Examples
    --------
    >>> c = Columns({"node": np.array([0, 1]), "name": np.array(["a", "b"], dtype=object)})
    >>> list(c), c.num_rows
    (['node', 'name'], 2)
    >>> c.frame()["name"].tolist()
    ['a', 'b']
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data: Dict[str, Any] = dict(data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    @property
    def num_rows(self) -> int:
        """Length of the first column (0 for a table without columns)."""
        for values in self._data.values():
            return len(values)
        return 0

    def frame(self) -> pd.DataFrame:
        """The DataFrame of these columns (as ``pd.DataFrame(dict)`` builds it)."""
        return pd.DataFrame(self._data)

    @staticmethod
    def accepts(data: Mapping[str, Any]) -> bool:
        """True when every value is a one-dimensional numpy or pandas extension array
        (anything else, e.g. a Series with its own index, is built into a DataFrame
        at once so that pandas' alignment rules apply as before)."""
        return all((isinstance(v, np.ndarray) and v.ndim == 1)
                   or isinstance(v, pd.api.extensions.ExtensionArray) for v in data.values())


class TableField:
    """Data descriptor for a RawProfile table: stores a DataFrame, :class:`Columns` or
    None; returns a DataFrame, built from the columns on first access.

    ``optional=True`` gives the field the default None (dataclasses ask the
    descriptor for its class-level value); otherwise the field is required.
    """

    def __init__(self, optional: bool = False) -> None:
        self.optional = optional
        self.name = ""
        self.slot = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.slot = "_table_" + name

    def __get__(self, obj: Any, objtype: Optional[type] = None) -> Any:
        if obj is None:
            if self.optional:
                return None
            raise AttributeError(self.name)  # no default: the field is required
        value = obj.__dict__[self.slot]
        if isinstance(value, Columns):
            value = value.frame()
            obj.__dict__[self.slot] = value  # built once; the columns are released
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        if isinstance(value, Mapping) and not isinstance(value, Columns):
            value = Columns(value) if Columns.accepts(value) else pd.DataFrame(dict(value))
        obj.__dict__[self.slot] = value


def stored(obj: Any, name: str) -> Any:
    """What ``obj`` holds for table ``name``: a DataFrame, :class:`Columns` or None."""
    return obj.__dict__["_table_" + name]


def arrays(obj: Any, name: str) -> Optional[Mapping[str, Any]]:
    """Table ``name`` of ``obj`` as a mapping column -> array, without building a
    DataFrame (None when the table is absent).

    Columns of a DataFrame come as numpy arrays, or pandas extension arrays
    for extension dtypes (``str``, ``category``, nullable integers...).
    """
    value = stored(obj, name)
    if value is None or isinstance(value, Columns):
        return value
    return Columns({c: column_values(s) for c, s in value.items()})


def column_values(series: pd.Series) -> Any:
    """A Series' values: numpy for numpy dtypes, the extension array otherwise."""
    return series.to_numpy() if isinstance(series.dtype, np.dtype) else series.array


def num_rows(obj: Any, name: str) -> int:
    """Number of rows of table ``name`` (0 when absent)."""
    value = stored(obj, name)
    if value is None:
        return 0
    return value.num_rows if isinstance(value, Columns) else len(value)
