"""Operations between the metadata table and the performance data."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Union

import numpy as np
import pandas as pd

from ..errors import ArgumentError
from .profiles_index import row_positions


def metadata_columns_to_perfdata(ens: Any, columns: Union[Any, Sequence[Any]],
                                 overwrite: bool = False, drop: bool = False) -> Any:
    """Copy metadata columns onto every row of the dataframe (by the row's profile).

    A column that already exists in the dataframe is an error unless
    ``overwrite``; ``drop=True`` removes the columns from the metadata.
    """
    cols = [columns] if isinstance(columns, str) or not isinstance(columns, Sequence) \
        else list(columns)
    meta = ens.metadata
    for c in cols:
        if c not in meta.columns:
            raise ArgumentError(f"metadata has no column {c!r}")
        if c in ens.dataframe.columns and not overwrite:
            raise ArgumentError(f"the dataframe already has a column {c!r} (overwrite=True "
                                "replaces it)")
    pos = row_positions(ens)
    df = ens.dataframe.copy(deep=False)
    for c in cols:
        values = meta[c].to_numpy()
        df[c] = values[pos]
    new_meta = meta.drop(columns=cols) if drop else meta
    return ens.replace(dataframe=df, metadata=new_meta)


def get_unique_metadata(ens: Any) -> Dict[Any, List[Any]]:
    """Every metadata column -> its distinct values (sorted when comparable).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> gf = GraphFrame.from_lists(("main",))
    >>> ens = Ensemble.from_graphframes([gf, gf, gf], metadata={"size": [2, 1, 2]})
    >>> ens.get_unique_metadata()["size"], ens.get_unique_metadata()["ranks"]
    ([1, 2], [1])
    """
    out: Dict[Any, List[Any]] = {}
    for c in ens.metadata.columns:
        values = [v for v in pd.unique(ens.metadata[c].to_numpy()) if not _missing(v)]
        values = [v.item() if isinstance(v, np.generic) else v for v in values]
        try:
            values = sorted(values)
        except TypeError:
            pass
        out[c] = values
    return out


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value))
