"""Node objects behave as Hatchet's wherever Hatchet code meets them (audit items 1-8).

Callables over the node level get Node objects on pandas 2 and 3, GraphFrames,
graphs, nodes and frames pickle, ``children`` keeps the source's order, nodes
read from a frame have Hatchet's read-only Node methods and refuse mutation
clearly, numpy conversions and ``astype(str)`` give nodes and their frames,
hand-built graphs take in nodes linked later, hand-built nodes find their
counterparts in derived GraphFrames, and the Graph has Hatchet's copy /
enumerate / merge API. The last tests run the same snippets under real Hatchet
where it is installed (the ``bench`` extra) and compare.
"""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

import graphframe as ht
from graphframe import Frame, Graph, GraphFrame, Node
from graphframe.errors import GraphMismatchError, ImmutableGraphError
from graphframe.examples import example_graphframe
from graphframe.model.handnode import HandNode
from graphframe.model.nodeindex import NodeArray


def names(nodes):
    return [n.frame["name"] for n in nodes]


@pytest.fixture
def gf():
    return example_graphframe()  # 20 nodes x 4 MPI ranks


# ------------------------------------------------ 1. callables get Node objects
def test_callables_over_the_node_level_get_nodes(gf):
    df = gf.dataframe
    flat = df.reset_index()
    assert flat["node"].apply(lambda n: n.frame["name"]).tolist()[:6] == \
        ["main", "main", "main", "main", "initialize", "initialize"]
    assert flat["node"].map(lambda n: n._depth).tolist()[::4][:6] == [0, 1, 2, 2, 2, 1]
    level = df.index.get_level_values("node")
    assert level.map(lambda n: n._hatchet_nid).tolist()[::4][:4] == [0, 1, 2, 3]
    assert df.index.to_frame()["node"].apply(lambda n: n._depth).tolist()[::4][:3] == [0, 1, 2]
    depth_sum = df.groupby(lambda t: t[0]._depth)["time"].sum()
    assert depth_sum.index.tolist() == [0, 1, 2, 3, 4]
    per_node = df.groupby(level="node").sum(numeric_only=True)
    assert per_node.index.map(lambda n: n.frame["name"]).tolist()[:3] == \
        ["main", "initialize", "MPI_Bcast"]
    firsts = flat.groupby("rank")["node"].first().apply(lambda n: n.frame["name"])
    assert firsts.tolist() == ["main"] * 4
    one = gf.copy()
    one.drop_index_levels()
    by_depth = one.dataframe.groupby(lambda n: n._depth)["time"].sum()
    assert by_depth.index.tolist() == [0, 1, 2, 3, 4] and len(one.dataframe) == 20
    deepest = one.dataframe.sort_index(key=lambda idx: idx.map(lambda n: -n._depth))
    assert deepest.index[0]._depth == 4 and type(deepest.index[0]) is Node
    assert one.dataframe.index.map(lambda n: n.frame["name"])[:2].tolist() == ["main", "initialize"]


def test_map_calls_the_function_once_per_distinct_node(gf):
    calls = []
    out = gf.dataframe.reset_index()["node"].map(lambda n: calls.append(int(n)) or int(n) * 2)
    assert len(out) == 80 and sorted(calls) == list(range(20))
    assert out.tolist()[:5] == [0, 0, 0, 0, 2] and out.dtype == np.int64


def test_map_keeps_node_results_as_nodes_and_missing_values_missing(gf):
    index = gf.dataframe.xs(0, level="rank").index
    same = index.map(lambda n: n)
    assert isinstance(same.array, NodeArray) and same.equals(index)
    parents = index.map(lambda n: n.parents[0] if n.parents else n)
    assert names(parents[:3]) == ["main", "main", "initialize"]
    arr = gf.dataframe.index.levels[0].array.copy()
    arr[1] = pd.NA
    seen = []
    assert list(arr.map(lambda n: seen.append(n) or str(n is pd.NA)))[:3] == \
        ["False", "True", "False"]
    assert sum(v is pd.NA for v in seen) == 1 and len(seen) == 20
    ignored = arr.map(lambda n: n._depth, na_action="ignore")
    assert ignored[1] is pd.NA or pd.isna(ignored[1])


def test_thicket_frames_hand_out_nodes(shared_data):
    import graphframe.thicket as th
    tk = th.Thicket.from_caliperreader(
        str(shared_data / "caliper/thicket/mpi_scaling_cali"), disable_tqdm=True)
    df = tk.dataframe
    assert df.reset_index()["node"].apply(lambda n: n.frame["name"]).iloc[:2].tolist() == \
        ["MPI_Allreduce", "MPI_Allreduce"]
    assert df.index.get_level_values("node").map(lambda n: n.frame["name"])[:1].tolist() == \
        ["MPI_Allreduce"]
    th.stats.mean(tk, columns=["Avg time/rank"])
    stats = tk.statsframe.dataframe
    assert stats.index.map(lambda n: n.frame["name"])[:3].tolist() == \
        ["MPI_Allreduce", "MPI_Bcast", "MPI_Comm_dup"]
    assert stats.reset_index()["node"].apply(lambda n: n._depth).iloc[:3].tolist() == [0, 0, 0]


# ------------------------------------------------------------------- 2. pickle
def test_graphframe_graph_node_and_frames_pickle(gf):
    back = pickle.loads(pickle.dumps(gf))
    assert back.graph == gf.graph and back.graph is not gf.graph
    assert back.dataframe.equals(gf.dataframe) and back.exc_metrics == gf.exc_metrics
    node = back.dataframe.index[5][0]
    assert type(node) is Node and node.graph is back.graph and node.frame["name"] == "initialize"
    assert back.tree(color=False) == gf.tree(color=False)
    graph = pickle.loads(pickle.dumps(gf.graph))
    assert graph == gf.graph and names(graph.roots) == ["main"]
    one = pickle.loads(pickle.dumps(gf.dataframe.index[9][0]))
    assert type(one) is Node and one.frame == gf.dataframe.index[9][0].frame
    flat = pickle.loads(pickle.dumps(gf.dataframe.reset_index()))
    assert flat["node"].apply(lambda n: n.frame["name"]).iloc[4] == "initialize"
    lists = pickle.loads(pickle.dumps(GraphFrame.from_lists(("a", ("z", "y"), "b"))))
    assert names(lists.graph.roots[0].children) == ["z", "b"]  # the source order survives


def test_a_hand_built_graphframe_pickles_with_its_nodes():
    main = Node(Frame(name="main"))
    solve = Node(Frame(name="solve"), parent=main)
    main.add_child(solve)
    graph = Graph([main])
    df = pd.DataFrame({"time": [1.0, 2.0]}, index=pd.Index([main, solve], name="node"))
    gf = GraphFrame(graph, df, ["time"], [])
    main2, gf2 = pickle.loads(pickle.dumps((main, gf)))
    assert type(main2) is HandNode and main2.graph is gf2.graph
    assert float(gf2.dataframe.loc[main2.children[0], "time"]) == 2.0
    assert gf2.graph.roots[0] is main2


# ----------------------------------------------------------- 3. children order
def test_children_keep_the_source_order_and_traversal_ascending_ids():
    g = GraphFrame.from_lists(("a", ("z", "y", "x"), "b")).graph
    root = g.roots[0]
    assert names(root.children) == ["z", "b"] and names(root.children[0].children) == ["y", "x"]
    assert names(g.traverse()) == ["a", "b", "z", "x", "y"]
    assert names(Graph.from_lists(("p", "q"), ("c", "d")).roots) == ["p", "c"]


def test_reader_roots_follow_the_file(shared_data):
    gf = GraphFrame.from_cprofile(str(shared_data / "cprofile/hatchet/cprofile-cycle.pstats"))
    assert names(gf.graph.roots) == ["e", "__exit__"]  # Hatchet's order (pstats order)
    assert sorted(gf.graph.root_ids.tolist()) == gf.graph.root_ids.tolist()


# ------------------------------------------------------- 4. Node methods
def test_nodes_from_a_frame_have_hatchets_read_only_methods(gf):
    n = gf.dataframe.index[4][0]
    c = n.copy()
    assert type(c) is HandNode and c.frame == n.frame and c.frame is not n.frame
    assert (c.children, c.parents, c._hatchet_nid, c._depth) == ([], [], -1, -1)
    assert n.dag_equal(n) and not n.dag_equal(gf.graph.roots[0])
    fn = {"type": "function"}
    assert n.dag_equal(Node.from_lists([dict(fn, name="initialize"), dict(fn, name="setup_mesh"),
                                        {"name": "MPI_Bcast", "type": "mpi"}, dict(fn, name="read_input")]))
    for mutate in (lambda: n.add_child(Node(Frame(name="x"))),
                   lambda: n.add_parent(Node(Frame(name="x"))),
                   lambda: setattr(n, "_hatchet_nid", 99), lambda: setattr(n, "_depth", 3),
                   lambda: setattr(n, "children", []), lambda: setattr(n, "parents", [])):
        with pytest.raises(ImmutableGraphError, match="never changes .* Graph\\(roots\\)"):
            mutate()
    assert isinstance(ImmutableGraphError("x"), AttributeError)


# ------------------------------------------------- 5. conversions users print
def test_numpy_conversions_and_astype_str_give_nodes_and_frames(gf):
    flat = gf.dataframe.reset_index()
    assert flat["node"].astype(str).iloc[0] == "{'name': 'main', 'type': 'function'}"
    assert int(flat["node"].astype(str).str.contains("init").sum()) == 4
    for values in (np.array(flat["node"]), gf.dataframe.index.get_level_values("node").to_numpy(),
                   flat["node"].to_numpy(), gf.dataframe.index.levels[0].to_numpy()):
        assert values.dtype == object and type(values[0]) is Node
    assert type(flat.to_records()[0]["node"]) is Node
    assert flat["node"].to_numpy(dtype=np.int64)[:5].tolist() == [0, 0, 0, 0, 1]
    n = flat["node"].iloc[4]
    assert (n == 1, n + 1) == (True, 2)  # still an int (see coming-from-hatchet.md)


def test_operations_never_turn_the_node_level_into_objects(gf, monkeypatch):
    def refuse(self):
        raise AssertionError("an operation made one Node object per row")

    other = example_graphframe()
    monkeypatch.setattr(NodeArray, "_objects", refuse)
    monkeypatch.setattr(NodeArray, "map", refuse)
    kept = gf.filter(lambda row: row["time"] > 0.5)
    kept.squash()
    gf.filter([{"name": "cg_solve"}, "*"], squash=True, multi_index_mode="any")
    (gf - other).update_inclusive_columns(inplace=False)
    gf.unify(other, inplace=False)
    gf.drop_index_levels(inplace=False)
    gf.groupby_aggregate("name", "sum")
    gf.tree(color=False)
    gf.to_literal()
    gf.rank_stats()
    GraphFrame.from_json(gf.to_json())


# ------------------------------------------- 6. hand-built graphs that change
def test_nodes_linked_after_graph_roots_are_taken_in():
    main = Node(Frame(name="main"))
    graph = Graph([main])
    solve = Node(Frame(name="solve"), parent=main)
    main.add_child(solve)
    assert len(graph) == 1  # the graph is rebuilt at the next enumerate_traverse
    graph.enumerate_traverse()
    assert len(graph) == 2 and (solve._hatchet_nid, solve._depth) == (1, 1)
    io = Node(Frame(name="io"), parent=main)
    main.add_child(io)  # GraphFrame(graph, df) walks again too
    df = pd.DataFrame({"time": [1.0, 2.0, 3.0]}, index=pd.Index([main, solve, io], name="node"))
    gf = GraphFrame(graph, df, ["time"], [])
    assert gf.tree(color=False, render_header=False) == \
        "1.000 main\n├─ 3.000 io\n└─ 2.000 solve\n"
    assert names(graph.roots[0].children) == ["solve", "io"] and graph.roots[0] is main


def test_a_change_that_renumbers_nodes_under_a_graphframe_is_refused():
    a = Node.from_lists(["a", "c"])
    graph = Graph([a])
    gf = GraphFrame(graph, pd.DataFrame({"time": [1.0, 2.0]},
                                        index=pd.Index([a, a.children[0]], name="node")))
    a.children[0].add_child(Node(Frame(name="d")))  # appended in pre-order: allowed
    graph.enumerate_traverse()
    assert len(gf.graph) == 3 and gf.dataframe.index[1].frame["name"] == "c"
    a.add_child(Node(Frame(name="b")))  # b sorts before c: c's id would move
    with pytest.raises(GraphMismatchError, match="renumbers"):
        graph.enumerate_traverse()


def test_root_list_appends_and_frame_changes():
    top = Node(Frame(name="top"))
    graph = Graph([top])
    graph.roots.append(Node(Frame(name="extra")))
    graph.enumerate_traverse()
    assert len(graph) == 2 and names(graph.roots) == ["top", "extra"]
    top.frame.attrs["name"] = "renamed"
    graph.enumerate_traverse()
    assert graph.node(1).frame["name"] == "renamed"
    with pytest.raises(ImmutableGraphError, match="cannot be changed"):
        Graph.from_lists(("a", "b")).roots.append(top)


# ------------------------------------ 7. hand-built keys in derived GraphFrames
def test_a_hand_built_node_finds_its_counterpart_in_derived_graphframes():
    main = Node(Frame(name="main"))
    solve = Node(Frame(name="solve"), parent=main)
    main.add_child(solve)
    graph = Graph([main])
    graph.enumerate_traverse()
    df = pd.DataFrame({"name": ["main", "solve"], "time": [1.0, 2.0]},
                      index=pd.Index([main, solve], name="node"))
    gf = GraphFrame(graph, df, ["time"], [])
    other = GraphFrame.from_lists(("main", "solve"))
    assert float(gf.deepcopy().dataframe.loc[solve, "time"]) == 2.0
    assert float(gf.filter(lambda r: r["time"] > 0).dataframe.loc[solve, "time"]) == 2.0
    assert float((gf + other).dataframe.loc[solve, "time"]) == 3.0
    assert float(other.dataframe.loc[solve, "time"]) == 1.0
    assert solve in gf.deepcopy().dataframe.index
    assert [n == solve for n in gf.deepcopy().graph.traverse()] == [False, True]


# ----------------------------------------------------------- 8. Graph API
def test_graph_copy_fills_old_to_new():
    g = Graph.from_lists(("a", ("b", "x"), "c"))
    mapping = {}
    h = g.copy(mapping)
    assert h == g and h is not g and len(mapping) == 4
    assert all(new.graph is h and int(new) == int(old) for old, new in mapping.items())
    hand = Node.from_lists(["m", "s"])
    hg = Graph([hand])
    hmap = {}
    hg.copy(hmap)
    assert list(hmap)[0] is hand and hmap[hand].graph is not hg


def test_find_merges_merge_nodes_and_normalize():
    attrs = pd.DataFrame({"name": ["a", "x", "p", "x", "q", "x", "p"]})
    g, _ = Graph.build(attrs, [-1, 0, 1, 0, 3, -1, 5])  # a{x{p}, x{q}} and a root x{p}
    merges = g.find_merges()
    assert {(int(k), int(v)) for k, v in merges.items()} == {(1, 1), (3, 1)}
    mapping = {}
    merged = g.normalize(mapping)
    assert names(merged.traverse()) == ["a", "x", "p", "q", "x", "p"]
    assert len(merged) == 6 and len(g) == 7  # g is unchanged
    assert {int(k): int(v) for k, v in mapping.items()} == {0: 0, 1: 1, 2: 2, 3: 1, 4: 3, 5: 4, 6: 5}
    only_x = g.merge_nodes({g.node(3): g.node(1)})
    assert [len(n.children) for n in only_x.traverse()] == [1, 2, 0, 0, 1, 0]


def test_enumerate_depth_follows_hatchets_first_discovery():
    d = Node(Frame(name="d"))
    a = Node.from_lists(["a", d, ["b", d]])
    g = Graph([a])
    g.enumerate_depth()
    assert d._depth == 1 and a.children[1]._depth == 1
    Graph.from_lists(("a", "b")).enumerate_depth()  # array graphs: depths are fixed


# ------------------------------------------------ side by side with Hatchet
SNIPPETS = {
    "apply": "list(gf.dataframe.reset_index()['node'].apply(lambda n: n.frame['name']))",
    "index map": "list(gf.dataframe.index.map(lambda n: n._depth))",
    "groupby": "gf.dataframe.groupby(lambda n: n._depth)['time'].sum().to_dict()",
    "children": "[c.frame['name'] for c in gf.graph.roots[0].children]",
    "grandchildren": "[c.frame['name'] for c in gf.graph.roots[0].children[0].children]",
    "astype str": "list(gf.dataframe.reset_index()['node'].astype(str))",
    "to_numpy": "[type(v).__name__ for v in gf.dataframe.index.to_numpy()]",
    "pickle": "pickle.loads(pickle.dumps(gf)).dataframe.index.map(lambda n: n.frame['name'])"
              ".tolist()",
    "copy": "gf.dataframe.index[2].copy().frame['name']",
    "dag_equal": "gf.dataframe.index[1].dag_equal(gf.dataframe.index[1])",
    "copy map": "(lambda d: (gf.graph.copy(d), len(d))[1])({})",
    "merges": "len(gf.graph.find_merges())",
}


def _run_snippets(impl):
    mod = pytest.importorskip(impl)
    gf = mod.GraphFrame.from_lists(("main", ("zeta", "y", "x"), "alpha"))
    scope = {"gf": gf, "pickle": pickle}
    return {key: eval(code, scope) for key, code in SNIPPETS.items()}  # noqa: S307


def test_side_by_side_with_hatchet():
    pytest.importorskip("hatchet", reason="Hatchet is the bench extra (pandas 2 venvs)")
    ours, theirs = _run_snippets("graphframe"), _run_snippets("hatchet")
    assert ours == theirs


def test_hand_built_side_by_side_with_hatchet():
    pytest.importorskip("hatchet", reason="Hatchet is the bench extra (pandas 2 venvs)")
    results = []
    for impl in ("graphframe", "hatchet"):
        node_mod = __import__(f"{impl}.node", fromlist=["Node"])
        frame_mod = __import__(f"{impl}.frame", fromlist=["Frame"])
        graph_mod = __import__(f"{impl}.graph", fromlist=["Graph"])
        mod = __import__(impl)
        N, F, G = node_mod.Node, frame_mod.Frame, graph_mod.Graph
        main = N(F(name="main"))
        graph = G([main])
        solve = N(F(name="solve"), parent=main)
        main.add_child(solve)
        graph.enumerate_traverse()
        df = pd.DataFrame({"name": ["main", "solve"], "time": [1.0, 2.0]},
                          index=pd.Index([main, solve], name="node"))
        gf = mod.GraphFrame(graph, df, ["time"], [])
        other = mod.GraphFrame.from_lists(("main", "solve"))
        results.append((len(graph), solve._hatchet_nid, solve._depth,
                        float(gf.deepcopy().dataframe.loc[solve, "time"]),
                        float((gf + other).dataframe.loc[solve, "time"]),
                        solve in gf.deepcopy().dataframe.index))
    assert results[0] == results[1]
