"""Hatchet's column types for a GraphFrame's dataframe (``graphframe.options.hatchet_compat``).

graphframe stores text columns as its ``text`` dtype (a 4-byte code per row,
:mod:`graphframe.model.text`) and keeps the narrow integer types its readers
produce. Hatchet code that asserts or branches on dtypes expects Hatchet's:
``object`` for every text column, and the integer type each Hatchet reader
gives its columns. :func:`hatchet_column_types` converts a dataframe to
those; the GraphFrame constructor calls it while the setting is on.

Integer columns per source format (``metadata["format"]``), as Hatchet's
readers make them:

========================  ==========================  ==========================
format                    columns                     Hatchet's dtype
========================  ==========================  ==========================
``hpctoolkit``            ``nid``, ``line``           ``int64``
``caliper`` (``.cali``)   ``nid``                     ``Int64`` (nullable)
========================  ==========================  ==========================
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import numpy as np
import pandas as pd

from .textarray import TextDtype

#: source format -> column -> the dtype Hatchet's reader gives it
READER_TYPES: Dict[str, Dict[str, Any]] = {
    "hpctoolkit": {"nid": np.dtype(np.int64), "line": np.dtype(np.int64)},
    "caliper": {"nid": pd.Int64Dtype()},
}


def hatchet_column_types(df: pd.DataFrame, fmt: Optional[str] = None) -> pd.DataFrame:
    """``df`` with Hatchet's column types: text columns as ``object``, and the integer
    columns of ``fmt``'s reader as in :data:`READER_TYPES`; ``df`` itself when nothing
    changes (otherwise a shallow copy with the converted columns).

    Examples
    --------
    >>> from graphframe.model.text import as_text
    >>> df = pd.DataFrame({"name": as_text(pd.Series(["main", "solve"])),
    ...                    "nid": np.array([0, 1], dtype=np.int32), "time": [1.0, 2.0]})
    >>> out = hatchet_column_types(df, "hpctoolkit")
    >>> [str(t) for t in out.dtypes], out["name"].tolist()
    (['object', 'int64', 'float64'], ['main', 'solve'])
    >>> hatchet_column_types(out, "hpctoolkit") is out
    True
    """
    wanted: Mapping[str, Any] = READER_TYPES.get(fmt or "", {})
    changes: Dict[Any, Any] = {}
    for i, (column, dtype) in enumerate(df.dtypes.items()):
        if isinstance(dtype, TextDtype):
            changes[i] = df.iloc[:, i].astype(object)
        elif column in wanted and dtype != wanted[column] and dtype.kind in "iu":
            changes[i] = df.iloc[:, i].astype(wanted[column])
    if not changes:
        return df
    out = df.copy(deep=False)
    for i, values in changes.items():
        out.isetitem(i, values)
    return out
