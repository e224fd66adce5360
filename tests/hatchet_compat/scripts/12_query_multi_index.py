import hatchet as ht
from hatchet.query import InvalidQueryFilter, ObjectQuery, Query, StringQuery
from hatchet.query.errors import MultiIndexModeMismatch


def kept(gf):
    """Distinct names of the kept rows (in row order) and the number of rows."""
    seen = []
    for name in gf.dataframe["name"]:
        if name not in seen:
            seen.append(name)
    return len(gf.dataframe), seen


gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")

# %% the default mode ("off") refuses column conditions on per-rank data
try:
    gf.filter([{"name": "main"}, "*"], squash=False)
except MultiIndexModeMismatch:
    print("object dialect: MultiIndexModeMismatch")
try:
    gf.filter('MATCH (".", p) WHERE p."name" = "main"', squash=False)
except InvalidQueryFilter:
    print("string dialect: InvalidQueryFilter")

# %% in mode "off" a base-syntax predicate receives all rows of a node
q = Query().match(".", lambda rows: (rows["time"] > 50000).any())
print(kept(gf.filter(q, squash=False)))
q = Query().match(".", lambda rows: len(rows) == 4 and rows["name"].iloc[0] == "main").rel("*")
print(kept(gf.filter(q, squash=False))[0])

# %% "all": every rank's row must satisfy the condition
q = ObjectQuery([{"time": "> 50000"}], multi_index_mode="all")
print(kept(gf.filter(q, squash=False)))
q = StringQuery('MATCH (".", p) WHERE p."time" > 50000', multi_index_mode="all")
print(kept(gf.filter(q, squash=False)))

# %% "any": one rank's row is enough; all rows of matched nodes are kept
# HATCHET-WRONG (HATCHET_SPEC.md 4.1, cpi nid 60): the statement's file (and so its
# name) comes from the last procedure seen; this statement is in <unknown file>.
#   hatchet: "(24, ['interp.c:0', '<unknown file>:0'])"
#   ours:    "(24, ['<unknown file>:0'])"
q = ObjectQuery([{"time": "> 50000"}], multi_index_mode="any")
print(kept(gf.filter(q, squash=False)))
q = StringQuery('MATCH (".", p) WHERE p."time" > 50000', multi_index_mode="any")
print(kept(gf.filter(q, squash=False)))

# %% "any" with a path and a regular expression
q = ObjectQuery([{"name": "62:MPI_Finalize"}, "*", {"time": "> 300000"}], multi_index_mode="any")
print(kept(gf.filter(q, squash=False)))
