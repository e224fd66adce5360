"""Descriptive text columns held as pandas Categorical.

The dataframe of a GraphFrame repeats every node's attributes on each of its
rows (one per rank, thread...). The columns ``type``, ``file`` and ``module``
(:data:`CATEGORICAL_COLUMNS`) have few distinct values; built frames hold them
as ``category`` with sorted, unordered categories: one small integer code per
row instead of an 8-byte reference (at a million nodes x 16 ranks, 16-32 MB a
column instead of 128 MB). The rule is by column name, for every reader, and
applies when the column's values are all text or missing; ``name`` and every
other column are left as they are.

Sorted categories make ``sort_values`` and ``groupby`` order rows exactly as
for plain strings. Frames whose categories differ are combined over the union
of both (:func:`union_categories`), so unify, arithmetic and squash keep the
dtype.
"""

from __future__ import annotations

from typing import List

import numpy as np
import pandas as pd

#: dataframe columns held as ``category`` when their values are text
CATEGORICAL_COLUMNS = ("type", "file", "module")

#: the dtype of every category index: pandas' default for text (``str`` on
#: pandas 3, object on pandas 2), so equal categories always give equal dtypes
TEXT = pd.Index(["text"]).dtype


def as_categorical(values: pd.Series) -> pd.Series:
    """``values`` as a Categorical with sorted categories when its name is one of
    :data:`CATEGORICAL_COLUMNS` and it holds only text (or missing values).

    Any other Series, and a categorical one, is returned unchanged.

    Examples
    --------
    >>> s = as_categorical(pd.Series(["b.c", "a.c", None, "b.c"], name="file"))
    >>> str(s.dtype), s.cat.categories.tolist(), s.cat.codes.tolist()
    ('category', ['a.c', 'b.c'], [1, 0, -1, 1])
    >>> str(as_categorical(pd.Series([1, 2], name="file")).dtype)
    'int64'
    """
    if values.name not in CATEGORICAL_COLUMNS or isinstance(values.dtype, pd.CategoricalDtype):
        return values
    if values.dtype != object and not isinstance(values.dtype, pd.StringDtype):
        return values
    if pd.api.types.infer_dtype(values, skipna=True) not in ("string", "empty"):
        return values
    codes, uniques = pd.factorize(values, sort=True, use_na_sentinel=True)
    dtype = text_categories(np.asarray(uniques, dtype=object))
    return pd.Series(pd.Categorical.from_codes(codes, dtype=dtype), index=values.index,
                     name=values.name, copy=False)


def drop_unused_categories(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the categories no row uses removed from its categorical columns.

    After a filter, the values of the rows it removed would otherwise linger as
    categories (``value_counts`` listing them with 0, pandas 2's
    ``groupby(observed=False)`` showing them as empty groups). ``df`` must be a
    frame nobody else holds (a filter's fresh result); it is changed and returned.

    Examples
    --------
    >>> df = pd.DataFrame({"file": pd.Categorical(["a.c", "b.c"])}).iloc[[1]].copy()
    >>> drop_unused_categories(df)["file"].cat.categories.tolist()
    ['b.c']
    """
    for col in CATEGORICAL_COLUMNS:
        if col in df.columns and isinstance(df[col].dtype, pd.CategoricalDtype):
            df[col] = df[col].cat.remove_unused_categories()
    return df


def union_categories(*pieces: pd.Series) -> List[pd.Series]:
    """The Series over the sorted union of their categories, when any is categorical,
    so that ``pandas.concat`` of them stays categorical.

    A piece that is not categorical (a missing column filled with NaN, plain
    text) is converted over the same categories; if one holds something other
    than text, every piece becomes plain objects. Pieces none of which is
    categorical, or that all have the same dtype, are returned unchanged.

    Examples
    --------
    >>> a = pd.Series(pd.Categorical(["x.c", "z.c"]))
    >>> b = pd.Series(pd.Categorical(["y.c"]))
    >>> a2, b2 = union_categories(a, b)
    >>> a2.cat.categories.tolist(), b2.cat.codes.tolist()
    (['x.c', 'y.c', 'z.c'], [1])
    """
    is_cat = [isinstance(p.dtype, pd.CategoricalDtype) for p in pieces]
    if not any(is_cat) or (all(is_cat) and all(p.dtype == pieces[0].dtype for p in pieces)):
        return list(pieces)
    try:
        union = np.unique(np.concatenate([np.asarray(_categories(p), dtype=object)
                                          for p in pieces]))
    except TypeError:  # a piece holds something besides text: plain objects
        return [p.astype(object) for p in pieces]
    dtype = text_categories(union)
    return [_recode(p, dtype) for p in pieces]


def text_categories(sorted_text: np.ndarray) -> pd.CategoricalDtype:
    """The unordered CategoricalDtype of sorted, distinct strings (categories of dtype
    :data:`TEXT`)."""
    return pd.CategoricalDtype(pd.Index(sorted_text, dtype=TEXT), ordered=False)


def _categories(values: pd.Series) -> pd.Index:
    if isinstance(values.dtype, pd.CategoricalDtype):
        return values.cat.categories
    return pd.Index(values.dropna().unique())


def _recode(values: pd.Series, dtype: pd.CategoricalDtype) -> pd.Series:
    if isinstance(values.dtype, pd.CategoricalDtype):
        return values.cat.set_categories(dtype.categories)
    if values.dtype.kind == "f" and values.isna().all():  # a column one side lacks
        codes = np.full(len(values), -1, dtype=np.int8)
        return pd.Series(pd.Categorical.from_codes(codes, dtype=dtype), index=values.index,
                         name=values.name)
    return values.astype(dtype)
