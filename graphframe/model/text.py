"""Text columns of a dataframe: dictionary-encoded columns that behave as Hatchet's objects.

Every text column a GraphFrame's dataframe gets from the library (``name``,
``type``, ``file``, ``module`` and any other text attribute or metric, from
every reader, ``diff``, unify, arithmetic, ensembles, archives and JSON) is a
:class:`~graphframe.model.textarray.TextArray` column (dtype ``text``) of
Python ``str`` with ``None`` where a value is missing, on pandas 2 and on
pandas 3 alike. It gives what Hatchet's ``object`` columns give to the recipes
Hatchet users write: ``groupby("name").sum()`` concatenates the text of the
other text columns, ``fillna`` and ``df.loc[mask, "type"] = "text"`` take any
new value, ``+ "text"``, ``.str`` and ``max()`` work, and a copied column that
is set to ``None`` still holds ``None`` (pandas 3's ``str`` dtype would turn it
into NaN); ``astype(object)`` gives the object column itself.

Memory: a 4-byte code per row and one Python object per distinct value, so a
node's name repeated on each of its 16 ranks costs 16 codes of 4 bytes (an
``object`` column: 16 references of 8 bytes).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .textarray import TextArray, TextDtype

_TEXT_KINDS = ("string", "empty")


def is_text(values: pd.Series) -> bool:
    """True when ``values`` holds only text or missing values, whatever its dtype.

    Examples
    --------
    >>> is_text(pd.Series(["a", None])), is_text(pd.Series([1, 2])), is_text(pd.Series(["a", 1]))
    (True, False, False)
    """
    dtype = values.dtype
    if isinstance(dtype, (pd.StringDtype, TextDtype)):
        return True
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.api.types.infer_dtype(dtype.categories, skipna=True) in _TEXT_KINDS
    if dtype != object:
        return False
    return pd.api.types.infer_dtype(values, skipna=True) in _TEXT_KINDS


def as_text(values: pd.Series) -> pd.Series:
    """``values`` as a text column (:class:`TextArray`, ``None`` where missing) when it
    holds only text (``str``/``string``, categorical, object or text dtype).

    Each distinct string is one Python object shared by every row that holds
    it. A Series holding anything besides text and missing values is returned
    unchanged.

    Examples
    --------
    >>> s = as_text(pd.Series(["b.c", "a.c", float("nan"), "b.c"], name="file"))
    >>> str(s.dtype), s.tolist(), s[0] is s[3]
    ('text', ['b.c', 'a.c', None, 'b.c'], True)
    >>> as_text(pd.Series(pd.Categorical(["x", None]))).tolist()
    ['x', None]
    >>> str(as_text(pd.Series([1, 2], name="line")).dtype)
    'int64'
    """
    if not is_text(values):
        return values
    if isinstance(values.dtype, TextDtype):
        array = values.array.missing_as_none()
        if array is values.array:
            return values
        return pd.Series(array, index=values.index, name=values.name, copy=False)
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes = values.cat.codes.to_numpy()
        distinct = values.cat.categories
    else:
        codes, distinct = pd.factorize(values, use_na_sentinel=True)
    array = TextArray.from_codes(codes, np.asarray(distinct, dtype=object), missing=None,
                                 distinct_known=True)
    return pd.Series(array, index=values.index, name=values.name, copy=False)
