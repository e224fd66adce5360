import json

import hatchet as ht
from compat_fmt import nums, show, summary

# %% gprof/callgrind DOT from gprof2dot
# DELIBERATE (docs/readers/dot.md): graphframe keeps the call counts and DOT ids as
# attribute columns after Hatchet's.
#   hatchet: "columns: ['module', 'name', 'time (inc)', 'time']"
#   ours:    "columns: ['module', 'name', 'time (inc)', 'time', 'calls', 'dot_id', 'caller_calls']"
gf = ht.GraphFrame.from_gprof_dot("gprof2dot/hatchet/callgrind.dot.64042.0.1")
summary(gf)
print("graph nodes:", len(gf.graph), "roots:", len(gf.graph.roots), "tree:", gf.graph.is_tree())
print("roots:", sorted(r.frame["name"] for r in gf.graph.roots))

# %% cProfile pstats
# DELIBERATE (docs/readers/cprofile.md): per-edge call counts in `caller_calls`.
#   hatchet: "columns: ['file', 'line', 'name', 'numcalls', 'nativecalls', 'time (inc)', 'time']"
#   ours:    "columns: ['file', 'line', 'name', 'numcalls', 'nativecalls', 'time (inc)', 'time', 'caller_calls']"
gf = ht.GraphFrame.from_cprofile("cprofile/hatchet/cprofile-cycle.pstats")
summary(gf)
print("roots:", sorted(r.frame["name"] for r in gf.graph.roots))
show(gf.dataframe, ["name", "line", "numcalls", "nativecalls", "time", "time (inc)"], sort_by="name")

# %% pyinstrument JSON
# DELIBERATE (docs/readers/pyinstrument.md): the full path in `file_path`.
#   hatchet: "columns: ['name', 'file', 'line', 'time', 'time (inc)', 'is_application_code']"
#   ours:    "columns: ['name', 'file', 'line', 'time', 'time (inc)', 'is_application_code', 'file_path']"
gf = ht.GraphFrame.from_pyinstrument("pyinstrument/hatchet/pyinstrument-hatchet-profile.json")
summary(gf)
print("graph nodes:", len(gf.graph), "roots:", [r.frame["name"] for r in gf.graph.roots])
print(gf.tree(metric_column="time (inc)", depth=3, render_header=False))

# %% TAU profile directory
# DELIBERATE (docs/readers/tau.md): the TAU group in `group`. (Hatchet also
# fills the missing `file`/`module` with 0; graphframe leaves them missing, so the
# tree is printed without a context column.)
#   hatchet: "columns: ['name', 'file', 'module', 'line', 'end_line', 'Calls', 'Subrs', 'time', 'time (inc)']"
#   ours:    "columns: ['name', 'file', 'module', 'line', 'end_line', 'Calls', 'Subrs', 'time', 'time (inc)', 'group']"
gf = ht.GraphFrame.from_tau("tau/hatchet-tau-cpi-mpi")
summary(gf)
print("graph nodes:", len(gf.graph))
print(gf.tree(context_column=None, render_header=False))

# %% timemory tree JSON
# DELIBERATE (docs/readers/timemory.md): `thread` is an index level only when a
# (node, rank) has entries for several threads; here each has one ("1,2" aggregated).
#   hatchet: "rows: 28 index: ['node', 'rank', 'thread']"
#   ours:    "rows: 28 index: ['node', 'rank']"
gf = ht.GraphFrame.from_timemory("timemory/hatchet/wall.tree.json")
print("rows:", len(gf.dataframe), "index:", list(gf.dataframe.index.names))
print("graph nodes:", len(gf.graph))
print("sum sum.wall_clock:", nums([gf.dataframe["sum.wall_clock"].sum()]))

# %% a literal (list of nested dicts), from a file Hatchet's tests use
with open("literal/hatchet_graph_literal.json") as f:
    literal = json.load(f)
gf = ht.GraphFrame.from_literal(literal)
summary(gf)
print(gf.tree(render_header=False))

# %% nested lists
gf = ht.GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
summary(gf)
print(gf.tree(render_header=False))
show(gf.dataframe, ["name", "time", "time (inc)"])
