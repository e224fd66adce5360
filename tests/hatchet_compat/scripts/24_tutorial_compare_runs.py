# After LLNL's hatchet-tutorial notebook 3 (compare two runs), on the tutorial's LULESH data.
import hatchet as ht
from compat_fmt import show

filename1 = "ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-1core.json"
filename2 = "ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-27cores.json"

# %% read both runs and aggregate over ranks
gf1 = ht.GraphFrame.from_caliper(filename1)
gf1.drop_index_levels()
gf2 = ht.GraphFrame.from_caliper(filename2)
gf2.drop_index_levels()

# %% both trees and their difference
print(gf1.tree(depth=3, render_header=False))
print(gf2.tree(depth=3, render_header=False))
gf3 = gf2 - gf1
print(gf3.tree(depth=3, render_header=False))

# %% the largest differences
sorted_df = gf3.dataframe.sort_values(by=["time"], ascending=False)
show(sorted_df, ["name", "time"], limit=6)

