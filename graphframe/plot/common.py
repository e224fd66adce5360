"""What every plot needs from a GraphFrame: checked metrics, one value per node,
inclusive and exclusive forms, labels, and the nodes a user names.

All of it is numpy over whole columns; only the few labels a plot shows are
built one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ._sources import (AGGREGATES, ArgumentError, MetricError, check_metric,
                       display_name_array, inclusive_column_values, per_node, unit_of,
                       with_unit)

#: Between the names of a call path in labels.
PATH_SEPARATOR = " > "


@dataclass(frozen=True)
class NodeValues:
    """One value per node and what it is (for axis labels).

    Attributes
    ----------
    values : numpy.ndarray
        Float per node id; NaN where a node has no value.
    label : str
        Describes the values, e.g. ``"time (inc), mean over ranks"``.
    """

    values: np.ndarray
    label: str


def check_aggregate(aggregate: Any) -> str:
    """``aggregate`` if it is one of ``sum``, ``mean``, ``min``, ``max``.

    Examples
    --------
    >>> check_aggregate("max")
    'max'
    >>> check_aggregate("median")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: aggregate='median' is not known; choose one of sum, mean, min, max
    """
    if aggregate not in AGGREGATES:
        raise ArgumentError(f"aggregate={aggregate!r} is not known; choose one of "
                            f"{', '.join(AGGREGATES)}")
    return aggregate


def check_top(top: Any, what: str = "top") -> Optional[int]:
    """``top`` as an int >= 1, or None (everything)."""
    if top is None:
        return None
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise ArgumentError(f"{what}={top!r}: give a whole number of call paths, 1 or more "
                            "(or None for all)")
    return int(top)


def spread_label(gf: Any, rank: Optional[int], thread: Optional[int], aggregate: str) -> str:
    """How rows were combined, for labels: ``"rank 3"`` or ``"mean over ranks"``."""
    if rank is not None or thread is not None:
        parts = [f"rank {rank}" if rank is not None else "",
                 f"thread {thread}" if thread is not None else ""]
        return ", ".join(p for p in parts if p)
    levels = [str(n) for n in gf.dataframe.index.names[1:]]
    if not levels:
        return ""
    return f"{aggregate} over {' x '.join(lv + 's' for lv in levels)}"


def inclusive_form(gf: Any, metric: Any) -> Tuple[Any, bool]:
    """``(column, computed)``: the inclusive column of ``metric``, or ``metric``
    itself with ``computed=True`` when its sums over subtrees must be computed.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> inclusive_form(gf, "time"), inclusive_form(gf, "time (inc)")
    (('time (inc)', False), ('time (inc)', False))
    """
    metric = check_metric(gf, metric)
    if metric in gf.inc_metrics:
        return metric, False
    partner = gf.inclusive_of.get(metric)
    if partner is not None and partner in gf.dataframe.columns:
        return partner, False
    if gf.aggregations.get(metric, "sum") != "sum":
        raise MetricError(f"metric {metric!r} is combined by "
                          f"{gf.aggregations[metric]!r}, not summed, so it has no inclusive "
                          f"form; choose one of: {', '.join(map(str, gf.inc_metrics)) or 'none'}")
    return metric, True


def exclusive_form(gf: Any, metric: Any) -> Any:
    """The exclusive column of ``metric`` (``metric`` itself unless it is inclusive).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> exclusive_form(GraphFrame.from_lists(("main", "solve")), "time (inc)")
    'time'
    """
    metric = check_metric(gf, metric)
    if metric not in gf.inc_metrics:
        return metric
    for exc, inc in gf.inclusive_of.items():
        if inc == metric and exc in gf.dataframe.columns:
            return exc
    raise MetricError(f"metric {metric!r} is inclusive and the profile has no exclusive "
                      "partner for it; call gf.generate_exclusive_columns() first, or plot "
                      "inclusive values")


def node_metric(gf: Any, metric: Any = None, inclusive: bool = False,
                rank: Optional[int] = None, thread: Optional[int] = None,
                aggregate: str = "mean") -> NodeValues:
    """One value per node of ``metric`` in its inclusive or exclusive form.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        A numeric column (default ``gf.default_metric``).
    inclusive : bool
        The inclusive form: the declared partner, or the sums over each
        node's subtree computed from the exclusive values (as
        ``update_inclusive_columns`` would) when the profile has none.
    rank, thread : int, optional
        Use this rank's (thread's) row of every node ...
    aggregate : {"mean", "sum", "min", "max"}
        ... instead of combining all of a node's rows (NaN skipped).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> gf = example_graphframe()
    >>> v = node_metric(gf, "time", inclusive=True, aggregate="max")
    >>> round(float(v.values[0]), 6), v.label
    (30.62, 'time (inc), max over ranks')
    """
    aggregate = check_aggregate(aggregate)
    row_values, name = row_metric(gf, metric, inclusive)
    values = per_node(gf, row_values, rank=rank, thread=thread, aggregate=aggregate)
    spread = spread_label(gf, rank, thread, aggregate)
    return NodeValues(values, f"{name}, {spread}" if spread else name)


def row_metric(gf: Any, metric: Any = None, inclusive: bool = False) -> Tuple[np.ndarray, str]:
    """``(value per dataframe row, name)`` of ``metric``'s inclusive or exclusive form
    (see :func:`node_metric`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> values, name = row_metric(gf.drop_index_levels(inplace=False), "time", inclusive=True)
    >>> values.tolist(), name
    ([2.0, 1.0], 'time (inc)')
    """
    if inclusive:
        column, computed = inclusive_form(gf, metric)
        if computed:
            return inclusive_column_values(gf, column), \
                with_unit(f"{column} (sum over subtree)", unit_of(gf, column))
    else:
        column = exclusive_form(gf, metric)
    return gf.dataframe[column].to_numpy(dtype=np.float64, na_value=np.nan), \
        with_unit(column, unit_of(gf, column))


def names(gf: Any) -> np.ndarray:
    """Display name of every node (object array of str)."""
    return display_name_array(gf)


def call_path(gf: Any, node: int, labels: Optional[np.ndarray] = None) -> str:
    """``"main > solve > mpi"``: names along the first-parent path of ``node``.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> call_path(GraphFrame.from_lists(("main", ("solve", "mpi"))), 2)
    'main > solve > mpi'
    """
    labels = names(gf) if labels is None else labels
    parent = gf.graph.parent
    parts = []
    v = int(node)
    while v >= 0:
        parts.append(str(labels[v]))
        v = int(parent[v])
    return PATH_SEPARATOR.join(reversed(parts))


def short_labels(gf: Any, nodes: Sequence[int]) -> List[str]:
    """Labels for a few nodes: the name, lengthened by its callers' names until no
    other call path of the profile ends the same way (``"solve > mpi"`` when an
    ``"io > mpi"`` exists too).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), ("io", "mpi")))
    >>> gf.dataframe["name"].tolist()
    ['main', 'io', 'mpi', 'solve', 'mpi']
    >>> short_labels(gf, [4, 3])
    ['solve > mpi', 'solve']
    """
    labels = names(gf)
    codes = pd.factorize(labels)[0]
    parent = gf.graph.parent
    out = []
    for v in (int(x) for x in nodes):
        others = np.flatnonzero(codes == codes[v])
        others = others[others != v]
        parts, up, anc = [str(labels[v])], v, others
        while len(others) and parent[up] >= 0:  # walk up v and the look-alikes together
            up = int(parent[up])
            parts.append(str(labels[up]))
            anc = parent[anc]
            same = anc >= 0
            same[same] = codes[anc[same]] == codes[up]
            others, anc = others[same], anc[same]
        out.append(_compact(parts[::-1], v, ambiguous=len(others) > 0))
    return out


def _compact(parts: List[str], node: int, ambiguous: bool, limit: int = 60) -> str:
    """Join a path: runs of one name (recursion) as ``name ×k``; past ``limit``
    characters the middle is left out and the node id added.

    Examples
    --------
    >>> _compact(["main", "mg", "mg", "mg", "dgemm"], 7, False)
    'main > mg ×3 > dgemm'
    >>> _compact(["main"] + [f"step_{i}" for i in range(12)], 12, False)
    'main > … > step_10 > step_11 [node 12]'
    """
    runs: List[str] = []
    count = 1
    for i, name in enumerate(parts):
        if i + 1 < len(parts) and parts[i + 1] == name:
            count += 1
            continue
        runs.append(f"{name} ×{count}" if count > 1 else name)
        count = 1
    text = PATH_SEPARATOR.join(runs)
    if len(text) > limit and len(runs) > 3:
        text = PATH_SEPARATOR.join([runs[0], "…"] + runs[-2:])
        ambiguous = True
    return f"{text} [node {node}]" if ambiguous else text


def resolve_node(gf: Any, spec: Any) -> int:
    """The node id that ``spec`` names: an id, a ``Node``, a name, or a call path
    ``"main > solve > mpi"`` (its last names, enough to be unique).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), ("io", "mpi")))
    >>> resolve_node(gf, "solve"), resolve_node(gf, "solve > mpi"), resolve_node(gf, 1)
    (3, 4, 1)
    >>> resolve_node(gf, "mpi")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: 'mpi' names 2 call paths: main > io > mpi (node 2), main > solve > mpi (node 4); give one of them or a node id
    """
    n = gf.graph.num_nodes
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if not 0 <= int(spec) < n:
            raise ArgumentError(f"node {int(spec)} does not exist; node ids are 0..{n - 1}")
        return int(spec)
    if not isinstance(spec, str):
        raise ArgumentError(f"node={spec!r}: give a node id, a Node, a name or a call path")
    labels = names(gf)
    wanted = [p.strip() for p in spec.split(PATH_SEPARATOR.strip())]
    match = labels == wanted[-1]
    cand = np.flatnonzero(match)
    parent = gf.graph.parent
    anc = cand.copy()
    for name in reversed(wanted[:-1]):  # walk up the given path, all candidates at once
        anc = parent[anc]
        ok = anc >= 0
        ok[ok] = labels[anc[ok]] == name
        cand, anc = cand[ok], anc[ok]
    if len(cand) == 1:
        return int(cand[0])
    if not len(cand):
        raise ArgumentError(f"no call path matches {spec!r}; " + _some_names(gf, labels))
    listed = ", ".join(f"{call_path(gf, v, labels)} (node {v})" for v in cand[:10])
    more = f" ... ({len(cand)} in all)" if len(cand) > 10 else ""
    raise ArgumentError(f"{spec!r} names {len(cand)} call paths: {listed}{more}; give one of "
                        "them or a node id")


def _some_names(gf: Any, labels: np.ndarray, limit: int = 12) -> str:
    uniq = pd.unique(labels)
    shown = ", ".join(map(str, uniq[:limit]))
    return f"names include {shown}" + (f" ... ({len(uniq)} distinct)" if len(uniq) > limit else "")
