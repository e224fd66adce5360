import pandas as pd

import hatchet as ht
from hatchet.frame import Frame
from hatchet.graph import Graph
from hatchet.node import Node
from compat_fmt import show

# a tree built by hand, as Hatchet's tests and Hatchet-based tools do
main = Node(Frame(name="main", type="function"), hnid=0, depth=0)
solve = Node(Frame(name="solve", type="function"), parent=main, hnid=1, depth=1)
mpi = Node(Frame(name="MPI_Allreduce", type="function"), parent=solve, hnid=2, depth=2)
io = Node(Frame(name="write", type="function"), parent=main, hnid=3, depth=1)
main.add_child(solve)
solve.add_child(mpi)
main.add_child(io)
graph = Graph([main])

# %% a DataFrame indexed by those Node objects becomes a GraphFrame
nodes = [main, solve, mpi, io]
df = pd.DataFrame({
    "node": nodes,
    "name": [n.frame["name"] for n in nodes],
    "time": [1.0, 4.0, 2.0, 3.0],
})
df.set_index("node", inplace=True)
gf = ht.GraphFrame(graph, df, ["time"], [])
print(gf.dataframe.shape, list(gf.dataframe.index.names))
print(gf.tree(render_header=False))

# %% rows are found with the Node objects
print(gf.dataframe.loc[solve, "time"], gf.dataframe.loc[mpi, "name"])
print(gf.dataframe.loc[[main, io], "time"].tolist())

# %% inclusive columns are computed in place
gf.update_inclusive_columns()
print(sorted(gf.inc_metrics))
show(gf.dataframe, ["name", "time", "time (inc)"])
print(gf.tree(metric_column="time (inc)", render_header=False))

# %% operations run on the hand-built GraphFrame
kept = gf.filter(lambda row: row["name"] != "solve")
print(kept.tree(metric_column=["time", "time (inc)"], render_header=False))
other = ht.GraphFrame.from_lists(("main", ("solve", "MPI_Allreduce"), "read"))
diff = gf - other
show(diff.dataframe, ["name", "time"], sort_by=["name", "time"])

# %% per-rank rows: a (node, rank) MultiIndex of Node objects
rows = [(n, r) for n in nodes for r in range(2)]
mdf = pd.DataFrame({"name": [n.frame["name"] for n, _ in rows],
                    "time": [float(k) for k in range(len(rows))]},
                   index=pd.MultiIndex.from_tuples(rows, names=["node", "rank"]))
mgf = ht.GraphFrame(graph, mdf, ["time"], [])
print(mgf.dataframe.loc[(mpi, 1), "time"])
print(mgf.tree(rank=1, render_header=False))
mgf.drop_index_levels()
show(mgf.dataframe, ["name", "time"])

# %% a DataFrame without a "node" index level is refused
try:
    ht.GraphFrame(graph, pd.DataFrame({"time": [1.0]}), ["time"], [])
except ValueError:
    print("ValueError")
try:
    ht.GraphFrame(None, df)
except ValueError:
    print("ValueError")
