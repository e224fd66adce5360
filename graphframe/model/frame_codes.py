"""Interning frames to integers, vectorised over a frame attribute table.

A frame table has one row per node and one column per frame key; a missing
value means the key is absent. :func:`frame_codes` gives every row an integer
such that two rows get the same code exactly when their frames are equal and
codes compare like the frames do (Hatchet's order: the sorted ``(key, value)``
tuples compared lexicographically). Graphs sort siblings, intern frames for
union and test equality with these codes instead of Frame objects.
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pandas as pd

from .frame import DEFAULT_TYPE


def frame_codes(table: pd.DataFrame) -> np.ndarray:
    """Dense frame codes (0..k-1) ordered like Hatchet's frame ordering.

    Examples
    --------
    >>> t = pd.DataFrame({"name": ["b", "a", "b", None],
    ...                   "line": [None, None, None, 3],
    ...                   "type": ["f", "f", "f", "loop"]})
    >>> frame_codes(t).tolist()
    [2, 1, 2, 0]
    """
    n = len(table)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    columns = sorted(set(table.columns) | {"type"})
    present = []
    ranks = []
    for col in columns:
        if col in table.columns:
            column = table[col]
            values = column.to_numpy() if isinstance(column.dtype, np.dtype) else column.array
            mask = ~np.asarray(pd.isna(values), dtype=bool)
            if col == "type" and not mask.all():
                values = np.where(mask, np.asarray(values, dtype=object), DEFAULT_TYPE)
                mask = np.ones(n, dtype=bool)
        else:
            values = np.full(n, DEFAULT_TYPE, dtype=object)
            mask = np.ones(n, dtype=bool)
        present.append(mask)
        ranks.append(_value_ranks(values, mask))
    # a key present in another frame but absent here sorts before any value
    # when this frame has no later keys (it is a prefix) and after any value
    # otherwise (its next pair has a larger key)
    later = np.zeros(n, dtype=bool)
    sort_keys: List[np.ndarray] = []
    for mask, rank in zip(reversed(present), reversed(ranks)):
        key = np.where(mask, rank + 1, np.where(later, np.iinfo(np.int64).max, 0))
        sort_keys.append(key)
        later |= mask
    # np.lexsort uses the last key as primary: sort_keys is already reversed
    order = np.lexsort(sort_keys)
    stacked = np.vstack(sort_keys)[:, order]
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = (stacked[:, 1:] != stacked[:, :-1]).any(axis=0)
    codes = np.empty(n, dtype=np.int64)
    codes[order] = np.cumsum(new_group) - 1
    return codes


def _value_ranks(values: Any, mask: np.ndarray) -> np.ndarray:
    """Rank of each present value (``values``: a column's array) among the distinct
    present values."""
    out = np.zeros(len(values), dtype=np.int64)
    if not mask.any():
        return out
    codes, uniques = pd.factorize(values if mask.all() else values[mask], sort=False)
    uniq = np.asarray(uniques, dtype=object)
    try:
        order = np.argsort(uniq, kind="stable")
    except TypeError:  # mixed types (e.g. int and str): order by type, then value
        order = np.array(sorted(range(len(uniq)),
                                key=lambda i: (type(uniq[i]).__name__, str(uniq[i]))),
                         dtype=np.int64)
    rank_of = np.empty(len(uniq), dtype=np.int64)
    rank_of[order] = np.arange(len(uniq))
    out[mask] = rank_of[codes]
    return out


def joint_frame_codes(a: Any, b: Any) -> np.ndarray:
    """Frame codes valid across both graphs, for ``a``'s nodes then ``b``'s.

    Only one representative row per distinct frame of each graph is coded
    jointly, then codes are spread back: cheap when names repeat.
    """
    rep_a = _first_of_each(a.frame_codes)
    rep_b = _first_of_each(b.frame_codes)
    table = pd.concat([a.attrs.iloc[rep_a], b.attrs.iloc[rep_b]], ignore_index=True, sort=False)
    joint = frame_codes(table)
    return np.concatenate([joint[:len(rep_a)][a.frame_codes], joint[len(rep_a):][b.frame_codes]])


def dense_codes(codes: np.ndarray) -> np.ndarray:
    """Renumber codes to ``0..k-1`` keeping their order."""
    if not len(codes):
        return codes
    present = np.zeros(int(codes.max()) + 1, dtype=bool)
    present[codes] = True
    return (np.cumsum(present) - 1)[codes]


def _first_of_each(codes: np.ndarray) -> np.ndarray:
    """Position of the first node having each code ``0..max`` (codes are dense)."""
    first = np.full(int(codes.max()) + 1 if len(codes) else 0, len(codes), dtype=np.int64)
    np.minimum.at(first, codes, np.arange(len(codes), dtype=np.int64))
    return first
