"""The dictionary of a text column: each distinct value once, in code order.

:class:`Dictionary` is what :class:`graphframe.model.textarray.TextArray` codes
index. It is never changed in place: encoding values it lacks returns a new
dictionary with them appended, so every array sharing one keeps its values.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
import pandas as pd
from pandas.api.extensions import ExtensionArray

CODE = np.int32
_CHUNK = 1 << 16


def object_vector(values: Any) -> np.ndarray:
    """``values`` as a 1-D object array, one element per item (tuples stay items)."""
    if isinstance(values, np.ndarray) and values.dtype == object and values.ndim == 1:
        return values
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.array
    if isinstance(values, ExtensionArray):
        return np.asarray(values, dtype=object)
    out = np.asarray(values, dtype=object) if not isinstance(values, (list, tuple)) else None
    if out is not None and out.ndim == 1:
        return out
    items = list(values)
    out = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):  # items that are sequences themselves
        out[i] = item
    return out


class Dictionary:
    """The distinct values of text arrays, in code order; never changed in place.

    Non-missing entries are distinct; ``None`` and NaN (any other missing
    value) have at most one entry each.

    Examples
    --------
    >>> d = Dictionary(np.array(["a", "b"], dtype=object))
    >>> codes, d2 = d.encode(np.array(["b", None, "c", "b"], dtype=object))
    >>> codes.tolist(), d2.values.tolist(), d.values.tolist()
    ([1, 3, 2, 1], ['a', 'b', 'c', None], ['a', 'b'])
    """

    __slots__ = ("values", "_na", "_lookup", "_ranks", "__weakref__")

    def __init__(self, values: np.ndarray) -> None:
        values = np.asarray(values, dtype=object)
        values.flags.writeable = False
        self.values = values
        self._na: Optional[np.ndarray] = None
        self._lookup: Optional[Tuple[pd.Index, np.ndarray]] = None
        self._ranks: Any = None

    def __reduce__(self):
        return (Dictionary, (np.array(self.values, dtype=object),))

    def __len__(self) -> int:
        return len(self.values)

    @property
    def na(self) -> np.ndarray:
        """Which entries are missing values."""
        if self._na is None:
            na = np.asarray(pd.isna(self.values), dtype=bool)
            na.flags.writeable = False
            self._na = na
        return self._na

    def _entry_of_missing(self, is_none: bool) -> int:
        for i in np.flatnonzero(self.na):
            if (self.values[i] is None) == is_none:
                return int(i)
        return -1

    def _present(self) -> Tuple[pd.Index, np.ndarray]:
        """Index of the non-missing entries and their positions in ``values``."""
        if self._lookup is None:
            positions = np.flatnonzero(~self.na)
            self._lookup = (pd.Index(self.values[positions], dtype=object), positions)
        return self._lookup

    def encode(self, values: np.ndarray) -> Tuple[np.ndarray, "Dictionary"]:
        """Codes of ``values`` (object array) and the dictionary they index: this one,
        or a new one with the values it lacked appended."""
        values = object_vector(values)
        codes = np.empty(len(values), dtype=np.int64)
        added: list = []
        size = len(self.values)
        na = np.asarray(pd.isna(values), dtype=bool)
        present = ~na
        if present.any():
            vals = values[present] if na.any() else values
            known, vuniq, vcodes = self._find(vals)
            absent = np.flatnonzero(known < 0)
            known[absent] = size + np.arange(len(absent))
            size += len(absent)
            added.extend(vuniq[absent])
            codes[present] = known[vcodes]
        if na.any():
            missing = values[na]
            is_none = np.fromiter((v is None for v in missing), dtype=bool, count=len(missing))
            for flag, fill in ((True, None), (False, np.nan)):
                rows = is_none if flag else ~is_none
                if not rows.any():
                    continue
                entry = self._entry_of_missing(flag)
                if entry < 0:
                    entry, size = size, size + 1
                    added.append(fill)
                sub = codes[na]
                sub[rows] = entry
                codes[na] = sub
        if size >= np.iinfo(CODE).max:
            raise OverflowError("a text column holds more than 2**31 distinct values")
        if not added:
            return codes.astype(CODE), self
        grown = np.empty(size, dtype=object)
        grown[:len(self.values)] = self.values
        grown[len(self.values):] = added
        return codes.astype(CODE), Dictionary(grown)

    def recode(self, other: "Dictionary") -> Tuple[np.ndarray, "Dictionary"]:
        """``encode(other.values)``: the entries of ``other`` are distinct and their
        missing flags known, so neither is worked out again.

        Examples
        --------
        >>> a = Dictionary(np.array(["x", "y"], dtype=object))
        >>> codes, merged = a.recode(Dictionary(np.array(["y", "z"], dtype=object)))
        >>> codes.tolist(), merged.values.tolist()
        ([1, 2], ['x', 'y', 'z'])
        """
        if other.na.any():
            return self.encode(other.values)
        index, positions = self._present()
        known = np.full(len(other), -1, dtype=np.int64)
        if len(index) and len(other):
            try:
                found = index.get_indexer(other.values)
            except TypeError:  # unhashable entries: one by one
                return self.encode(other.values)
            hit = found >= 0
            known[hit] = positions[found[hit]]
        absent = np.flatnonzero(known < 0)
        if not len(absent):
            return known.astype(CODE), self
        size = len(self.values)
        if size + len(absent) >= np.iinfo(CODE).max:
            raise OverflowError("a text column holds more than 2**31 distinct values")
        known[absent] = size + np.arange(len(absent))
        grown = np.empty(size + len(absent), dtype=object)
        grown[:size] = self.values
        grown[size:] = other.values[absent]
        return known.astype(CODE), Dictionary(grown)

    def _find(self, vals: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(entry of each distinct value or -1, distinct values, code of each value)``."""
        try:
            vcodes, vuniq = pd.factorize(vals)
            vuniq = object_vector(vuniq)
            index, positions = self._present()
            known = np.full(len(vuniq), -1, dtype=np.int64)
            if len(index):
                found = index.get_indexer(vuniq)
                hit = found >= 0
                known[hit] = positions[found[hit]]
            return known, vuniq, vcodes
        except TypeError:  # unhashable values (a list in a cell): one entry each
            return self._find_one_by_one(vals)

    def _find_one_by_one(self, vals: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        index, positions = self._present()
        seen: dict = {}
        distinct: list = []
        known: list = []
        vcodes = np.empty(len(vals), dtype=np.int64)
        for i, value in enumerate(vals.tolist()):  # rare: cells holding lists or dicts
            try:
                hash(value)
            except TypeError:
                vcodes[i] = len(distinct)
                distinct.append(value)
                known.append(-1)
                continue
            if value not in seen:
                seen[value] = len(distinct)
                found = index.get_indexer([value])[0] if len(index) else -1
                distinct.append(value)
                known.append(positions[found] if found >= 0 else -1)
            vcodes[i] = seen[value]
        out = np.empty(len(distinct), dtype=object)
        out[:] = distinct
        return np.array(known, dtype=np.int64), out, vcodes

    def ranks(self) -> Optional[np.ndarray]:
        """Sort rank of each entry (NaN for missing), or None when entries do not compare."""
        if self._ranks is None:
            try:
                ranks = pd.Series(self.values, dtype=object).rank(method="dense").to_numpy()
            except TypeError:
                ranks = False
            self._ranks = ranks
        return None if self._ranks is False else self._ranks
