"""Column atoms evaluated over a whole dataframe column at once.

Numeric columns: one numpy comparison. Other columns (strings, objects,
categoricals): ``pandas.factorize`` once, the condition once per distinct
value, then a gather by code. Missing values (None/NaN) have code -1, which
indexes the extra last slot of the per-value result. A column holding
unhashable values (lists, dicts) cannot be factorised: every row is its own
value then, so missing-value tests work and other conditions report the
column and the value they cannot compare.
"""

from __future__ import annotations

import difflib
import re
from numbers import Real
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from .atoms import Atom, NUMBER_OPS, STRING_OPS
from .comparison import compare, is_comparison, parse_comparison
from .errors import InvalidQueryFilter


def resolve_column(df: pd.DataFrame, key: Any) -> Optional[pd.Series]:
    """The column ``key`` names, or None. ``("name",)`` means ``"name"`` (Hatchet).

    Examples
    --------
    >>> df = pd.DataFrame({"name": ["a"], "time": [1.0]})
    >>> resolve_column(df, ("name",)).tolist(), resolve_column(df, "missing")
    (['a'], None)
    """
    if isinstance(key, list):
        key = tuple(key)
    if isinstance(key, tuple) and len(key) == 1 and key not in df.columns:
        key = key[0]
    try:
        present = key in df.columns
    except TypeError:
        return None
    if not present and isinstance(key, (int, np.integer)) and str(key) in df.columns:
        key, present = str(key), True
    if not present:
        return None
    col = df[key]
    if isinstance(col, pd.DataFrame):
        raise InvalidQueryFilter(f"{key!r} names {col.shape[1]} columns; give the full column "
                                 f"key, one of {list(col.columns)}")
    return col


class ColumnData:
    """One column as numbers, or as (codes, distinct values)."""

    def __init__(self, series: pd.Series) -> None:
        dtype = series.dtype
        self.numeric = (is_numeric_dtype(dtype) or is_bool_dtype(dtype)) and dtype != object
        if self.numeric:
            if isinstance(dtype, np.dtype):
                self.values = series.to_numpy()
            else:  # nullable extension dtypes
                self.values = series.to_numpy(dtype=np.float64, na_value=np.nan)
            self.codes = None
            self.uniques: List[Any] = []
        else:
            values = series if isinstance(dtype, pd.CategoricalDtype) else \
                series.to_numpy(dtype=object)  # python strings: the fastest hash path
            try:
                codes, uniques = pd.factorize(values, use_na_sentinel=True)
            except TypeError:  # unhashable values (lists, dicts)
                codes, uniques = _each_row_a_value(np.asarray(values, dtype=object))
            self.codes = np.asarray(codes, dtype=np.int64)
            self.uniques = list(uniques)
            self.values = None

    def gather(self, per_value: np.ndarray) -> np.ndarray:
        """Per-row result from a per-distinct-value result (last slot: missing)."""
        return per_value[self.codes]


def _each_row_a_value(values: np.ndarray) -> Tuple[np.ndarray, List[Any]]:
    """Codes and values without hashing: row i is value i; None/NaN get code -1."""
    missing = np.fromiter((v is None or (isinstance(v, float) and v != v) for v in values),
                          dtype=bool, count=len(values))
    codes = np.full(len(values), -1, dtype=np.int64)
    codes[~missing] = np.arange(int((~missing).sum()))
    return codes, values[~missing].tolist()


class Columns:
    """Column atoms over one dataframe, with the decoded columns cached."""

    def __init__(self, df: pd.DataFrame, strict: bool = True) -> None:
        self.df = df
        self.strict = strict  # a condition on a column the frame lacks is an error
        self._data: Dict[Any, Optional[ColumnData]] = {}

    def data(self, key: Any) -> Optional[ColumnData]:
        cache_key = (type(key).__name__, key)
        if cache_key not in self._data:
            series = resolve_column(self.df, key)
            self._data[cache_key] = None if series is None else ColumnData(series)
        return self._data[cache_key]

    def rows(self, atom: Atom) -> np.ndarray:
        """Boolean array over the rows: which rows satisfy ``atom``."""
        data = self.data(atom.key)
        size = len(self.df)
        if atom.op == "object":
            if data is None:
                if not self.strict:  # one row given to a predicate: false, as in Hatchet
                    return np.zeros(size, dtype=bool)
                # over a whole frame a misspelt column would empty the result: say so
                raise no_column(atom.key, self.df.columns, self.df.index.names)
            return _object_rule(data, atom)
        if data is None:  # a missing column behaves like a column of missing values
            return np.full(size, _missing_result(atom), dtype=bool)
        return _typed_rule(data, atom)


def no_column(key: Any, columns: Any, levels: Any = ()) -> InvalidQueryFilter:
    """The error for a condition on ``key`` when the data has no such column.

    Examples
    --------
    >>> str(no_column("nam", pd.Index(["name", "time", "time (inc)"])))
    "no column 'nam' (did you mean 'name'?); the columns are 'name', 'time', 'time (inc)'"
    """
    names = [str(c) for c in columns]
    close = difflib.get_close_matches(str(key), names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    if key in list(levels):
        hint = " (it is an index level: reset_index() or a callable predicate reads it)"
    listed = ", ".join(repr(c) for c in list(columns)[:20])
    more = f" and {len(names) - 20} more" if len(names) > 20 else ""
    return InvalidQueryFilter(f"no column {key!r}{hint}; the columns are {listed}{more}")


# ------------------------------------------------------------ object dialect

def bad_condition(key: Any, value: Any) -> InvalidQueryFilter:
    """The error for an object-dialect condition that is neither a string nor a number.

    Examples
    --------
    >>> str(bad_condition("time", [1]))
    "the condition on 'time' must be a regex string, a number or a comparison string such as '>= 5', not [1]"
    """
    return InvalidQueryFilter(
        f"the condition on {key!r} must be a regex string, a number or a comparison string "
        f"such as '>= 5', not {value!r}")


def _object_rule(data: ColumnData, atom: Atom) -> np.ndarray:
    value, key = atom.value, atom.key
    if not isinstance(value, (str, Real)):  # built under graphframe.options.hatchet_compat
        raise bad_condition(key, value)
    comparison = parse_comparison(value) if isinstance(value, str) and is_comparison(value) \
        and _may_compare(data) else None
    if data.numeric:
        if isinstance(value, str):
            if comparison is None:
                raise InvalidQueryFilter(
                    f"column {key!r} holds numbers: filter it with a number or a comparison "
                    f"string such as '>= 5', not {value!r}")
            return compare(data.values, *comparison)
        return compare(data.values, "==", value)
    per = np.zeros(len(data.uniques) + 1, dtype=bool)
    strings, numbers = _split_values(data.uniques, key)
    if strings:
        if not isinstance(value, str):
            raise InvalidQueryFilter(
                f"column {key!r} holds strings: filter it with a regular expression, "
                f"not {value!r}")
        pattern = compile_regex(value)
        per[[i for i, _ in strings]] = [pattern.fullmatch(s) is not None for _, s in strings]
    if numbers:
        idx = np.array([i for i, _ in numbers])
        vals = np.array([float(v) for _, v in numbers])
        if isinstance(value, str):
            if comparison is None:
                raise InvalidQueryFilter(
                    f"column {key!r} holds numbers: filter it with a number or a comparison "
                    f"string such as '>= 5', not {value!r}")
            per[idx] = compare(vals, *comparison)
        else:
            per[idx] = compare(vals, "==", value)
    if comparison is not None:
        per[-1] = bool(compare(np.array([np.nan]), *comparison)[0])
    return data.gather(per)


def _may_compare(data: ColumnData) -> bool:
    return data.numeric or any(not isinstance(u, str) for u in data.uniques)


# ----------------------------------------------------------- string dialect
_STRING_FUNCS: Dict[str, Callable[[str, Any], bool]] = {
    "str==": lambda s, v: s == v,
    "str!=": lambda s, v: s != v,
    "startswith": lambda s, v: s.startswith(v),
    "endswith": lambda s, v: s.endswith(v),
    "contains": lambda s, v: v in s,
}


def _typed_rule(data: ColumnData, atom: Atom) -> np.ndarray:
    op, key = atom.op, atom.key
    if data.numeric:
        if op in STRING_OPS:
            raise _mismatch(key, "numbers", op)
        if op in NUMBER_OPS:
            return compare(data.values, op, atom.value)
        return _missing_op(np.asarray(data.values, dtype=np.float64), op)
    per = np.zeros(len(data.uniques) + 1, dtype=bool)
    per[-1] = _missing_result(atom)
    if op == "isnone":  # any present value is not None, whatever its type
        return data.gather(per)
    strings, numbers = _split_values(data.uniques, key)
    if op in STRING_OPS:
        if numbers:
            raise _mismatch(key, "numbers", op)
        if op == "regex":  # Hatchet's string dialect: re.match, anchored at the start only
            pattern = compile_regex(atom.value)
            per[[i for i, _ in strings]] = [pattern.match(s) is not None for _, s in strings]
        else:
            func = _STRING_FUNCS[op]
            per[[i for i, _ in strings]] = [func(s, atom.value) for _, s in strings]
    else:
        if strings:
            raise _mismatch(key, "strings", op)
        if numbers:
            vals = np.array([float(v) for _, v in numbers])
            idx = [i for i, _ in numbers]
            per[idx] = compare(vals, op, atom.value) if op in NUMBER_OPS else \
                _missing_op(vals, op)
    return data.gather(per)


def _missing_op(values: np.ndarray, op: str) -> np.ndarray:
    if op in ("isnan", "isnone"):
        return np.isnan(values)
    if op == "isinf":
        return np.isinf(values)
    raise ValueError(f"unknown operator {op!r}")


def _missing_result(atom: Atom) -> bool:
    """What a missing value (None/NaN, or a missing column) gives for a string-dialect atom."""
    return atom.op in ("isnone", "isnan", "!=", "str!=")


def _mismatch(key: Any, holds: str, op: str) -> InvalidQueryFilter:
    need = "strings" if op in STRING_OPS else "numbers"
    return InvalidQueryFilter(f"Type mismatch in filter: column {key!r} holds {holds}, "
                              f"but {op!r} compares {need}")


def _split_values(uniques: List[Any], key: Any) -> Tuple[list, list]:
    strings, numbers = [], []
    for i, u in enumerate(uniques):
        if isinstance(u, str):
            strings.append((i, u))
        elif isinstance(u, Real):
            numbers.append((i, u))
        else:
            raise InvalidQueryFilter(
                f"column {key!r} holds a {type(u).__name__} value ({u!r}); query conditions "
                "compare strings and numbers")
    return strings, numbers


def compile_regex(pattern: str) -> "re.Pattern[str]":
    """Compile a user regex, reporting errors as :class:`InvalidQueryFilter`.

    Examples
    --------
    >>> compile_regex("MPI_.*").fullmatch("MPI_Send") is not None
    True
    >>> compile_regex("(a")
    Traceback (most recent call last):
    ...
    graphframe.query.errors.InvalidQueryFilter: bad regular expression '(a': missing ), unterminated subpattern at position 0
    """
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise InvalidQueryFilter(f"bad regular expression {pattern!r}: {exc}") from exc
