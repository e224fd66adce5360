# After LLNL's hatchet-tutorial notebook 2 (load imbalance), on the tutorial's LULESH data.
import numpy as np

import hatchet as ht
from compat_fmt import show

filename = "caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json"

# %% two copies: mean and max over ranks
gf1 = ht.GraphFrame.from_caliper(filename)
gf2 = gf1.copy()
gf1.drop_index_levels(function=np.mean)
gf2.drop_index_levels(function=np.max)

# %% imbalance column
gf1.dataframe["imbalance"] = gf2.dataframe["time"].div(gf1.dataframe["time"])

# %% the most imbalanced nodes
sorted_df = gf1.dataframe.sort_values(by=["imbalance"], ascending=False)
show(sorted_df, ["name", "time", "imbalance"], limit=6)

# %% the imbalance on the tree
print(gf1.tree(metric_column="imbalance", depth=3, render_header=False))

