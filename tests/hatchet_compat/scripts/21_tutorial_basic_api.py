# After LLNL's hatchet-tutorial notebook 0 (basic API), on the tutorial's LULESH data.
import numpy as np

import hatchet as ht
from compat_fmt import show

caliper_file = "ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-1core.json"

# %% read a Caliper JSON-split file
gf = ht.GraphFrame.from_caliper(caliper_file)

# %% the metric columns
print(gf.show_metric_columns())

# %% the tree of exclusive time
print(gf.tree(metric_column="time", render_header=False))

# %% the dataframe
print(gf.dataframe.shape, list(gf.dataframe.index.names))

# %% filter: nodes with time above 300,000 (without squash)
filter_gf = gf.filter(lambda x: x["time"] > 300e3, squash=False)
print(filter_gf.dataframe.shape)

# %% squash
squash_gf = filter_gf.squash()

# %% compare the graph sizes
print(f"Input Graph Size                       : {len(gf.graph)}")
print(f"Result (after filter/squash) Graph Size: {len(squash_gf.graph)}")

# %% the squashed tree
print(squash_gf.tree(metric_column="time", render_header=False))

# %% filter by name and squash in one step
squash_gf = gf.filter(lambda x: x["name"] in ("main", "lulesh.cycle"))
print(squash_gf.tree(metric_column="time", render_header=False))

# %% aggregate over ranks, then filter with a call-path query
gf.drop_index_levels(function=np.max)
query = [{"name": "LagrangeNodal"}, "*"]
query_gf = gf.filter(query, squash=True)
print(query_gf.tree(metric_column="time", render_header=False))

# %% another run: read it and aggregate over ranks
gf = ht.GraphFrame.from_caliper("ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-27cores.json")
print(gf.dataframe.shape)
gf.drop_index_levels(function=np.max)
print(gf.dataframe.shape)

# %% the aggregated dataframe
show(gf.dataframe, ["name", "time", "time (inc)"], sort_by=["name", "time"], limit=10)

# %% speedup between two runs
gf1 = ht.GraphFrame.from_caliper("ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-1core.json")
gf2 = ht.GraphFrame.from_caliper("ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-64cores.json")
gf1.drop_index_levels()
gf2.drop_index_levels()
gf3 = gf1 / gf2

# %% the speedup tree
print(gf3.tree(metric_column="time (inc)", depth=4, render_header=False))

# %% the speedup tree, colours inverted
print(gf3.tree(metric_column="time (inc)", invert_colormap=True, depth=2, render_header=False))

# %% the speedup dataframe
print(gf3.dataframe.shape)
show(gf3.dataframe, ["name", "time (inc)"], sort_by=["time (inc)", "name"], limit=5)

