import json

import hatchet as ht


def names(gf):
    """Names of the rows a filter kept, in row (node) order."""
    return gf.dataframe["name"].tolist()


def paths(gf):
    """The rows a filter kept as name:inclusive time, in row (node) order."""
    return [f"{n}:{t:g}" for n, t in zip(gf.dataframe["name"], gf.dataframe["time (inc)"])]


with open("literal/hatchet_graph_literal.json") as f:
    literal = json.load(f)
lit = ht.GraphFrame.from_literal(literal)
lulesh = ht.GraphFrame.from_caliperreader("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali")

# %% a single node by name, and everything below it
print(names(lulesh.filter([{"name": "LagrangeNodal"}], squash=False)))
print(names(lulesh.filter([{"name": "LagrangeNodal"}, "*"], squash=False)))
print(lulesh.filter([{"name": "LagrangeNodal"}, "*"]).tree(metric_column="time", render_header=False))

# %% regular expressions match the whole value
print(names(lulesh.filter([{"name": "Calc.*Elems"}], squash=False)))
print(names(lulesh.filter([{"name": "Lagrange.*"}], squash=False)))
try:
    print(names(lulesh.filter([{"name": "Lagrange"}], squash=False)))
except Exception as exc:
    print(type(exc).__name__)

# %% quantifiers: ".", "*", "+", an integer
for query in ([{"name": "corge"}, ".", {"name": "baz"}],
              [{"name": "foo"}, "*", {"name": "grault"}],
              [{"name": "foo"}, "+", {"name": "grault"}],
              [{"name": "qux"}, 2, {"name": "bar"}],
              [{"name": "qux"}, ("*", {"time": "> 1"})]):
    print(query, "->", paths(lit.filter(query, squash=False)))

# %% numeric comparisons and several conditions on one node
print(paths(lit.filter([{"time (inc)": ">= 30"}], squash=False)))
print(paths(lit.filter([{"name": "ba.*", "time": 5.0}], squash=False)))
print(paths(lit.filter([{"time": ["> 4", "< 11"]}], squash=False)))

# %% depth and node_id
print(paths(lit.filter([{"depth": 1}], squash=False)))
print(paths(lit.filter([{"depth": -1, "name": "g.*"}], squash=False)))
print(paths(lit.filter([{"depth": "> 4"}], squash=False)))
print(paths(lit.filter([{"node_id": "< 3"}], squash=False)))

# %% the user guide's example query (with squash, the default)
# HATCHET-WRONG (HATCHET_SPEC.md 2.4 and 5.2 item 6, fixed deliberately per section 6):
# squash merges the two `waldo` roots but does not re-enumerate, so the merged root's
# children print in their old id order; graphframe numbers them again (frame order).
#   hatchet: ['├─ 5.000 35.000 fred', '│  └─ 5.000 30.000 xyzzy', '│     └─ 5.000 25.000 thud', '│        ├─ 5.000 5.000 baz', '│        └─ 15.000 15.000 garply', '├─ 15.000 15.000 garply', '└─ 5.000 10.000 bar', '   └─ 5.000 5.000 baz']
#   ours:    ['├─ 5.000 10.000 bar', '│  └─ 5.000 5.000 baz', '├─ 5.000 35.000 fred', '│  └─ 5.000 30.000 xyzzy', '│     └─ 5.000 25.000 thud', '│        ├─ 5.000 5.000 baz', '│        └─ 15.000 15.000 garply', '└─ 15.000 15.000 garply']
query = [{"name": "waldo"}, ("*", {"time (inc)": "> 10"}), {"name": "(baz|garply)", "time (inc)": ">= 5"}]
print(lit.filter(query).tree(metric_column=["time", "time (inc)"], render_header=False))

# %% "*" between two conditions
# DELIBERATE (docs/query.md, "Differences from Hatchet"; HATCHET_SPEC.md 3.1): Hatchet's "*"
# is lazy and stops at the first node satisfying the next condition, so the inner `c` of
# a -> c -> c is not matched; graphframe finds every match. (Issue 14 item 5 may decide
# to follow Hatchet here; then this correction goes.)
#   hatchet: "[{'name': 'a'}, '*', {'name': 'c'}] -> ['a:7', 'b:3', 'x:2', 'c:1', 'c:3']"
#   ours:    "[{'name': 'a'}, '*', {'name': 'c'}] -> ['a:7', 'b:3', 'x:2', 'c:1', 'c:3', 'c:2']"
chains = ht.GraphFrame.from_lists(("a", ("c", ("c", "z")), ("b", ("x", "c"))))
for query in ([{"name": "a"}, "*", {"name": "c"}], [{"name": "a"}, "+", {"name": "c"}]):
    print(query, "->", paths(chains.filter(query, squash=False)))

# NEWER HATCHET (docs/readers/caliper.md, "Sibling order"): these lines were recorded
# from Hatchet 2024.1.3, which ordered the siblings of a .cali file without a node order
# by frame; Hatchet 2026.2.0 (the reference, HATCHET_SPEC.md section 4.4) keeps the order
# in which its reader creates the nodes, and prints what graphframe prints here
#   hatchet: ["['LagrangeNodal']", "['LagrangeNodal', 'CalcForceForNodes', 'CalcVolumeForceForElems', 'CalcHourglassControlForElems', 'CalcFBHourglassForceForElems', 'IntegrateStressForElems']", '0.012 LagrangeNodal']
#   ours:    ["['LagrangeNodal']", "['LagrangeNodal', 'CalcForceForNodes', 'CalcVolumeForceForElems', 'IntegrateStressForElems', 'CalcHourglassControlForElems', 'CalcFBHourglassForceForElems']", '0.012 LagrangeNodal']
#   hatchet: ['   └─ 0.002 CalcVolumeForceForElems', '      ├─ 0.060 CalcHourglassControlForElems', '      │  └─ 0.081 CalcFBHourglassForceForElems', '      └─ 0.057 IntegrateStressForElems', '', '# %% [2] regular expressions match the whole value', "['CalcTimeConstraintsForElems', 'CalcEnergyForElems', 'CalcKinematicsForElems', 'CalcQForElems', 'CalcMonotonicQForElems', 'CalcVolumeForceForElems', 'CalcHourglassControlForElems', 'CalcFBHourglassForceForElems']", "['LagrangeLeapFrog', 'LagrangeElements', 'LagrangeNodal']", 'EmptyFilter']
#   ours:    ['   └─ 0.002 CalcVolumeForceForElems', '      ├─ 0.057 IntegrateStressForElems', '      └─ 0.060 CalcHourglassControlForElems', '         └─ 0.081 CalcFBHourglassForceForElems', '', '# %% [2] regular expressions match the whole value', "['CalcVolumeForceForElems', 'CalcHourglassControlForElems', 'CalcFBHourglassForceForElems', 'CalcKinematicsForElems', 'CalcQForElems', 'CalcMonotonicQForElems', 'CalcEnergyForElems', 'CalcTimeConstraintsForElems']", "['LagrangeLeapFrog', 'LagrangeNodal', 'LagrangeElements']", 'EmptyFilter']
