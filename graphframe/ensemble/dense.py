"""The dense view: one row per node and profile (and each rank/thread of that profile).

Missing rows get NaN in every column except ``name``, which is the node's
name (Thicket's ``fill_perfdata`` does the same).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._internal import as_text
from .columns import index_from_arrays

INT = np.int64


def dense(ens: Any) -> Any:
    """A new Ensemble whose dataframe has every (node, profile[, levels]) row."""
    df = ens.dataframe
    n = ens.graph.num_nodes
    names = list(df.index.names)
    tail = pd.MultiIndex.from_arrays([df.index.get_level_values(i)
                                      for i in range(1, len(names))], names=names[1:])
    combos = tail.unique().sort_values()
    c = len(combos)
    arrays = [np.repeat(np.arange(n, dtype=INT), c)]
    for i in range(len(names) - 1):
        arrays.append(np.tile(np.asarray(combos.get_level_values(i)), n))
    if all(np.asarray(a).dtype.kind in "iu" for a in arrays):
        full = index_from_arrays(arrays, names)
    else:
        full = pd.MultiIndex.from_arrays(arrays, names=names)
    if len(full) == len(df):
        return ens.replace()
    out = df.reindex(full)
    if "name" in out.columns and "name" in ens.graph.attr_names():
        names_by_node = ens.graph.attr_values("name")
        filled = names_by_node[np.asarray(full.get_level_values("node"), dtype=INT)]
        out["name"] = as_text(pd.Series(filled, index=out.index, dtype=object))
    return ens.replace(dataframe=out)
