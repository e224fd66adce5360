import hatchet as ht
from compat_fmt import nums, show, summary

# %% Caliper json-split with an annotation hierarchy (LULESH)
gf = ht.GraphFrame.from_caliper("caliper/hatchet/caliper-lulesh-json/lulesh-annotation-profile.json")
summary(gf)
print("graph nodes:", len(gf.graph), "roots:", [r.frame["name"] for r in gf.graph.roots])
print(gf.tree(metric_column="time (inc)", render_header=False))

# %% Caliper json-split with sampled call paths (cpi)
# DELIBERATE (docs/readers/caliper.md): json-split values are float64 in graphframe
# (Hatchet keeps JSON integers as int64).
#   hatchet: ['  sum count: 460', '  sum time: 2299906.0', 'graph nodes: 127']
#   ours:    ['  sum count: 460.0', '  sum time: 2299906.0', 'graph nodes: 127']
#   hatchet: 'count sum: 460'
#   ours:    'count sum: 460.0'
gf = ht.GraphFrame.from_caliper("caliper/hatchet/caliper-cpi-json/cpi-callpath-profile.json")
summary(gf)
print("graph nodes:", len(gf.graph))
print("roots:", sorted(r.frame["name"] for r in gf.graph.roots))
print("count sum:", gf.dataframe["count"].sum())

# %% the tutorial's 64-rank LULESH run, from an open stream
with open("caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json", "rb") as stream:
    gf = ht.GraphFrame.from_caliper(stream)
summary(gf)
ranks = gf.dataframe.index.get_level_values("rank")
print("ranks:", ranks.min(), ranks.max(), ranks.nunique())
print(gf.tree(rank=63, depth=3, render_header=False))

# %% a native .cali file through Caliper's Python reader
# DELIBERATE (docs/readers/caliper.md): the default metric is `time` whenever there is
# one; Hatchet picks `time` only when `time (inc)` exists, else the first exclusive metric.
#   hatchet: 'default_metric: min#time.duration'
#   ours:    'default_metric: time'
gf = ht.GraphFrame.from_caliperreader("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali")
summary(gf)
print(gf.tree(metric_column="time", render_header=False))
print("caliper version:", gf.metadata["cali.caliper.version"], gf.metadata["cali.channel"])
# NEWER HATCHET (docs/readers/caliper.md, "Sibling order"): Hatchet 2024.1.3 printed the
# siblings of a .cali file without a node order by frame; Hatchet 2026.2.0 (the reference,
# HATCHET_SPEC.md section 4.4) keeps the order in which its reader creates the nodes, as
# graphframe does
#   hatchet: ['0.025 main', '└─ 0.000 lulesh.cycle', '   ├─ 0.000 LagrangeLeapFrog', '   │  ├─ 0.005 CalcTimeConstraintsForElems', '   │  ├─ 0.001 LagrangeElements', '   │  │  ├─ 0.002 ApplyMaterialPropertiesForElems', '   │  │  │  └─ 0.045 EvalEOSForElems', '   │  │  │     └─ 0.096 CalcEnergyForElems', '   │  │  ├─ 0.003 CalcLagrangeElements', '   │  │  │  └─ 0.056 CalcKinematicsForElems', '   │  │  └─ 0.032 CalcQForElems', '   │  │     └─ 0.014 CalcMonotonicQForElems', '   │  └─ 0.012 LagrangeNodal', '   │     └─ 0.002 CalcForceForNodes', '   │        └─ 0.002 CalcVolumeForceForElems', '   │           ├─ 0.060 CalcHourglassControlForElems', '   │           │  └─ 0.081 CalcFBHourglassForceForElems', '   │           └─ 0.057 IntegrateStressForElems', '   └─ 0.000 TimeIncrement']
#   ours:    ['0.025 main', '└─ 0.000 lulesh.cycle', '   ├─ 0.000 TimeIncrement', '   └─ 0.000 LagrangeLeapFrog', '      ├─ 0.012 LagrangeNodal', '      │  └─ 0.002 CalcForceForNodes', '      │     └─ 0.002 CalcVolumeForceForElems', '      │        ├─ 0.057 IntegrateStressForElems', '      │        └─ 0.060 CalcHourglassControlForElems', '      │           └─ 0.081 CalcFBHourglassForceForElems', '      ├─ 0.001 LagrangeElements', '      │  ├─ 0.003 CalcLagrangeElements', '      │  │  └─ 0.056 CalcKinematicsForElems', '      │  ├─ 0.032 CalcQForElems', '      │  │  └─ 0.014 CalcMonotonicQForElems', '      │  └─ 0.002 ApplyMaterialPropertiesForElems', '      │     └─ 0.045 EvalEOSForElems', '      │        └─ 0.096 CalcEnergyForElems', '      └─ 0.005 CalcTimeConstraintsForElems']

# %% a .cali file with several roots
# DELIBERATE (docs/readers/caliper.md): `Min time/rank` and friends are Caliper's
# min/max/avg of *inclusive* time per rank (min#inclusive#sum#time.duration).
#   hatchet: "exc_metrics: ['Avg time/rank', 'Max time/rank', 'Min time/rank', 'Total time'] inc_metrics: []"
#   ours:    "exc_metrics: [] inc_metrics: ['Avg time/rank', 'Max time/rank', 'Min time/rank', 'Total time']"
gf = ht.GraphFrame.from_caliperreader("caliper/hatchet/caliper-example-cali/example-profile.cali")
summary(gf)
print("roots:", sorted(r.frame["name"] for r in gf.graph.roots))
show(gf.dataframe, ["name", gf.default_metric], sort_by="name")
