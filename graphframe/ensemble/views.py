"""Looking at an Ensemble as one GraphFrame: one profile, an aggregate, a tree, a diff."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pandas as pd

from ..errors import ArgumentError
from ._internal import GraphFrame, diff as _diff
from .profiles_index import positions_of, row_positions

INT = np.int64
AGGREGATES = ("mean", "sum", "min", "max", "median", "std", "var", "first")


def to_graphframe(ens: Any, profile: Any = None, agg: Optional[str] = "mean",
                  squash: bool = True) -> GraphFrame:
    """One profile's GraphFrame, or every profile aggregated node by node.

    With ``profile`` (a label), that profile's rows without the ``profile``
    level, squashed to the nodes it has (``squash=False`` keeps the union
    graph). Otherwise the profiles' rows of each (node[, rank][, thread])
    are combined with ``agg`` (numeric columns; text columns keep the first
    value) on the union graph.
    """
    df = ens.dataframe
    decl = dict(exc_metrics=ens.exc_metrics, inc_metrics=ens.inc_metrics,
                default_metric=ens.default_metric, inclusive_of=ens.inclusive_of,
                aggregations=ens.aggregations)
    if profile is not None:
        pos = positions_of(ens, [profile])[0]
        rows = df[row_positions(ens) == pos].droplevel("profile")
        meta = {k: v for k, v in ens.metadata.iloc[pos].items() if not _is_nan(v)}
        gf = GraphFrame(ens.graph, rows, metadata=meta, **decl)
        return gf.squash(update_inc_cols=False) if squash else gf
    if agg not in AGGREGATES:
        raise ArgumentError(f"agg={agg!r}: use one of {', '.join(AGGREGATES)}")
    keys = ["node"] + list(df.index.names[2:])
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])
               and not pd.api.types.is_bool_dtype(df[c])]
    other = [c for c in df.columns if c not in numeric]
    grouped = df.groupby(level=keys, sort=True)
    parts = [grouped[numeric].agg(agg)] if numeric else []
    if other:
        parts.append(grouped[other].first())
    out = pd.concat(parts, axis=1)[list(df.columns)] if len(parts) > 1 else parts[0]
    return GraphFrame(ens.graph, out, **decl)


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and np.isnan(value)


def tree(ens: Any, metric_column: Any = None, profile: Any = None, **options: Any) -> str:
    """Hatchet's text tree of one profile (default: the first) or of statsframe columns.

    ``metric_column`` naming statsframe columns draws the statsframe;
    otherwise the profile's rows are drawn on the union graph.
    """
    columns = [metric_column] if isinstance(metric_column, str) else metric_column
    stats = ens.statsframe
    if columns and all(c in stats.columns for c in columns) \
            and not all(c in ens.dataframe.columns for c in columns):
        gf = GraphFrame(ens.graph, stats, [c for c in columns], [], default_metric=columns[0])
        return gf.tree(metric_column=metric_column, **options)
    label = ens.metadata.index[0] if profile is None else profile
    gf = to_graphframe(ens, profile=label, squash=False)
    return gf.tree(metric_column=metric_column, **options)


def diff(before: Any, after: Any, metric: Any = None, agg: str = "mean", **options: Any) -> Any:
    """:func:`graphframe.diff` of two ensembles (e.g. two groups), each aggregated with ``agg``."""
    a = to_graphframe(before, agg=agg)
    b = to_graphframe(after, agg=agg)
    return _diff(a, b, metric=metric, **options)
