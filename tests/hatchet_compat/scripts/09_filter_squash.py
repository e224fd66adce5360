import hatchet as ht
from compat_fmt import show

# %% filter with a lambda on metric values, without squash: the graph is kept
gf = ht.GraphFrame.from_caliperreader("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali")
filtered = gf.filter(lambda x: x["time"] > 0.01, squash=False)
print("rows:", len(gf.dataframe), "->", len(filtered.dataframe))
print("graph kept:", filtered.graph is gf.graph, len(filtered.graph))
print(sorted(set(filtered.dataframe["name"])))

# %% squash rebuilds the graph from the remaining rows and recomputes inclusive time
squashed = filtered.squash()
print("graph:", len(gf.graph), "->", len(squashed.graph))
print(squashed.tree(metric_column="time", render_header=False))
show(squashed.dataframe, ["name", "time"], sort_by="name")

# %% filter and squash in one step, on names
gf2 = gf.filter(lambda x: x["name"] in ("main", "LagrangeLeapFrog", "CalcForceForNodes"))
print(gf2.tree(metric_column="time", render_header=False))

# %% the row passed to the function also holds the index levels, including the node
gf = ht.GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
kept = gf.filter(lambda row: row["node"].frame["name"] in ("a", "c", "f"))
print(kept.tree(metric_column=["time", "time (inc)"], render_header=False))

# %% a filter on the node's relations
leaves = gf.filter(lambda row: len(row["node"].children) == 0, squash=False)
print(sorted(leaves.dataframe["name"]))
deep = gf.filter(lambda row: row["node"]._depth >= 2, squash=True)
print(sorted(r.frame["name"] for r in deep.graph.roots))

# %% per-rank data: the callable sees one row per (node, rank); rank is in the row
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
odd = gf.filter(lambda row: row["rank"] % 2 == 1 and row["time"] > 50000, squash=False)
show(odd.dataframe, ["name", "time"], sort_by=["rank", "name", "time"])

# %% squashing merges statements with equal frames that become siblings
squashed = gf.filter(lambda x: x["time"] > 100000, squash=True)
print(len(squashed.graph), sorted(r.frame.get("name", r.frame.get("file")) for r in squashed.graph.roots))
show(squashed.dataframe.xs(0, level="rank"), ["name", "time", "time (inc)"])

# %% squash without recomputing inclusive columns
gf = ht.GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
kept = gf.filter(lambda row: row["name"] != "b", squash=False).squash(update_inc_cols=False)
show(kept.dataframe, ["name", "time", "time (inc)"], sort_by="name")

# %% filtering everything away
try:
    gf.filter(lambda row: False)
except Exception as exc:
    print(type(exc).__name__)

# NEWER HATCHET (docs/readers/caliper.md, "Sibling order"): these lines were recorded
# from Hatchet 2024.1.3, which ordered the siblings of a .cali file without a node order
# by frame; Hatchet 2026.2.0 (the reference, HATCHET_SPEC.md section 4.4) keeps the order
# in which its reader creates the nodes, and prints what graphframe prints here
#   hatchet: ['0.025 main', '├─ 0.056 CalcKinematicsForElems']
#   ours:    ['0.025 main', '├─ 0.012 LagrangeNodal', '│  ├─ 0.057 IntegrateStressForElems', '│  └─ 0.060 CalcHourglassControlForElems', '│     └─ 0.081 CalcFBHourglassForceForElems', '├─ 0.056 CalcKinematicsForElems']
#   hatchet: ['│  └─ 0.014 CalcMonotonicQForElems', '├─ 0.045 EvalEOSForElems', '│  └─ 0.096 CalcEnergyForElems', '└─ 0.012 LagrangeNodal', '   ├─ 0.060 CalcHourglassControlForElems', '   │  └─ 0.081 CalcFBHourglassForceForElems', '   └─ 0.057 IntegrateStressForElems', '']
#   ours:    ['│  └─ 0.014 CalcMonotonicQForElems', '└─ 0.045 EvalEOSForElems', '   └─ 0.096 CalcEnergyForElems', '']
