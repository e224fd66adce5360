import hatchet as ht
from compat_fmt import num

gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")

# %% nodes in a reset "node" column are Node objects with their frame
flat = gf.dataframe.reset_index()
first = flat["node"].iloc[0]
print(type(first).__name__, first.frame["name"], first.frame["type"])
print(sorted({n.frame["name"] for n in flat["node"] if n.frame.get("type") == "function"})[:6])
print(sum(1 for n in flat["node"] if n.frame["type"] == "statement"))

# %% index level values are nodes too: children, parents, paths
level = gf.dataframe.index.get_level_values("node")
root = level[0]
print(root.frame["name"], [c.frame["name"] for c in root.children])
leaf = level[-1]
print(leaf.frame["type"], leaf.parents[0].frame["name"], len(leaf.path()))
print(len(set(level)), len(gf.graph))

# %% a node from the frame finds its rows, and str() of a node is its frame
main = root.children[0]
print(gf.dataframe.loc[main].shape, str(main))
print([num(v) for v in gf.dataframe.loc[main, "time (inc)"]])

# %% groupby on the node level: the keys are nodes
per_node = gf.dataframe.groupby(level="node")["time"].sum()
top = per_node.sort_values(ascending=False).index[:3]
print([(n.frame.get("name", n.frame.get("file")), n.frame["type"]) for n in top])
for node, rows in gf.dataframe.groupby(level="node"):
    if node.frame.get("name") == "main":
        print(node.frame["name"], len(rows), [c.frame["name"] for c in node.children])

# %% the node of a row inside apply()
names = gf.dataframe.reset_index().apply(lambda row: row["node"].frame["type"], axis=1)
print(sorted(set(names)))

# %% graph traversal yields the same node objects the frame holds
for node in gf.graph.traverse():
    if node.frame.get("name") == "PMPI_Finalize":
        print(gf.dataframe.loc[(node, 2), "time (inc)"], node in set(level))

# %% Thicket-style: filter rows by a set of nodes
wanted = {n for n in gf.graph.traverse() if n.frame.get("name", "").startswith("PMPI")}
rows = gf.dataframe[gf.dataframe.index.get_level_values("node").isin(wanted)]
print(len(rows), sorted(set(rows["name"])))
