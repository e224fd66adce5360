"""Call graphs written as DOT by gprof2dot (from gprof, callgrind, perf, pstats...).

gprof2dot writes one node statement per function and one edge per call::

    "(below main)" [label="libc.so.6\\n(below main)\\n97.95%\\n(0.00%)\\n2×"];
    "(below main)" -> main [label="97.94%\\n1×"];
    1 [label="main\\n100.00%\\n(0.00%)"];

A node label is ``[process\\n][module\\n]name`` followed by the events the
user asked for (by default total and self time as percentages of the total
cost: ``97.95%``, ``(0.00%)``; with ``--node-label`` also absolute total
and self time: ``0.9``, ``(0.25)``), optionally a sample count (``36×``,
``--show-samples``) and the call count (``2×``). Edge labels carry the share
of the callee's total cost due to that call and the call count.
:func:`decode_node_label` and :func:`decode_edge_label` decode them (pure
functions over text).

The result is a call *graph*: one node per DOT node; a function called from
several places has several parents; recursion and gprof cycles are cycles
(see :mod:`readers.callgraph`). Columns (present when the file has them):

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
``caller_calls``
    Per node, ``((caller name, calls), ...)``: the call count of every
    incoming edge, in file order (``None`` where the edge label has none).
    RawProfile has no edge attribute table yet, so edge data lives here.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .builder import ProfileBuilder
from .callgraph import parents_from_edges
from .dot_fast import parse_lines
from .dot_syntax import DotGraph, line_col, parse_dot
from .errors import ReadError
from .profile import RawProfile
from .registry import FormatInfo

_FLOAT = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan"
_COUNT = re.compile(r"^(\d+)\u00d7$")
_EVENTS = (
    ("total_pct", re.compile(rf"^({_FLOAT})%$")),
    ("self_pct", re.compile(rf"^\(({_FLOAT})%\)$")),
    ("total", re.compile(rf"^({_FLOAT})$")),
    ("self", re.compile(rf"^\(({_FLOAT})\)$")),
)
_LABEL_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"n": "\n", "l": "\n", "r": "\n", "t": "\t", "\\": "\\", '"': '"'}
NAN = math.nan


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


def label_lines(label: str) -> List[str]:
    """Split a DOT label into lines, undoing gprof2dot's escapes.

    Examples
    --------
    >>> label_lines(r'libc.so.6\\n(below main)\\n97.95%')
    ['libc.so.6', '(below main)', '97.95%']
    >>> label_lines(r'a\\\\b\\"c')
    ['a\\\\b"c']
    """
    text = _LABEL_ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), label)
    return text.split("\n")


def decode_node_label(label: str) -> NodeLabel:
    """Decode a gprof2dot node label (3 to 5 lines, or more with options).

    Reading from the end: up to two ``N×`` lines (sample count, then call
    count; a single one is the call count), then the event lines in any
    order, each at most once: ``P%`` total percent, ``(P%)`` self percent,
    ``T`` total time, ``(T)`` self time. The lines left are
    ``[process][module]name``; the first line is always kept for the name.

    Examples
    --------
    >>> d = decode_node_label(r"libc.so.6\\n(below main)\\n97.95%\\n(0.00%)\\n2×")
    >>> d.module, d.name, d.total_pct, d.self_pct, d.calls
    ('libc.so.6', '(below main)', 97.95, 0.0, 2.0)
    >>> d = decode_node_label(r"main\\n0.9\\n(0)")
    >>> d.name, d.total, d.self, math.isnan(d.calls)
    ('main', 0.9, 0.0, True)
    """
    lines = label_lines(label)
    values: Dict[str, float] = {}
    end = len(lines)
    counts: List[float] = []
    while end > 1 and len(counts) < 2:
        m = _COUNT.match(lines[end - 1].strip())
        if not m:
            break
        counts.insert(0, float(m.group(1)))
        end -= 1
    while end > 1:
        line = lines[end - 1].strip()
        for key, pattern in _EVENTS:
            m = pattern.match(line)
            if m and key not in values:
                values[key] = float(m.group(1))
                break
        else:
            break
        end -= 1
    head = lines[:end]
    process = module = None
    if len(head) >= 3:
        process, module, name = head[0], head[1], " ".join(head[2:])
    elif len(head) == 2:
        module, name = head
    else:
        name = head[0]
    samples = counts[0] if len(counts) == 2 else NAN
    calls = counts[-1] if counts else NAN
    return NodeLabel(name=name, module=module, process=process, samples=samples,
                     calls=calls, **values)


def decode_edge_label(label: str) -> Tuple[float, float]:
    """``(percent of the callee's total cost, call count)`` of an edge label.

    Examples
    --------
    >>> decode_edge_label(r"97.94%\\n1×")
    (97.94, 1.0)
    >>> decode_edge_label("402816×")
    (nan, 402816.0)
    """
    pct = calls = NAN
    for line in label_lines(label):
        line = line.strip()
        m = _COUNT.match(line)
        if m:
            calls = float(m.group(1))
            continue
        m = _EVENTS[0][1].match(line)
        if m:
            pct = float(m.group(1))
    return pct, calls


# ---------------------------------------------------------------- reading
def read_dot(path: Any, *, parser: str = "fast") -> RawProfile:
    """Read a DOT call graph written by gprof2dot.

    Parameters
    ----------
    path : str or path-like
        The ``.dot`` file.
    parser : {"fast", "pydot"}
        Our DOT parser (default) or pydot (slow; kept for cross-checking).

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
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ReadError(path, f"cannot read the file: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(path, "the file is not UTF-8 text", position=f"byte {exc.start}",
                        expected="DOT text as gprof2dot writes it (UTF-8)") from exc
    return parse_gprof_dot(text, source=path, parser=parser)


def parse_gprof_dot(text: str, source: Any = None, *, parser: str = "fast") -> RawProfile:
    """Decode gprof2dot DOT ``text`` into a RawProfile (``source`` names it)."""
    if parser == "fast":
        graph = parse_lines(text)  # one statement per line, as gprof2dot writes
        if graph is None:
            graph = parse_dot(text, source)
    elif parser == "pydot":
        graph = _parse_with_pydot(text, source)
    else:
        raise ValueError(f"parser must be 'fast' or 'pydot', not {parser!r}")
    return _build(graph, text, source)


def _build(graph: DotGraph, text: str, source: Any) -> RawProfile:
    if graph.implicit:
        node, pos = next(iter(graph.implicit.items()))
        raise ReadError(source, f"an edge refers to node {node!r}, which has no node statement",
                        position=line_col(text, pos),
                        expected="a labelled node statement for every node (as gprof2dot writes)")
    ids = list(graph.nodes)
    if not ids:
        raise ReadError(source, "the graph has no nodes", position=line_col(text, len(text)),
                        expected="gprof2dot node statements")
    index = {node: k for k, node in enumerate(ids)}
    labels = [decode_node_label(attrs["label"]) if "label" in attrs else NodeLabel(name=None)
              for attrs in graph.nodes.values()]
    names = [lab.name if lab.name else node for lab, node in zip(labels, ids)]
    src = np.fromiter((index[e[0]] for e in graph.edges), dtype=np.int64, count=len(graph.edges))
    dst = np.fromiter((index[e[1]] for e in graph.edges), dtype=np.int64, count=len(graph.edges))
    total_pct = np.array([lab.total_pct for lab in labels])
    parent, extra_src, extra_dst = parents_from_edges(len(ids), src, dst, total_pct)

    columns = _node_columns(graph, labels, names, src, dst)
    builder = ProfileBuilder(source)
    n = len(ids)
    frames = {"type": np.full(n, "function", dtype=object), "name": np.array(names, dtype=object)}
    nodes = builder.add_nodes(parent, frames, columns={"name": frames["name"]})
    builder.add_edges(extra_src, extra_dst)
    builder.add_rows(nodes, columns)
    exc = [m for m in ("time", "cost") if m in columns]
    inc = [f"{m} (inc)" for m in ("time", "cost") if f"{m} (inc)" in columns]
    pairs = {m: f"{m} (inc)" for m in exc if f"{m} (inc)" in inc}
    default = next((m for m in ("time", "cost", "time (inc)", "cost (inc)") if m in columns), None)
    order = ["module", "name", "time (inc)", "time", "cost (inc)", "cost", "calls", "samples",
             "process", "file", "caller_calls"]
    return builder.build(
        exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
        metadata={"format": "gprof2dot", "graph_attributes": dict(graph.attributes)},
        columns=[c for c in order if c in columns or c == "name"])


def _node_columns(graph: DotGraph, labels: List[NodeLabel], names: List[str],
                  src: np.ndarray, dst: np.ndarray) -> Dict[str, Any]:
    cols: Dict[str, Any] = {}
    for col, attr in (("module", "module"), ("process", "process")):
        values = [getattr(lab, attr) for lab in labels]
        if any(v is not None for v in values):
            cols[col] = np.array(values, dtype=object)
    for col, attr in (("time (inc)", "total_pct"), ("time", "self_pct"),
                      ("cost (inc)", "total"), ("cost", "self"),
                      ("calls", "calls"), ("samples", "samples")):
        values = np.array([getattr(lab, attr) for lab in labels], dtype=float)
        if not np.isnan(values).all():
            cols[col] = values
    tips = [attrs.get("tooltip") for attrs in graph.nodes.values()]
    if any(t not in (None, "", " ") for t in tips):
        cols["file"] = np.array(tips, dtype=object)
    incoming: List[List[Tuple[str, Optional[int]]]] = [[] for _ in labels]
    for (a, b, attrs), s, d in zip(graph.edges, src.tolist(), dst.tolist()):
        calls = decode_edge_label(attrs.get("label", ""))[1]
        incoming[d].append((names[s], None if math.isnan(calls) else int(calls)))
    if graph.edges:
        column = np.empty(len(labels), dtype=object)
        column[:] = [tuple(pairs) for pairs in incoming]
        cols["caller_calls"] = column
    return cols


def _parse_with_pydot(text: str, source: Any) -> DotGraph:
    import pydot  # optional path: only needed for parser="pydot"

    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # pydot prints parse errors
        graphs = pydot.graph_from_dot_data(text)
    if not graphs:
        parse_dot(text, source)  # locates the error when our parser sees one
        raise ReadError(source, "pydot could not parse the DOT text: "
                        + " ".join(out.getvalue().split()), expected="DOT syntax")
    if len(graphs) != 1:
        raise ReadError(source, f"the file holds {len(graphs)} graphs", expected="one graph")
    pgraph = graphs[0]
    graph = DotGraph(directed=pgraph.get_type() == "digraph")
    defaults: Dict[str, str] = {}
    pending = [pgraph]
    while pending:
        current = pending.pop(0)
        for node in current.get_nodes():
            name = _pydot_unquote(node.get_name())
            attrs = {k: _pydot_unquote(v) for k, v in node.get_attributes().items()}
            if name == "node":
                defaults.update(attrs)
            elif name not in ("edge", "graph"):
                graph.nodes.setdefault(name, dict(defaults)).update(attrs)
                graph.node_offsets.setdefault(name, 0)
        for edge in current.get_edges():
            a, b = (_pydot_unquote(x) for x in (edge.get_source(), edge.get_destination()))
            attrs = {k: _pydot_unquote(v) for k, v in edge.get_attributes().items()}
            graph.edges.append((a, b, attrs))
            graph.edge_offsets.append(0)
        pending.extend(current.get_subgraph_list())
    for a, b, _ in graph.edges:
        for node in (a, b):
            if node not in graph.nodes:
                graph.implicit.setdefault(node, 0)
    return graph


def _pydot_unquote(value: Any) -> str:
    value = str(value)
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    return value


_HEAD = re.compile(rb"^(?:\s|//[^\n]*\n|/\*.*?\*/|#[^\n]*\n)*(?:strict\s+)?(?:di)?graph\b",
                   re.S | re.I)


def _sniff(path: Path, head: bytes) -> bool:
    return bool(_HEAD.match(head.lstrip(b"\xef\xbb\xbf")))


FORMAT = FormatInfo(
    name="gprof-dot",
    read=read_dot,
    sniff=_sniff,
    description="DOT call graph written by gprof2dot (gprof, callgrind, perf, pstats...)",
)
