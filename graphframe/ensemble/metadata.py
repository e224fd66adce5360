"""The ``metadata`` table: one row per profile, indexed by ``profile``.

Columns are the union of every profile's run information (Caliper globals and
Adiak values, HPCToolkit and other readers' metadata) in first-seen order,
then the user's columns. Lists become tuples (and dicts tuples of their
items) so that values can be grouped, compared and hashed; a profile that
lacks a key has NaN there.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

from ..errors import ArgumentError

UserMetadata = Union[None, pd.DataFrame, Mapping[str, Sequence[Any]],
                     Callable[[str], Mapping[str, Any]]]


def hashable(value: Any) -> Any:
    """Lists and arrays as tuples, dicts as tuples of ``(key, value)`` (recursively).

    Examples
    --------
    >>> hashable(["a", ["b", 1]]), hashable({"x": [1]})
    (('a', ('b', 1)), (('x', (1,)),))
    """
    if isinstance(value, (list, tuple, np.ndarray)):
        return tuple(hashable(v) for v in value)
    if isinstance(value, Mapping):
        return tuple((k, hashable(v)) for k, v in value.items())
    if isinstance(value, np.generic):
        return value.item()
    return value


def metadata_table(rows: Sequence[Mapping[str, Any]], paths: Sequence[str],
                   user: UserMetadata = None) -> pd.DataFrame:
    """The metadata table of profiles ``0..len(rows)-1`` (see the module docs).

    ``user`` adds columns: a DataFrame with one row per profile (in order), a
    mapping column -> one value per profile, or a function ``f(path) ->
    dict`` called for every profile.

    Examples
    --------
    >>> metadata_table([{"compiler": "gcc", "flags": ["-O2"]}, {"compiler": "clang"}],
    ...                ["a.cali", "b.cali"], {"trial": [1, 2]})
            compiler  flags  trial
    profile
    0            gcc  (-O2,)      1
    1          clang    NaN      2
    """
    n = len(rows)
    columns: Dict[str, List[Any]] = {}
    for i, row in enumerate(rows):
        for key, value in row.items():
            if key not in columns:
                columns[key] = [np.nan] * n
            columns[key][i] = hashable(value)
    for key, values in user_columns(user, paths).items():
        columns[key] = [hashable(v) for v in values]
    index = pd.RangeIndex(n, name="profile")
    data = {k: _column(v) for k, v in columns.items()}
    return pd.DataFrame(data, index=index) if data else pd.DataFrame(index=index)


def _column(values: List[Any]) -> Any:
    if any(isinstance(v, tuple) for v in values):
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return values


def user_columns(user: UserMetadata, paths: Sequence[str]) -> Dict[str, List[Any]]:
    """The user's metadata columns: name -> one value per profile of ``paths``."""
    n = len(paths)
    if user is None:
        return {}
    if isinstance(user, pd.DataFrame):
        if len(user) != n:
            raise ArgumentError(f"metadata= has {len(user)} rows for {n} profiles")
        return {k: list(user[k]) for k in user.columns}
    if callable(user):
        found: List[Mapping[str, Any]] = [dict(user(p)) for p in paths]
        keys: List[str] = []
        for row in found:
            keys += [k for k in row if k not in keys]
        return {k: [row.get(k, np.nan) for row in found] for k in keys}
    if isinstance(user, Mapping):
        out = {}
        for k, values in user.items():
            values = list(values)
            if len(values) != n:
                raise ArgumentError(f"metadata column {k!r} has {len(values)} values for "
                                    f"{n} profiles")
            out[k] = values
        return out
    raise ArgumentError(f"metadata= must be a DataFrame, a mapping or a function, not "
                        f"{type(user).__name__}")
