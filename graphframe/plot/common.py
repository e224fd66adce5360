"""What every plot needs from a GraphFrame: checked metrics, one value per node,
inclusive and exclusive forms, labels, and the nodes a user names.

All of it is numpy over whole columns; only the few labels a plot shows are
built one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

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
    raise MetricError(no_exclusive_reason(gf, metric))


def no_exclusive_reason(gf: Any, metric: Any) -> str:
    """Why the inclusive-only ``metric`` has no exclusive form, and what to do.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> print(no_exclusive_reason(gf, "time (inc)"))
    metric 'time (inc)' is inclusive and the profile has no exclusive partner for it; call gf.generate_exclusive_columns() first, or plot inclusive values
    """
    rule = gf.aggregations.get(metric, "sum")
    if rule != "sum":
        return (f"metric {metric!r} is inclusive only and is combined by {rule!r} across "
                "ranks, not summed, so no exclusive form can be derived from it (Caliper "
                "spot profiles record such per-region values); plot inclusive values")
    return (f"metric {metric!r} is inclusive and the profile has no exclusive partner for it; "
            "call gf.generate_exclusive_columns() first, or plot inclusive values")


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


#: Longest tick label of a call path, in characters (longer ones are shortened).
LABEL_WIDTH = 48


def fit_labels(labels: Sequence[Any], width: int = LABEL_WIDTH) -> List[str]:
    """Labels of at most ``width`` characters, so long call paths cannot squeeze a plot.

    A call path too long loses its first names (``"… > b > c"``: the function
    and its callers stay), a name too long its middle; a trailing ``[node N]``
    is kept. Labels that would then read alike are cut in the middle instead,
    which keeps their beginnings apart.

    Examples
    --------
    >>> fit_labels(["main > solve > a_rather_long_function_name_here", "io"], width=40)
    ['… > a_rather_long_function_name_here', 'io']
    >>> fit_labels(["x" * 40 + " [node 7]"], width=30)
    ['xxxxxxxxxx…xxxxxxxxxx [node 7]']
    >>> fit_labels(["alpha > beta > common_tail_name", "gamma > beta > common_tail_name"], 28)
    ['alpha > beta …mmon_tail_name', 'gamma > beta …mmon_tail_name']
    """
    texts = [str(t) for t in labels]
    fitted = [_fit(t, width) for t in texts]
    seen: Dict[str, int] = {}
    for f in fitted:
        seen[f] = seen.get(f, 0) + 1
    return [_cut_middle(t, width) if seen[f] > 1 and f != t else f
            for t, f in zip(texts, fitted)]


def _split_node_suffix(text: str) -> Tuple[str, str]:
    head, sep, tail = text.rpartition(" [node ")
    if sep and tail.endswith("]") and tail[:-1].isdigit():
        return head, f"{sep}{tail}"
    return text, ""


def _fit(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    body, suffix = _split_node_suffix(text)
    room = max(width - len(suffix), 8)
    parts = body.split(PATH_SEPARATOR)
    for k in range(1, len(parts)):
        shorter = PATH_SEPARATOR.join(["…"] + parts[k:])
        if len(shorter) <= room:
            return shorter + suffix
    return _cut_middle(parts[-1], room) + suffix


def _cut_middle(text: str, width: int) -> str:
    body, suffix = _split_node_suffix(text)
    room = max(width - len(suffix), 8)
    if len(body) <= room:
        return body + suffix
    head = (room - 1) // 2
    return body[:head] + "…" + body[len(body) - (room - 1 - head):] + suffix


def resolve_node(gf: Any, spec: Any) -> int:
    r"""The node id that ``spec`` names: an id, a ``Node``, a name, or a call path
    ``"main > solve > mpi"`` (its last names, enough to be unique).

    A text is first taken as one whole name, exactly as printed, so names that
    contain ``>`` (C++ templates, ``<no path>``) need nothing special. Only
    when no node has that name is it read as a call path: names joined by
    ``>`` (spaces around it optional). Inside a call path, a ``>`` that
    belongs to a name is found by trying the names the profile has; write it
    ``\>`` to say so explicitly (``"main > a \> b"``: node ``a > b`` under
    ``main``). When several nodes match, the error lists them with their ids.

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
    >>> t = GraphFrame.from_lists(("main", ("vector<int>", "push<a> >"), "<no path>"))
    >>> resolve_node(t, "vector<int>"), resolve_node(t, "main>vector<int> > push<a> >")
    (2, 3)
    >>> resolve_node(t, "<no path>"), resolve_node(t, "main > <no path>")
    (1, 1)
    """
    n = gf.graph.num_nodes
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if not 0 <= int(spec) < n:
            raise ArgumentError(f"node {int(spec)} does not exist; node ids are 0..{n - 1}")
        return int(spec)
    if not isinstance(spec, str):
        raise ArgumentError(f"node={spec!r}: give a node id, a Node, a name or a call path")
    labels = names(gf)
    cand = np.flatnonzero(labels == spec)  # one whole name first
    if not len(cand) and ESCAPED_SEPARATOR in spec:
        cand = np.flatnonzero(labels == spec.replace(ESCAPED_SEPARATOR, ">"))
    if not len(cand):
        cand = path_matches(labels, gf.graph.parent, spec)
    if len(cand) == 1:
        return int(cand[0])
    if not len(cand):
        how = (" ('>' joins the names of a call path; a name with '>' in it is matched "
               "whole, or write it \\>)" if ">" in spec else "")
        raise ArgumentError(f"no call path matches {spec!r}{how}; " + _some_names(gf, labels))
    listed = ", ".join(f"{call_path(gf, v, labels)} (node {v})" for v in cand[:10])
    more = f" ... ({len(cand)} in all)" if len(cand) > 10 else ""
    raise ArgumentError(f"{spec!r} names {len(cand)} call paths: {listed}{more}; give one of "
                        "them or a node id")


#: Written inside a call path for a ``>`` that is part of a name.
ESCAPED_SEPARATOR = "\\>"


def path_matches(labels: np.ndarray, parent: np.ndarray, spec: str) -> np.ndarray:
    r"""Nodes whose call path ends with the names ``spec`` joins with ``>``.

    Every ``>`` may separate two names or belong to one; the split points that
    give names the profile has, along parent links, are the matches. When
    ``spec`` writes some ``>`` as ``\>`` (part of a name), every other one
    separates names. Each prefix of ``spec`` is matched once: quadratic in the
    number of ``>`` in ``spec`` at worst, linear in the nodes.

    Examples
    --------
    >>> labels = np.array(["main", "a<b>", "c", "a<b> > c"], dtype=object)
    >>> path_matches(labels, np.array([-1, 0, 1, 0]), "main > a<b> > c").tolist()
    [2, 3]
    >>> path_matches(labels, np.array([-1, 0, 1, 0]), "a<b\\> > c").tolist()
    [2]
    """
    codes, uniques = pd.factorize(labels)
    code_of = {str(u): i for i, u in enumerate(uniques.tolist())}
    order = np.argsort(codes, kind="stable")
    starts = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
    cuts = [i for i, ch in enumerate(spec) if ch == ">" and (i == 0 or spec[i - 1] != "\\")]
    strict = ESCAPED_SEPARATOR in spec  # escapes written: every other '>' separates
    memo: Dict[int, np.ndarray] = {}

    def ending_at(end: int) -> np.ndarray:
        """Nodes matched by ``spec[:end]``."""
        if end in memo:
            return memo[end]
        found = []
        before = [-1] + [c for c in cuts if c < end]
        for cut in before[-1:] if strict else before:
            name = spec[cut + 1:end].strip().replace(ESCAPED_SEPARATOR, ">")
            code = code_of.get(name)
            if not name or code is None:
                continue
            nodes = order[starts[code]:starts[code + 1]]
            if cut < 0:
                found.append(nodes)
                continue
            prefix_end = len(spec[:cut].rstrip())
            if not prefix_end:
                continue
            up = parent[nodes]
            keep = up >= 0
            keep[keep] = np.isin(up[keep], ending_at(prefix_end))
            found.append(nodes[keep])
        memo[end] = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
        return memo[end]

    return ending_at(len(spec.rstrip()))


def _some_names(gf: Any, labels: np.ndarray, limit: int = 12) -> str:
    uniq = pd.unique(labels)
    shown = ", ".join(map(str, uniq[:limit]))
    return f"names include {shown}" + (f" ... ({len(uniq)} distinct)" if len(uniq) > limit else "")
