"""Texts: a text column of a block's events as codes into the block's distinct values.

A GC log repeats a few texts over and over (causes such as ``G1 Evacuation
Pause``, the tags, the parenthesised info): the parse finds them once per
distinct title or field, so a column is kept as ``codes`` (int32, -1 =
absent) into ``values`` (a list; it may hold ``None`` and repeats). The
events table then makes its categories from the values a block uses,
without hashing a text per event (:func:`categorical`). ``np.asarray``
gives the object array (``None`` where absent).

Examples
--------
>>> t = Texts(np.array([1, -1, 0, 1], np.int32), ["a", "b"])
>>> np.asarray(t).tolist(), len(t), t[[0, 2]].codes.tolist()
(['b', None, 'a', 'b'], 4, [1, 0])
>>> cat = categorical([t, np.array(["a", None, "c"], dtype=object)])
>>> list(cat.categories), cat.codes.tolist()
(['b', 'a', 'c'], [0, -1, 1, 0, 1, -1, 2])
"""

from __future__ import annotations

from typing import Any, List, Sequence, Union

import numpy as np
import pandas as pd

__all__ = ["Texts", "categorical"]


class Texts:
    """Codes (int32, -1 absent) into a list of values, one code per event."""

    __slots__ = ("codes", "values")

    def __init__(self, codes: np.ndarray, values: List[Any]) -> None:
        self.codes = codes
        self.values = values

    @classmethod
    def absent(cls, n: int) -> "Texts":
        """``n`` events without the text."""
        return cls(np.full(n, -1, np.int32), [])

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, index: Any) -> "Texts":
        return Texts(self.codes[index], self.values)

    def __setitem__(self, index: Any, other: "Texts") -> None:
        """Rows ``index`` take ``other``'s texts (its values appended to this column's)."""
        base = len(self.values)
        self.values = self.values + list(other.values)
        self.codes[index] = np.where(other.codes >= 0, other.codes + base, -1)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        table = np.empty(len(self.values) + 1, dtype=object)  # the last one (code -1): None
        table[:len(self.values)] = self.values
        return table[self.codes]

    def __repr__(self) -> str:
        return f"Texts({np.asarray(self).tolist()!r})"


Column = Union[Texts, np.ndarray]


def categorical(columns: Sequence[Column]) -> pd.Categorical:
    """One categorical of the columns end to end (Texts or object arrays, ``None`` absent),
    categories in order of first appearance (as :func:`pandas.factorize` orders them)."""
    index: dict = {}
    parts = []
    for col in columns:
        if isinstance(col, Texts):
            codes, values = col.codes, col.values
        else:
            codes, uniques = pd.factorize(np.asarray(col, dtype=object))
            values = list(uniques)
        remap = np.full(len(values) + 1, -1, np.int32)  # code -1 -> the last: -1
        for c in pd.unique(codes).tolist():  # the codes in order of first appearance
            if c >= 0 and values[c] is not None:
                remap[c] = index.setdefault(values[c], len(index))
        parts.append(remap[codes])
    codes = np.concatenate(parts) if parts else np.zeros(0, np.int32)
    return pd.Categorical.from_codes(codes, categories=pd.Index(list(index), dtype=object),
                                     validate=False)
