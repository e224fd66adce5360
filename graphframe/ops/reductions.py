"""The one table of numpy (and builtin) reductions that pandas computes by name.

Hatchet passes the user's aggregation function (``np.mean``, ``np.prod``,
``np.nanmax``, ``max``, a lambda) to pandas' ``groupby(...).agg``. Hatchet runs
on pandas 2, which replaces the reductions of its own table by its named
aggregations (``np.prod`` -> ``"prod"``, ``np.std`` -> ``"std"``, ``max`` ->
``"max"``: NaN skipped, ``ddof=1``) and warns (``FutureWarning``) that a future
version will call the function instead. pandas 3 does call it on each group's
values (``np.std`` is then the population deviation, ``np.median`` NaN when a
value is NaN, one Python call per group).

:func:`pandas_agg` passes every function of pandas 2's table by its name, on
pandas 2 and pandas 3 alike: the numbers are Hatchet's whatever pandas is
installed, without the warning, and the names run vectorised. Any other
callable is passed as it is. Every aggregation (``drop_index_levels``,
``groupby_aggregate``, ``subtree_sum``'s tree rule, ``Ensemble.groupby(...).agg``)
goes through it, and ``subtree_sum``'s vectorised reductions are read from the
same table (:func:`reduction_kind`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Optional

import numpy as np
import pandas as pd

#: the same computation by name on every pandas: NaN skipped, as these functions
#: skip it on a group's Series (``np.sum(series)`` is ``series.sum()``) or by definition
SAME = {np.sum: "sum", np.nansum: "sum", np.mean: "mean", np.nanmean: "mean",
        np.prod: "prod", np.nanprod: "prod", np.max: "max", np.amax: "max", np.nanmax: "max",
        np.min: "min", np.amin: "min", np.nanmin: "min", np.nanmedian: "median"}

#: the rest of pandas 2's table: by name (``ddof=1``, NaN skipped) as pandas 2, and so
#: Hatchet, computes them; pandas 3 alone would call them (``ddof=0``; NaN in, NaN out
#: for ``np.median``, ``sum``)
PANDAS2_ONLY = {np.median: "median", np.std: "std", np.nanstd: "std", np.var: "var",
                np.nanvar: "var", sum: "sum", max: "max", min: "min"}

_NAMES = {**SAME, **PANDAS2_ONLY}

#: ``subtree_sum``'s vectorised reductions (NaN skipped on every pandas, as documented
#: there): the table's sums, maxima, minima and products, the builtins and math.prod
_KINDS = {f: name for f, name in {**SAME, sum: "sum", max: "max", min: "min",
                                   math.prod: "prod"}.items()
          if name in ("sum", "max", "min", "prod")}
if hasattr(np, "product"):  # numpy 1's deprecated alias of np.prod
    _KINDS[np.product] = "prod"


def pandas_agg(spec: Any) -> Any:
    """``spec`` for pandas' ``agg``, with each function pandas computes by name replaced
    by that name (in lists, tuples and dicts too); anything else unchanged.

    Examples
    --------
    >>> pandas_agg(np.prod), pandas_agg([np.mean, "max"]), pandas_agg({"time": np.nanmax})
    ('prod', ['mean', 'max'], {'time': 'max'})
    >>> f = lambda s: s.max() - s.min()
    >>> pandas_agg(f) is f
    True
    """
    if isinstance(spec, Mapping):
        return {key: pandas_agg(value) for key, value in spec.items()}
    if type(spec) in (list, tuple):  # not a NamedAgg, whose fields are not functions
        return type(spec)(pandas_agg(value) for value in spec)
    try:
        return _NAMES.get(spec, spec)
    except TypeError:  # unhashable
        return spec


def reduction_kind(function: Any) -> Optional[str]:
    """``"sum"``, ``"max"``, ``"min"`` or ``"prod"`` when ``function`` is one of those
    reductions (numpy's, their NaN-skipping forms, the builtins, ``math.prod``), else None.

    Examples
    --------
    >>> reduction_kind(np.nanprod), reduction_kind(max), reduction_kind(np.mean)
    ('prod', 'max', None)
    """
    try:
        return _KINDS.get(function)
    except TypeError:  # unhashable
        return None
