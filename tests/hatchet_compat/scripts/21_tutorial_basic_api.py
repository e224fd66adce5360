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

# DELIBERATE (docs/readers/caliper.md, "Records without a call path"): records without a
# call path that hold a metric value are kept under a '<no path>' root (Hatchet drops
# them); the lines below change with that root (one more node and its rows).
#   hatchet: '# %% [3] the tree of exclusive time'
#   ours:    ['# %% [3] the tree of exclusive time', '4326.000 <no path>']
#   hatchet: ['# %% [4] the dataframe', "(29, 4) ['node', 'rank']"]
#   ours:    ['# %% [4] the dataframe', "(30, 4) ['node', 'rank']"]
#   hatchet: ['# %% [7] compare the graph sizes', 'Input Graph Size                       : 29']
#   ours:    ['# %% [7] compare the graph sizes', 'Input Graph Size                       : 30']
#   hatchet: ['# %% [11] another run: read it and aggregate over ranks', '(1215, 4)', '(45, 4)']
#   ours:    ['# %% [11] another run: read it and aggregate over ranks', '(1242, 4)', '(46, 4)']
#   hatchet: 'name | time | time (inc)'
#   ours:    ['name | time | time (inc)', '<no path> | 4052.0 | 4052.0']
#   hatchet: ['CalcLagrangeElements | 445524.0 | 4463760.0', 'CalcMonotonicQGradientsForElems | 1811567.0 | 1811567.0']
#   ours:    'CalcLagrangeElements | 445524.0 | 4463760.0'
#   hatchet: '# %% [14] the speedup tree'
#   ours:    ['# %% [14] the speedup tree', '1.253 <no path>']
#   hatchet: '# %% [15] the speedup tree, colours inverted'
#   ours:    ['# %% [15] the speedup tree, colours inverted', '1.253 <no path>']
#   hatchet: ['# %% [16] the speedup dataframe', '(45, 5)']
#   ours:    ['# %% [16] the speedup dataframe', '(46, 5)']
