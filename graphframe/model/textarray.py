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

from typing import Any, Sequence, Tuple

import numpy as np
import pandas as pd
from pandas.api.extensions import (ExtensionArray, ExtensionDtype, register_extension_dtype,
                                   take)
from pandas.api.indexers import check_array_indexer
from pandas.api.types import is_integer, is_list_like, is_scalar
from pandas.arrays import NumpyExtensionArray
# the object-column implementation of the ``.str`` methods (pandas 2.2 and later)
from pandas.core.strings.object_array import ObjectStringArrayMixin

from .textdictionary import CODE, Dictionary, object_vector
from .textvalues import ValueComputations

_CHUNK = 1 << 16


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


class TextArray(ValueComputations, ObjectStringArrayMixin, ExtensionArray):
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
            codes, self._dict = self._dict.encode(object_vector(value))
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

    def __arrow_array__(self, type: Any = None) -> Any:
        """Arrow's view of the column (``to_parquet``, ``to_feather``): the object values,
        as pyarrow converts an object column."""
        import pyarrow as pa  # only where a frame goes to Arrow

        return pa.array(np.asarray(self), type=type, from_pandas=True)

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

    @classmethod
    def from_parts(cls, parts: Sequence[Tuple["TextArray", np.ndarray]], n: int) -> "TextArray":
        """``n`` rows holding each part's values at its positions, which together cover
        every row; where parts overlap the earlier one wins.

        The result is ``concat(arrays).take(source)`` for the matching
        ``source``, dictionary included, without the concatenation.

        Examples
        --------
        >>> a, b = TextArray.from_values(["x", "y"]), TextArray.from_values(["z", "w"])
        >>> TextArray.from_parts([(a, np.array([2, 0])), (b, np.array([0, 1]))], 3).tolist()
        ['y', 'w', 'x']
        """
        dictionary = parts[0][0]._dict
        part_codes = []
        for arr, _ in parts:
            if arr._dict is dictionary:
                part_codes.append(arr._codes)
                continue
            recode, dictionary = dictionary.recode(arr._dict)
            part_codes.append(recode[arr._codes])
        codes = np.empty(n, dtype=CODE)
        for (_, positions), values in reversed(list(zip(parts, part_codes))):
            codes[positions] = values
        return cls(codes, dictionary)

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
        return self._take_filled(positions, fill_value)


TextArray.__hash__ = None  # type: ignore[assignment]
