import hatchet as ht
from compat_fmt import show, summary, nums

# %% read an HPCToolkit database (the cpi example of Hatchet's user guide)
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
summary(gf)
print("graph nodes:", len(gf.graph))
print("roots:", [r.frame["name"] for r in gf.graph.roots])
print("ranks:", sorted(set(gf.dataframe.index.get_level_values("rank").tolist())))

# %% the tree of rank 0
# HATCHET-WRONG (HATCHET_SPEC.md 4.1, cpi nid 60): Hatchet gives a statement the file of
# the last procedure seen in document order; this statement's procedure is in <unknown file>.
#   hatchet: '                           ├─ 59960.000 interp.c:0 interp.c'
#   ours:    '                           ├─ 59960.000 <unknown file>:0 <unknown file>'
print(gf.tree(render_header=False))

# %% inclusive time of rank 3, three levels deep, two metrics
print(gf.tree(metric_column=["time (inc)", "time"], rank=3, depth=3, render_header=False))

# %% one rank as a cross-section
rank0 = gf.dataframe.xs(0, level="rank")
print(rank0.shape, list(rank0.index.names))
show(rank0, ["name", "type", "line", "time", "time (inc)"], limit=8)

# %% per-rank inclusive time of the root
root_rows = gf.dataframe[gf.dataframe["name"] == "<program root>"]
print(nums(root_rows["time (inc)"]))

# %% a database with ranks and threads (OSU allgather)
# HATCHET-WRONG (tests/test_hpctoolkit_real.py): hpcprof's exclusive value of a procedure
# includes the statements inside its loops; Hatchet subtracts only direct statement
# children, so loop bodies count twice. Ours sums to the roots' inclusive total.
#   hatchet: '  sum time: 27058420.0'
#   ours:    '  sum time: 26158368.0'
gf2 = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-osu-allgather-database")
summary(gf2)
print("graph nodes:", len(gf2.graph))
print("roots:", sorted(r.frame["name"] for r in gf2.graph.roots))
print("threads:", sorted(set(gf2.dataframe.index.get_level_values("thread").tolist())))
