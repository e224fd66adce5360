import hatchet as ht
from compat_fmt import show, summary

# %% unify changes both GraphFrames: one shared graph, rows re-keyed to it
gf1 = ht.GraphFrame.from_lists(("a", ("b", "c"), "d"))
gf2 = ht.GraphFrame.from_lists(("a", ("b", "x"), "e"))
print("same graph before:", gf1.graph is gf2.graph)
result = gf1.unify(gf2)
print("returned:", result)
print("same graph after:", gf1.graph is gf2.graph)
print("graph nodes:", len(gf1.graph), len(gf2.graph))
print(sorted(gf1.graph.traverse(attrs="name")))

# %% the left frame gains rows for right-only nodes and a _missing_node column
print(sorted(str(c) for c in gf1.dataframe.columns))
show(gf1.dataframe, ["name", "time", "_missing_node"], sort_by="name")
print(sorted(str(c) for c in gf2.dataframe.columns))
show(gf2.dataframe, ["name", "time"], sort_by="name")

# %% after unify the frames align row by row on the shared nodes
both = gf1.dataframe.index.intersection(gf2.dataframe.index)
print("shared rows:", len(both))
diff = gf1.dataframe.loc[both, "time"] - gf2.dataframe.loc[both, "time"]
print("differences:", sorted(diff.tolist()))

# %% unify of equal graphs adds nothing
gf3 = ht.GraphFrame.from_lists(("a", "b"))
gf4 = ht.GraphFrame.from_lists(("a", "b"))
gf3.unify(gf4)
print(gf3.graph is gf4.graph, len(gf3.dataframe), len(gf4.dataframe))
print(sorted(str(c) for c in gf3.dataframe.columns))

# %% two runs of the same program (per-rank Caliper data)
lulesh8 = ht.GraphFrame.from_caliper("ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-8cores.json")
lulesh27 = ht.GraphFrame.from_caliper("ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-27cores.json")
lulesh8.unify(lulesh27)
print(lulesh8.graph is lulesh27.graph, len(lulesh8.graph))
print(lulesh8.dataframe.shape, lulesh27.dataframe.shape)

