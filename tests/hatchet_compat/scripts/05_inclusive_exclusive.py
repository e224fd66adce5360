import hatchet as ht
from compat_fmt import nums, show, summary

# %% update_inclusive_columns() recomputes inclusive columns in place
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
gf.dataframe["time (inc)"] = 0.0
result = gf.update_inclusive_columns()
print("returned:", result)
print(nums(gf.dataframe.xs(0, level="rank")["time (inc)"].head(6)))
print("sum time (inc):", nums([gf.dataframe["time (inc)"].sum()]))

# %% after editing an exclusive value the inclusive column is recomputed
gf = ht.GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
gf.dataframe.loc[gf.dataframe["name"] == "c", "time"] = 10.0
gf.update_inclusive_columns()
show(gf.dataframe, ["name", "time", "time (inc)"])

# %% generate_exclusive_columns() rebuilds `time` from `time (inc)` in place
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
expected = gf.dataframe["time"].copy()
gf.dataframe = gf.dataframe.drop(columns=["time"])
gf.exc_metrics = []
result = gf.generate_exclusive_columns()
print("returned:", result)
print("time" in gf.dataframe.columns, sorted(gf.exc_metrics))
print("same as the reader's:", bool((gf.dataframe["time"] == expected).all()))

# %% an inclusive metric without the (inc) suffix gets an "(exc)" partner
gf = ht.GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
gf.dataframe["cycles"] = gf.dataframe["time (inc)"] * 100
gf.inc_metrics.append("cycles")
gf.generate_exclusive_columns(inc_metrics=["cycles"])
print(sorted(gf.exc_metrics), sorted(gf.inc_metrics))
show(gf.dataframe, ["name", "cycles", "cycles (exc)"])
