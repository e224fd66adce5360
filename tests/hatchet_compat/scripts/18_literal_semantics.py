import json

import hatchet as ht
from compat_fmt import show

# %% a literal whose metrics hold text (Hatchet's own example literals put "module" there)
literal = [{
    "frame": {"name": "main", "type": "function"},
    "metrics": {"time (inc)": 130.0, "time": 0.0, "module": "main"},
    "children": [
        {"frame": {"name": "solve", "type": "function"},
         "metrics": {"time (inc)": 100.0, "time": 40.0, "module": "libsolve"},
         "children": [{"frame": {"name": "MPI_Allreduce", "type": "function"},
                       "metrics": {"time (inc)": 60.0, "time": 60.0, "module": "libmpi"}}]},
        {"frame": {"name": "write", "type": "function"},
         "metrics": {"time (inc)": 30.0, "time": 30.0, "module": "main"}},
    ],
}]
gf = ht.GraphFrame.from_literal(literal)
print([str(c) for c in gf.dataframe.columns])
print("time" in gf.exc_metrics, "time (inc)" in gf.inc_metrics)
show(gf.dataframe, ["name", "module", "time", "time (inc)"])
print(gf.tree(render_header=False))

# %% the text column works in filters and groupby
kept = gf.filter(lambda row: row["module"] == "main", squash=True)
print(kept.tree(metric_column=["time", "time (inc)"], render_header=False))
print(gf.dataframe.groupby("module")["time"].sum().to_dict())

# %% a literal with only exclusive metrics: update_inclusive_columns creates "time (inc)"
literal = [{
    "frame": {"name": "main", "type": "function"},
    "metrics": {"time": 1.0},
    "children": [
        {"frame": {"name": "solve", "type": "function"}, "metrics": {"time": 4.0},
         "children": [{"frame": {"name": "MPI_Allreduce", "type": "function"}, "metrics": {"time": 2.0}}]},
        {"frame": {"name": "write", "type": "function"}, "metrics": {"time": 3.0}},
    ],
}]
gf = ht.GraphFrame.from_literal(literal)
print(sorted(gf.exc_metrics), sorted(gf.inc_metrics), [str(c) for c in gf.dataframe.columns])
gf.update_inclusive_columns()
print(sorted(gf.exc_metrics), sorted(gf.inc_metrics), [str(c) for c in gf.dataframe.columns])
show(gf.dataframe, ["name", "time", "time (inc)"])

# %% several exclusive metrics, one of them named "X (exc)"
literal = [{"frame": {"name": "a"}, "metrics": {"time": 1.0, "bytes (exc)": 10.0},
            "children": [{"frame": {"name": "b"}, "metrics": {"time": 2.0, "bytes (exc)": 20.0}}]}]
gf = ht.GraphFrame.from_literal(literal)
gf.update_inclusive_columns()
print(sorted(gf.exc_metrics), sorted(gf.inc_metrics))
show(gf.dataframe, ["name", "time", "time (inc)", "bytes (exc)", "bytes"])

# %% a literal with only inclusive metrics (a file from Hatchet's tests)
with open("literal/hatchet_graph_inc_metric_only.json") as f:
    gf = ht.GraphFrame.from_literal(json.load(f))
print([str(c) for c in gf.dataframe.columns], sorted(gf.exc_metrics), sorted(gf.inc_metrics))
gf.generate_exclusive_columns()
print(sorted(gf.exc_metrics), sorted(gf.inc_metrics))
show(gf.dataframe, ["name", "time (inc)", "time"])
