import numpy as np

import hatchet as ht
from compat_fmt import nums, show, summary

# %% read per-rank data and drop the rank level in place (mean over ranks, the default)
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
print(gf.dataframe.index.names, gf.dataframe.shape)
result = gf.drop_index_levels()
print("returned:", result)
print(gf.dataframe.index.names, gf.dataframe.shape)
show(gf.dataframe, ["name", "time", "time (inc)"], limit=6)

# %% the tree after dropping the rank level (no rank= needed any more)
print(gf.tree(metric_column="time (inc)", depth=4, render_header=False))

# %% drop_index_levels with np.max, as in the tutorial
gf = ht.GraphFrame.from_caliper("caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json")
gf.drop_index_levels(function=np.max)
print(gf.dataframe.index.names, gf.dataframe.shape)
show(gf.dataframe, ["name", "time", "time (inc)"], sort_by=["name", "time"])

# %% load imbalance = max / mean over ranks (tutorial 2)
gf1 = ht.GraphFrame.from_caliper("caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json")
gf2 = gf1.copy()
gf1.drop_index_levels(function=np.mean)
gf2.drop_index_levels(function=np.max)
gf1.dataframe["imbalance"] = gf2.dataframe["time"].div(gf1.dataframe["time"])
sorted_df = gf1.dataframe.sort_values(by=["imbalance"], ascending=False)
show(sorted_df, ["name", "time", "imbalance"], limit=8)

# %% other aggregations: np.sum, np.min, np.median, a lambda
for function in (np.sum, np.min, np.median, lambda s: s.max() - s.min()):
    g = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
    g.drop_index_levels(function=function)
    main = g.dataframe[g.dataframe["name"] == "main"]
    print(list(g.dataframe.index.names), len(g.dataframe), nums(main["time (inc)"]))

# %% dropping twice is harmless; a frame without extra levels stays as it is
gf = ht.GraphFrame.from_lists(("a", "b", "c"))
print(gf.drop_index_levels(), list(gf.dataframe.index.names), len(gf.dataframe))
summary(gf)

