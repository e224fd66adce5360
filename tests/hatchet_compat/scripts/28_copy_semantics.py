import numpy as np

import hatchet as ht
from compat_fmt import nums

# %% copy() shares the graph, deepcopy() copies it
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
shallow = gf.copy()
deep = gf.deepcopy()
print(shallow.graph is gf.graph, deep.graph is gf.graph, deep.graph == gf.graph)
print(shallow.dataframe.shape, deep.dataframe.shape)

# %% an in-place operation on a copy leaves the original alone
shallow.drop_index_levels(function=np.max)
print(list(shallow.dataframe.index.names), list(gf.dataframe.index.names), len(gf.dataframe))
deep.update_inclusive_columns()
print(len(deep.dataframe), list(deep.dataframe.index.names))

# %% new columns on a copy do not appear in the original
other = gf.copy()
other.dataframe["ratio"] = other.dataframe["time"] / other.dataframe["time (inc)"]
print("ratio" in other.dataframe.columns, "ratio" in gf.dataframe.columns)

# %% in-place arithmetic on a copy leaves the original alone
# HATCHET-WRONG (STYLE.md rule 3; HATCHET_SPEC.md 2.2 and 2.10): copy() shares the
# DataFrame's data and `+=` writes through it with DataFrame.update, so Hatchet changes
# `base` too. Nothing may write into a frame another GraphFrame holds.
#   hatchet: '[2.0, 2.0] [2.0, 2.0] True'
#   ours:    '[2.0, 2.0] [1.0, 1.0] True'
base = ht.GraphFrame.from_lists(("a", "b"))
twice = base.copy()
twice += base
print(nums(twice.dataframe["time"]), nums(base.dataframe["time"]), twice.graph is base.graph)
