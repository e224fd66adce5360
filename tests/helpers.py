"""Small builders shared by the operation tests."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple


from graphframe import GraphFrame
from graphframe_readers import ProfileBuilder


def gf_from_edges(names: Sequence[str], parent: Sequence[int], times: Optional[Sequence[float]] = None,
                  extra: Iterable[Tuple[int, int]] = (), ranks: int = 0, threads: int = 0,
                  ordered: bool = False) -> GraphFrame:
    """GraphFrame from input positions: names, first parents, extra edges, times.

    With ``ranks``/``threads`` > 0 every node gets one row per (rank, thread),
    with time = base time + 10 * rank + 100 * thread.
    """
    levels = tuple(lv for lv, k in (("rank", ranks), ("thread", threads)) if k)
    b = ProfileBuilder("test", index_levels=levels)
    ids = [b.add_node({"name": n, "type": "function"}, parent=p, node_id=i)
           for i, (n, p) in enumerate(zip(names, parent))]
    for src, dst in extra:
        b.add_edge(src, dst)
    times = list(times) if times is not None else [1.0] * len(names)
    for i in ids:
        for r in range(max(ranks, 1)):
            for t in range(max(threads, 1)):
                lv = {}
                if ranks:
                    lv["rank"] = r
                if threads:
                    lv["thread"] = t
                b.add_row(i, {"time": times[i] + 10 * r + 100 * t}, **lv)
    raw = b.build(exc_metrics=["time"], default_metric="time", ordered=ordered)
    return GraphFrame.from_raw(raw).update_inclusive_columns(inplace=False)


def replaced(gf: GraphFrame, **changes) -> GraphFrame:
    """A new GraphFrame with some fields changed, built with the public constructor.

    Unchanged fields are passed on as they are; aggregations of columns the
    new dataframe lacks are dropped (as the operations do).
    """
    fields = dict(graph=gf.graph, dataframe=gf.dataframe, exc_metrics=gf.exc_metrics,
                  inc_metrics=gf.inc_metrics, default_metric=gf.default_metric,
                  metadata=gf.metadata, inclusive_of=gf.inclusive_of,
                  aggregations=gf.aggregations)
    fields.update(changes)
    fields["aggregations"] = {c: k for c, k in (fields["aggregations"] or {}).items()
                              if c in fields["dataframe"].columns}
    return GraphFrame(**fields)


def by_name(gf: GraphFrame, column: str = "time") -> Dict[str, float]:
    """{name: value} for single-row-per-node frames with unique names."""
    df = gf.dataframe
    return dict(zip(df["name"], df[column]))


def tree_text(gf: GraphFrame, metric=None) -> str:
    return gf.tree(metric_column=metric, render_header=False, unicode=False)


def names_preorder(gf: GraphFrame) -> List[str]:
    return [n.frame["name"] for n in gf.graph.traverse()]


def pair(ranks: int = 2) -> Tuple[GraphFrame, GraphFrame]:
    """before: main -> (io, solve -> spmv); after: io gone, solve slower, mpi added.

    Times per node (rank r adds 10 * r): before main 1, io 0.5, solve 2, spmv 5;
    after main 1, solve 2.5, spmv 6, mpi 1.
    """
    before = gf_from_edges(["main", "io", "solve", "spmv"], [-1, 0, 0, 2],
                           times=[1.0, 0.5, 2.0, 5.0], ranks=ranks)
    after = gf_from_edges(["main", "solve", "spmv", "mpi"], [-1, 0, 1, 1],
                          times=[1.0, 2.5, 6.0, 1.0], ranks=ranks)
    return before, after


def compact_literal(literal: List[dict], nid: bool = True) -> List[dict]:
    """A literal without the keys ``to_literal`` writes because Hatchet does: ``name``
    where it equals the frame's name, a frame's ``"type": "None"`` (Hatchet's frames
    always have a type), empty ``attributes`` and (``nid=False``) the ``_hatchet_nid``
    metric. Iterative (deep literals); the input is not changed."""
    out: List[dict] = []
    stack = [(node, out) for node in reversed(literal)]
    while stack:
        node, siblings = stack.pop()
        entry = {k: v for k, v in node.items() if k != "children"}
        if entry.get("name") == entry.get("frame", {}).get("name"):
            entry.pop("name", None)
        if entry.get("frame", {}).get("type") == "None":
            entry["frame"] = {k: v for k, v in entry["frame"].items() if k != "type"}
        if entry.get("attributes") == {}:
            del entry["attributes"]
        if not nid:
            entry["metrics"] = {k: v for k, v in entry["metrics"].items() if k != "_hatchet_nid"}
        siblings.append(entry)
        if "children" in node:
            entry["children"] = []
            stack.extend((c, entry["children"]) for c in reversed(node["children"]))
    return out


#: hypothesis-drawn edits for :func:`damaged`: (position, kind, bytes)
EDIT_BYTES = b"0123456789 \t\n()[]+-*=:#abcxfnlobe/|<>.%\x00\xff"


def damaged(data: bytes, edits: Sequence[Tuple[int, int, bytes]]) -> bytes:
    """``data`` with some edits: ``kind`` 0 deletes up to 20 bytes at ``position``, 1
    inserts ``bytes``, 2 replaces one byte, 3 cuts the data there (positions wrap)."""
    d = bytearray(data)
    for position, kind, chunk in edits:
        if not d:
            break
        i = position % len(d)
        if kind == 0:
            del d[i:i + 1 + position % 20]
        elif kind == 1:
            d[i:i] = chunk
        elif kind == 2:
            d[i] = chunk[0] if chunk else 0
        else:
            del d[i:]
    return bytes(d)
