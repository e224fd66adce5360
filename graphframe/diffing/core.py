"""Diffing two profiles: ``diff(before, after)`` -> a GraphFrame of changes.

Result
------
A GraphFrame with one row per node (index ``node``) and, for every diffed
metric ``m``, the columns ``m before``, ``m after``, ``m delta`` (= after -
before) and ``m ratio`` (= after / before), then ``status`` and
``significant``. The before/after/delta columns are declared metrics
(exclusive or inclusive like ``m``, paired like ``m``), so ``tree()``,
``filter`` and ``update_inclusive_columns`` work on them; the default metric
is the delta of the primary metric. Ratios are attributes (a ratio of sums
is not a sum of ratios).

Rules
-----
- **Matching** (``by="path"``, default): nodes are matched by call path, on
  the union of both graphs (:meth:`Graph.union`). In call graphs the union
  also merges equal-frame children of matched nodes over every edge, so two
  nodes of one side can become one union node: their values add up. ``by="name"``: a flat
  profile keyed by the ``name`` column (see ``flat.py``).
- **One value per node**: each profile is first reduced to one value per
  node: the mean over its ranks/threads by default (``aggregate``: ``"sum"``,
  ``"mean"``, ``"min"``, ``"max"``), or the row of one ``rank``/``thread``.
  Profiles with different rank counts can therefore be compared.
- **Status**: ``common`` (the call path is in both graphs), ``added`` (only
  in after) or ``removed`` (only in before). A node missing on one side, and
  a missing value (NaN), count as 0 there, so deltas are real numbers and
  ``before + delta == after`` always holds.
- **Ratio**: ``after / before``; ``inf`` when before is 0 and after is not,
  NaN when both are 0.
- **normalize=True**: every value is first divided by its own profile's
  total and multiplied by 100 (percent of total), so deltas are changes in
  share (percentage points). The total of an exclusive metric is its sum
  over nodes; an inclusive metric uses its exclusive partner's total, or
  the sum over roots when it has none.
- **Inclusive partners** (``inclusive=True``, default): every diffed
  exclusive metric ``m`` is diffed together with its inclusive partner
  (``inclusive_of``, by default ``m (inc)``). When both profiles declare it,
  their values are used; when either lacks it, it is computed on both sides
  from ``m`` exactly as :meth:`GraphFrame.update_inclusive_columns` would
  (sums over each node's subtree, each distinct descendant of a call graph
  once), before the values are reduced to one per node. The computed names
  are listed in ``metadata["diff"]["computed_inclusive"]``. An inclusive
  metric brings its exclusive partner along when both profiles have it.
  ``inclusive=False`` diffs exactly the metrics asked for.
- **Match quality**: ``metadata["diff"]["match"]`` holds ``common`` (nodes
  in both profiles), ``nodes`` (nodes of the result) and ``fraction``
  (their ratio). When fewer than half of the nodes match
  (``fraction < MIN_MATCH``), most deltas compare a node with nothing:
  :class:`~graphframe.errors.PoorMatchWarning` says so and suggests
  ``by="name"``.
- **Noise threshold**: a change is significant when ``|delta| > 0`` and
  ``|delta| >= threshold / 100 * total`` (before's total of that metric, in
  the units of the values). ``significant`` holds this test for the primary
  metric's inclusive form (its inclusive partner when it has one); the
  ranked table and the diff tree apply it to whatever metric they show.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from ..model.dataframe import frame_from_columns
from ..model.text import as_text
from ..errors import GraphMismatchError, MetricError, PoorMatchWarning
from ..model.metrics import inclusive_name
from ..ops.inclusive import subgraph_sums
from ..ops.merge_rules import summed
from ..model.nodevalues import first_row_objects, node_value_table
from .flat import by_name
from .layouts import aligned_entry_roots, layout_matching
from .metric_pairs import rename_metrics, short_list, suggest_pairs
from ..model.fields import GraphFrameLike, metric_columns

INT = np.int64
SUFFIXES = ("before", "after", "delta", "ratio")
STATUS = ("common", "added", "removed")
#: below this fraction of matched nodes a diff warns (PoorMatchWarning)
MIN_MATCH = 0.5


def diff(before: Any, after: Any, metric: Union[None, str, Sequence[str]] = None, *,
         by: str = "path", normalize: bool = False, threshold: float = 0.0,
         aggregate: str = "mean", rank: Optional[int] = None, thread: int = 0,
         inclusive: bool = True, metric_map: Optional[Dict[Any, Any]] = None) -> Any:
    """Compare two profiles; return a GraphFrame of before/after/delta/ratio columns.

    Parameters
    ----------
    before, after : GraphFrame
        The reference profile and the one compared with it.
    metric : str or list of str, optional
        Metrics to compare (default: every declared metric both have).
    by : {"path", "name"}
        Match nodes by full call path, or by function name only (flat diff).
    normalize : bool
        Compare percentages of each profile's total instead of raw values.
    threshold : float
        Noise threshold in percent of before's total (see module docs).
    aggregate : {"mean", "sum", "min", "max"}
        How a node's ranks/threads are combined into one value.
    rank, thread : int, optional
        Use this rank's (and thread's) row instead of ``aggregate``.
    inclusive : bool
        Also diff the inclusive partner of every exclusive metric, computing
        it from the exclusive values when a profile has none (default True;
        see "Inclusive partners" in the module docs).
    metric_map : dict, optional
        ``{before's name: after's name}`` for metrics the two profiles name
        differently (HPCToolkit's old layout ``cycles (E)`` is the current
        layout's ``cycles``): before's metrics are renamed first. When the
        profiles share no metric, the error suggests the mapping.

    Returns
    -------
    GraphFrame
        One row per node of the union graph: ``m before``, ``m after``,
        ``m delta``, ``m ratio`` for every diffed metric ``m``, then
        ``status`` and ``significant``; ``metadata["diff"]`` records the
        choices, which :func:`ranked_changes`, :func:`regressions` and
        ``diff_tree`` read.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> a = GraphFrame.from_lists(("main", "solve", "io"))
    >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
    >>> d = diff(a, b, "time")
    >>> d.dataframe[["name", "time before", "time after", "time delta", "status"]]
                                        name  time before  ...  time delta   status
    node                                                   ...
    {'name': 'main', 'type': 'None'}    main          1.0  ...         0.0   common
    {'name': 'io', 'type': 'None'}        io          1.0  ...        -1.0  removed
    {'name': 'mpi', 'type': 'None'}      mpi          0.0  ...         1.0    added
    {'name': 'solve', 'type': 'None'}  solve          1.0  ...         0.0   common
    <BLANKLINE>
    [4 rows x 5 columns]
    >>> d.metadata["diff"]["metrics"]          # the inclusive partner comes along
    ['time', 'time (inc)']
    """
    if by not in ("path", "name"):
        raise ValueError(f"by={by!r}: choose 'path' or 'name'")
    if metric_map is None:  # names that differ only in spelling pair by themselves
        metric_map = suggest_pairs(metric_columns(before), metric_columns(after)) or None
    if metric_map:
        before = rename_metrics(before, metric_map)
    metrics = _metrics(before, after, metric)
    computed: Dict[Any, Any] = {}
    if inclusive:
        metrics, computed = _with_partners(before, after, metrics)
    kinds, pairs = _declarations(before, after, metrics, computed)
    agg = None if rank is not None else aggregate
    r = 0 if rank is None else rank
    vb = _value_table(before, metrics, computed, r, thread, agg)
    va = _value_table(after, metrics, computed, r, thread, agg)
    totals_b = {m: _total(before, vb, m, pairs) for m in metrics}
    totals_a = {m: _total(after, va, m, pairs) for m in metrics}
    if by == "path":
        graph, values_b, values_a, status, attrs = _by_path(before, after, vb, va, metrics)
    else:
        graph, values_b, values_a, status, attrs = by_name(before, after, vb, va, metrics, pairs)
    if normalize:
        values_b = {m: _percent(v, totals_b[m]) for m, v in values_b.items()}
        values_a = {m: _percent(v, totals_a[m]) for m, v in values_a.items()}
        totals_b = {m: 100.0 if t else 0.0 for m, t in totals_b.items()}
        totals_a = {m: 100.0 if t else 0.0 for m, t in totals_a.items()}
    match = match_summary(status, by)
    primary = before.default_metric if before.default_metric in metrics else metrics[0]
    columns: Dict[Any, Any] = dict(attrs)
    for m in metrics:
        b, a = values_b[m], values_a[m]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = a / b
        columns.update({f"{m} before": b, f"{m} after": a, f"{m} delta": a - b,
                        f"{m} ratio": ratio})
    columns["status"] = np.asarray(STATUS, dtype=object)[status]
    shown = pairs.get(primary, primary)
    columns["significant"] = significant(columns[f"{shown} delta"], totals_b[shown], threshold)
    index = pd.Index(np.arange(graph.num_nodes, dtype=INT), name="node")
    df = frame_from_columns(columns, index)
    exc = [f"{m} {s}" for m in metrics if kinds[m] == "exclusive" for s in SUFFIXES[:3]]
    inc = [f"{m} {s}" for m in metrics if kinds[m] == "inclusive" for s in SUFFIXES[:3]]
    inclusive_of = {f"{e} {s}": f"{i} {s}" for e, i in pairs.items() for s in SUFFIXES[:3]}
    info = {"by": by, "metrics": list(metrics), "primary": primary, "kinds": kinds,
            "inclusive_of": dict(pairs), "computed_inclusive": list(computed.values()),
            "normalize": bool(normalize),
            "threshold": float(threshold), "aggregate": agg, "rank": rank,
            "thread": thread if rank is not None else None,
            "totals": {"before": totals_b, "after": totals_a},
            "before": _label(before), "after": _label(after), "match": match,
            "metric_map": dict(metric_map or {})}
    return type(before)(graph, df, exc, inc, default_metric=f"{primary} delta",
                        metadata={"diff": info}, inclusive_of=inclusive_of)


def match_summary(status: np.ndarray, by: str = "path") -> Dict[str, Any]:
    """How many result nodes are in both profiles; warns below :data:`MIN_MATCH`.

    Examples
    --------
    >>> match_summary(np.array([0, 0, 0, 1]))
    {'common': 3, 'nodes': 4, 'fraction': 0.75}
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     match_summary(np.array([0, 1, 1, 2, 2]))["fraction"]
    0.2
    >>> print(caught[0].message)
    the profiles share 1 of 5 nodes (20%): most changes compare a node with nothing; \
check that both profiles are of the same program, or match by function name (by="name", \
graphframe diff --by name)
    """
    nodes = int(len(status))
    common = int(np.count_nonzero(status == 0))
    fraction = common / nodes if nodes else 1.0
    if fraction < MIN_MATCH:
        other = "function name (by=\"name\", graphframe diff --by name)" if by == "path" \
            else "call path (the default)"
        warnings.warn(f"the profiles share {common} of {nodes} nodes ({fraction:.0%}): most "
                      "changes compare a node with nothing; check that both profiles are of "
                      f"the same program, or match by {other}", PoorMatchWarning, stacklevel=3)
    return {"common": common, "nodes": nodes, "fraction": fraction}


def significant(delta: np.ndarray, total: float, threshold: float) -> np.ndarray:
    """``|delta| > 0`` and ``|delta| >= threshold% of total`` (NaN: False).

    Examples
    --------
    >>> significant(np.array([0.0, 0.5, 2.0, np.nan]), 100.0, 1.0).tolist()
    [False, False, True, False]
    """
    size = np.abs(np.asarray(delta, dtype=np.float64))
    limit = abs(float(threshold)) / 100.0 * abs(float(total)) if total == total else 0.0
    with np.errstate(invalid="ignore"):
        return (size > 0) & (size >= limit)


def _metrics(before: Any, after: Any, metric: Any) -> List[Any]:
    if metric is None:
        declared = before.exc_metrics + [m for m in before.inc_metrics
                                         if m not in before.exc_metrics]
        out = [m for m in declared if _numeric(before, m) and _numeric(after, m)]
        if not out:
            b, a = metric_columns(before), metric_columns(after)
            pairs = suggest_pairs(b, a)
            shown = ", ".join(f"{k!r}: {v!r}" for k, v in list(pairs.items())[:4])
            more = f", ... ({len(pairs)} pairs)" if len(pairs) > 4 else ""
            hint = (f"; they pair by name as {{{shown}{more}}}: pass metric_map= (Python) or "
                    "--pair auto (graphframe diff)") if pairs else \
                ("; pair differently named metrics with metric_map={before name: after name} "
                 "(Python) or --pair BEFORE=AFTER (graphframe diff)")
            raise MetricError(f"the two profiles have no numeric metric in common: before has "
                              f"{short_list(b)}, after has {short_list(a)}{hint}")
        return out
    wanted = [metric] if isinstance(metric, str) or not isinstance(metric, (list, tuple)) \
        else list(metric)
    for m in wanted:
        for side, gf in (("before", before), ("after", after)):
            if not _numeric(gf, m):
                raise MetricError(
                    f"metric {m!r} is not a numeric column of the {side} profile; it has "
                    f"{short_list(metric_columns(gf))}")
    return wanted


def _numeric(gf: GraphFrameLike, m: Any) -> bool:
    return m in gf.dataframe.columns and pd.api.types.is_numeric_dtype(gf.dataframe[m])


def _declarations(before: Any, after: Any, metrics: List[Any],
                  computed: Dict[Any, Any]) -> Tuple[Dict[Any, str], Dict]:
    """Kind of each metric (before's declaration first) and exc -> inc pairs among them."""
    kinds = {}
    for m in metrics:
        if m in computed.values() or m in before.inc_metrics or \
                (m not in before.exc_metrics and m in after.inc_metrics):
            kinds[m] = "inclusive"
        else:
            kinds[m] = "exclusive"
    pairs = {}
    for source in (after.inclusive_of, before.inclusive_of, computed):
        for e, i in source.items():
            if e in metrics and i in metrics:
                pairs[e] = i
    return kinds, pairs


def _exclusive(before: Any, after: Any, m: Any) -> bool:
    if m in before.exc_metrics:
        return True
    return m not in before.inc_metrics and m in after.exc_metrics


def _with_partners(before: Any, after: Any, metrics: List[Any]) -> Tuple[List[Any], Dict]:
    """``metrics`` plus their partners; ``{exclusive: inclusive}`` for partners to compute.

    An exclusive metric's declared inclusive partner is used when both
    profiles have it as a numeric column; otherwise it is computed on both
    sides (unless the name is taken by some other column, which is left
    alone, or the metric is not summed: a declared ``max``/``min``/``mean``
    aggregation has no inclusive sum). An inclusive metric brings its
    exclusive partner when both have it.
    """
    out = list(metrics)
    computed: Dict[Any, Any] = {}
    for m in metrics:
        if _exclusive(before, after, m):
            partner = before.inclusive_of.get(m, after.inclusive_of.get(m, inclusive_name(m)))
            if partner in out:
                continue
            declared = [partner in gf.inc_metrics and _numeric(gf, partner)
                        for gf in (before, after)]
            if all(declared):
                out.append(partner)
            elif all(declared[i] or partner not in gf.dataframe.columns
                     for i, gf in enumerate((before, after))) \
                    and summed(before, m) and summed(after, m):
                out.append(partner)
                computed[m] = partner
        else:
            partner = next((e for gf in (before, after) for e, i in gf.inclusive_of.items()
                            if i == m), None)
            if partner is not None and partner not in out and \
                    _numeric(before, partner) and _numeric(after, partner):
                out.append(partner)
    return out, computed


def _value_table(gf: GraphFrameLike, metrics: List[Any], computed: Dict[Any, Any], rank: int,
                 thread: int, agg: Optional[str]) -> Dict[Any, np.ndarray]:
    """One value per node of every metric; computed partners summed over subtrees first."""
    made = set(computed.values())
    table = node_value_table(gf, [m for m in metrics if m not in made], rank, thread, agg,
                             absent_level="error")
    if computed:
        sums = subgraph_sums(gf.graph, gf.dataframe, list(computed))
        frame = pd.DataFrame({inc: values for inc, values in zip(computed.values(), sums)},
                             index=gf.dataframe.index, copy=False)
        partial = type(gf)(gf.graph, frame, [], list(computed.values()), default_metric=None)
        table.update(node_value_table(partial, list(computed.values()), rank, thread, agg,
                                      absent_level="error"))
    return table


def _total(gf: GraphFrameLike, values: Dict[Any, np.ndarray], m: Any, pairs: Dict) -> float:
    partner = next((e for e, i in pairs.items() if i == m), None)
    if partner is not None:
        return float(np.nansum(values[partner]))
    if m in gf.inc_metrics:
        return float(np.nansum(values[m][gf.graph.root_ids]))
    return float(np.nansum(values[m]))


def _percent(values: np.ndarray, total: float) -> np.ndarray:
    if not total:
        return np.zeros_like(values)
    return values / total * 100.0


def _by_path(before, after, vb, va, metrics):
    if before.graph is after.graph:
        graph = before.graph
        map_b = map_a = np.arange(graph.num_nodes, dtype=INT)
    else:
        if before.graph.num_nodes == 0 or after.graph.num_nodes == 0:
            raise GraphMismatchError("cannot diff an empty graph")
        across = layout_matching(before, after)  # one profile of each HPCToolkit layout
        if across is not None:
            map_b, map_a, graph = across
        else:
            # HPCToolkit's old-layout roots stand for the current layout's entry points
            left = aligned_entry_roots(before.graph, after.graph)
            right = aligned_entry_roots(after.graph, before.graph)
            graph, map_b, map_a = left.union(right, return_mappings=True)
    n = graph.num_nodes
    in_b = np.zeros(n, dtype=bool)
    in_b[map_b] = True
    in_a = np.zeros(n, dtype=bool)
    in_a[map_a] = True
    status = np.where(in_b & in_a, 0, np.where(in_a, 1, 2))
    values_b, values_a = {}, {}
    for m in metrics:
        values_b[m] = _spread(vb[m], map_b, n)
        values_a[m] = _spread(va[m], map_a, n)
    attrs = _attributes(before, after, map_b, map_a, n, metrics)
    return graph, values_b, values_a, status, attrs


def _spread(values: np.ndarray, mapping: np.ndarray, n: int) -> np.ndarray:
    """Values on the union graph; nodes of one side that the union merged add up."""
    clean = np.nan_to_num(values, nan=0.0, posinf=np.inf, neginf=-np.inf)
    out = np.zeros(n, dtype=np.float64)
    out[mapping] = clean
    if len(mapping) and np.bincount(mapping, minlength=n).max() > 1:
        out = np.bincount(mapping, weights=clean, minlength=n)
    return out


def _attributes(before, after, map_b, map_a, n, metrics) -> Dict[Any, Any]:
    """Non-metric columns, one value per node: after's first row, else before's."""
    skip = set(metrics) | set(metric_columns(before)) | set(metric_columns(after))
    skip.add("_missing_node")
    cols = [c for c in before.dataframe.columns if c not in skip]
    cols += [c for c in after.dataframe.columns if c not in skip and c not in cols]
    if "name" in cols:
        cols.remove("name")
    cols.insert(0, "name")
    out: Dict[Any, Any] = {}
    for col in cols:
        values = np.full(n, None, dtype=object)
        for gf, mapping in ((before, map_b), (after, map_a)):
            if col in gf.dataframe.columns:
                side, has = first_row_objects(gf, col)
            elif col == "name":
                side = gf.graph.attrs["name"].to_numpy(dtype=object) \
                    if "name" in gf.graph.attrs.columns else np.full(len(mapping), None)
                has = np.ones(len(mapping), dtype=bool)
            else:
                continue
            values[mapping[has]] = side[has]
        out[col] = as_text(pd.Series(values, name=col, dtype=object).infer_objects()).array
    return out


def _label(gf: GraphFrameLike) -> Any:
    source = gf.metadata.get("source")
    return str(source) if source is not None else None
