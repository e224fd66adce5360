"""Query objects (Hatchet's API), compound queries, GraphFrame.query/filter, multi-index data."""

import numpy as np
import pytest

import graphframe
import graphframe.query as gq
from graphframe import EmptyFilter, GraphFrame, InvalidFilter
from graphframe.query import (BadNumberNaryQueryArgs, ConjunctionQuery, CypherQuery,
                              DisjunctionQuery, ExclusiveDisjunctionQuery, InvalidQueryFilter,
                              InvalidQueryPath, MultiIndexModeMismatch, NegationQuery,
                              ObjectQuery, Query, QueryEngine, QueryMatcher, StringQuery,
                              matched_nodes, parse_cypher_query)

from tests.helpers import gf_from_edges, tree_text
from test_query_object import spec_tree

LEAF = [{"depth": -1}]
BELOW_B = [{"name": "b"}, "*"]          # b, c2, d, c4


def ids(gf, query, mode="off"):
    return matched_nodes(gf, query, multi_index_mode=mode).tolist()


def test_import_paths_like_hatchet():
    assert graphframe.QueryMatcher is gq.QueryMatcher is gq.compat.QueryMatcher
    for name in ("Query", "ObjectQuery", "StringQuery", "ConjunctionQuery", "DisjunctionQuery",
                 "ExclusiveDisjunctionQuery", "NegationQuery", "parse_string_dialect"):
        assert getattr(graphframe, name) is getattr(gq, name)
    for name in ("AndQuery", "OrQuery", "XorQuery", "NotQuery", "IntersectionQuery",
                 "UnionQuery", "SymDifferenceQuery", "CypherQuery", "AbstractQuery", "NaryQuery",
                 "QueryEngine", "InvalidQueryPath", "InvalidQueryFilter",
                 "RedundantQueryFilterWarning", "BadNumberNaryQueryArgs", "CompoundQuery",
                 "is_hatchet_query", "parse_cypher_query"):
        assert hasattr(gq, name), name


def test_base_query_builder():
    gf = spec_tree()
    q = Query().match(".", lambda row: row["name"] == "b").rel("*").rel(
        ".", {"name": "c"})
    assert [s for s, _ in q] == [".", "*", "."] and len(q) == 3
    assert ids(gf, q) == [1, 2, 3, 4]
    q.match("+", {"name": "a|e"})              # match restarts the path
    assert ids(gf, q) == [0, 5]
    assert ids(gf, Query().match().relation(2)) == list(range(8))
    with pytest.raises(InvalidQueryPath, match="start with a call to 'match'"):
        Query().rel(".")
    with pytest.raises(InvalidQueryPath, match="empty"):
        matched_nodes(gf, Query())
    with pytest.raises(InvalidQueryPath, match="quantifier"):
        Query().match("x")
    with pytest.raises(InvalidQueryPath, match="dict of conditions or a callable"):
        Query().match(".", 42)


def test_legacy_query_matcher_and_cypher():
    gf = spec_tree()
    assert ids(gf, QueryMatcher(LEAF)) == [2, 4, 6, 7]
    q = QueryMatcher().match(".", lambda row: row["name"] == "b").rel(".", lambda row: True)
    assert [int(n) for n in q.apply(gf)] == [1, 2, 3]
    with pytest.raises(InvalidQueryPath):
        QueryMatcher("MATCH (p)")
    cq = CypherQuery('{MATCH (p) WHERE p IS LEAF} AND {MATCH (p) WHERE p."name" = "c"}')
    assert ids(gf, cq) == [2, 4, 6]
    assert ids(gf, parse_cypher_query("MATCH (p) WHERE p IS NOT LEAF")) == [0, 1, 3, 5]
    assert ids(gf, ~QueryMatcher(LEAF)) == [0, 1, 3, 5]


def test_compound_queries():
    gf = spec_tree()
    leaf, below_b = ObjectQuery(LEAF), ObjectQuery(BELOW_B)
    assert ids(gf, leaf & below_b) == [2, 4]
    assert ids(gf, leaf | below_b) == [1, 2, 3, 4, 6, 7]
    assert ids(gf, leaf ^ below_b) == [1, 3, 6, 7]
    assert ids(gf, ~leaf) == [0, 1, 3, 5]         # Hatchet: TypeError for new-style queries
    assert ids(gf, ~(leaf | below_b)) == [0, 5]
    # lists and strings are accepted as subqueries
    mixed = ConjunctionQuery(LEAF, 'MATCH (p)->("*") WHERE p."name" = "b"')
    assert ids(gf, mixed) == [2, 4]
    three = ExclusiveDisjunctionQuery(LEAF, BELOW_B, [{"name": "c"}])
    assert ids(gf, three) == [1, 2, 3, 4, 7]        # in an odd number of results
    assert ids(gf, DisjunctionQuery((LEAF, [{"name": "a"}]))) == [0, 2, 4, 6, 7]
    assert ids(gf, NegationQuery(LEAF)) == [0, 1, 3, 5]
    with pytest.raises(BadNumberNaryQueryArgs):
        ConjunctionQuery(LEAF)
    with pytest.raises(BadNumberNaryQueryArgs):
        NegationQuery(LEAF, BELOW_B)
    with pytest.raises(InvalidFilter):
        DisjunctionQuery(LEAF, 42)


def test_legacy_compound_names():
    gf = spec_tree()
    assert ids(gf, gq.AndQuery(LEAF, BELOW_B)) == [2, 4]
    assert ids(gf, gq.OrQuery(LEAF, BELOW_B)) == [1, 2, 3, 4, 6, 7]
    assert ids(gf, gq.XorQuery(LEAF, BELOW_B)) == [1, 3, 6, 7]
    assert ids(gf, gq.NotQuery(LEAF)) == [0, 1, 3, 5]
    assert gq.IntersectionQuery is gq.AndQuery and gq.UnionQuery is gq.OrQuery
    assert gq.is_hatchet_query(gq.AndQuery(LEAF, BELOW_B)) and not gq.is_hatchet_query([1])


def test_query_engine_and_graphframe_query():
    gf = spec_tree()
    nodes = QueryEngine().apply(ObjectQuery(LEAF), gf.graph, gf.dataframe)
    assert [int(n) for n in nodes] == [2, 4, 6, 7]
    assert [n.frame["name"] for n in nodes] == ["c", "c", "c", "f"]
    assert [int(n) for n in QueryEngine().apply("MATCH (p) WHERE p IS LEAF", gf.graph,
                                                gf.dataframe)] == [2, 4, 6, 7]
    assert [int(n) for n in gf.query(BELOW_B)] == [1, 2, 3, 4]
    assert [n.depth for n in gf.query(StringQuery('MATCH (p) WHERE p."name" = "c"'))] == [2, 3, 2]
    assert [int(n) for n in ObjectQuery(BELOW_B).apply(gf)] == [1, 2, 3, 4]


def test_filter_with_queries():
    gf = spec_tree()
    out = gf.filter([{"name": "a"}, "*", {"name": "c"}])
    assert tree_text(out) == ("1.000 a\n|- 1.000 b\n|  |- 1.000 c\n|  `- 1.000 d\n"
                              "|     `- 1.000 c\n`- 1.000 e\n   `- 1.000 c\n")
    assert out.dataframe["time (inc)"].tolist() == [7.0, 4.0, 1.0, 2.0, 1.0, 2.0, 1.0]
    assert gf.filter('MATCH (p) WHERE p IS LEAF', squash=False).dataframe.index.tolist() == \
        [2, 4, 6, 7]
    assert gf.filter(ObjectQuery(LEAF) & ObjectQuery(BELOW_B), squash=False) \
        .dataframe.index.tolist() == [2, 4]
    with pytest.raises(EmptyFilter):
        gf.filter([{"name": "nothing"}])
    with pytest.raises(InvalidQueryPath):
        gf.filter((".", {"name": "a"}))


def ranked():
    # main -> {a, b -> c}; base times 1, 2, 6, 12; time = base + 10 * rank (ranks 0, 1)
    return gf_from_edges(["main", "a", "b", "c"], [-1, 0, 0, 2], times=[1.0, 2.0, 6.0, 12.0],
                         ranks=2)


def test_multi_index_modes():
    gf = ranked()
    assert gf.dataframe.index.names == ["node", "rank"]
    with pytest.raises(MultiIndexModeMismatch, match="multi_index_mode='any'"):
        matched_nodes(gf, [{"time": "> 5"}])
    with pytest.raises(MultiIndexModeMismatch):
        matched_nodes(gf, 'MATCH (p) WHERE p."time" > 5')
    with pytest.raises(MultiIndexModeMismatch):
        gf.filter([{"time": "> 5"}])
    # node properties need no mode
    assert ids(gf, [{"depth": -1}]) == [1, 3]
    assert ids(gf, "MATCH (p)->(q) WHERE q IS LEAF") == [0, 1, 2, 3]
    assert ids(gf, [{"time": "> 5"}], "any") == [0, 1, 2, 3]
    assert ids(gf, [{"time": "> 5"}], "all") == [2, 3]
    assert ids(gf, 'MATCH (p) WHERE p."time" > 5', "all") == [2, 3]
    assert ids(gf, [{"name": "b"}, ("*", {"time": "< 20"})], "all") == [2]
    assert ids(gf, [{"name": "b"}, ("*", {"time": "< 20"})], "any") == [2, 3]
    assert ids(gf, [{"name": "b"}, ("+", {"time": "< 20"})], "all") == []
    # equality under "all" (Hatchet applies "any" here)
    assert ids(gf, [{"time": 6.0}], "all") == []
    assert ids(gf, [{"time": 6.0}], "any") == [2]
    # the query object's own mode is used
    assert ids(gf, ObjectQuery([{"time": "> 5"}], multi_index_mode="all")) == [2, 3]
    assert [int(n) for n in gf.query([{"time": "> 5"}], multi_index_mode="all")] == [2, 3]
    out = gf.filter([{"name": "b"}, ("*", {"time": "> 5"})], multi_index_mode="all")
    assert out.dataframe.index.tolist() == [(0, 0), (0, 1), (1, 0), (1, 1)]  # every rank kept
    with pytest.raises(InvalidQueryFilter, match="multi_index_mode must be one of"):
        ObjectQuery(LEAF, multi_index_mode="foo")
    with pytest.raises(AssertionError):   # what Hatchet raises, and Hatchet code catches
        ObjectQuery(LEAF, multi_index_mode="foo")
    with pytest.raises(InvalidQueryFilter):
        matched_nodes(gf, LEAF, multi_index_mode="sometimes")


def test_multi_index_rows_are_tested_as_a_whole():
    gf = ranked()
    # times per node: main 1/11, a 2/12, b 6/16, c 12/22. "any" = some row satisfies the
    # whole predicate; Hatchet reduces each condition separately, any(t >= 10) and
    # any(t < 12), and selects main, a and b (verified with Hatchet 2026.2.0).
    assert ids(gf, [{"time": [">= 10", "< 12"]}], "any") == [0]
    assert ids(gf, 'MATCH (p) WHERE p."time" >= 10 AND p."time" < 12', "any") == [0]
    # NOT applies per row: some row is not > 10 (Hatchet: not any(t > 10), nothing)
    assert ids(gf, 'MATCH (p) WHERE NOT p."time" > 10', "any") == [0, 1, 2]
    assert ids(gf, 'MATCH (p) WHERE NOT p."time" > 10', "all") == []
    assert ids(gf, 'MATCH (p) WHERE p."time" < 2 OR p."time" > 20', "any") == [0, 3]


def test_multi_index_callables_get_the_node_rows():
    gf = ranked()
    seen = []

    def pred(rows):
        seen.append(len(rows))
        return bool((rows["time"] > 5).all())

    assert ids(gf, [pred]) == [2, 3]
    assert seen == [2, 2, 2, 2]
    # as in Hatchet, the rows' node level holds Nodes
    assert ids(gf, [lambda rows: rows.index.get_level_values("node")[0]._depth == 1]) == [1, 2]


def test_nodes_without_rows():
    gf = spec_tree()
    part = gf.filter(gf.dataframe["name"].isin(["a", "c"]), squash=False)
    # column conditions are false for nodes without rows; node properties still work
    assert ids(part, [{"name": ".*"}]) == [0, 2, 4, 6]
    assert ids(part, [{"depth": -1}]) == [2, 4, 6, 7]
    assert ids(part, [{"name": "a"}, "*", {"name": "c"}]) == [0, 1, 2, 3, 4, 5, 6]
    assert ids(part, [lambda row: True]) == [0, 2, 4, 6]
    assert ids(part, 'MATCH (p) WHERE p IS LEAF OR p."name" = "a"') == [0, 2, 4, 6, 7]


def test_each_predicate_is_evaluated_once():
    gf = spec_tree()
    calls = []

    def pred(row):
        calls.append(int(row.name))
        return row["name"] in ("b", "d")

    assert ids(gf, [("+", pred), {"name": "c"}]) == [1, 2, 3, 4]
    assert sorted(calls) == list(range(8))  # "." and "*" share the predicate


def test_empty_graphs_and_empty_results():
    gf = spec_tree()
    assert ids(gf, [{"name": "zzz"}, "*"]) == []
    assert gf.query('MATCH (p) WHERE p."name" = "zzz"') == []
    assert isinstance(matched_nodes(gf, LEAF), np.ndarray)
    assert matched_nodes(gf, LEAF).dtype == np.int64


def test_hatchet_predicates_on_hatchet_style_rows():
    gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
    q = ObjectQuery([{"name": "MPI_.*"}, ("*", {"name": "ibv.*"})])
    assert [n.frame["name"] for n in gf.query(q)] == ["MPI_Send", "ibv_post", "MPI_Recv"]
    pred = q.query_pattern[0][1]
    row = gf.dataframe.iloc[1].copy()
    row.name = gf.graph.node(1)
    assert pred(row)
    depth_pred = ObjectQuery([{"depth": 1}]).query_pattern[0][1]
    assert depth_pred(row)
    with pytest.raises(InvalidQueryFilter, match="does not name a node"):
        depth_pred({"name": "x"})
