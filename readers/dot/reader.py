"""Call graphs written as DOT by gprof2dot (from gprof, callgrind, perf, pstats...).

gprof2dot writes one node statement per function and one edge per call::

    "(below main)" [label="libc.so.6\\n(below main)\\n97.95%\\n(0.00%)\\n2×"];
    "(below main)" -> main [label="97.94%\\n1×"];
    1 [label="main\\n100.00%\\n(0.00%)"];

A node label is ``[process\\n][module\\n]name`` followed by the measures the
user asked for (by default total and self time as percentages of the total
cost: ``97.95%``, ``(0.00%)``; with ``--node-label`` also absolute total
and self time: ``0.9``, ``(0.25)``), optionally a sample count (``36×``,
``--show-samples``) and the call count (``2×``). Every node of a file has the
same measure lines, so the labels are decoded with one layout inferred from
the whole file (:mod:`graphframe_readers.dot.labels`). Edge labels carry the share of
the callee's total cost due to that call and the call count.

The result is a call *graph*: one node per DOT node; a function called from
several places has several parents; recursion and gprof cycles are cycles
(see :mod:`graphframe_readers.common.callgraph`). Columns (present when the file has them):

``name``, ``module``, ``process``
    From the label (``name`` falls back to the node id when empty).
``time (inc)``, ``time``
    Total and self cost in **percent** of the profile's total (Hatchet's
    names and values); declared inclusive / exclusive.
``cost (inc)``, ``cost``
    Absolute total and self cost when the labels carry them (seconds for
    gprof and pstats input); declared inclusive / exclusive.
``calls``, ``samples``
    The function's call count and sample count (attributes, never summed).
``file``
    The node's ``tooltip`` (gprof2dot writes the source file there for pstats).
``dot_id``
    The DOT node id: unique in the file, unlike names.
``caller_calls``
    Per node, ``((caller dot_id, calls), ...)``: the call count of every
    incoming edge, in file order (``None`` where the edge label has none).
    RawProfile has no edge attribute table, so edge data lives here, keyed by
    the caller's ``dot_id`` (graph node ids are renumbered by
    ``GraphFrame.from_raw``; ``dot_id`` values are not).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.callgraph import ids_in_edge_order, parents_from_edges
from ..common.source import decode_text, read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .labels import NUM, Labels, decode_labels, edge_calls, kind_of, label_lines
from .scan import DotTables, scan_tables
from .syntax import DotGraph, line_col, parse_graph

__all__ = ["NodeLabel", "decode_edge_label", "decode_node_label", "label_lines", "parse_dot",
           "parse_gprof_dot", "read_dot"]

NAN = math.nan
_EXPECTED_DOT = "a labelled node statement for every node (as gprof2dot writes)"
# gprof2dot --compare writes "P% + D%" / "(P%) - D%" and "N ×/ M ×" node lines
# and "P% / Q%", "N× / M×" edge lines
_COMPARE_NODE = re.compile(
    rf"(?:^|\\n)(?:\(?(?:{NUM})%\)? [+-] (?:{NUM})%|\d+ \u00d7/ \d+ \u00d7)(?=\\n|$)", re.M)
_COMPARE_EDGE = re.compile(rf"(?:^|\\n)(?:{NUM})(?:%|\u00d7) / (?:{NUM})(?:%|\u00d7)(?=\\n|$)",
                           re.M)


@dataclass(frozen=True)
class NodeLabel:
    """What a gprof2dot node label says (missing values are None / NaN)."""

    name: Optional[str]
    module: Optional[str] = None
    process: Optional[str] = None
    total_pct: float = NAN
    self_pct: float = NAN
    total: float = NAN
    self: float = NAN
    samples: float = NAN
    calls: float = NAN


def decode_node_label(label: str) -> NodeLabel:
    """Decode one gprof2dot node label on its own.

    A file is decoded with the layout all its labels share (see
    :func:`graphframe_readers.dot.labels.decode_labels`); a lone label can only be read
    by its own shape: the trailing ``N×`` lines (two: samples then calls; one:
    calls), the measure lines before them (``P%`` total percent, ``(P%)``
    self percent, ``T`` total, ``(T)`` self), and the head
    ``[process][module]name`` (the first line always stays in the head).

    Examples
    --------
    >>> d = decode_node_label(r"libc.so.6\\n(below main)\\n97.95%\\n(0.00%)\\n2×")
    >>> d.module, d.name, d.total_pct, d.self_pct, d.calls
    ('libc.so.6', '(below main)', 97.95, 0.0, 2.0)
    >>> d = decode_node_label(r"main\\n0.9\\n(0)")
    >>> d.name, d.total, d.self, math.isnan(d.calls)
    ('main', 0.9, 0.0, True)
    """
    d = decode_labels([label], ["<label>"], source="<label>")
    v = {k: float(a[0]) for k, a in d.values.items()}
    return NodeLabel(name=d.name[0], module=d.module[0], process=d.process[0], **v)


def decode_edge_label(label: str) -> Tuple[float, float]:
    """``(percent of the callee's total cost, call count)`` of an edge label.

    Examples
    --------
    >>> decode_edge_label(r"97.94%\\n1×")
    (97.94, 1.0)
    >>> decode_edge_label("402816×")
    (nan, 402816.0)
    """
    pct = NAN
    for line in label_lines(label):
        if kind_of(line.strip()) == "total_pct":
            pct = float(line.strip()[:-1])
    return pct, float(edge_calls([label])[0])


# ---------------------------------------------------------------- reading
def read_dot(path: Any) -> RawProfile:
    """Read a DOT call graph written by gprof2dot.

    Parameters
    ----------
    path : str, path-like or file-like
        The ``.dot`` file, or an open text or binary stream of it.

    Returns
    -------
    RawProfile
        See :func:`parse_dot`.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.dot")
    >>> with open(p, "w", encoding="utf-8") as f:
    ...     _ = f.write('digraph {\\n 1 [label="main\\\\n100.00%\\\\n(40.00%)\\\\n1×"];\\n'
    ...                 ' 1 -> 2 [label="60.00%\\\\n3×"];\\n'
    ...                 ' 2 [label="work\\\\n60.00%\\\\n(60.00%)\\\\n3×"];\\n}\\n')
    >>> raw = read_dot(p)
    >>> raw.metrics[["time (inc)", "time", "calls"]].values.tolist()
    [[100.0, 40.0, 1.0], [60.0, 60.0, 3.0]]
    """
    data, source = read_source(path)
    return parse_dot(data, source=source)


def parse_dot(text: Any, source: Any = None) -> RawProfile:
    """Decode gprof2dot DOT (``str``, or UTF-8 ``bytes``) into a RawProfile.

    gprof2dot's own output (one statement per line) is read by one C-level
    scan of the whole text (:mod:`graphframe_readers.dot.scan`); any other DOT by the
    general parser (:mod:`graphframe_readers.dot.syntax`), which also gives the line and
    column of every error.

    Parameters
    ----------
    text : str or bytes
        The DOT text.
    source : any, optional
        Names the input in errors (a path, or a short description).

    Returns
    -------
    RawProfile
        One node per DOT node; see the module documentation for the columns.

    Raises
    ------
    ReadError
        Malformed DOT (with line and column), text that is not UTF-8, an edge
        to a node without a node statement, labels whose measures differ
        between nodes, ``gprof2dot --compare`` output, an empty graph.

    Examples
    --------
    >>> raw = parse_dot('digraph {\\n'
    ...     '\\t"1500:[unknown]" [label="[unknown]\\\\n1500\\\\n0.53%\\\\n(0.00%)"];\\n'
    ...     '\\tmain [label="app\\\\nmain\\\\n100.00%\\\\n(99.47%)"];\\n'
    ...     '\\tmain -> "1500:[unknown]" [label="0.53%"];\\n}\\n', source="perf.dot")
    >>> raw.node_columns["name"].tolist()  # in the order of first mention, as Hatchet
    ['main', '1500']
    >>> raw.metrics[["module", "time (inc)", "time"]].values.tolist()
    [['app', 100.0, 99.47], ['[unknown]', 0.53, 0.0]]
    """
    if not isinstance(text, str):
        text = decode_text(text, source, "DOT text as gprof2dot writes it (UTF-8)")
    tables = scan_tables(text)  # gprof2dot's shape: one C-level pass
    if tables is None:
        tables = _tables(parse_graph(text, source), text, source)
    return _build(tables, text, source)


#: The name this function had before the readers were split into packages.
parse_gprof_dot = parse_dot


def _tables(graph: DotGraph, text: str, source: Any) -> DotTables:
    """The tables of a parsed graph; an edge to an undeclared node is an error."""
    if graph.implicit:
        node, pos = next(iter(graph.implicit.items()))
        raise ReadError(source, f"an edge refers to node {node!r}, which has no node statement",
                        position=line_col(text, pos), expected=_EXPECTED_DOT)
    return DotTables.from_graph(graph)


def _build(t: DotTables, text: str, source: Any) -> RawProfile:
    ids = t.node_ids
    n = len(ids)
    if not n:
        raise ReadError(source, "the graph has no nodes", position=line_col(text, len(text)),
                        expected="gprof2dot node statements")
    _refuse_compare(t, source)
    index = {node: k for k, node in enumerate(ids)}
    src = np.fromiter(map(index.__getitem__, t.src), dtype=np.int64, count=len(t.src))
    dst = np.fromiter(map(index.__getitem__, t.dst), dtype=np.int64, count=len(t.dst))
    calls = edge_calls(t.edge_labels)
    labels = decode_labels(t.labels, ids, edges=len(src),
                           edge_counts=int((~np.isnan(calls)).sum()), source=source)
    names = [name if name else node for name, node in zip(labels.name, ids)]
    weight = labels.values["total_pct"]
    if np.isnan(weight).all():
        weight = labels.values["total"]
    parent, extra_src, extra_dst = parents_from_edges(n, src, dst, weight)
    local, created, extra_order = _hatchet_order(n, src, dst, parent, extra_src, extra_dst)

    columns = _node_columns(t, labels, src, dst, calls)
    builder = ProfileBuilder(source)
    frames = {"type": np.full(n, "function", dtype=object)[created],
              "name": np.array(names, dtype=object)[created]}
    nodes = builder.add_nodes(np.where(parent < 0, -1, local[np.maximum(parent, 0)])[created],
                              frames, columns={"name": frames["name"]},
                              node_ids=local[created])
    builder.add_edges(local[extra_src], local[extra_dst], order=extra_order)
    builder.add_rows(nodes, {k: v[created] for k, v in columns.items()})
    exc = [m for m in ("time", "cost") if m in columns]
    inc = [f"{m} (inc)" for m in ("time", "cost") if f"{m} (inc)" in columns]
    pairs = {m: f"{m} (inc)" for m in exc if f"{m} (inc)" in inc}
    default = next((m for m in ("time", "cost", "time (inc)", "cost (inc)") if m in columns), None)
    order = ["module", "name", "time (inc)", "time", "cost (inc)", "cost", "calls", "samples",
             "process", "file", "dot_id", "caller_calls"]
    return builder.build(
        exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
        # counts of calls and samples add up when rows merge (squash, unify)
        aggregations={c: "sum" for c in ("calls", "samples") if c in columns},
        metadata={"format": "gprof2dot", "graph_attributes": dict(t.attributes),
                  "label_layout": {"measures": list(labels.layout.events),
                                   "counts": list(labels.layout.counts),
                                   "head_lines_before_name": labels.layout.prefix}},
        columns=[c for c in order if c in columns or c == "name"])


def _hatchet_order(n: int, src: np.ndarray, dst: np.ndarray, parent: np.ndarray,
                   extra_src: np.ndarray, extra_dst: np.ndarray
                   ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Local node ids, the node table's row order and the extra edges' ``order``
    that give Hatchet's orders: every node's children in the file order of the
    edges to them (:func:`~graphframe_readers.common.callgraph.ids_in_edge_order`),
    and the roots in the order their nodes are first mentioned (edges first, each
    as caller then callee; then node statements). ``created`` lists the nodes
    (statement positions) by first mention.

    Examples
    --------
    >>> local, created, order = _hatchet_order(
    ...     4, np.array([2, 0, 0, 2]), np.array([3, 1, 2, 1]),
    ...     np.array([-1, 0, 0, 2]), np.array([2]), np.array([1]))
    >>> local.tolist(), created.tolist(), order.tolist()
    ([6, 1, 2, 0], [2, 3, 0, 1], [3])
    """
    edges = len(src)
    mentions = np.empty(2 * edges + n, dtype=np.int64)
    mentions[0:2 * edges:2] = src
    mentions[1:2 * edges:2] = dst
    mentions[2 * edges:] = np.arange(n)
    _, first_mention = np.unique(mentions, return_index=True)  # nodes are 0..n-1
    local, order = ids_in_edge_order(n, src, dst, parent, extra_src, extra_dst,
                                     root_key=first_mention)
    return local, np.argsort(first_mention, kind="stable"), order


def _refuse_compare(t: DotTables, source: Any) -> None:
    for what, labels, pattern, ids in (
            ("node", t.labels, _COMPARE_NODE, t.node_ids),
            ("edge", t.edge_labels, _COMPARE_EDGE, None)):
        joined = "\n".join("" if lab is None else lab.replace("\n", " ") for lab in labels)
        if " / " not in joined and " \u00d7/ " not in joined and "% + " not in joined \
                and "% - " not in joined and "%) + " not in joined and "%) - " not in joined:
            continue  # the cheap test first: no compare label here
        m = pattern.search(joined)
        if m is None:
            continue
        k = joined.count("\n", 0, m.start())  # the record (label) of the match
        where = (f"node {ids[k]!r}" if ids is not None
                 else f"edge {t.src[k]!r} -> {t.dst[k]!r}")
        raise ReadError(source, "this is gprof2dot --compare output (two profiles side by "
                        f"side: the {what} label holds both values), not one profile",
                        position=where,
                        expected="the DOT of one profile (gprof2dot without --compare); "
                        "read both profiles and use graphframe.diff to compare them")


def _node_columns(t: DotTables, labels: Labels, src: np.ndarray, dst: np.ndarray,
                  calls: np.ndarray) -> Dict[str, Any]:
    n = len(t.node_ids)
    cols: Dict[str, Any] = {}
    for col, values in (("module", labels.module), ("process", labels.process)):
        if any(v is not None for v in values):
            cols[col] = np.array(values, dtype=object)
    for col, kind in (("time (inc)", "total_pct"), ("time", "self_pct"),
                      ("cost (inc)", "total"), ("cost", "self"),
                      ("calls", "calls"), ("samples", "samples")):
        values = labels.values[kind]
        if not np.isnan(values).all():
            cols[col] = values
    if any(tip not in (None, "", " ") for tip in t.tooltips):
        cols["file"] = np.array(t.tooltips, dtype=object)
    ids = np.array(t.node_ids, dtype=object)
    cols["dot_id"] = ids
    if len(src):
        order = np.argsort(dst, kind="stable")
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
        counts = [None if c != c else int(c) for c in calls[order].tolist()]
        pairs = list(zip(ids[src[order]].tolist(), counts))
        bounds = ptr.tolist()
        column = np.empty(n, dtype=object)
        column[:] = [tuple(pairs[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
        cols["caller_calls"] = column
    return cols


_HEAD = re.compile(rb"^(?:\s|//[^\n]*\n|/\*.*?\*/|#[^\n]*\n)*(?:strict\s+)?(?:di)?graph\b",
                   re.S | re.I)


def _sniff(path: Path, head: bytes) -> bool:
    return bool(_HEAD.match(head.lstrip(b"\xef\xbb\xbf")))


FORMAT = FormatInfo(
    name="gprof-dot",
    read=read_dot,
    sniff=_sniff,
    description="DOT call graph written by gprof2dot (gprof, callgrind, perf, pstats...)",
    suffixes=(".dot",),
)
