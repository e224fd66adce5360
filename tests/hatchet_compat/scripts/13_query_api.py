import warnings

import hatchet as ht
from hatchet.query import (AndQuery, ConjunctionQuery, CypherQuery, DisjunctionQuery,
                           ExclusiveDisjunctionQuery, NegationQuery, NotQuery, ObjectQuery,
                           OrQuery, Query, QueryMatcher, StringQuery, is_hatchet_query,
                           parse_cypher_query, parse_string_dialect)

warnings.simplefilter("ignore", DeprecationWarning)


def names(nodes):
    """Matched nodes as names, in node order."""
    return [n.frame["name"] for n in sorted(nodes)]


def kept(gf):
    return gf.dataframe["name"].tolist()


gf = ht.GraphFrame.from_lists(("a", ("b", "c", ("d", "c")), ("e", "c", "f")))

# %% QueryMatcher: the old-style builder, applied to a GraphFrame (returns nodes)
q = QueryMatcher().match(".", lambda row: row["name"] == "b").rel("*")
print(names(q.apply(gf)))
q = QueryMatcher([{"name": "e"}, "*"])
print(names(q.apply(gf)))
print(kept(gf.filter(q, squash=False)))

# %% CypherQuery / parse_cypher_query: the old-style string dialect
q = CypherQuery('MATCH (p)->(".")->(q) WHERE p."name" = "b" AND q."name" = "c"')
print(names(q.apply(gf)))
q = parse_cypher_query('MATCH (p)->("*")->(q) WHERE p."name" = "a" AND q."name" = "c"')
print(type(q).__name__, names(q.apply(gf)))

# %% old-style compound queries (AndQuery, OrQuery, NotQuery) and their operators
left = QueryMatcher([{"name": "b"}, "*"])
right = QueryMatcher([{"name": "c"}])
print(names(AndQuery(left, right).apply(gf)))
print(names(OrQuery(left, right).apply(gf)))
print(names(NotQuery(left).apply(gf)))
print(names((left & right).apply(gf)), names((left | right).apply(gf)), names((left ^ right).apply(gf)))
print(names((~left).apply(gf)))

# %% new-style queries: Query builder, ObjectQuery, StringQuery, compound classes, via filter
q = Query().match(".", lambda row: row["name"] == "e").rel(".", lambda row: row["name"] == "c")
print(kept(gf.filter(q, squash=False)))
print(kept(gf.filter(ObjectQuery([{"name": "d"}, "*"]), squash=False)))
print(kept(gf.filter(StringQuery('MATCH (".", p) WHERE p."name" = "f"'), squash=False)))
print(type(parse_string_dialect('MATCH (".", p) WHERE p."name" = "f"')).__name__)
both = ConjunctionQuery(ObjectQuery([{"name": "b"}, "*"]), ObjectQuery([{"name": "c"}]))
print(kept(gf.filter(both, squash=False)))
either = DisjunctionQuery([{"name": "d"}], 'MATCH (".", p) WHERE p."name" = "f"')
print(kept(gf.filter(either, squash=False)))
one = ExclusiveDisjunctionQuery([{"name": "b"}, "*"], [{"name": "c"}])
print(kept(gf.filter(one, squash=False)))
print(kept(gf.filter(NegationQuery([{"name": "c"}]), squash=False)))
print(kept(gf.filter(ObjectQuery([{"name": "b"}, "*"]) & ObjectQuery([{"name": "c"}]), squash=False)))

# %% is_hatchet_query tells query objects from lists and strings
for obj in (Query(), ObjectQuery([{"name": "a"}]), StringQuery('MATCH (".", p) WHERE p."name" = "a"'),
            QueryMatcher(), AndQuery([{"name": "a"}], [{"name": "b"}]), both, [{"name": "a"}],
            'MATCH (".", p) WHERE p."name" = "a"'):
    print(type(obj).__name__, is_hatchet_query(obj))
