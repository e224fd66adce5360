import hatchet as ht
from compat_fmt import nums

# %% Hatchet's submodules are attributes of the package after `import hatchet`
print(ht.node.Node.__name__, ht.graph.Graph.__name__, ht.frame.Frame.__name__)
print(isinstance(ht.version.__version__, str))

# %% an empty filter raises hatchet.graphframe.EmptyFilter
gf = ht.GraphFrame.from_literal([{"frame": {"name": "main", "type": "function"},
                                  "metrics": {"time": 1.0, "time (inc)": 2.0},
                                  "children": [{"frame": {"name": "solve", "type": "function"},
                                                "metrics": {"time": 1.0, "time (inc)": 1.0}}]}])
try:
    gf.filter(lambda row: row["time"] > 99)
except ht.graphframe.EmptyFilter:
    print("caught EmptyFilter")

# %% arithmetic: a NaN result keeps the left value (DataFrame.update never writes NaN)
def literal(main, solve, extra=False):
    kids = [{"frame": {"name": "solve", "type": "function"},
             "metrics": {"time": solve, "time (inc)": 5.0 if solve else 0.0}}]
    if extra:
        kids.append({"frame": {"name": "io", "type": "function"},
                     "metrics": {"time": 2.0, "time (inc)": 2.0}})
    return ht.GraphFrame.from_literal([{"frame": {"name": "main", "type": "function"},
                                        "metrics": {"time": main, "time (inc)": 10.0},
                                        "children": kids}])


left = literal(0.0, 4.0)
for extra in (False, True):
    right = literal(0.0, None, extra)
    for result in (left / right, left - right, left + right, left * right):
        rows = sorted(zip(result.dataframe["name"], result.dataframe["time"],
                          result.dataframe["time (inc)"]))
        print([(name, nums([t, inc])) for name, t, inc in rows])
inplace = left.copy()
inplace -= literal(0.0, None)
print(nums(inplace.dataframe["time"]))

# %% a literal with inclusive metrics only: after generate_exclusive_columns, tree shows time
inc_only = ht.GraphFrame.from_literal([
    {"frame": {"name": "main", "type": "function"}, "metrics": {"time (inc)": 3.0},
     "children": [{"frame": {"name": "solve", "type": "function"},
                   "metrics": {"time (inc)": 2.0}}]}])
inc_only.generate_exclusive_columns()
print(inc_only.exc_metrics, inc_only.inc_metrics)
print(inc_only.tree(render_header=False))

# %% tree(rank=...) on a profile without ranks prints its rows
print(gf.tree(rank=3, render_header=False))

# %% to_literal writes the frame's type ("None" when the frame has none)
print(ht.GraphFrame.from_literal([{"frame": {"name": "main"},
                                   "metrics": {"time": 1.0}}]).to_literal()[0]["frame"])

# %% gprof2dot DOT: roots in order of first mention, children in the order of their edges
dot = ht.GraphFrame.from_gprof_dot("gprof2dot/hatchet/callgrind.dot.64042.0.1")
print([r.frame["name"] for r in dot.graph.roots])
by_name = {n.frame["name"]: n for n in dot.graph.traverse()}
for name in ("MPIR_Shmem_Bcast_MV2", "(below main)", "main"):
    print(name, [c.frame["name"] for c in by_name[name].children])
