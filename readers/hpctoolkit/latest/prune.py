"""Hatchet's tree cuts for the current HPCToolkit layout: ``max_depth`` and time thresholds.

Hatchet's ``from_hpctoolkit_latest(max_depth=, min_percentage_of_application_time=,
min_percentage_of_parent_time=)`` (the last in Hatchet 2024.1.3) stops descending
below ``max_depth`` (its entry node is depth 0) and skips every context (with
its subtree) whose summary inclusive time is missing or below the given
percentage of the main thread's (of its parent's). :func:`keep_mask` computes
the same selection over the node arrays, level by level (no per-node loop);
:func:`prune` drops the other nodes. Values of dropped contexts are then not
read; since inclusive values are read directly, a cut subtree's cost stays in
its kept ancestor's inclusive value, and so in that ancestor's own cost.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, Optional

import numpy as np

from ...errors import ReadError

#: CPU/real time metric names read as ``time`` (the first present), as hpctoolkit_latest does.
TIME_METRICS = ("CPUTIME (sec)", "CPUTIME (usec)", "REALTIME (sec)", "REALTIME (usec)")
MAIN_THREAD = 1


def keep_mask(directory: Path, meta: Any, pdb: Any, nodes: Dict[str, np.ndarray],
              max_depth: Optional[int], min_percentage: Optional[float],
              min_parent_percentage: Optional[float] = None) -> np.ndarray:
    """Which nodes survive the cuts (roots always do; a node only with its parent).

    ``min_parent_percentage`` (Hatchet 2024.1.3's ``min_percentage_of_parent_time``)
    drops a node whose summary inclusive time is missing or below that percentage
    of its parent's."""
    depth = nodes["depth"]
    keep = np.ones(len(depth), dtype=bool)
    if max_depth is not None:
        if not _is_int(max_depth) or max_depth < 0:
            raise ReadError(directory, f"max_depth={max_depth!r}", position="max_depth option",
                            expected="a non-negative int (entry points are depth 0)")
        keep &= depth <= max_depth
    for option, value in (("min_percentage_of_application_time", min_percentage),
                          ("min_percentage_of_parent_time", min_parent_percentage)):
        if value is not None and (isinstance(value, bool) or not isinstance(
                value, (int, float, np.number)) or not math.isfinite(value)):
            raise ReadError(directory, f"{option}={value!r}", position=f"{option} option",
                            expected="a finite number")
    roots = nodes["parent"] < 0
    if min_parent_percentage is not None:
        time, has_value = _summary_time(directory, meta, pdb, nodes["ctx_id"])
        parent_time = time[np.maximum(nodes["parent"], 0)]
        with np.errstate(invalid="ignore", divide="ignore"):
            below = time / parent_time * 100.0 < min_parent_percentage  # Hatchet's test
        keep &= roots | (has_value & ~below)
    if min_percentage is not None:
        time, has_value = _summary_time(directory, meta, pdb, nodes["ctx_id"])
        main = np.flatnonzero(nodes["entry"] == MAIN_THREAD)
        total = float(time[main[0]]) if len(main) else float(time[roots].sum())
        if not total > 0:
            raise ReadError(directory / "profile.db", f"the application's time is {total}",
                            position="summary profile",
                            expected="a positive time to take percentages of")
        with np.errstate(invalid="ignore"):
            below = time / total * 100 < min_percentage  # Hatchet's test, as written
        keep &= roots | (has_value & ~below)
    parent = nodes["parent"]
    order = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[order], np.arange(1, int(depth.max(initial=0)) + 2))
    for lo, hi in zip(bounds[:-1], bounds[1:]):  # one depth level at a time
        level = order[lo:hi]
        keep[level] &= keep[parent[level]]
    return keep


def prune(nodes: Dict[str, np.ndarray], keep: np.ndarray) -> Dict[str, np.ndarray]:
    """The node arrays of the kept nodes, parents renumbered.

    Examples
    --------
    >>> nodes = {"parent": np.array([-1, 0, 1, 0]), "ctx_id": np.array([5, 6, 7, 8])}
    >>> out = prune(nodes, np.array([True, True, False, True]))
    >>> out["parent"].tolist(), out["ctx_id"].tolist()
    ([-1, 0, 0], [5, 6, 8])
    """
    if keep.all():
        return nodes
    new_pos = np.cumsum(keep) - 1
    out = {k: v[keep] for k, v in nodes.items()}
    parent = out["parent"]
    out["parent"] = np.where(parent < 0, -1, new_pos[np.maximum(parent, 0)])
    return out


def _summary_time(directory: Path, meta: Any, pdb: Any, ctx_ids: np.ndarray):
    """Each node's summary inclusive time (sum over profiles) and whether it has a value."""
    metric = next((m for m in meta.metrics if m.name in TIME_METRICS), None)
    stat = None if metric is None else next(
        (sid for scope, combine, sid in metric.summaries if scope == "execution" and combine == 0),
        None)
    if stat is None:
        names = ", ".join(repr(m.name) for m in meta.metrics)
        raise ReadError(directory / "meta.db", "min_percentage_of_application_time needs a CPU "
                        "or real time metric summed over the execution scope; the database has "
                        f"{names or 'none'}",
                        position="metrics section",
                        expected=" or ".join(TIME_METRICS) + " with an execution-scope sum")
    ctx, metric_id, value = pdb.values(0)
    pick = metric_id == stat
    ctx, value = ctx[pick], value[pick]
    by_id = np.argsort(ctx_ids, kind="stable")
    sorted_ids = ctx_ids[by_id]
    at = np.minimum(np.searchsorted(sorted_ids, ctx), len(ctx_ids) - 1)
    listed = sorted_ids[at] == ctx
    pos = by_id[at[listed]]
    time = np.bincount(pos, weights=value[listed], minlength=len(ctx_ids))
    has_value = np.bincount(pos, minlength=len(ctx_ids)) > 0
    return time, has_value


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
