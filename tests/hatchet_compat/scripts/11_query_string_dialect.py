import json

import hatchet as ht


def paths(gf):
    """The rows a filter kept as name:inclusive time, in row (node) order."""
    return [f"{n}:{t:g}" for n, t in zip(gf.dataframe["name"], gf.dataframe["time (inc)"])]


with open("literal/hatchet_graph_literal.json") as f:
    lit = ht.GraphFrame.from_literal(json.load(f))
lulesh = ht.GraphFrame.from_caliperreader("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali")
lulesh.dataframe["time (inc)"] = lulesh.dataframe["time"]  # for paths(); not a declared metric

# %% equality and =~ (a regular expression that must match at the start, as in Hatchet)
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" = "LagrangeNodal"', squash=False)))
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" =~ "Lagrange"', squash=False)))
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" =~ "Calc.*Elems"', squash=False)))
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" =~ "(Apply|Calc).*Elems$"', squash=False)))

# %% STARTS WITH, ENDS WITH, CONTAINS
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" STARTS WITH "Calc"', squash=False)))
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" ENDS WITH "Nodes"', squash=False)))
print(paths(lulesh.filter('MATCH (".", p) WHERE p."name" CONTAINS "Lagrange"', squash=False)))

# %% quantifiers and paths
print(paths(lit.filter('MATCH (p)->(".")->(q) WHERE p."name" = "corge" AND q."name" = "baz"', squash=False)))
print(paths(lit.filter('MATCH (p)->("*")->(q) WHERE p."name" = "foo" AND q."name" = "grault"', squash=False)))
print(paths(lit.filter('MATCH ("+", p) WHERE p."time (inc)" >= 30', squash=False)))
print(paths(lit.filter('MATCH (p)->(2)->(q) WHERE p."name" = "qux" AND q."name" = "bar"', squash=False)))

# %% numbers, AND/OR/NOT, leaves, depth
print(paths(lit.filter('MATCH (".", p) WHERE p."time" > 5 AND p."time" < 15', squash=False)))
print(paths(lit.filter('MATCH (".", p) WHERE p."name" = "baz" OR p."time" >= 15', squash=False)))
print(paths(lit.filter('MATCH (".", p) WHERE NOT p."name" STARTS WITH "g" AND p IS LEAF', squash=False)))
print(paths(lit.filter('MATCH (".", p) WHERE p."depth" = 1', squash=False)))

# %% special values
nan_gf = ht.GraphFrame.from_lists(("a", ("b", "c"), "d"))
nan_gf.dataframe.loc[nan_gf.dataframe["name"] == "c", "time"] = float("nan")
print(paths(nan_gf.filter('MATCH (".", p) WHERE p."time" IS NAN', squash=False)))
print(paths(nan_gf.filter('MATCH (".", p) WHERE p."time" IS NOT NAN', squash=False)))

# %% compound string queries
print(paths(lit.filter('{MATCH (".", p) WHERE p."name" = "bar"} OR {MATCH (".", q) WHERE q."name" = "qux"}', squash=False)))
print(paths(lit.filter('MATCH (".", p) WHERE {p."name" STARTS WITH "g"} AND {p."time" > 10}', squash=False)))

# %% the string dialect after squash, as the tutorials print it
print(lulesh.filter('MATCH ("*")->(".", p) WHERE p."name" =~ "Lagrange"').tree(metric_column="time", render_header=False))

# NEWER HATCHET (docs/readers/caliper.md, "Sibling order"): these lines were recorded
# from Hatchet 2024.1.3, which ordered the siblings of a .cali file without a node order
# by frame; Hatchet 2026.2.0 (the reference, HATCHET_SPEC.md section 4.4) keeps the order
# in which its reader creates the nodes, and prints what graphframe prints here
#   hatchet: ["['LagrangeNodal:0.0124']", "['LagrangeLeapFrog:0.000226', 'LagrangeElements:0.001367', 'LagrangeNodal:0.0124']", "['CalcTimeConstraintsForElems:0.004628', 'CalcEnergyForElems:0.095906', 'CalcKinematicsForElems:0.0557', 'CalcQForElems:0.031685', 'CalcMonotonicQForElems:0.014334', 'CalcVolumeForceForElems:0.001841', 'CalcHourglassControlForElems:0.059643', 'CalcFBHourglassForceForElems:0.080608']", "['CalcTimeConstraintsForElems:0.004628', 'ApplyMaterialPropertiesForElems:0.00241', 'CalcEnergyForElems:0.095906', 'CalcKinematicsForElems:0.0557', 'CalcQForElems:0.031685', 'CalcMonotonicQForElems:0.014334', 'CalcVolumeForceForElems:0.001841', 'CalcHourglassControlForElems:0.059643', 'CalcFBHourglassForceForElems:0.080608']", '# %% [2] STARTS WITH, ENDS WITH, CONTAINS', "['CalcTimeConstraintsForElems:0.004628', 'CalcEnergyForElems:0.095906', 'CalcLagrangeElements:0.002862', 'CalcKinematicsForElems:0.0557', 'CalcQForElems:0.031685', 'CalcMonotonicQForElems:0.014334', 'CalcForceForNodes:0.001854', 'CalcVolumeForceForElems:0.001841', 'CalcHourglassControlForElems:0.059643', 'CalcFBHourglassForceForElems:0.080608']", "['CalcForceForNodes:0.001854']", "['LagrangeLeapFrog:0.000226', 'LagrangeElements:0.001367', 'CalcLagrangeElements:0.002862', 'LagrangeNodal:0.0124']", '# %% [3] quantifiers and paths']
#   ours:    ["['LagrangeNodal:0.0124']", "['LagrangeLeapFrog:0.000226', 'LagrangeNodal:0.0124', 'LagrangeElements:0.001367']", "['CalcVolumeForceForElems:0.001841', 'CalcHourglassControlForElems:0.059643', 'CalcFBHourglassForceForElems:0.080608', 'CalcKinematicsForElems:0.0557', 'CalcQForElems:0.031685', 'CalcMonotonicQForElems:0.014334', 'CalcEnergyForElems:0.095906', 'CalcTimeConstraintsForElems:0.004628']", "['CalcVolumeForceForElems:0.001841', 'CalcHourglassControlForElems:0.059643', 'CalcFBHourglassForceForElems:0.080608', 'CalcKinematicsForElems:0.0557', 'CalcQForElems:0.031685', 'CalcMonotonicQForElems:0.014334', 'ApplyMaterialPropertiesForElems:0.00241', 'CalcEnergyForElems:0.095906', 'CalcTimeConstraintsForElems:0.004628']", '# %% [2] STARTS WITH, ENDS WITH, CONTAINS', "['CalcForceForNodes:0.001854', 'CalcVolumeForceForElems:0.001841', 'CalcHourglassControlForElems:0.059643', 'CalcFBHourglassForceForElems:0.080608', 'CalcLagrangeElements:0.002862', 'CalcKinematicsForElems:0.0557', 'CalcQForElems:0.031685', 'CalcMonotonicQForElems:0.014334', 'CalcEnergyForElems:0.095906', 'CalcTimeConstraintsForElems:0.004628']", "['CalcForceForNodes:0.001854']", "['LagrangeLeapFrog:0.000226', 'LagrangeNodal:0.0124', 'LagrangeElements:0.001367', 'CalcLagrangeElements:0.002862']", '# %% [3] quantifiers and paths']
#   hatchet: ['   └─ 0.000 LagrangeLeapFrog', '      ├─ 0.001 LagrangeElements', '      └─ 0.012 LagrangeNodal', '']
#   ours:    ['   └─ 0.000 LagrangeLeapFrog', '      ├─ 0.012 LagrangeNodal', '      └─ 0.001 LagrangeElements', '']
