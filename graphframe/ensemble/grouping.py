"""Grouping profiles by metadata: a mapping key -> Ensemble, and ``agg`` in one groupby.

``ens.groupby(["compiler", "size"])`` gives an :class:`EnsembleGroupBy`: a
read-only mapping from each key (a value, or a tuple for several columns;
sorted) to the Ensemble of that group's profiles, built when it is first
asked for. ``.agg(func)`` never builds the groups: it computes one pandas
groupby over the rows keyed by ``(node, group[, rank][, thread])`` and
returns one Ensemble whose profiles are the groups (the ``profile`` level
holds the keys). Metric and other numeric columns are aggregated with
``func``; text columns keep their first value. A list of functions gives
columns named ``<column>_<function>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, Iterator, List, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError
from ._internal import pandas_agg, plain_values
from .profiles_index import row_positions
from .selection import select_profiles

INT = np.int64


class EnsembleGroupBy(Mapping):
    """Groups of profiles keyed by metadata values (see the module docs)."""

    def __init__(self, ens: Any, columns: Sequence[Any]) -> None:
        missing = [c for c in columns if c not in ens.metadata.columns]
        if missing:
            raise ArgumentError(f"metadata has no column {missing[0]!r}")
        self._ens = ens
        self._columns = list(columns)
        meta = ens.metadata[self._columns]
        keys = list(meta.itertuples(index=False, name=None))
        if len(self._columns) == 1:
            keys = [k[0] for k in keys]
        codes, uniques = pd.factorize(pd.Series(keys, dtype=object), sort=True,
                                      use_na_sentinel=False)
        self._codes = codes.astype(INT)
        self._keys = list(uniques)
        self._cache: Dict[int, Any] = {}

    @property
    def columns(self) -> List[Any]:
        """The metadata columns grouped by."""
        return list(self._columns)

    def __getitem__(self, key: Any) -> Any:
        try:
            i = self._keys.index(key)
        except ValueError:
            raise KeyError(key) from None
        if i not in self._cache:
            self._cache[i] = select_profiles(self._ens, np.flatnonzero(self._codes == i))
        return self._cache[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"<EnsembleGroupBy by {self._columns}: {len(self)} groups>"

    def agg(self, func: Any = "mean") -> Any:
        """One Ensemble with one profile per group (see the module docs)."""
        return aggregate(self._ens, self._codes, self._keys, self._columns, func)


def aggregate(ens: Any, codes: np.ndarray, keys: List[Any], columns: List[Any],
              func: Any) -> Any:
    """The groupby-aggregate behind :meth:`EnsembleGroupBy.agg`."""
    df = ens.dataframe
    group = codes[row_positions(ens)]
    names = list(df.index.names)
    by = [plain_values(df.index.get_level_values("node")), group] + \
        [plain_values(df.index.get_level_values(lv)) for lv in names[2:]]
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])
               and not pd.api.types.is_bool_dtype(df[c])]
    other = [c for c in df.columns if c not in numeric]
    grouped = df.groupby(by, sort=True)
    parts = []
    if numeric:
        spec = func
        if isinstance(func, Mapping):
            spec = {c: f for c, f in func.items() if c in numeric}
            unknown = [c for c in func if c not in df.columns]
            if unknown:
                raise ArgumentError(f"agg names the unknown column {unknown[0]!r}")
        agg = grouped[numeric if not isinstance(spec, Mapping) else list(spec)].agg(
            pandas_agg(spec))
        if isinstance(agg.columns, pd.MultiIndex):
            agg.columns = [f"{c}_{f}" for c, f in agg.columns]
        parts.append(agg)
    if other:
        parts.append(grouped[other].first())
    out = pd.concat(parts, axis=1) if len(parts) > 1 else parts[0]
    key_index = pd.Index(keys, tupleize_cols=False, name="profile") if len(columns) > 1 \
        else pd.Index(keys, name="profile")
    level_values = [out.index.get_level_values(i) for i in range(out.index.nlevels)]
    level_values[1] = key_index.take(np.asarray(level_values[1], dtype=INT))
    out.index = pd.MultiIndex.from_arrays(level_values, names=names)
    meta = _group_metadata(ens.metadata, codes, len(keys))
    meta.index = key_index
    profiles = pd.DataFrame({"profiles": [tuple(np.flatnonzero(codes == i).tolist())
                                          for i in range(len(keys))],
                             "paths": [tuple(ens.profiles["path"].to_numpy()[codes == i])
                                       for i in range(len(keys))]}, index=key_index)
    kept = set(out.columns)
    return ens.replace(dataframe=out, metadata=meta, profiles=profiles,
                       exc_metrics=[m for m in ens.exc_metrics if m in kept],
                       inc_metrics=[m for m in ens.inc_metrics if m in kept])


def _group_metadata(meta: pd.DataFrame, codes: np.ndarray, k: int) -> pd.DataFrame:
    """Per group: a column's value when the group agrees on it, else the tuple of its
    distinct values (first-seen order)."""
    data = {}
    for c in meta.columns:
        values = np.empty(len(meta), dtype=object)
        values[:] = list(meta[c])
        vcode, uniq = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
        u = max(len(uniq), 1)
        pair, first = np.unique(codes * u + vcode, return_index=True)
        pair = pair[np.argsort(first, kind="stable")]  # first-seen order
        group = pair // u
        count = np.bincount(group, minlength=k)
        column = np.empty(k, dtype=object)
        single = count[group] == 1
        column[group[single]] = np.asarray(uniq, dtype=object)[pair[single] % u]
        for g in np.flatnonzero(count > 1):
            column[g] = tuple(np.asarray(uniq, dtype=object)[pair[group == g] % u])
        data[c] = pd.Series(column).infer_objects().to_numpy()
    return pd.DataFrame(data, index=pd.RangeIndex(k))
