# After LLNL's hatchet-tutorial query-language notebooks (object and string dialects,
# categories 1-8), on the tutorial's LULESH data.
import hatchet as ht
from hatchet.query import ConjunctionQuery, DisjunctionQuery, ExclusiveDisjunctionQuery, NegationQuery

# %% load, then drop the rank level so that each node has one row
gf = ht.GraphFrame.from_caliper("caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json")
gf.drop_index_levels()


def show(query):
    gf_filt = gf.filter(query)
    print(len(gf_filt.graph), gf_filt.tree(depth=4, render_header=False), sep="\n")


# %% category 1, object dialect: a node and everything below it
show([{"name": "CalcForceForNodes"}, "*"])

# %% category 1, string dialect: one or more nodes below LagrangeNodal
show('MATCH (".", p)->("+") WHERE p."name" = "LagrangeNodal"')

# %% category 1: an exact number of nodes in between
show([{"name": "lulesh.cycle"}, 2, {"name": "CalcForceForNodes"}])

# %% category 2, object dialect: string equality and regular expressions
show([{"name": "MPI_.*"}])

# %% category 2, string dialect: =~ (the tutorials: "starts with Lagrange")
show('MATCH (".", p) WHERE p."name" =~ "Lagrange"')

# %% category 2, string dialect: a regular expression with alternatives
show('MATCH (".", p) WHERE p."name" =~ "(Apply|Calc).*Elems$"')

# %% category 3: containment predicates
show('MATCH (".", p) WHERE p."name" STARTS WITH "Calc" AND p."name" ENDS WITH "Nodes"')
show('MATCH (".", p) WHERE p."name" CONTAINS "Hourglass"')

# %% category 4: numeric comparisons
show([{"time (inc)": "> 1e7"}])
show('MATCH (".", p) WHERE p."time" >= 5e6')

# %% category 5: special values (nodes of one run missing in the other are NaN)
other = ht.GraphFrame.from_caliper("ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-1core.json")
other.drop_index_levels()
diff = other - gf
print(len(diff.filter('MATCH (".", p) WHERE p."time" IS NAN', squash=False).dataframe))
print(len(diff.filter('MATCH (".", p) WHERE p."time" IS NOT NAN', squash=False).dataframe))

# %% category 6: conjunction
show('MATCH (".", p) WHERE p."name" STARTS WITH "MPI_" AND p."time (inc)" > 1e6')
show(ConjunctionQuery([{"name": "LagrangeNodal"}, "*"], [{"time": "> 1e6"}]))

# %% category 7: disjunction and complement
show('MATCH (".", p) WHERE p."name" STARTS WITH "MPI_" OR p."name" STARTS WITH "Lagrange"')
show(DisjunctionQuery([{"name": "TimeIncrement"}, "*"], [{"name": "MPI_Barrier"}]))
print(len(gf.filter(NegationQuery([{"name": "MPI_.*"}]), squash=False).dataframe))

# %% category 8: exclusive disjunction
show(ExclusiveDisjunctionQuery([{"name": "LagrangeNodal"}, "*"], [{"name": "Calc.*"}]))

