"""squash on graphs with shared nodes (DAGs and cycles) against a plain reference.

The reference follows the definition node by node: a kept node's new parents
are the kept nodes reached upwards through removed nodes only (a removed root
on the way makes it a root), then siblings with equal frames merge until
nothing changes. The vectorised squash must give the same graph (ids, child
and parent order) and the same old -> new map.
"""

import numpy as np
import pandas as pd
from hypothesis import assume, given
from hypothesis import strategies as st

from graphframe import Graph
from graphframe.ops.squash import squash_graph
from tests.helpers import gf_from_edges, tree_text
from tests.strategies import SETTINGS

ROOT = -1


def reference_squash(graph, kept):
    n = graph.num_nodes
    parents = [graph.parent_idx[graph.parent_ptr[v]:graph.parent_ptr[v + 1]].tolist()
               for v in range(n)]
    is_root = np.zeros(n, dtype=bool)
    is_root[graph.root_ids] = True

    def above(p):  # kept nodes (or ROOT) reached from p going up through removed nodes
        found, seen, todo = set(), {p}, [p]
        while todo:
            u = todo.pop()
            if kept[u]:
                found.add(u)
                continue
            if is_root[u]:
                found.add(ROOT)
            for q in parents[u]:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        return found

    new_parents, roots = {}, []
    for v in np.flatnonzero(kept).tolist():
        found = set().union(*[above(p) for p in parents[v]]) if parents[v] else set()
        if is_root[v] or ROOT in found:
            roots.append(v)
        new_parents[v] = found - {ROOT}
    codes = graph.frame_codes
    group = {v: v for v in new_parents}
    changed = True
    while changed:  # siblings (and roots) with equal frames merge, until stable
        changed = False
        first = {}
        keyed = [((ROOT, int(codes[v])), v) for v in roots]
        keyed += [((group[p], int(codes[v])), v) for v, ps in new_parents.items() for p in ps]
        for key, v in keyed:
            other = first.setdefault(key, group[v])
            if group[v] != other:
                old, new = max(group[v], other), min(group[v], other)
                group = {u: new if g == old else g for u, g in group.items()}
                first = {k: (new if g == old else g) for k, g in first.items()}
                changed = True
    reps = sorted(set(group.values()))
    position = {r: i for i, r in enumerate(reps)}
    src, dst = [], []
    for v, ps in sorted(new_parents.items()):
        for p in sorted(ps):
            src.append(position[group[p]])
            dst.append(position[group[v]])
    root_pos = sorted({position[group[r]] for r in roots})
    new_graph, order = Graph.from_edges(graph.attrs.iloc[reps], src, dst, root_pos,
                                        ordered=graph.ordered,
                                        sibling_key=np.asarray(reps) if graph.ordered else None,
                                        codes=graph.frame_codes[reps])
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = np.arange(len(order))
    new_of_old = np.full(n, -1, dtype=np.int64)
    for v, r in group.items():
        new_of_old[v] = inverse[position[r]]
    return new_graph, new_of_old


@st.composite
def shared_node_graphs(draw):
    """A random forest plus extra edges (into roots and back edges too), some ordered."""
    n = draw(st.integers(2, 25))
    parent = [-1] + [draw(st.integers(-1 if i < 3 else 0, i - 1)) for i in range(1, n)]
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                          min_size=1, max_size=8))
    names = [draw(st.sampled_from("abc")) for _ in range(n)]
    es = [a for a, b in extra if a != b]
    ed = [b for a, b in extra if a != b]
    graph, _ = Graph.build(pd.DataFrame({"name": names}), parent, (es, ed),
                           ordered=draw(st.booleans()))
    kept = np.array(draw(st.lists(st.booleans(), min_size=graph.num_nodes,
                                  max_size=graph.num_nodes)))
    kept[draw(st.integers(0, graph.num_nodes - 1))] = True
    return graph, kept


@SETTINGS
@given(shared_node_graphs())
def test_matches_the_reference(case):
    graph, kept = case
    assume(not graph.is_forest)  # the extra edges may all repeat first-parent ones
    got, got_map = squash_graph(graph, kept)
    want, want_map = reference_squash(graph, kept)
    assert got == want
    assert np.array_equal(got_map, want_map)
    for name in ("parent", "child_ptr", "child_idx", "parent_ptr", "parent_idx", "depth"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name


def test_filter_on_a_call_graph_rewires_through_removed_nodes():
    # main -> {a -> x, b}; b -> x too (x shared); drop a and b: x hangs off main once
    gf = gf_from_edges(["main", "a", "x", "b"], [-1, 0, 1, 0], times=[1.0, 2.0, 4.0, 8.0],
                       extra=[(3, 2)])
    assert not gf.graph.is_forest
    out = gf.filter(gf.dataframe["name"].isin(["main", "x"]))
    assert tree_text(out, ["time", "time (inc)"]) == "1.000 5.000 main\n`- 4.000 4.000 x\n"
    assert out.graph.is_forest


def test_one_extra_edge_merges_equal_siblings_under_the_new_parent():
    # main -> {f -> g, h -> {f2 -> g2}} with an extra edge main -> f2: once h is
    # removed, f and f2 are both children of main with the frame "f" and merge
    gf = gf_from_edges(["main", "f", "g", "h", "f", "g"], [-1, 0, 1, 0, 3, 4],
                       times=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], extra=[(0, 4)])
    out = gf.filter(gf.dataframe["name"] != "h")
    assert tree_text(out, ["time", "time (inc)"]) == (
        "1.000 17.000 main\n`- 7.000 16.000 f\n   `- 9.000 9.000 g\n")
