"""Everything the plots take from graphframe's internals, in one place.

The rest of :mod:`graphframe.plot` uses only the names below (and the public
GraphFrame/Graph attributes), so when an internal module moves, this is the
one file to change.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace
from typing import Any, Dict, Optional

import numpy as np
import pandas as pd

from .._version import __version__ as version
from ..model.dataframe import level_ids
from ..errors import ArgumentError, MetricError
from ..ops.inclusive import subgraph_sums
from ..render.html import render_html, summary
from ..render.numbers import key_text, plain_number
from ..render.units import UNITS_ATTR, metric_unit, unit_of, with_unit
from ..model.nodevalues import (AGGREGATES, check_metric, display_name_array, first_row_objects,
                                node_values)
from ..model.rowselect import level_value
from ..ops.stats import IMBALANCE_THRESHOLD, imbalance_order, significant_nodes

__all__ = ["AGGREGATES", "IMBALANCE_THRESHOLD", "ArgumentError", "MetricError", "UNITS_ATTR",
           "check_metric", "diff", "diff_record", "display_name_array", "first_row_objects",
           "imbalance_order", "inclusive_column_values", "key_text",
           "level_ids", "level_value", "metric_unit", "node_values", "per_node", "plain_number",
           "render_html", "resolve_metric", "significant_nodes", "summary", "unit_of",
           "version", "with_unit"]


def _diffing(module: str = "graphframe.diffing") -> Any:
    """The diff package, imported with its first use: a plot of an ordinary
    GraphFrame (and ``import graphframe``) never loads it."""
    return importlib.import_module(module)


def diff(before: Any, after: Any, *args: Any, **options: Any) -> Any:
    """:func:`graphframe.diff` (loaded on first use)."""
    return _diffing().diff(before, after, *args, **options)


def resolve_metric(d: Any, *args: Any, **options: Any) -> Any:
    """:func:`graphframe.diffing.table.resolve_metric` (loaded on first use)."""
    return _diffing("graphframe.diffing.table").resolve_metric(d, *args, **options)


def diff_record(gf: Any) -> Optional[Dict[str, Any]]:
    """``metadata["diff"]`` of a diff result, None for any other GraphFrame.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> a = GraphFrame.from_lists(("main", "solve"))
    >>> diff_record(a) is None, diff_record(diff(a, a))["primary"]
    (True, 'time')
    """
    if not isinstance(gf.metadata, dict) or not isinstance(gf.metadata.get("diff"), dict):
        return None
    return _diffing("graphframe.diffing.table").diff_info(gf)


def per_node(gf: Any, values: np.ndarray, rank: Optional[int] = None,
             thread: Optional[int] = None, aggregate: Optional[str] = "mean") -> np.ndarray:
    """One value per node from one value per dataframe row (see :func:`node_values`).

    ``rank``/``thread`` pick that row of each node; otherwise the rows of a
    node are combined with ``aggregate`` (NaN skipped).
    """
    shim = SimpleNamespace(dataframe=pd.DataFrame({"v": values}, index=gf.dataframe.index),
                           graph=gf.graph)
    if rank is not None or thread is not None:
        return node_values(shim, "v", rank=rank, thread=thread)
    return node_values(shim, "v", aggregate=aggregate)


def inclusive_column_values(gf: Any, column: Any) -> np.ndarray:
    """Per-row sums of ``column`` over each node and its distinct descendants
    (exactly what :meth:`GraphFrame.update_inclusive_columns` would write)."""
    return subgraph_sums(gf.graph, gf.dataframe, [column])[0]
