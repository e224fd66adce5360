"""Property-based tests of the graph operations (hypothesis)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import gf_from_edges, replaced
from tests.strategies import SETTINGS, forests, pairs, shared_graphs

def reachable_sum(gf):
    """Brute force: per node, the sum of time over distinct reachable nodes."""
    g = gf.graph
    time = gf.dataframe["time"].groupby(level="node").sum()
    out = {}
    for v in range(g.num_nodes):
        seen, stack = {v}, [v]
        while stack:
            u = stack.pop()
            for c in g.children_of(u).tolist():
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        out[v] = float(time.loc[sorted(seen)].sum())
    return out


@SETTINGS
@given(forests(dag=True), st.data())
def test_squash_conserves_exclusive_totals(gf, data):
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=len(gf.dataframe),
                                       max_size=len(gf.dataframe))))
    if not mask.any():
        mask[0] = True
    out = gf.filter(mask)
    assert out.dataframe["time"].sum() == gf.dataframe["time"][mask].sum()
    assert out.graph.num_nodes == out.dataframe.index.get_level_values("node").nunique()


@SETTINGS
@given(forests(), st.data())
def test_after_squash_inclusive_is_exclusive_plus_children(gf, data):
    # keep whole nodes (every rank), so every kept node has all its rows
    n = gf.graph.num_nodes
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    keep[0] = True
    out = gf.filter(keep[gf.dataframe.index.get_level_values("node").to_numpy(dtype=np.int64)])
    df = out.dataframe
    g = out.graph
    levels = [lv for lv in df.index.names if lv != "node"]
    for key, row in df.iterrows():
        node = key[0] if levels else key
        rest = tuple(key[1:]) if levels else ()
        kids = g.children_of(node).tolist()
        inc = df["time (inc)"]
        child_inc = sum(inc.loc[(c,) + rest if levels else c] for c in kids)
        assert row["time (inc)"] == pytest.approx(row["time"] + child_inc)


@SETTINGS
@given(forests(dag=True))
def test_inclusive_counts_each_reachable_node_once(gf):
    single = gf.drop_index_levels(np.sum, inplace=False).update_inclusive_columns(inplace=False)
    expected = reachable_sum(single)
    got = single.dataframe["time (inc)"].to_dict()
    assert got == pytest.approx(expected)


def call_paths(gf):
    return {tuple(n.frame["name"] for n in node.path()) for node in gf.graph.traverse()}


@SETTINGS
@given(pairs())
def test_add_then_sub_gives_back_the_left_operand(operands):
    a, b = operands
    result = a.add(b, fill_value=0).sub(b, fill_value=0)
    u, _ = a.unify(b, inplace=False)
    left_rows = u.dataframe[u.dataframe.get("_missing_node", 0) != 2] if "_missing_node" in \
        u.dataframe.columns else u.dataframe
    for col in ("time", "time (inc)"):  # inclusive columns are recomputed on the union
        back = result.dataframe.loc[left_rows.index, col]
        assert back.tolist() == pytest.approx(left_rows[col].tolist())
    others = result.dataframe.drop(index=left_rows.index)
    assert (others["time"] == 0).all() and (others["time (inc)"] == 0).all()


@SETTINGS
@given(pairs(dag=True, unique_siblings=True))
def test_add_then_sub_gives_back_the_left_operand_on_dags(operands):
    # unique names: no two nodes of one operand can share a call path
    a, b = operands
    result = a.add(b, fill_value=0).sub(b, fill_value=0)
    u, _ = a.unify(b, inplace=False)
    df = u.dataframe
    left_rows = df[df["_missing_node"] != 2] if "_missing_node" in df.columns else df
    back = result.dataframe.loc[left_rows.index, "time"]
    assert back.tolist() == pytest.approx(left_rows["time"].tolist())
    assert len(left_rows) == len(a.dataframe)
    assert sorted(left_rows["time"].tolist()) == sorted(a.dataframe["time"].tolist())


@SETTINGS
@given(pairs())
def test_unify_is_deterministic_and_holds_both_path_sets(operands):
    a, b = operands
    ua, ub = a.unify(b, inplace=False)
    again, _ = a.unify(b, inplace=False)
    assert ua.graph == again.graph
    pd.testing.assert_frame_equal(ua.dataframe, again.dataframe)
    assert call_paths(ua) == call_paths(a) | call_paths(b)


@SETTINGS
@given(forests(unique_siblings=True))
def test_always_true_filter_returns_an_equal_graphframe(gf):
    out = gf.filter(lambda row: True)
    assert out.graph == gf.graph
    pd.testing.assert_frame_equal(out.dataframe, gf.dataframe)
    out2 = gf.filter(np.ones(len(gf.dataframe), dtype=bool))
    pd.testing.assert_frame_equal(out2.dataframe, gf.dataframe)


def snapshot(gf):
    return (gf.dataframe.copy(deep=True), gf.graph.parent.copy(), gf.graph.child_idx.copy(),
            list(gf.exc_metrics), list(gf.inc_metrics), dict(gf.metadata))


def assert_unchanged(gf, snap):
    df, parent, kids, exc, inc, meta = snap
    pd.testing.assert_frame_equal(gf.dataframe, df)
    assert np.array_equal(gf.graph.parent, parent) and np.array_equal(gf.graph.child_idx, kids)
    assert (gf.exc_metrics, gf.inc_metrics, gf.metadata) == (exc, inc, meta)


def with_attributes(gf):
    """``gf`` plus an integer ``line`` and a text ``file`` column (attributes)."""
    df = gf.dataframe.copy()
    df["line"] = np.arange(len(df), dtype=np.int64) + 10
    df["file"] = [f"f{i % 3}.c" for i in range(len(df))]
    return replaced(gf, dataframe=df)


def scribble(gf):
    """Write into the first row of every column of ``gf``'s dataframe (in place)."""
    df = gf.dataframe
    for j, col in enumerate(df.columns):
        kind = df[col].dtype.kind if isinstance(df[col].dtype, np.dtype) else "O"
        value = (not df.iloc[0, j]) if kind == "b" else 4242 if kind in "iuf" else "scribbled"
        df.iloc[0, j] = value


def operations(a, b):
    """Every operation of ``a`` (and ``b`` where it takes two operands)."""
    ops = [
        lambda: a.filter(np.ones(len(a.dataframe), dtype=bool)),
        lambda: a.filter(np.ones(len(a.dataframe), dtype=bool), squash=False),
        lambda: a.filter(lambda row: True),
        lambda: a.squash(),
        lambda: a.squash(update_inc_cols=False),
        lambda: a.update_inclusive_columns(inplace=False),
        lambda: replaced(a, exc_metrics=[], inclusive_of={}).update_inclusive_columns(inplace=False),
        lambda: a.generate_exclusive_columns(inplace=False),
        lambda: a.subgraph_sum(["time"], ["t"], inplace=False),
        lambda: a.drop_index_levels(inplace=False),
        lambda: a.groupby_aggregate("name", "sum"),
        lambda: a.copy(),
        lambda: a.deepcopy(),
        lambda: a.unify(a, inplace=False)[0],
        lambda: a.unify(a, inplace=False)[1],
        lambda: a - a,
        lambda: a.sub(a, fill_value=0),
        lambda: a * a,
    ]
    if list(a.dataframe.index.names) == list(b.dataframe.index.names):
        ops += [lambda: a.unify(b, inplace=False)[0], lambda: a.unify(b, inplace=False)[1], lambda: a + b,
                lambda: a.sub(b, fill_value=0), lambda: a * b, lambda: a / b,
                lambda: b.unify(a, inplace=False)[0], lambda: b - a]
    return ops


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forests(dag=True), forests())
def test_no_operation_mutates_or_shares_data_with_its_inputs(a, b):
    a, b = with_attributes(a), with_attributes(b)
    sa, sb = snapshot(a), snapshot(b)
    for op in operations(a, b):
        out = op()
        assert_unchanged(a, sa)
        assert_unchanged(b, sb)
        scribble(out)  # writing into the result must not reach the inputs
        assert_unchanged(a, sa)
        assert_unchanged(b, sb)
    a.tree()
    a.to_literal()
    assert_unchanged(a, sa)


def test_writing_into_a_same_graph_difference_leaves_the_operand_alone():
    g = with_attributes(gf_from_edges(["a", "b"], [-1, 0], [1.0, 2.0], ranks=2))
    out = g - g
    out.dataframe.loc[(0, 0), "line"] = 4242
    out.dataframe.loc[(0, 0), "file"] = "x.c"
    assert g.dataframe.loc[(0, 0), "line"] == 10 and g.dataframe.loc[(0, 0), "file"] == "f0.c"


def brute_inclusive(gf):
    """Per row: the sum of ``time`` over the distinct nodes reachable from its node (same
    rank), NaN when none of them has a value."""
    g, df = gf.graph, gf.dataframe
    levels = [lv for lv in df.index.names if lv != "node"]
    values = df["time"].to_dict()
    out = []
    for key in df.index:
        node = key[0] if levels else key
        seen, stack = {node}, [node]
        while stack:
            u = stack.pop()
            for c in g.children_of(u).tolist():
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        cells = [values.get((u,) + tuple(key[1:]) if levels else u) for u in seen]
        cells = [c for c in cells if c is not None and not np.isnan(c)]
        out.append(sum(cells) if cells else np.nan)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(shared_graphs(), shared_graphs(cycles=True)))
def test_shared_node_inclusive_sums_match_brute_force(gf):
    got = gf.update_inclusive_columns(inplace=False).dataframe["time (inc)"].tolist()
    assert got == pytest.approx(brute_inclusive(gf), nan_ok=True)
    # subgraph_sum is the same computation on any column
    assert gf.subgraph_sum(["time"], ["t"], inplace=False).dataframe["t"].tolist() == pytest.approx(
        got, nan_ok=True)


def edge_names(g):
    """Edges of a graph as (parent frame name, child frame name) pairs."""
    names = g.attrs["name"].tolist()
    owner = np.repeat(np.arange(g.num_nodes), np.diff(g.child_ptr))
    return {(names[p], names[c]) for p, c in zip(owner.tolist(), g.child_idx.tolist())}


@SETTINGS
@given(pairs(shared_graphs, max_nodes=12, max_extra=6))
def test_dag_union_merges_equal_children_over_every_edge(operands):
    a, b = operands
    u, ma, mb = a.graph.union(b.graph, return_mappings=True)
    again = a.graph.union(b.graph, return_mappings=True)
    assert u == again[0] and np.array_equal(ma, again[1]) and np.array_equal(mb, again[2])
    names = u.attrs["name"].tolist()
    # names are unique inside each operand, so no union node may have two children
    # (or two roots) with the same frame
    for v in range(u.num_nodes):
        kids = [names[c] for c in u.children_of(v).tolist()]
        assert len(kids) == len(set(kids))
    roots = [names[r] for r in u.root_ids.tolist()]
    assert len(roots) == len(set(roots))
    # every edge of an operand is an edge of the union, and nothing else is
    owner = np.repeat(np.arange(u.num_nodes), np.diff(u.child_ptr))
    union_edges = set(zip(owner.tolist(), u.child_idx.tolist()))
    mapped = set()
    for g, m in ((a.graph, ma), (b.graph, mb)):
        own = np.repeat(np.arange(g.num_nodes), np.diff(g.child_ptr))
        mapped |= set(zip(m[own].tolist(), m[g.child_idx].tolist()))
    assert mapped == union_edges
    assert edge_names(u) == edge_names(a.graph) | edge_names(b.graph)
