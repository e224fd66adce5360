"""How each column's values combine when rows merge (metric semantics).

A GraphFrame may declare, per column, one of ``"sum"``, ``"min"``,
``"max"``, ``"mean"``, ``"first"`` (``gf.aggregations``). Columns not listed
follow the defaults: declared exclusive/inclusive metrics are summed, every
other column (names, files, lines, ids...) keeps its first value. The rules
apply wherever rows merge: squash (siblings that become equal), unify and
arithmetic (two nodes of one operand with the same call path).
``drop_index_levels`` and ``groupby_aggregate`` use the function the caller
gives instead. Only ``"sum"`` metrics have inclusive partners.

Examples
--------
>>> from graphframe import GraphFrame
>>> gf = GraphFrame.from_lists(("main", "solve"))
>>> merge_rules(gf)
{'time': 'sum', 'name': 'first', 'time (inc)': 'sum'}
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence

import pandas as pd

from graphframe_readers.profile import AGGREGATIONS, NUMERIC_AGGREGATIONS

from ..errors import MetricError, OperationError
from ..model.fields import GraphFrameLike


def check_aggregations(mapping: Optional[Mapping[Any, str]], dataframe: pd.DataFrame
                       ) -> Dict[Any, str]:
    """A private copy of ``mapping`` after checking it against ``dataframe``'s columns.

    Raises :class:`MetricError` for a column the dataframe lacks and
    :class:`OperationError` for an unknown kind, or ``"sum"``/``"mean"`` on a
    column that does not hold numbers.

    Examples
    --------
    >>> df = pd.DataFrame({"time": [1.0], "name": ["a"]})
    >>> check_aggregations({"time": "max"}, df)
    {'time': 'max'}
    >>> check_aggregations({"time": "median"}, df)
    Traceback (most recent call last):
    ...
    graphframe.errors.OperationError: unknown aggregation 'median' for column 'time'; use one of sum, min, max, mean, first
    """
    if mapping is None:
        return {}
    if not isinstance(mapping, Mapping):
        raise OperationError(f"aggregations must be a mapping column -> kind, not "
                             f"{type(mapping).__name__}")
    out: Dict[Any, str] = {}
    for col, kind in mapping.items():
        if col not in dataframe.columns:
            raise MetricError(f"aggregation declared for {col!r}, which is not a column of the "
                              f"dataframe ({[str(c) for c in dataframe.columns]})")
        if not isinstance(kind, str) or kind not in AGGREGATIONS:
            raise OperationError(f"unknown aggregation {kind!r} for column {col!r}; use one of "
                                 f"{', '.join(AGGREGATIONS)}")
        if kind in NUMERIC_AGGREGATIONS and not pd.api.types.is_numeric_dtype(dataframe[col]):
            raise OperationError(f"aggregation {kind!r} for column {col!r}, which holds "
                                 f"{dataframe[col].dtype} values, not numbers")
        out[col] = kind
    return out


def merge_rules(gf: GraphFrameLike) -> Dict[Any, str]:
    """The aggregation of every dataframe column, defaults filled in."""
    return rules_for(gf.dataframe.columns, list(gf.exc_metrics) + list(gf.inc_metrics),
                     gf.aggregations)


def rules_for(columns: Sequence[Any], metrics: Sequence[Any],
              aggregations: Mapping[Any, str]) -> Dict[Any, str]:
    """Aggregation per column: declared, else ``"sum"`` for metrics, ``"first"`` otherwise."""
    metric_set = set(metrics)
    return {c: aggregations.get(c, "sum" if c in metric_set else "first") for c in columns}


def summed(gf: GraphFrameLike, column: Any) -> bool:
    """True when ``column`` is summed when rows merge (and so has an inclusive partner)."""
    return gf.aggregations.get(column, "sum") == "sum"


def combined_aggregations(left: GraphFrameLike, right: GraphFrameLike) -> Dict[Any, str]:
    """Declarations of a result built from two operands: the left's, plus the right's
    for columns only the right has."""
    out = {c: k for c, k in right.aggregations.items() if c not in left.dataframe.columns}
    out.update(left.aggregations)
    return out
