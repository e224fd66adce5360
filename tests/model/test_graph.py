import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import Frame, Graph, MultiplePathError
from graphframe.errors import GraphMismatchError


def names(nodes):
    return [n.frame["name"] for n in nodes]


def diamond():
    """a -> b -> d, a -> c -> d (d has two parents)."""
    attrs = pd.DataFrame({"name": ["a", "b", "c", "d"]})
    graph, _ = Graph.build(attrs, [-1, 0, 0, 1], ([2], [3]))
    return graph


def test_from_lists_numbers_nodes_in_preorder_like_hatchet():
    g = Graph.from_lists(("a", ("b", "c", "d"), ("e", "f")))
    assert names(g.traverse()) == ["a", "b", "c", "d", "e", "f"]
    assert [int(n) for n in g.traverse()] == [0, 1, 2, 3, 4, 5]
    assert g.depth.tolist() == [0, 1, 2, 2, 1, 2]
    assert names(g.traverse(order="post")) == ["c", "d", "b", "f", "e", "a"]
    assert g.parent.tolist() == [-1, 0, 1, 1, 0, 4]
    assert len(g) == 6 and g.is_tree() and g.is_forest


def test_siblings_are_numbered_in_frame_order():
    g = Graph.from_lists(("a", "c", "b", ("B", "x")))
    assert names(g.traverse()) == ["a", "B", "x", "b", "c"]  # 'B' < 'b' < 'c'


def test_ordered_graph_keeps_source_sibling_order():
    attrs = pd.DataFrame({"name": ["a", "c", "b"]})
    g, order = Graph.build(attrs, [-1, 0, 0], ordered=True)
    assert names(g.traverse()) == ["a", "c", "b"]
    assert order.tolist() == [0, 1, 2]
    g2, order2 = Graph.build(attrs, [-1, 0, 0])
    assert names(g2.traverse()) == ["a", "b", "c"]
    assert order2.tolist() == [0, 2, 1]


def test_traverse_attrs_and_visited_and_bad_order():
    g = Graph.from_lists(("a", "b"))
    assert list(g.traverse(attrs="name")) == ["a", "b"]
    assert list(g.traverse(attrs=["name", "type"])) == [("a", "None"), ("b", "None")]
    visited = {}
    list(g.traverse(visited=visited))
    assert visited == {0: 1, 1: 1}
    with pytest.raises(ValueError):
        list(g.traverse(order="in"))


def test_equality_is_structural_and_ignores_child_order():
    assert Graph.from_lists(("a", "b", "c")) == Graph.from_lists(("a", "c", "b"))
    assert Graph.from_lists(("a", "b")) != Graph.from_lists(("a", "c"))
    assert Graph.from_lists(("a", ("b", "c"))) != Graph.from_lists(("a", "b", "c"))
    assert Graph.from_lists(("a", "b"), ("c",)) == Graph.from_lists(("c",), ("a", "b"))
    # duplicate sibling frames with different subtrees
    left = Graph.from_lists(("a", ("x", "p"), ("x", "q")))
    right = Graph.from_lists(("a", ("x", "q"), ("x", "p")))
    assert left == right
    assert left != Graph.from_lists(("a", ("x", "p"), ("x", "p")))
    g = Graph.from_lists(("a", "b"))
    assert g == g.copy() and g.copy() is not g


def test_dag_structure_paths_and_single_traversal():
    g = diamond()
    assert names(g.traverse()) == ["a", "b", "d", "c"]
    d = g.node(2)
    assert names(d.parents) == ["b", "c"]
    assert [names(p) for p in d.paths()] == [["a", "b", "d"], ["a", "c", "d"]]
    with pytest.raises(MultiplePathError) as info:
        d.path()
    assert "a -> b -> d" in str(info.value) and "a -> c -> d" in str(info.value)
    assert not g.is_tree() and not g.is_forest
    assert names(g.traverse(order="post")) == ["d", "b", "c", "a"]
    assert g == diamond()
    assert g != Graph.from_lists(("a", ("b", "d"), ("c", "d")))


def test_cycle_is_walked_once_and_paths_are_simple():
    attrs = pd.DataFrame({"name": ["a", "b", "c"]})
    g, _ = Graph.build(attrs, [-1, 0, 1], ([2, 1], [0, 1]))  # c -> a and b -> b
    assert names(g.traverse()) == ["a", "b", "c"]
    assert names(g.traverse(order="post")) == ["c", "b", "a"]
    assert [names(p) for p in g.node(2).paths()] == [["a", "b", "c"]]
    assert names(g.node(0).parents) == ["c"]
    assert [int(r) for r in g.roots] == [0]
    assert names(g.node(0).traverse()) == ["a", "b", "c"]


def test_duplicate_edges_are_kept_once():
    attrs = pd.DataFrame({"name": ["a", "b"]})
    g, _ = Graph.build(attrs, [-1, 0], ([0, 0], [1, 1]))
    assert g.num_edges == 1 and g.is_forest


def test_forest_with_several_roots():
    g = Graph.from_lists(("b", "x"), ("a", "y"))
    assert names(g.roots) == ["b", "a"]  # as given (Hatchet); ids: a pre-order by frame
    assert g.root_ids.tolist() == [0, 2] and g.node(0).frame["name"] == "a"
    assert g.is_forest and not g.is_tree()


def test_a_100000_deep_chain_needs_no_recursion():
    n = 100_000
    attrs = pd.DataFrame({"name": [f"f{i}" for i in range(n)]})
    g, order = Graph.build(attrs, np.arange(n) - 1)
    assert g.depth[-1] == n - 1
    assert g.postorder()[0] == n - 1 and g.postorder()[-1] == 0
    assert len(g.node(n - 1).path()) == n
    assert sum(1 for _ in g.node(0).traverse()) == n
    assert g.subtree_sizes()[0] == n
    # the same chain with one extra edge is a general graph: still iterative
    g2, _ = Graph.build(attrs, np.arange(n) - 1, ([0], [n - 1]))
    assert not g2.is_forest
    assert len(g2.postorder()) == n
    assert g2 == g2.copy()


def test_arrays_are_read_only():
    g = Graph.from_lists(("a", "b"))
    with pytest.raises(ValueError):
        g.parent[0] = 5
    with pytest.raises(ValueError):
        g.child_idx[0] = 5


def test_networkx_round_trip_keeps_structure_and_frames():
    g = diamond()
    nxg = g.to_networkx()
    assert sorted(nxg.edges()) == [(0, 1), (0, 3), (1, 2), (3, 2)]
    assert nxg.nodes[3] == {"name": "c"}
    assert Graph.from_networkx(nxg) == g


def test_from_networkx_rejects_a_graph_without_roots():
    import networkx as nx

    with pytest.raises(GraphMismatchError, match=r"no root \(name the roots in G.graph"):
        Graph.from_networkx(nx.DiGraph([(0, 1), (1, 0)]))
    with pytest.raises(GraphMismatchError, match="G.graph\\['roots'\\] names 7, which is not a node"):
        Graph.from_networkx(nx.DiGraph([(0, 1)], roots=[7]))


@pytest.mark.filterwarnings("ignore::graphframe_readers.hatchet.LiteralWarning")
def test_networkx_round_trip_with_a_root_on_a_cycle_keeps_ids_and_child_order(shared_data):
    gf = graphframe.read(shared_data / "literal" / "hatchet_graph_literal_duplicates.json")
    g = gf.graph
    nxg = g.to_networkx()
    assert nxg.graph == {"roots": [0], "ordered": False}
    back = Graph.from_networkx(nxg)
    assert back == g
    for name in ("root_ids", "parent", "parent_ptr", "parent_idx", "child_ptr", "child_idx",
                 "depth"):
        assert getattr(back, name).tolist() == getattr(g, name).tolist(), name


def test_networkx_round_trip_of_an_ordered_graph_with_source_child_order():
    # children listed against frame order, and a reference edge before an own child
    attrs = pd.DataFrame({"name": ["r", "z", "x", "m", "a"]})
    g, _ = Graph.build(attrs, [-1, 0, 1, 0, 3], ([3], [2]), ordered=True,
                       child_order=([0, 1, 2, 3, 6], [5]))
    back = Graph.from_networkx(g.to_networkx())
    assert back.ordered
    assert back.child_idx.tolist() == g.child_idx.tolist()
    assert [back.frame(int(c))["name"] for c in back.child_idx] == ["z", "m", "x", "x", "a"]


def test_child_order_places_extra_edges_among_first_parent_edges():
    attrs = pd.DataFrame({"name": ["a", "b", "x", "c", "y"]})
    plain, _ = Graph.build(attrs, [-1, 0, 1, 0, 3], ([3], [2]))
    keyed, _ = Graph.build(attrs, [-1, 0, 1, 0, 3], ([3], [2]), child_order=([0, 1, 2, 3, 5], [4]))
    c = 3

    def kids(g):
        return [g.frame(int(k))["name"] for k in g.child_idx[g.child_ptr[c]:g.child_ptr[c + 1]]]
    assert kids(plain) == ["y", "x"] and kids(keyed) == ["x", "y"]
    assert plain == keyed and plain.parent.tolist() == keyed.parent.tolist()


def test_attrs_is_a_copy_the_graph_never_sees_changes_to():
    g = Graph.from_lists(("a", "b"))
    h = g.copy()
    table = g.attrs
    table.loc[0, "name"] = "changed"
    table["extra"] = 1
    assert g.attrs["name"].tolist() == ["a", "b"] and h.attrs["name"].tolist() == ["a", "b"]
    assert list(g.attrs.columns) == ["name", "type"] and g.frame(0)["name"] == "a"


def test_node_is_an_int_view():
    g = Graph.from_lists(("main", ("solve", "mpi"), "io"))
    solve = g.node(2)
    assert isinstance(solve, int) and solve == 2 and hash(solve) == hash(2)
    assert solve.frame == Frame(name="solve")
    assert solve._hatchet_nid == 2 and solve.depth == 1 and solve._depth == 1
    assert names(solve.children) == ["mpi"]
    assert names(solve.parents) == ["main"]
    assert repr(solve) == "Node({'name': 'solve', 'type': 'None'})"
    assert str(solve) == "{'name': 'solve', 'type': 'None'}"
    df = pd.DataFrame({"x": [10, 11, 12, 13]}, index=pd.Index(range(4), name="node"))
    assert df.loc[solve, "x"] == 12
    assert names(solve.traverse(order="post")) == ["mpi", "solve"]
    assert list(solve.traverse(attrs="name")) == ["solve", "mpi"]
    with pytest.raises(IndexError):
        g.node(99)


def test_from_lists_rejects_non_lists():
    with pytest.raises(ValueError):
        Graph.from_lists("a")
