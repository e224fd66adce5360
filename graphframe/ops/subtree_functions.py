"""``subtree_sum`` / ``subgraph_sum`` with aggregation functions other than the sum.

Hatchet's ``function`` argument is any callable. Its two rules:

- *tree rule* (``subtree_sum``; ``subgraph_sum`` on a tree): nodes in
  post-order; a node with children gets ``function`` of its own input value
  and its children's results (per rank/thread combination), so the function
  is applied recursively;
- *subgraph rule* (``subgraph_sum`` on anything else): a node gets
  ``function`` of the input values of its distinct descendants (itself
  included); a DataFrame of the columns when the index is ``node`` only, a
  Series per column and combination otherwise.

For the associative, idempotent-or-not reductions that both rules agree on
(max, min, product) trees and forests are reduced level by level with one
numpy ``reduceat`` per depth level (NaN skipped; a subtree without any value
stays NaN). Any other callable, and max/min/product on graphs with shared
nodes, follow Hatchet's per-node definition: one Python call per node (and
combination), documented as the slow path.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..errors import OperationError
from .reductions import pandas_agg, reduction_kind
from .rowmatrix import RowLayout

INT = np.int64

_UFUNC = {"max": np.fmax, "min": np.fmin}


def reduction_name(function: Any) -> Optional[str]:
    """``"sum"``, ``"max"``, ``"min"`` or ``"prod"`` for the vectorised reductions, None
    for any other callable.

    Examples
    --------
    >>> reduction_name(np.max), reduction_name("prod"), reduction_name(max)
    ('max', 'prod', 'max')
    >>> reduction_name(lambda s: s.count()) is None
    True
    """
    if function is None:
        return "sum"
    if isinstance(function, str):
        if function in ("sum", "max", "min", "prod"):
            return function
        raise OperationError(f"unknown aggregation {function!r}; use 'sum', 'max', 'min', "
                             "'prod' or a callable")
    if not callable(function):
        raise OperationError(f"function must be callable or a name such as 'sum', "
                             f"not {function!r}")
    return reduction_kind(function)


def forest_reduce(graph: Any, mat: np.ndarray, how: str) -> None:
    """Reduce a forest's (node x combination) matrix bottom-up in place (NaN = no value)."""
    if how == "prod":
        has = ~np.isnan(mat)
        work = np.where(has, mat, 1.0)
        seen = has.astype(INT)
        for level, targets, starts in graph.level_plan():
            work[targets] *= np.multiply.reduceat(work[level], starts, axis=0)
            seen[targets] += np.add.reduceat(seen[level], starts, axis=0)
        mat[...] = np.where(seen > 0, work, np.nan)
        return
    ufunc = _UFUNC[how]
    for level, targets, starts in graph.level_plan():
        mat[targets] = ufunc(mat[targets], ufunc.reduceat(mat[level], starts, axis=0))


def grid(layout: RowLayout, values: np.ndarray):
    """``(values, has_row)`` as (node x combination) matrices; NaN where no row."""
    mat = np.full((layout.n_nodes, layout.n_combos), np.nan)
    has = np.zeros((layout.n_nodes, layout.n_combos), dtype=bool)
    mat[layout.node, layout.combo] = values
    has[layout.node, layout.combo] = True
    return mat, has


def tree_rule(graph: Any, mat: np.ndarray, has: np.ndarray, function: Callable,
              what: str) -> None:
    """Hatchet's post-order rule, one depth level at a time (``mat`` changed in place).

    Per level, the values of each parent (its own input, then its children's
    results) are grouped by (parent, combination) and ``function`` is called
    once per group with a Series, as pandas' ``groupby().agg`` does.
    """
    n_combos = mat.shape[1]
    combos = np.arange(n_combos, dtype=INT)
    for level, targets, starts in graph.level_plan():
        sizes = np.diff(np.r_[starts, len(level)])
        parents = np.repeat(targets, sizes)
        keys_node = np.r_[np.repeat(targets, n_combos), np.repeat(parents, n_combos)]
        keys_combo = np.r_[np.tile(combos, len(targets)), np.tile(combos, len(level))]
        values = np.r_[mat[targets].reshape(-1), mat[level].reshape(-1)]
        keep = np.r_[has[targets].reshape(-1), has[level].reshape(-1)] \
            & has[keys_node, keys_combo]
        if not keep.any():
            continue
        series = pd.Series(values[keep])
        grouped = series.groupby([keys_node[keep], keys_combo[keep]], sort=False)
        result = _call(lambda: grouped.agg(pandas_agg(function)), function, what)
        node = np.asarray(result.index.get_level_values(0), dtype=INT)
        combo = np.asarray(result.index.get_level_values(1), dtype=INT)
        mat[node, combo] = _floats(result.to_numpy(), function, what)


def subgraph_rule(graph: Any, frame: pd.DataFrame, layout: RowLayout,
                  columns: Sequence[Any], function: Callable, what: str) -> List[np.ndarray]:
    """Hatchet's rule for graphs that are not trees: ``function`` of each node's distinct
    descendants' input values (itself included); one call per node (and combination)."""
    reducer = _NUMPY.get(function) if isinstance(function, str) else None
    cells = [grid(layout, frame[c].to_numpy(dtype=np.float64, na_value=np.nan))
             for c in columns]
    has = cells[0][1] if cells else np.zeros((layout.n_nodes, 1), dtype=bool)
    outs = [mat.copy() for mat, _ in cells]
    single = not isinstance(frame.index, pd.MultiIndex)
    row_of_node = np.full(layout.n_nodes, -1, dtype=INT)
    if single:
        row_of_node[layout.node] = np.arange(len(layout.node))
    seen = np.zeros(layout.n_nodes, dtype=bool)
    for u in np.flatnonzero(has.any(axis=1)):
        desc = descendants(graph, int(u), seen)
        if single:
            rows = row_of_node[desc]
            sub = frame.iloc[rows[rows >= 0]][list(columns)]
            res = _call(lambda: _skipping_nan(reducer, sub.to_numpy(dtype=np.float64))
                        if reducer else function(sub), function, what)
            for out, value in zip(outs, _per_column(res, len(columns), function, what)):
                out[u, 0] = value
            continue
        for c in np.flatnonzero(has[u]):
            for out, (mat, cell_has) in zip(outs, cells):
                vals = mat[desc, c][cell_has[desc, c]]
                res = _call(lambda: _skipping_nan(reducer, vals[:, None])[0] if reducer
                            else function(pd.Series(vals)), function, what)
                out[u, c] = _floats(np.asarray([res], dtype=object), function, what)[0]
    return [out[layout.node, layout.combo] for out in outs]


_NUMPY = {"sum": np.nansum, "max": np.nanmax, "min": np.nanmin, "prod": np.nanprod}


def _skipping_nan(reducer: Callable, values: np.ndarray) -> np.ndarray:
    """``reducer`` over each column with NaN skipped; NaN for a column without values
    (as the vectorised forest path gives)."""
    out = reducer(values, axis=0)
    return np.where(np.isnan(values).all(axis=0), np.nan, out)


def descendants(graph: Any, node: int, seen: np.ndarray) -> np.ndarray:
    """Distinct nodes reachable from ``node`` (itself first), one numpy step per level.

    ``seen`` is a scratch boolean array of the graph's size, all False on entry
    and on return.

    Examples
    --------
    >>> import pandas as pd
    >>> from graphframe import Graph
    >>> g, _ = Graph.build(pd.DataFrame({"name": list("abcd")}), [-1, 0, 0, 1], ([2], [3]))
    >>> sorted(descendants(g, 0, np.zeros(4, dtype=bool)).tolist())
    [0, 1, 2, 3]
    """
    ptr, idx = graph.child_ptr, graph.child_idx
    frontier = np.array([node], dtype=INT)
    seen[node] = True
    found = [frontier]
    while len(frontier):
        starts = ptr[frontier]
        counts = ptr[frontier + 1] - starts
        total = int(counts.sum())
        if not total:
            break
        offsets = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(total)
        kids = np.unique(idx[offsets])
        frontier = kids[~seen[kids]]
        seen[frontier] = True
        found.append(frontier)
    out = np.concatenate(found)
    seen[out] = False
    return out


def _call(thunk: Callable[[], Any], function: Any, what: str) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices give NaN
            return thunk()
    except Exception as exc:  # the user's function: report which one, chain its error
        raise OperationError(f"{what}: function {function!r} failed ({type(exc).__name__}: "
                             f"{exc})") from exc


def _per_column(result: Any, n: int, function: Any, what: str) -> np.ndarray:
    """One number per column from what ``function`` returned for a DataFrame (a Series,
    a list, or one number for every column)."""
    try:
        values = [result] if np.isscalar(result) else list(result)
        return _floats(np.broadcast_to(np.asarray(values, dtype=object), (n,)), function, what)
    except (TypeError, ValueError) as exc:
        raise OperationError(f"{what}: function {function!r} must give one number per "
                             f"column ({n}), not {result!r}") from exc


def _floats(values: Any, function: Any, what: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise OperationError(f"{what}: function {function!r} must give one number per "
                             f"node and column") from exc
