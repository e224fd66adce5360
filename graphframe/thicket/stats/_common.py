"""What every ``graphframe.thicket.stats`` function shares: checking columns, running the
one-pass statistics core over a Thicket's rows and writing statsframe columns.

A Thicket's statistics group its rows by ``node`` over every other index level
(profiles, and ranks/threads when present), as Thicket's ``groupby("node")``
does. Missing rows and NaN are "no value" (skipped, as pandas' aggregations
skip them); a node with no value gets NaN.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

import numpy as np
import pandas as pd

from ...errors import ArgumentError, MetricError
from ...ensemble.stats import thicket_column
from ...ensemble._internal import LevelPlan, level_stats


def check_columns(tk: Any, columns: Any, what: str = "columns") -> List[Any]:
    """``columns`` as a list of existing numeric performance-data columns."""
    if columns is None or (isinstance(columns, (list, tuple)) and not len(columns)
                           and not isinstance(columns, tuple)):
        raise ArgumentError(f"give {what}=[...]; the numeric columns are "
                            f"{', '.join(map(str, tk.performance_cols))}")
    if isinstance(columns, (str, tuple)):
        columns = [columns]
    columns = list(columns)
    for c in columns:
        if c not in tk.dataframe.columns:
            raise MetricError(f"no column {c!r} in the performance data; the numeric columns "
                              f"are {', '.join(map(str, tk.performance_cols))}")
        if not pd.api.types.is_numeric_dtype(tk.dataframe[c]):
            raise MetricError(f"column {c!r} holds {tk.dataframe[c].dtype} values, not numbers")
    return columns


def over_levels(tk: Any) -> List[Any]:
    """Every index level but ``node``: the samples of a node."""
    return [n for n in tk.dataframe.index.names if n != "node"]


def plan(tk: Any) -> LevelPlan:
    """The (node, samples) plan of the Thicket's rows."""
    return LevelPlan.of(tk.dataframe.index, over_levels(tk))


def node_stats(tk: Any, columns: Sequence[Any], stats: Sequence[str],
               percentiles: Sequence[float] = (), ddof: int = 1) -> pd.DataFrame:
    """Per-node statistics with Thicket's column names, one row per node of the statsframe."""
    table = level_stats(tk.dataframe, list(columns), over_levels(tk), stats=stats,
                        percentiles=percentiles, ddof=ddof, name=thicket_column, plan=plan(tk))
    return table.reindex(tk.statsframe.dataframe.index)


def write(tk: Any, source: Any, columns: Dict[Any, Any]) -> List[Any]:
    """Write ``columns`` (name -> values on the statsframe's index) into the statsframe and
    register them as exclusive (``source`` is exclusive) or inclusive metrics, as Thicket."""
    frame = tk.statsframe.dataframe
    for name, values in columns.items():
        frame[name] = values
        register(tk, source, name)
    return list(columns)


def register(tk: Any, source: Any, name: Any) -> None:
    sf = tk.statsframe
    target = sf.exc_metrics if source in tk.exc_metrics else sf.inc_metrics
    if name not in target:
        target.append(name)


def node_positions(tk: Any) -> np.ndarray:
    """Each row's position in the statsframe's node index."""
    nodes = tk.dataframe.index.get_level_values("node")
    return tk.statsframe.dataframe.index.get_indexer(nodes)


def values(tk: Any, column: Any) -> np.ndarray:
    return tk.dataframe[column].to_numpy(dtype=np.float64, na_value=np.nan)


def scipy_stats() -> Any:
    """``scipy.stats`` (the optional ``stats`` extra), or an ArgumentError saying so."""
    try:
        import scipy.stats
    except ImportError as err:   # optional dependency
        raise ArgumentError("this statistic needs SciPy: pip install 'graphframe[stats]'") \
            from err
    return scipy.stats
