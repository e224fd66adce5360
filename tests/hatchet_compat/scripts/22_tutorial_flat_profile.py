# After LLNL's hatchet-tutorial notebook 1 (flat profile), on Hatchet's HPCToolkit cpi data.
import hatchet as ht
from compat_fmt import num

dirname = "hpctoolkit/hatchet-cpi-database"

# %% read and aggregate over ranks
gf = ht.GraphFrame.from_hpctoolkit(dirname)
gf.drop_index_levels()

# %% flat profile by function name
# HATCHET-WRONG (HATCHET_SPEC.md 4.1, cpi XML id 60): Hatchet names one <unknown file>
# statement "interp.c:0" (the file of the last procedure seen); its mean time, 44969.25,
# belongs to "<unknown file>:0".
#   hatchet: '<unknown file>:0 945596.25 945596.25'
#   ours:    '<unknown file>:0 990565.5 990565.5'
#   hatchet: 'interp.c:0 53964.25 53964.25'
#   ours:    'interp.c:0 8995.0 8995.0'
grouped = gf.dataframe.groupby("name").sum()
sorted_df = grouped.sort_values(by=["time"], ascending=False)
print(sorted_df.shape)
for name, row in sorted_df.head(2).iterrows():
    print(name, num(row["time"]), num(row["time (inc)"]))

# %% flat profile by load module
grouped = gf.dataframe.groupby("module").sum()
sorted_df = grouped.sort_values(by=["time (inc)"], ascending=False)
print(sorted_df.shape)
for module, row in sorted_df.head(3).iterrows():
    print(module.split("/")[-1], num(row["time (inc)"]))

# %% flat profile by source file
# HATCHET-WRONG (HATCHET_SPEC.md 4.1, cpi XML id 60): the same statement, by file.
#   hatchet: '<unknown file> 945596.25'
#   ours:    '<unknown file> 990565.5'
#   hatchet: 'interp.c 53964.25'
#   ours:    'interp.c 8995.0'
grouped = gf.dataframe.groupby("file").sum()
sorted_df = grouped.sort_values(by=["time"], ascending=False)
print(sorted_df.shape)
for path, row in sorted_df.head(2).iterrows():
    print(path.split("/")[-1], num(row["time"]))
