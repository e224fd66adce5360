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
