import numpy as np

import hatchet as ht
from compat_fmt import nums, show


def tree_gf():
    gf = ht.GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
    values = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0, "f": 6.0}
    gf.dataframe["time"] = gf.dataframe["name"].map(values).astype(float)
    return gf


def diamond_gf():
    literal = [{
        "frame": {"name": "a", "type": "function"},
        "metrics": {"time": 1.0, "time (inc)": 0.0, "_hatchet_nid": 0},
        "children": [
            {"frame": {"name": "b", "type": "function"},
             "metrics": {"time": 2.0, "time (inc)": 0.0, "_hatchet_nid": 1},
             "children": [{"frame": {"name": "d", "type": "function"},
                           "metrics": {"time": 4.0, "time (inc)": 0.0, "_hatchet_nid": 2}}]},
            {"frame": {"name": "c", "type": "function"},
             "metrics": {"time": 3.0, "time (inc)": 0.0, "_hatchet_nid": 3},
             "children": [{"frame": {"name": "d", "type": "function"},
                           "metrics": {"time": 4.0, "time (inc)": 0.0, "_hatchet_nid": 2}}]},
        ],
    }]
    return ht.GraphFrame.from_literal(literal)


# %% subtree_sum writes the sums into the GraphFrame (returns None)
gf = tree_gf()
print("returned:", gf.subtree_sum(["time"], ["total"]))
show(gf.dataframe, ["name", "time", "total"])

# %% without out_columns the input column is overwritten
gf = tree_gf()
gf.subtree_sum(["time"])
show(gf.dataframe, ["name", "time"])

# %% other aggregations: np.sum, np.prod, np.max, np.min, callables
for label, function in [("np.sum", np.sum), ("np.prod", np.prod), ("np.max", np.max),
                        ("np.min", np.min), ("lambda sum", lambda s: s.sum()),
                        ("lambda count", lambda s: s.count())]:
    gf = tree_gf()
    gf.subtree_sum(["time"], ["out"], function=function)
    print(label, nums(gf.dataframe.sort_values("name")["out"]))


# %% subgraph_sum on a diamond counts the shared node once
gf = diamond_gf()
print("tree:", gf.graph.is_tree(), "nodes:", len(gf.graph))
print("returned:", gf.subgraph_sum(["time"], ["total"]))
show(gf.dataframe, ["name", "time", "total"], sort_by="name")

# %% subgraph_sum with np.sum and with callables
# (Hatchet passes the subgraph's rows as a DataFrame: np.max would give one scalar)
for label, function in [("np.sum", np.sum), ("lambda max", lambda df: df.max()),
                        ("lambda range", lambda df: df.max() - df.min())]:
    gf = diamond_gf()
    gf.subgraph_sum(["time"], ["out"], function=function)
    print(label, nums(gf.dataframe.sort_values("name")["out"]))

# %% per-rank data: sums are taken within each rank
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
gf.subgraph_sum(["time"], ["time sum"])
same = (gf.dataframe["time sum"] == gf.dataframe["time (inc)"]).all()
print("equals time (inc):", bool(same))
