"""Comparing a GraphFrame with what Hatchet read (``reference_facts.json``)."""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable

import numpy as np
import pandas as pd


def describe(gf: Any) -> Dict[str, Any]:
    """The facts reference_facts.json records, computed from our GraphFrame."""
    df = gf.dataframe
    graph = gf.graph
    numeric = {str(c): float(df[c].sum()) for c in df.columns
               if pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])}
    facts = {
        "graph_nodes": graph.num_nodes,
        "dataframe_rows": len(df),
        "df_unique_nodes": int(df.index.get_level_values("node").nunique()),
        "index_names": list(df.index.names),
        "num_roots": len(graph.root_ids),
        "max_depth": int(graph.depth.max()) if graph.num_nodes else 0,
        "multi_parent_nodes": int((np.diff(graph.parent_ptr) > 1).sum()),
        "columns": [str(c) for c in df.columns],
        "exc_metrics": list(gf.exc_metrics),
        "inc_metrics": list(gf.inc_metrics),
        "default_metric": gf.default_metric,
        "numeric_sums": numeric,
        "exc_metric_sums": {m: numeric[m] for m in gf.exc_metrics if m in numeric},
    }
    if "rank" in df.index.names:
        ranks = sorted(set(df.index.get_level_values("rank").tolist()))
        facts["ranks"] = {"count": len(ranks), "values": ranks}
    return facts


def assert_matches(gf: Any, expected: Dict[str, Any], keys: Iterable[str],
                   rel: float = 1e-9) -> None:
    """Assert that each fact in ``keys`` equals Hatchet's (sums to ``rel``)."""
    ours = describe(gf)
    for key in keys:
        want, got = expected[key], ours.get(key)
        if key in ("numeric_sums", "exc_metric_sums"):
            for metric, value in want.items():
                assert metric in got, f"{key}: column {metric!r} missing"
                assert math.isclose(got[metric], value, rel_tol=rel, abs_tol=1e-9), \
                    f"{key}[{metric!r}]: ours {got[metric]} vs Hatchet {value}"
        else:
            assert got == want, f"{key}: ours {got!r} vs Hatchet {want!r}"
