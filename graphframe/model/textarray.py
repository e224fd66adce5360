"""Dictionary-encoded text columns that behave as pandas ``object`` columns.

A text column of a large profile repeats a few hundred thousand distinct
strings over millions of (node, rank) rows. As an ``object`` column every row
is an 8-byte reference, and every copy, take or merge of the column touches
the reference count of every row. :class:`TextArray` keeps one 4-byte code per
row into a dictionary of distinct values (one Python object each), so the
column costs half the memory and is copied, reordered and concatenated as
plain integers.

What a user sees is what an ``object`` column of the same values gives: the
values read back are the shared Python objects (``None`` stays ``None``, NaN
stays NaN); any value may be assigned (``fillna(0)``, ``df.loc[mask, "type"] =
"loop"``), growing the dictionary; comparisons, ``+ "text"``, ``.str``
methods, ``map``/``apply``, ``min``/``max``/``sum`` and every ``groupby``
aggregation give the results pandas gives for the ``object`` column, computed
once per distinct value where the result is per value. The dtype prints as
``text``; ``astype(object)`` gives the plain object column.

The dictionary of an array is never changed in place: an assignment of a new
value makes a new dictionary, so arrays that share one (the results of
``take`` and slicing) never see each other's assignments.
"""

from __future__ import annotations

import operator
from typing import Any, Optional, Sequence, Tuple

import numpy as np
import pandas as pd
from pandas.api.extensions import (ExtensionArray, ExtensionDtype, register_extension_dtype,
                                   take)
from pandas.api.indexers import check_array_indexer
from pandas.api.types import is_integer, is_list_like, is_scalar
from pandas.arrays import NumpyExtensionArray
# the object-column implementation of the ``.str`` methods (pandas 2.2 and later)
from pandas.core.strings.object_array import ObjectStringArrayMixin

CODE = np.int32
_CHUNK = 1 << 16


def _object_vector(values: Any) -> np.ndarray:
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
        values = _object_vector(values)
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
            vuniq = _object_vector(vuniq)
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


@register_extension_dtype
class TextDtype(ExtensionDtype):
    """The dtype of :class:`TextArray` (name ``"text"``).

    Examples
    --------
    >>> pd.Series(["a", None], dtype="text").dtype
    text
    """

    name = "text"
    type = str
    kind = "O"
    na_value = np.nan
    _is_numeric = False

    def __repr__(self) -> str:
        return self.name

    @classmethod
    def construct_array_type(cls) -> type:
        return TextArray

    def _get_common_dtype(self, dtypes: list) -> Any:
        if all(isinstance(d, TextDtype) for d in dtypes):
            return self
        return np.dtype(object)


TEXT = TextDtype()


class TextArray(ObjectStringArrayMixin, ExtensionArray):
    """A column of any Python values (mostly strings) as codes into a :class:`Dictionary`.

    Examples
    --------
    >>> s = pd.Series(TextArray.from_values(["main", "solve", None, "main"]))
    >>> s.dtype, s.tolist(), s[0] is s[3]
    (text, ['main', 'solve', None, 'main'], True)
    >>> (s == "main").tolist(), s.str.upper().tolist(), s.dropna().max()
    ([True, False, False, True], ['MAIN', 'SOLVE', None, 'MAIN'], 'solve')
    >>> s.fillna(0).tolist(), s.groupby([0, 0, 1, 1]).sum().tolist()
    (['main', 'solve', 0, 'main'], ['mainsolve', 'main'])
    """

    __array_priority__ = 1000

    def __init__(self, codes: np.ndarray, dictionary: Dictionary) -> None:
        self._codes = np.asarray(codes, dtype=CODE)
        self._dict = dictionary

    # ------------------------------------------------------------ construction
    @classmethod
    def from_values(cls, values: Any) -> "TextArray":
        """Encode any 1-D sequence, Series or Categorical; missing values keep their kind."""
        if isinstance(values, cls):
            return values
        if isinstance(values, (pd.Series, pd.Index)):
            values = values.array
        if isinstance(values, pd.Categorical):
            return cls.from_codes(values.codes, np.asarray(values.categories, dtype=object),
                                  missing=np.nan)
        return cls._from_encoded(*Dictionary(np.empty(0, dtype=object)).encode(values))

    @classmethod
    def from_codes(cls, codes: np.ndarray, distinct: np.ndarray, missing: Any = None,
                   distinct_known: bool = False) -> "TextArray":
        """Array from codes into ``distinct``; code -1 stands for ``missing`` (``None`` or
        NaN). ``distinct_known`` says that ``distinct`` holds distinct, non-missing values
        (as :func:`pandas.factorize` returns them), which skips checking it.

        Examples
        --------
        >>> TextArray.from_codes(np.array([1, -1, 0, 2]), np.array(["a", "b", "a"])).tolist()
        ['b', None, 'a', 'a']
        """
        codes = np.asarray(codes)
        values = np.empty(len(distinct) + 1, dtype=object)
        values[:-1] = distinct
        values[-1] = missing
        if distinct_known:
            dictionary = Dictionary(values)
            table = None
        else:
            table, dictionary = Dictionary(np.empty(0, dtype=object)).encode(values)
        if table is not None:
            return cls(table[np.where(codes < 0, len(distinct), codes)], dictionary)
        if not (codes < 0).any():
            return cls(codes.astype(CODE, copy=False), Dictionary(values[:-1]))
        return cls(np.where(codes < 0, len(distinct), codes).astype(CODE), dictionary)

    @classmethod
    def _from_encoded(cls, codes: np.ndarray, dictionary: Dictionary) -> "TextArray":
        return cls(codes, dictionary)

    @classmethod
    def _from_sequence(cls, scalars: Any, *, dtype: Any = None, copy: bool = False):
        if isinstance(scalars, cls):
            return scalars.copy() if copy else scalars
        return cls.from_values(scalars)

    @classmethod
    def _from_sequence_of_strings(cls, strings: Any, *, dtype: Any = None, copy: bool = False):
        return cls.from_values(strings)

    @classmethod
    def _from_factorized(cls, values: np.ndarray, original: "TextArray") -> "TextArray":
        return cls._from_encoded(*original._dict.encode(values))

    def missing_as_none(self) -> "TextArray":
        """This array with every missing value as ``None`` (itself when it has no NaN)."""
        values = self._dict.values
        nan = [i for i in np.flatnonzero(self._dict.na) if values[i] is not None]
        if not nan:
            return self
        values = np.array(values, dtype=object)
        values[nan] = None
        recode, dictionary = Dictionary(np.empty(0, dtype=object)).encode(values)
        return type(self)(recode[self._codes], dictionary)

    # ------------------------------------------------------------ the protocol
    @property
    def dtype(self) -> TextDtype:
        return TEXT

    @property
    def codes(self) -> np.ndarray:
        """The codes (read-only view)."""
        view = self._codes.view()
        view.flags.writeable = False
        return view

    def with_codes(self, codes: np.ndarray) -> "TextArray":
        """An array of ``codes`` into this array's dictionary (codes it holds).

        Examples
        --------
        >>> TextArray.from_values(["a", "b"]).with_codes(np.array([1, 1, 0])).tolist()
        ['b', 'b', 'a']
        """
        codes = np.asarray(codes)
        if len(codes) and (codes.min() < 0 or codes.max() >= len(self._dict)):
            raise IndexError("a code is outside the dictionary")
        return type(self)(codes, self._dict)

    @property
    def dictionary(self) -> np.ndarray:
        """The distinct values the codes index (read-only)."""
        return self._dict.values

    @property
    def nbytes(self) -> int:
        return int(self._codes.nbytes + self._dict.values.nbytes)

    def __len__(self) -> int:
        return len(self._codes)

    def __getitem__(self, item: Any) -> Any:
        if is_integer(item):
            return self._dict.values[self._codes[item]]
        if isinstance(item, tuple):
            item = tuple(slice(None) if k is Ellipsis else k for k in item)
            if len(item) > 1:
                raise IndexError("too many indices for a 1-dimensional text array")
            item = item[0] if item else slice(None)
            if is_integer(item):
                return self._dict.values[self._codes[item]]
        if not isinstance(item, slice):
            item = check_array_indexer(self, item)
        return type(self)(self._codes[item], self._dict)

    def __setitem__(self, key: Any, value: Any) -> None:
        if not (is_integer(key) or isinstance(key, slice)):
            key = check_array_indexer(self, key)
        if isinstance(value, TextArray) and value._dict is self._dict:
            self._codes[key] = value._codes
            return
        scalar = is_scalar(value) or not is_list_like(value) or (
            is_integer(key) and not isinstance(value, (np.ndarray, ExtensionArray, pd.Series)))
        if scalar:
            boxed = np.empty(1, dtype=object)
            boxed[0] = value
            codes, self._dict = self._dict.encode(boxed)
            self._codes[key] = codes[0]
        else:
            codes, self._dict = self._dict.encode(_object_vector(value))
            self._codes[key] = codes

    def __iter__(self):
        values = self._dict.values
        for start in range(0, len(self._codes), _CHUNK):
            yield from values[self._codes[start:start + _CHUNK]]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self._dict.values[self._codes]
        if dtype is not None and np.dtype(dtype) != object:
            return out.astype(dtype)
        return out

    def tolist(self) -> list:
        return self._dict.values[self._codes].tolist()

    def isna(self) -> np.ndarray:
        return self._dict.na[self._codes]

    def copy(self) -> "TextArray":
        return type(self)(self._codes.copy(), self._dict)

    def take(self, indices: Sequence[int], *, allow_fill: bool = False,
             fill_value: Any = None) -> "TextArray":
        indices = np.asarray(indices, dtype=np.intp)
        if not allow_fill or not (indices < 0).any():  # nothing to fill: a plain take
            return type(self)(self._codes.take(indices), self._dict)
        fill = self.dtype.na_value if fill_value is None else fill_value
        boxed = np.empty(1, dtype=object)
        boxed[0] = fill
        fill_code, dictionary = self._dict.encode(boxed)
        codes = take(self._codes, indices, allow_fill=True, fill_value=int(fill_code[0]))
        return type(self)(codes.astype(CODE, copy=False), dictionary)

    @classmethod
    def _concat_same_type(cls, to_concat: Sequence["TextArray"]) -> "TextArray":
        to_concat = list(to_concat)
        if not to_concat:
            return cls(np.empty(0, dtype=CODE), Dictionary(np.empty(0, dtype=object)))
        dictionary = to_concat[0]._dict
        parts = []
        for arr in to_concat:
            if arr._dict is dictionary:
                parts.append(arr._codes)
                continue
            recode, dictionary = dictionary.recode(arr._dict)
            parts.append(recode[arr._codes])
        return cls(np.concatenate(parts).astype(CODE, copy=False), dictionary)

    def astype(self, dtype: Any, copy: bool = True) -> Any:
        dtype = pd.api.types.pandas_dtype(dtype)
        if isinstance(dtype, TextDtype):
            return self.copy() if copy else self
        values = np.asarray(self)
        if isinstance(dtype, np.dtype) and dtype == object:
            return values
        return NumpyExtensionArray(values).astype(dtype, copy=False)

    # ------------------------------------------------------ factorize and sort
    def _values_for_factorize(self) -> Tuple[np.ndarray, Any]:
        return np.asarray(self), np.nan

    def factorize(self, use_na_sentinel: bool = True) -> Tuple[np.ndarray, "TextArray"]:
        table = np.arange(len(self._dict), dtype=np.int64)
        table[self._dict.na] = -1
        labels, uniq = pd.factorize(table[self._codes])
        labels = labels.astype(np.intp, copy=False)
        where_na = np.flatnonzero(uniq == -1)
        if len(where_na):
            k = int(where_na[0])
            uniq = np.delete(uniq, k)
            labels = np.where(labels == k, -1, np.where(labels > k, labels - 1, labels))
        uniques = type(self)(uniq.astype(CODE), self._dict)
        if not use_na_sentinel and len(where_na):
            labels = np.where(labels < 0, len(uniq), labels).astype(np.intp)
            uniques = uniques.take(np.append(np.arange(len(uniq)), -1), allow_fill=True)
        return labels, uniques

    def _values_for_argsort(self) -> np.ndarray:
        ranks = self._dict.ranks()
        if ranks is None:
            return np.asarray(self)
        return ranks[self._codes]

    def unique(self) -> "TextArray":
        return type(self)(pd.unique(self._codes), self._dict)

    def value_counts(self, dropna: bool = True) -> pd.Series:
        order = pd.unique(self._codes)
        counts = np.bincount(self._codes, minlength=len(self._dict))[order]
        na = self._dict.na[order]
        if dropna:
            order, counts = order[~na], counts[~na]
        index = pd.Index(type(self)(order, self._dict))
        return pd.Series(counts.astype(np.int64), index=index, name="count")

    def shift(self, periods: int = 1, fill_value: Any = None) -> "TextArray":
        """Shifted values; rows shifted in hold ``fill_value`` (``None`` as for objects)."""
        n = len(self)
        periods = max(-n, min(n, int(periods)))
        positions = np.arange(n) - periods
        positions[(positions < 0) | (positions >= n)] = -1
        boxed = np.empty(1, dtype=object)
        boxed[0] = fill_value
        fill, dictionary = self._dict.encode(boxed)
        codes = np.where(positions < 0, fill[0], self._codes[np.maximum(positions, 0)])
        return type(self)(codes, dictionary)

    def isin(self, values: Any) -> np.ndarray:
        entries, rows = self._used()
        return pd.Series(entries, dtype=object).isin(values).to_numpy(dtype=bool)[rows]

    # --------------------------------------------------------- per-value work
    def _used(self) -> Tuple[np.ndarray, np.ndarray]:
        """``(the values the rows hold, each once; each row's position among them)``.

        Work done per value sees only values the array holds (not dictionary entries
        that other arrays hold), as an object column would.
        """
        n, size = len(self._codes), len(self._dict)
        if n * 4 >= size:  # counting is cheaper than hashing
            held = np.bincount(self._codes, minlength=size) > 0
            used = np.flatnonzero(held)
            rows = (np.cumsum(held) - 1)[self._codes]
        else:
            rows, used = pd.factorize(self._codes)
        return self._dict.values[used], rows

    def _per_value(self, compute: Any) -> Any:
        """``compute(values)`` (a Series of the distinct values held) spread over the rows."""
        entries, rows = self._used()
        result = compute(pd.Series(entries, dtype=object))
        if isinstance(result, pd.Series):
            result = result.array
        if isinstance(result, NumpyExtensionArray):
            result = result.to_numpy()
        if isinstance(result, np.ndarray):
            return result[rows]
        return result.take(rows)

    def map(self, mapper: Any, na_action: Any = None) -> Any:
        return self._per_value(lambda entries: entries.map(mapper, na_action=na_action))

    def _str_map(self, f: Any, *args: Any, **kwargs: Any) -> Any:
        return self._per_value(lambda entries: NumpyExtensionArray(entries.to_numpy())._str_map(
            f, *args, **kwargs))

    def _binary(self, other: Any, op: Any) -> Any:
        if isinstance(other, (pd.Series, pd.Index, pd.DataFrame)):
            return NotImplemented
        if not is_list_like(other):
            return self._per_value(lambda entries: op(entries, other))
        other = np.asarray(other, dtype=object) if not isinstance(other, TextArray) else other
        if len(other) != len(self):
            raise ValueError("Lengths must match to compare")
        left = pd.Series(np.asarray(self), dtype=object)
        right = pd.Series(np.asarray(other, dtype=object), dtype=object)
        result = op(left, right)
        return result.array if isinstance(result.dtype, ExtensionDtype) else result.to_numpy()

    def _reduce(self, name: str, *, skipna: bool = True, keepdims: bool = False, **kwargs):
        if name in ("min", "max"):
            values = self._used()[0]
        else:
            values = np.asarray(self)
        result = getattr(pd.Series(values, dtype=object), name)(skipna=skipna, **kwargs)
        if keepdims:
            out = np.empty(1, dtype=object)
            out[0] = result
            return out
        return result

    def _accumulate(self, name: str, *, skipna: bool = True, **kwargs: Any) -> Any:
        result = getattr(pd.Series(np.asarray(self), dtype=object), name)(skipna=skipna, **kwargs)
        return result.array if isinstance(result.dtype, ExtensionDtype) else result.to_numpy()

    def _groupby_op(self, *, how: str, has_dropped_na: bool, min_count: int, ngroups: int,
                    ids: np.ndarray, **kwargs: Any) -> Any:
        if how in ("first", "last"):
            return self._first_last(how == "last", min_count, ngroups, ids,
                                    kwargs.get("skipna", True))
        keep = ids >= 0
        rows = np.flatnonzero(keep)
        series = pd.Series(np.asarray(self)[rows], index=rows, dtype=object)
        grouped = series.groupby(ids[rows], sort=True)
        if "ties_method" in kwargs:
            kwargs["method"] = kwargs.pop("ties_method")
        if how in ("sum", "prod", "min", "max"):
            kwargs["min_count"] = min_count
        result = getattr(grouped, how)(**kwargs)
        if how in ("cumsum", "cumprod", "cummin", "cummax", "rank", "shift", "diff"):
            return result.reindex(np.arange(len(self))).to_numpy()
        result = result.reindex(np.arange(ngroups))
        return result.array if isinstance(result.dtype, ExtensionDtype) else result.to_numpy()

    def _first_last(self, last: bool, min_count: int, ngroups: int, ids: np.ndarray,
                    skipna: bool) -> "TextArray":
        valid = ids >= 0
        if skipna:
            valid &= ~self.isna()
        rows = np.flatnonzero(valid)
        groups = ids[rows]
        pick = np.full(ngroups, -1 if last else len(self), dtype=np.intp)
        (np.maximum if last else np.minimum).at(pick, groups, rows)
        pick[pick == len(self)] = -1
        if min_count > 1:
            pick[np.bincount(groups, minlength=ngroups) < min_count] = -1
        return self._take_or_none(pick)

    def _take_or_none(self, positions: np.ndarray) -> "TextArray":
        """``take`` with ``None`` (as an object column's ``first`` gives) at -1."""
        boxed = np.empty(1, dtype=object)
        fill, dictionary = self._dict.encode(boxed)
        codes = np.where(positions < 0, fill[0], self._codes[np.maximum(positions, 0)])
        return type(self)(codes, dictionary)


def _install_operators() -> None:
    ops = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
           "gt": operator.gt, "ge": operator.ge, "add": operator.add, "mul": operator.mul,
           "mod": operator.mod, "sub": operator.sub, "truediv": operator.truediv}
    for name, op in ops.items():
        def forward(self, other, _op=op):
            return self._binary(other, _op)

        setattr(TextArray, f"__{name}__", forward)
        if name in ("add", "mul", "mod", "sub", "truediv"):
            def reverse(self, other, _op=op):
                return self._binary(other, lambda a, b: _op(b, a))

            setattr(TextArray, f"__r{name}__", reverse)


_install_operators()
TextArray.__hash__ = None  # type: ignore[assignment]
