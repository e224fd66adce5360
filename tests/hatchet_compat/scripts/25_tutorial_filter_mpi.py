# After LLNL's hatchet-tutorial notebook 4 (filter by MPI), on the tutorial's LULESH data.
import hatchet as ht
from compat_fmt import show

filename1 = "ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-27cores.json"
filename2 = "ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-343cores.json"

# %% read both runs and aggregate over ranks
gf1 = ht.GraphFrame.from_caliper(filename1)
gf2 = ht.GraphFrame.from_caliper(filename2)
gf1.drop_index_levels()
gf2.drop_index_levels()

# %% keep the MPI functions
squashed_gf1 = gf1.filter(lambda x: x["name"].startswith("MPI"))
squashed_gf2 = gf2.filter(lambda x: x["name"].startswith("MPI"))
print(len(squashed_gf1.graph), len(squashed_gf2.graph))

# %% their difference
new_gf = squashed_gf2 - squashed_gf1
sorted_df = new_gf.dataframe.sort_values(by=["time"], ascending=False)
show(sorted_df, ["name", "time"], limit=6)
