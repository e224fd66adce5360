"""Thicket's representation of a few values, over graphframe's tables.

Thicket 2026 reads ``.cali`` files through Hatchet 2026, which stores

* ``nid`` as a float (Hatchet casts the column to ``double``),
* ``spot.channel`` as the tuple of the distinct channels of the node's records
  (``('regionprofile',)``: Hatchet aggregates every text column of a node's
  records into ``tuple(set(values))``),
* list-valued metadata (``libraries``, ``cmdline``) as lists.

graphframe keeps an integer ``nid``, one ``spot.channel`` string per record and
tuples in the metadata (hashable, so they can be grouped by). A Thicket shows
Thicket's values (:func:`thicket_dataframe`, :func:`thicket_metadata`) and hands
graphframe's back to the Ensemble operations (:func:`ensemble_metadata`); each is
one pass over the column, not over the rows' Python objects, where the column
holds few distinct values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from graphframe.model.dataframe import with_columns

#: Columns Hatchet 2026's ``.cali`` reader holds as tuples of distinct values.
TUPLE_COLUMNS = ("spot.channel",)
CALIPER_FORMATS = ("caliper",)


def _last(column: Any) -> Any:
    return column[-1] if isinstance(column, tuple) else column


def thicket_dataframe(df: pd.DataFrame, formats: Any) -> pd.DataFrame:
    """``df`` with Thicket's ``nid`` (float) and ``spot.channel`` (tuples) when every
    profile was read from a ``.cali`` file (``formats``: the profiles' formats); the
    frame is returned as is otherwise or when it already holds them.

    Examples
    --------
    >>> df = pd.DataFrame({"nid": [1, 2], "spot.channel": ["regionprofile", None]})
    >>> out = thicket_dataframe(df, ["caliper"])
    >>> out["nid"].tolist(), out["spot.channel"].tolist()
    ([1.0, 2.0], [('regionprofile',), None])
    >>> thicket_dataframe(df, ["hpctoolkit"]) is df
    True
    """
    if formats is None or not len(formats) or \
            not all(f in CALIPER_FORMATS for f in pd.unique(np.asarray(formats, dtype=object))):
        return df
    changes = {}
    for i, column in enumerate(df.columns):
        name = _last(column)
        values = df.iloc[:, i]
        if name == "nid" and pd.api.types.is_integer_dtype(values.dtype):
            changes[i] = values.astype(np.float64)
        elif name in TUPLE_COLUMNS and values.dtype != object:
            codes, uniques = pd.factorize(values)
            boxed = np.empty(len(uniques) + 1, dtype=object)
            boxed[:-1] = [(u,) for u in uniques]
            boxed[-1] = None   # missing: None, as in an object column of Thicket's
            changes[i] = pd.Series(boxed[codes], index=df.index, name=values.name, dtype=object)
    return with_columns(df, changes)


def _first_present(values: np.ndarray) -> Any:
    """The first value that is not None/NaN (None when there is none)."""
    for v in values:
        if v is not None and not (isinstance(v, float) and v != v):
            return v
    return None


def _convert(meta: pd.DataFrame, source: type, target: type) -> pd.DataFrame:
    changes = {}
    for i, dtype in enumerate(meta.dtypes):
        if dtype != object:
            continue
        values = meta.iloc[:, i].to_numpy()
        if not isinstance(_first_present(values), source):
            continue
        converted = np.empty(len(values), dtype=object)
        converted[:] = [target(v) if isinstance(v, source) else v for v in values]
        changes[i] = converted
    return with_columns(meta, changes)


def thicket_metadata(meta: pd.DataFrame) -> pd.DataFrame:
    """The metadata table with Thicket's lists where graphframe holds tuples.

    Examples
    --------
    >>> meta = pd.DataFrame({"libraries": [("a", "b"), ("c",)], "n": [1, 2]})
    >>> thicket_metadata(meta)["libraries"].tolist()
    [['a', 'b'], ['c']]
    """
    return _convert(meta, tuple, list)


def ensemble_metadata(meta: pd.DataFrame) -> pd.DataFrame:
    """The metadata table with graphframe's tuples where a Thicket shows lists.

    Examples
    --------
    >>> ensemble_metadata(pd.DataFrame({"libraries": [["a", "b"], None]}))["libraries"].tolist()
    [('a', 'b'), None]
    """
    return _convert(meta, list, tuple)
