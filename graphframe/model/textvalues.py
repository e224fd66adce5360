"""What a text column computes from its values, as an ``object`` column would.

:class:`ValueComputations` is the part of
:class:`graphframe.model.textarray.TextArray` that computes: work whose result
is per value (``map``/``apply``, ``.str``, comparisons and arithmetic with a
scalar, ``isin``) runs once per distinct value the array holds and is spread
over the rows by the codes; reductions, accumulations and group-wise
aggregations hand pandas the object values (``first``/``last`` pick rows by
codes), so every result is the one pandas gives for the object column.
"""

from __future__ import annotations

import operator
from typing import Any, Tuple

import numpy as np
import pandas as pd
from pandas.api.extensions import ExtensionDtype
from pandas.api.types import is_list_like
from pandas.arrays import NumpyExtensionArray


class ValueComputations:
    """Computations of a text array (a mixin: the array supplies ``_codes``, ``_dict``,
    ``isna``, ``take`` and ``__array__``)."""

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
        other = other if isinstance(other, ValueComputations) else np.asarray(other, dtype=object)
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
                    skipna: bool) -> Any:
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
        return self._take_filled(pick, None)  # None, as an object column's first gives

    def _take_filled(self, positions: np.ndarray, fill_value: Any) -> Any:
        """``take`` with ``fill_value`` (any object, kept as it is) at -1."""
        boxed = np.empty(1, dtype=object)
        boxed[0] = fill_value
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

        setattr(ValueComputations, f"__{name}__", forward)
        if name in ("add", "mul", "mod", "sub", "truediv"):
            def reverse(self, other, _op=op):
                return self._binary(other, lambda a, b: _op(b, a))

            setattr(ValueComputations, f"__r{name}__", reverse)


_install_operators()
