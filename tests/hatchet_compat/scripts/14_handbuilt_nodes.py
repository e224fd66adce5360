from hatchet.frame import Frame
from hatchet.graph import Graph
from hatchet.node import Node

# %% Frame: a dict of attributes; a missing type is "None"; equality and order by items
f1 = Frame({"name": "main", "type": "function"})
f2 = Frame(name="main", type="function")
f3 = Frame(name="solve")
print(f1 == f2, f1 != f3, f3["type"], f3.get("file", "?"), str(f1), repr(f3))
print(sorted([Frame(name="b"), Frame(name="a"), Frame(name="c", type="loop")]))
print(f1.values(["name", "type", "file"]), f1.values("name"))

# %% Node(Frame(...), parent=None, hnid=-1, depth=-1) and linking in both directions
root = Node(Frame(name="main", type="function"), parent=None, hnid=-1, depth=-1)
solve = Node(Frame(name="solve", type="function"), parent=root)
io = Node(Frame(name="io", type="function"))
root.add_child(solve)
root.add_child(io)
io.add_parent(root)
mpi = Node(Frame(name="MPI_Send", type="function"), parent=solve)
solve.add_child(mpi)
print(str(root), repr(mpi))
print([str(c) for c in root.children], [str(p) for p in io.parents], len(mpi.parents))
print(root._hatchet_nid, root._depth)

# %% paths and traversals of a node (children sorted by frame)
print([[n.frame["name"] for n in p] for p in mpi.paths()])
print([n.frame["name"] for n in mpi.path()])
print([n.frame["name"] for n in root.traverse()])
print([n.frame["name"] for n in root.traverse(order="post")])
print(list(root.traverse(attrs="name")))
print(list(root.traverse(attrs=["name", "type"])))

# %% node.copy(): same frame values, no links, no id
c = solve.copy()
print(c.frame == solve.frame, c.frame is solve.frame, c.children, c.parents, c._hatchet_nid)

# %% Graph(roots): traversal over all roots, enumerate_traverse assigns ids and depths
graph = Graph([root])
print(len(graph), graph.is_tree())
graph.enumerate_traverse()
print([(n.frame["name"], n._hatchet_nid, n._depth) for n in graph.traverse()])
print([n.frame["name"] for n in graph.traverse(order="post")])
print(list(graph.traverse(attrs="name")))

# %% node_order_traverse: children in id order (a reader's "node order") instead of frame order
top = Node(Frame(name="top"), hnid=0, depth=0)
zeta = Node(Frame(name="zeta"), parent=top, hnid=1, depth=1)
alpha = Node(Frame(name="alpha"), parent=top, hnid=2, depth=1)
top.add_child(zeta)
top.add_child(alpha)
ordered = Graph([top])
print([n.frame["name"] for n in ordered.node_order_traverse()])
print([n.frame["name"] for n in ordered.traverse()])
print([n.frame["name"] for n in top.node_order_traverse(order="post")])

# %% Node.from_lists and Graph.from_lists; a node object repeated makes a DAG
tree = Node.from_lists(["a", ["b", "c", "d"], ["e", "f"]])
print([n.frame["name"] for n in tree.traverse()])
g = Graph.from_lists(("a", ("b", "c", "d"), ("e", "f")))
print([(n.frame["name"], n._hatchet_nid, n._depth) for n in g.traverse()])
shared = Node(Frame(name="shared"))
dag = Graph.from_lists(("top", ("left", shared), ("right", shared)))
print(len(dag), dag.is_tree(), [str(p) for p in shared.parents])
print([n.frame["name"] for n in dag.traverse()])

# %% two independent roots; equality of graphs compares structure and frames
forest = Graph.from_lists(("x", "y"), ("p", "q"))
print(len(forest), forest.is_tree(), [r.frame["name"] for r in forest.roots])
print(Graph.from_lists(("a", "b", "c")) == Graph.from_lists(("a", "c", "b")))
print(Graph.from_lists(("a", "b")) == Graph.from_lists(("a", "c")))
