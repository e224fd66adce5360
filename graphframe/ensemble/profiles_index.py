"""Profile labels and positions.

Profiles are numbered ``0..P-1`` in input order; :meth:`Ensemble.set_profile_index`
can label them with a metadata column instead (a problem size, a rank count).
The labels are the index of ``metadata`` and ``profiles`` and the ``profile``
level of the dataframe; positions (``0..P-1``) are what the operations use.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError

INT = np.int64


def row_positions(ens: Any, df: pd.DataFrame = None) -> np.ndarray:
    """Position (``0..P-1``) of every row's profile."""
    df = ens.dataframe if df is None else df
    labels = ens.metadata.index
    values = df.index.get_level_values("profile")
    if isinstance(labels, pd.RangeIndex) and labels.start == 0 and labels.step == 1:
        return np.asarray(values, dtype=INT)
    return np.asarray(labels.get_indexer(values), dtype=INT)


def positions_of(ens: Any, labels: Sequence[Any]) -> np.ndarray:
    """Positions of the profiles labelled ``labels``; an unknown label is an error."""
    pos = np.asarray(ens.metadata.index.get_indexer(pd.Index(list(labels))), dtype=INT)
    if (pos < 0).any():
        bad = list(labels)[int(np.flatnonzero(pos < 0)[0])]
        raise ArgumentError(f"profile {bad!r} does not exist (profiles: "
                            f"{list(ens.metadata.index[:5])}{'...' if ens.num_profiles > 5 else ''})")
    return pos


def set_profile_index(ens: Any, column: Any) -> Any:
    """Label the profiles with a metadata column (unique values); see the module docs."""
    if column not in ens.metadata.columns:
        raise ArgumentError(f"metadata has no column {column!r}")
    labels = pd.Index(ens.metadata[column].to_numpy(), name="profile")
    if labels.has_duplicates:
        dup = labels[labels.duplicated()][0]
        raise ArgumentError(f"metadata column {column!r} has the value {dup!r} for several "
                            "profiles; profile labels must be unique (use groupby to combine "
                            "them)")
    df = ens.dataframe
    pos = row_positions(ens)
    arrays = [df.index.get_level_values(i) for i in range(df.index.nlevels)]
    level = df.index.names.index("profile")
    arrays[level] = labels.take(pos)
    index = pd.MultiIndex.from_arrays(arrays, names=df.index.names)
    metadata = ens.metadata.copy(deep=False)
    metadata.index = labels
    profiles = ens.profiles.copy(deep=False)
    profiles.index = labels
    return ens.replace(dataframe=df.set_axis(index, axis=0), metadata=metadata,
                       profiles=profiles)
