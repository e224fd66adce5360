"""Graphviz DOT output, in Hatchet's ``to_dot`` layout.

::

    strict digraph {
    graph [bgcolor=transparent];
    node [penwidth=4, shape=circle];
    edge [penwidth=2];

    "0" [color="#67000d", label="main" shape=oval];
    ...

    "0" -> "1";
    ...

    }

Nodes are listed depth first from the roots, each once (a node with several
parents is written at its first visit); every edge to a listed child is
written, so call graphs keep all their edges. A node is listed when its value
is at least ``threshold * max`` and edges only lead to such nodes. Colours
follow matplotlib's ``Reds`` colormap (256 steps) over the metric's range in
the whole column (all ranks), as Hatchet does; without matplotlib here, the
table is interpolated from the nine ColorBrewer "Reds" colours it is made of.
Unlike Hatchet, quotes and backslashes in labels are escaped (Hatchet writes
them raw, which breaks the file) and nodes without a value are left out
(Hatchet raises ``KeyError``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, List, Optional

import numpy as np

from ..model.nodevalues import check_metric, display_names, node_values
from ..model.fields import GraphFrameLike

#: ColorBrewer "Reds" (9 classes), light to dark, as 0-255 RGB.
REDS_9 = [(255, 245, 240), (254, 224, 210), (252, 187, 161), (252, 146, 114),
          (251, 106, 74), (239, 59, 44), (203, 24, 29), (165, 15, 21), (103, 0, 13)]

HEADER = ("strict digraph {\n"
          "graph [bgcolor=transparent];\n"
          "node [penwidth=4, shape=circle];\n"
          "edge [penwidth=2];\n\n")


def reds_hex(weights: np.ndarray) -> List[str]:
    """``#rrggbb`` of each weight in [0, 1] on the 256-step Reds colormap (NaN: black).

    Examples
    --------
    >>> reds_hex(np.array([0.0, 0.5, 1.0, np.nan]))
    ['#fff5f0', '#fb694a', '#67000d', '#000000']
    """
    table = _reds_table()
    w = np.asarray(weights, dtype=np.float64)
    bad = np.isnan(w)
    with np.errstate(invalid="ignore"):
        scaled = np.where(bad, 0.0, w) * 256
    index = np.clip(np.floor(scaled), 0, 255).astype(np.int64)
    rgb = table[index]
    out = []
    for (r, g, b), is_bad in zip(rgb.tolist(), bad.tolist()):
        out.append("#000000" if is_bad else
                   "#" + "".join(format(int(round(c * 255)), "02x") for c in (r, g, b)))
    return out


@lru_cache(maxsize=1)
def _reds_table() -> np.ndarray:
    """256 x 3 RGB table: linear interpolation between the nine colours."""
    control = np.array(REDS_9, dtype=np.float64) / 255.0
    steps = np.linspace(0.0, 1.0, 256)
    knots = np.linspace(0.0, 1.0, len(REDS_9))
    return np.stack([np.interp(steps, knots, control[:, c]) for c in range(3)], axis=1)


def render_dot(gf: GraphFrameLike, metric: Optional[str] = None, name: str = "name",
               rank: Optional[int] = None, thread: Optional[int] = None, threshold: float = 0.0, aggregate: Optional[str] = None) -> str:
    """DOT text of ``gf`` (see the module docs for the layout).

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Colours and threshold use this column (default ``gf.default_metric``).
    name : str
        Column used for the labels.
    rank, thread : int, optional
        Row used per node when ``aggregate`` is None.
        Default: the lowest the data has (a file of rank 1 alone shows rank 1).
    threshold : float
        Fraction of the column's maximum below which nodes are left out.
    aggregate : {"sum", "mean", "min", "max"}, optional
        Combine all ranks/threads of a node instead of picking one row.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> print(render_dot(gf, metric="time (inc)"), end="")
    strict digraph {
    graph [bgcolor=transparent];
    node [penwidth=4, shape=circle];
    edge [penwidth=2];
    <BLANKLINE>
    "0" [color="#67000d", label="main" shape=oval];
    "1" [color="#fff5f0", label="solve" shape=oval];
    <BLANKLINE>
    "0" -> "1";
    <BLANKLINE>
    }
    """
    metric = check_metric(gf, metric)
    values = node_values(gf, metric, rank=rank, thread=thread, aggregate=aggregate)
    column = gf.dataframe[metric].to_numpy(dtype=np.float64, na_value=np.nan)
    if aggregate is not None:
        column = values
    finite = column[~np.isnan(column)]
    lo = finite.min() if len(finite) else np.nan
    hi = finite.max() if len(finite) else np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        colours = reds_hex((values - lo) / (hi - lo))
        shown = values >= threshold * hi
    labels = [_quote(s) for s in display_names(gf, name)]
    nodes, edges = _walk(gf.graph, shown.tolist(), colours, labels)
    return HEADER + "".join(nodes) + "\n" + "".join(edges) + "\n}\n"


def _walk(graph: Any, shown: List[bool], colours: List[str], labels: List[str]):
    """Depth-first listing of nodes and edges in Hatchet's order (iterative)."""
    ptr, kids = graph.child_ptr.tolist(), graph.child_idx.tolist()
    visited = [False] * graph.num_nodes
    nodes: List[str] = []
    edges: List[str] = []
    # stack items: a node id to visit, or a (parent, child) edge to write
    stack: List[Any] = [r for r in reversed(graph.root_ids.tolist())]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            edges.append(f'"{item[0]}" -> "{item[1]}";\n')
            continue
        v = item
        if visited[v] or not shown[v]:
            continue
        visited[v] = True
        nodes.append(f'"{v}" [color="{colours[v]}", label="{labels[v]}" shape=oval];\n')
        children = [c for c in kids[ptr[v]:ptr[v + 1]] if shown[c]]
        for c in reversed(children):
            stack.append(c)
            stack.append((v, c))
    return nodes, edges


def _quote(label: str) -> str:
    if '"' in label or "\\" in label or "\n" in label:
        return label.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return label
