# After LLNL's hatchet-tutorial notebook 5 (scaling study), on the tutorial's LULESH data.
import glob
import re

import pandas as pd

import hatchet as ht
from compat_fmt import num

# %% one filtered dataframe per run
datasets = sorted(glob.glob("ensemble/hatchet-tutorial/lulesh-scaling/lulesh*.json"))
dataframes = []
for dataset in datasets:
    gf = ht.GraphFrame.from_caliper(dataset)
    gf.drop_index_levels()
    num_pes = re.match(r"(.*)-(\d+)(.*)", dataset).group(2)
    gf.dataframe["pes"] = num_pes
    filtered_gf = gf.filter(lambda x: x["time"] > 1e6)
    dataframes.append(filtered_gf.dataframe)
print(len(dataframes), [len(df) for df in dataframes])

# %% one table: processes x function
result = pd.concat(dataframes)
pivot_df = result.pivot(index="pes", columns="name", values="time")
print(pivot_df.shape, sorted(pivot_df.index.tolist(), key=int))
for pes in sorted(pivot_df.index, key=int)[:3]:
    print(pes, num(pivot_df.loc[pes].sum()))
