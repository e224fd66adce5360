"""Small builders shared by the operation tests."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple


from graphframe import GraphFrame
from readers import ProfileBuilder


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
    return GraphFrame.from_raw(raw).update_inclusive_columns()


def by_name(gf: GraphFrame, column: str = "time") -> Dict[str, float]:
    """{name: value} for single-row-per-node frames with unique names."""
    df = gf.dataframe
    return dict(zip(df["name"], df[column]))


def tree_text(gf: GraphFrame, metric=None) -> str:
    return gf.tree(metric_column=metric, render_header=False, unicode=False)


def names_preorder(gf: GraphFrame) -> List[str]:
    return [n.frame["name"] for n in gf.graph.traverse()]
