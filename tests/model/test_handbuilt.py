"""Hand-built graphs as Hatchet builds them: Node(Frame(...)), links, Graph(roots).

The cases follow Hatchet's own test files (hatchet/tests/node.py, graph.py,
graphframe.py) with the results Hatchet 2024.1.3 gives.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given

from graphframe import Frame, Graph, GraphFrame, Node
from graphframe.errors import ArgumentError, GraphMismatchError, MultiplePathError
from graphframe.model.handnode import HandNode
from graphframe.node import node_traversal_order, traversal_order
from tests.strategies import SETTINGS, shared_graphs


def diamond():
    d = Node(Frame(name="d"))
    return d, Node.from_lists(("a", ("b", d), ("c", d)))


def names(nodes):
    return [n.frame["name"] for n in nodes]


# ------------------------------------------------------------------ nodes
def test_node_with_a_frame_is_a_mutable_hand_node():
    root = Node(Frame(name="main"), parent=None, hnid=-1, depth=-1)
    child = Node(Frame(name="solve"), root, 7, 1)
    assert type(root) is HandNode and isinstance(root, Node) and not isinstance(root, int)
    assert (child.parents, root.children, child._hatchet_nid, child._depth) == ([root], [], 7, 1)
    root.add_child(child)
    root._hatchet_nid, root._depth = 4, 0
    assert (root.children, root._hatchet_nid, root.depth) == ([child], 4, 0)
    with pytest.raises(ArgumentError):
        root.add_child("x")
    with pytest.raises(ArgumentError):
        Node(Frame(name="a"), parent="x")


def test_from_lists_builds_linked_nodes():
    assert Node.from_lists("a").frame == Frame(name="a")
    node = Node.from_lists(["a", ["b", "c"]])
    assert node.frame == Frame(name="a")
    assert node.children[0].frame == Frame(name="b")
    assert node.children[0].children[0].frame == Frame(name="c")
    assert node.children[0].parents == [node]
    with pytest.raises(ValueError):
        Node.from_lists(object())


def test_node_traversals_sort_children_by_frame():
    assert list(Node(Frame(name="a")).traverse(attrs="name")) == ["a"]
    node = Node.from_lists(["a", ["c", "g", "f"], ["b", "e", "d"]])
    assert list(node.traverse(attrs="name")) == ["a", "b", "d", "e", "c", "f", "g"]
    assert list(node.traverse(order="post", attrs="name")) == ["d", "e", "b", "f", "g", "c", "a"]
    assert list(node.traverse(attrs=["name", "type"]))[1] == ("b", "None")
    d, dag = diamond()
    visited = {}
    assert list(dag.traverse(attrs="name", visited=visited)) == ["a", "b", "d", "c"]
    assert visited[id(d)] == 2
    with pytest.raises(ValueError):
        list(dag.traverse(order="in"))


def test_node_order_traverse_sorts_children_by_hatchet_nid():
    top = Node(Frame(name="top"), hnid=0)
    for i, name in ((2, "alpha"), (1, "zeta")):
        top.add_child(Node(Frame(name=name), parent=top, hnid=i))
    assert list(top.node_order_traverse(attrs="name")) == ["top", "zeta", "alpha"]
    assert list(top.node_order_traverse(order="post", attrs="name")) == ["zeta", "alpha", "top"]
    assert [n.frame["name"] for n in sorted(top.children, key=node_traversal_order)] == \
        ["zeta", "alpha"]
    assert [n.frame["name"] for n in sorted(top.children, key=traversal_order)] == \
        ["alpha", "zeta"]


def test_repr_str_paths_and_path():
    assert repr(Node(Frame(a=1, b=2, c=3))) == "Node({'a': 1, 'b': 2, 'c': 3, 'type': 'None'})"
    d = Node(Frame(name="d", type="function"))
    node = Node.from_lists(["a", ["b", d]])
    assert str(d) == "{'name': 'd', 'type': 'function'}"
    # unnumbered nodes are all equal (Hatchet compares _hatchet_nid, -1 here)
    assert d.path() == (Node(Frame(name="a")), Node(Frame(name="b")), d)
    assert names(d.path()) == ["a", "b", "d"] and names(node.path()) == ["a"]
    d2, _ = diamond()
    assert [names(p) for p in d2.paths()] == [["a", "b", "d"], ["a", "c", "d"]]
    with pytest.raises(MultiplePathError):
        d2.path()


def test_copy_and_dag_equal():
    d, dag = diamond()
    c = d.copy()
    assert (c.frame == d.frame, c.frame is d.frame, c.parents, c.children, c._hatchet_nid) == \
        (True, False, [], [], -1)
    chain = Node.from_lists(("a", ("b", ("c", ("d",)))))
    tree = Node.from_lists(("a", ("b", "e", "f"), ("c", "e", "f")))
    assert chain.dag_equal(chain) and dag.dag_equal(dag) and tree.dag_equal(tree)
    assert not chain.dag_equal(tree) and not chain.dag_equal(dag) and not tree.dag_equal(chain)


# ------------------------------------------------------------------ graphs
def test_graph_of_hand_nodes_traverses_all_roots_once():
    d, dag = diamond()
    g = Graph.from_lists(("e", "f", dag), ("g", dag, "h"))
    assert list(g.traverse(attrs="name")) == ["e", "a", "b", "d", "c", "f", "g", "h"]
    assert (len(g), g.is_tree(), names(g.roots)) == (8, False, ["e", "g"])
    assert names(d.parents) == ["b", "c"]


def test_len_and_is_tree():
    assert len(Graph.from_lists(("a", "b", "c", "d", "e"))) == 5
    d = Node(Frame(name="d"))
    assert len(Graph.from_lists(("a", ("b", d), ("c", d)))) == 4
    assert len(Graph.from_lists(("a", ("b", "d"), ("c", "d")))) == 5
    assert not Graph.from_lists(("b", "c"), ("d", "e")).is_tree()
    _, dag = diamond()
    assert not Graph([dag]).is_tree()
    assert Graph.from_lists(("a",)).is_tree()
    assert Graph.from_lists(("a", ("b", "e", "f"), ("c", "e", "f"))).is_tree()


def test_graph_roots_keep_the_given_order_and_equality_is_structural():
    g = Graph([Node(Frame(name="x")), Node(Frame(name="p"))])
    assert names(g.roots) == ["x", "p"] and g.root_ids.tolist() == [0, 1]
    assert names(Graph.from_lists(("x", "y"), ("p", "q")).roots) == ["x", "p"]
    assert Graph.from_lists(("a", "b", "c")) == Graph.from_lists(("a", "c", "b"))
    assert Graph.from_lists(("a", "b")) != Graph.from_lists(("a", "c"))
    _, dag = diamond()
    g = Graph([dag])
    assert g.copy() == g and len(Graph([])) == 0


def test_union_of_hand_built_dags():
    c = Node.from_lists(("c", "d"))
    g1 = Graph.from_lists(("a", ("b", c), ("e", c, "f")))
    d = Node(Frame(name="d"))
    g2 = Graph.from_lists(("a", ("b", ("c", d)), ("e", d, "f")))
    d2 = Node(Frame(name="d"))
    c2 = Node.from_lists(("c", d2))
    g3 = Graph.from_lists(("a", ("b", c2), ("e", c2, d2, "f")))
    assert g1 != g2
    assert g1.union(g2) == g3


def test_enumerate_traverse_numbers_hand_nodes_in_pre_order():
    root = Node.from_lists(["main", ["solve", "mpi"], "io"])
    g = Graph([root])
    assert root._hatchet_nid == -1
    g.enumerate_traverse()
    assert [(n.frame["name"], n._hatchet_nid, n._depth) for n in root.traverse()] == \
        [("main", 0, 0), ("io", 1, 1), ("solve", 2, 1), ("mpi", 3, 2)]
    assert [(n.frame["name"], n._hatchet_nid, n._depth) for n in g.traverse()] == \
        [("main", 0, 0), ("io", 1, 1), ("solve", 2, 1), ("mpi", 3, 2)]


def test_graph_node_order_traverse_uses_the_hand_nodes_ids():
    top = Node(Frame(name="top"), hnid=0, depth=0)
    for i, name in ((1, "zeta"), (2, "alpha")):
        top.add_child(Node(Frame(name=name), parent=top, hnid=i, depth=1))
    g = Graph([top])
    assert list(g.node_order_traverse(attrs="name")) == ["top", "zeta", "alpha"]
    assert list(g.traverse(attrs="name")) == ["top", "alpha", "zeta"]
    assert names(g.node_order_traverse(order="post")) == ["zeta", "alpha", "top"]
    plain = Graph.from_lists(("top", "zeta", "alpha"))
    assert list(plain.node_order_traverse(attrs="name")) == ["top", "alpha", "zeta"]


def test_cycles_in_hand_built_lists():
    a = Node(Frame(name="a"))
    d = Node(Frame(name="d"))
    gf = GraphFrame.from_lists([a, ["b", [d]], ["c", [d, ["e"], ["f"]], [a]]])
    assert len(gf.graph) == 6 and not gf.graph.is_forest
    tree = gf.tree(render_header=False)
    assert (tree.count("a"), tree.count("d"), tree.count("e")) == (2, 2, 1)


def test_bad_graph_arguments():
    with pytest.raises(ArgumentError):
        Graph(["a"])
    with pytest.raises(ArgumentError):
        Graph("ab")
    with pytest.raises(ValueError):
        Graph.from_lists("a")


# -------------------------------------------------------------- GraphFrame
def hand_tree():
    main = Node(Frame(name="main", type="function"), hnid=0, depth=0)
    io = Node(Frame(name="write", type="function"), parent=main, hnid=1, depth=1)
    solve = Node(Frame(name="solve", type="function"), parent=main, hnid=2, depth=1)
    main.add_child(io)
    main.add_child(solve)
    return Graph([main]), [main, io, solve]


def test_graphframe_over_a_frame_indexed_by_hand_nodes():
    graph, (main, io, solve) = hand_tree()
    df = pd.DataFrame({"name": ["main", "write", "solve"], "time": [1.0, 3.0, 4.0]},
                      index=pd.Index([main, io, solve], name="node"))
    gf = GraphFrame(graph, df, ["time"], [])
    # ids are the graph's pre-order (children by frame: solve before write); rows keep their order
    assert [int(n) for n in gf.dataframe.index] == [0, 2, 1]
    assert gf.dataframe.loc[solve, "time"] == 4.0
    assert gf.dataframe.loc[[main, io], "time"].tolist() == [1.0, 3.0]
    assert gf.dataframe.index[2] == solve and solve == gf.dataframe.index[2] != io
    gf.update_inclusive_columns()
    assert gf.dataframe.loc[main, "time (inc)"] == 8.0
    kept = gf.filter(lambda row: row["name"] != "solve")
    assert names(kept.graph.traverse()) == ["main", "write"]


def test_graphframe_over_a_multiindex_of_hand_nodes():
    graph, (main, io, solve) = hand_tree()
    rows = [(n, r) for n in (main, solve, io) for r in range(2)]
    df = pd.DataFrame({"time": [float(k) for k in range(6)]},
                      index=pd.MultiIndex.from_tuples(rows, names=["node", "rank"]))
    gf = GraphFrame(graph, df, ["time"], [])
    assert gf.dataframe.loc[(solve, 1), "time"] == 3.0
    assert gf.dataframe.loc[io, "time"].tolist() == [4.0, 5.0]
    gf.drop_index_levels()
    assert gf.dataframe["time"].tolist() == [0.5, 2.5, 4.5]


def test_graphframe_refuses_frames_it_cannot_use():
    graph, (main, io, solve) = hand_tree()
    with pytest.raises(ValueError):
        GraphFrame(None, None)
    with pytest.raises(ValueError):
        GraphFrame(Graph([]), None)
    with pytest.raises(ValueError):
        GraphFrame(Graph([]), pd.DataFrame())
    stranger = Node(Frame(name="x"))
    df = pd.DataFrame({"time": [1.0, 2.0]}, index=pd.Index([main, stranger], name="node"))
    with pytest.raises(GraphMismatchError, match="not a node of the graph"):
        GraphFrame(graph, df, ["time"], [])
    df = pd.DataFrame({"time": [1.0]}, index=pd.Index(["main"], name="node"))
    with pytest.raises(GraphMismatchError, match="holds 'main', not a node"):
        GraphFrame(graph, df, ["time"], [])


# --------------------------------------------------------------- invariants
def hand_copy(graph):
    """The graph rebuilt from hand-made nodes: one Node(Frame) per id, children linked."""
    nodes = [Node(graph.frame(i)) for i in range(len(graph))]
    ptr, idx = graph.child_ptr, graph.child_idx
    for v in range(len(graph)):
        for c in idx[ptr[v]:ptr[v + 1]].tolist():
            nodes[v].add_child(nodes[c])
            nodes[c].add_parent(nodes[v])
    return Graph([nodes[int(r)] for r in graph.root_ids]), nodes


@given(shared_graphs(max_nodes=20, max_extra=6, cycles=True))
@SETTINGS
def test_graph_of_hand_nodes_equals_the_graph_they_copy(gf):
    rebuilt, nodes = hand_copy(gf.graph)
    assert rebuilt == gf.graph and len(rebuilt) == len(gf.graph)
    assert [str(n) for n in rebuilt.traverse()] == [str(n) for n in gf.graph.traverse()]
    # the frame indexed by the hand nodes is the same GraphFrame
    levels = [lv for lv in gf.dataframe.index.names if lv != "node"]
    flat = gf.dataframe.reset_index()
    ids = flat["node"].to_numpy(dtype=np.int64)
    flat["node"] = pd.array(np.array([nodes[i] for i in ids.tolist()] + [None], dtype=object)[:-1],
                            dtype=object)
    again = GraphFrame(rebuilt, flat.set_index(["node", *levels]), gf.exc_metrics, gf.inc_metrics)
    got = again.dataframe.reset_index()
    assert [nodes[i].frame for i in ids.tolist()] == [rebuilt.frame(int(n)) for n in got["node"]]
    assert got["time"].equals(gf.dataframe.reset_index()["time"])
