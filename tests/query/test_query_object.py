"""Object dialect: exact matched node sets for every quantifier on trees, DAGs and cycles."""

import numpy as np
import pandas as pd
import pytest

from graphframe import GraphFrame
from graphframe.query import (InvalidQueryFilter, InvalidQueryPath, ObjectQuery, QuerySyntaxError,
                              matched_nodes)
from graphframe_readers import ProfileBuilder

from tests.helpers import gf_from_edges, replaced

SIDE_EFFECTS = []


def ids(gf, query, mode="off"):
    return matched_nodes(gf, query, multi_index_mode=mode).tolist()


def names(gf, query, mode="off"):
    return [gf.graph.frame(i)["name"] for i in ids(gf, query, mode)]


def spec_tree():
    # a -> {b -> {c, d -> c}, e -> {c, f}}; ids a0 b1 c2 d3 c4 e5 c6 f7
    return GraphFrame.from_lists(("a", ("b", "c", ("d", "c")), ("e", "c", "f")))


def lazy_tree():
    # a -> {b -> x -> c, c -> c -> z}; ids a0 b1 x2 c3 c4 c5 z6 (c4 is a's child)
    return GraphFrame.from_lists(("a", ("c", ("c", "z")), ("b", ("x", "c"))))


def chain():
    # main -> a -> a -> a -> b; ids 0..4
    return GraphFrame.from_lists(("main", ("a", ("a", ("a", "b")))))


def test_spec_examples():
    gf = spec_tree()
    assert ids(gf, [{"name": "b"}, ".", {"name": "c"}]) == [1, 3, 4]
    assert ids(gf, [{"name": "a"}, ("*", {"time (inc)": ">= 2"})]) == [0, 1, 3, 5]
    assert ids(gf, [{"depth": -1}]) == [2, 4, 6, 7]


def test_star_is_not_lazy():
    gf = lazy_tree()
    # Hatchet's "*" stops at the first c below a (matches a, b, x, c3, c4 only);
    # the inner c5 also ends a path a -> c -> c, so it is matched too.
    assert ids(gf, [{"name": "a"}, "*", {"name": "c"}]) == [0, 1, 2, 3, 4, 5]
    assert ids(gf, [{"name": "a"}, "+", {"name": "c"}]) == [0, 1, 2, 3, 4, 5]
    assert ids(gf, [{"name": "a"}, ".", {"name": "c"}]) == [0, 4, 5]
    assert ids(gf, [("+", {"name": "a|c"}), ("*", {"name": "c"})]) == [0, 3, 4, 5]


@pytest.mark.parametrize("query, expected", [
    ([{"name": "a"}], [1, 2, 3]),
    ([{"name": "a"}, {"name": "a"}], [1, 2, 3]),
    ([{"name": "main"}, {"name": "a"}], [0, 1]),
    ([{"name": "a"}, {"name": "b"}], [3, 4]),
    ([(2, {"name": "a"})], [1, 2, 3]),
    ([{"name": "main"}, (2, {"name": "a"})], [0, 1, 2]),
    ([{"name": "main"}, (3, {"name": "a"}), {"name": "b"}], [0, 1, 2, 3, 4]),
    ([{"name": "main"}, (2, {"name": "a"}), {"name": "b"}], []),
    ([{"name": "main"}, 3, {"name": "b"}], [0, 1, 2, 3, 4]),
    ([{"name": "main"}, ("*", {"name": "a"}), {"name": "b"}], [0, 1, 2, 3, 4]),
    ([{"name": "main"}, ("*", {"name": "x"}), {"name": "a"}], [0, 1]),
    ([{"name": "main"}, ("+", {"name": "x"}), {"name": "a"}], []),
    ([{"name": "main"}, ("+", {"name": "a"})], [0, 1, 2, 3]),
    ([{"name": "main"}, ("+", {"name": "a"}), {"name": "a"}], [0, 1, 2, 3]),
    ([{"name": "a"}, ("*", {"name": "a"}), {"name": "b"}], [1, 2, 3, 4]),
    (["*"], [0, 1, 2, 3, 4]),
    (["."], [0, 1, 2, 3, 4]),
    (["+"], [0, 1, 2, 3, 4]),
    ([".", "."], [0, 1, 2, 3, 4]),
    ([5], [0, 1, 2, 3, 4]),
    ([6], []),
    (["*", {"name": "b"}], [0, 1, 2, 3, 4]),
    (["*", {"name": "a"}, {"name": "a"}], [0, 1, 2, 3]),
    ([{"name": "b"}, "*"], [4]),
    ([{"name": "b"}, "+"], []),
    ([("*", {"name": "z"})], []),
    ([("*", {"name": "z"}), {"name": "b"}], [4]),
    ([{"name": "a"}, ("*", {"name": "z"}), "*", ("*", {"name": "z"})], [1, 2, 3, 4]),
])
def test_quantifiers_on_a_chain(query, expected):
    assert ids(chain(), query) == expected


def dag():
    # main -> {x, y}; x -> z; y -> z (second parent); z -> w
    return gf_from_edges(["main", "x", "y", "z", "w"], [-1, 0, 0, 1, 3], extra=[(2, 3)])


def by_names(gf, wanted):
    return sorted(int(i) for i in np.flatnonzero(gf.graph.attrs["name"].isin(wanted)))


def test_dag_paths_use_every_parent():
    gf = dag()
    assert not gf.graph.is_forest
    assert ids(gf, [{"name": "y"}, "*", {"name": "w"}]) == by_names(gf, ["y", "z", "w"])
    assert ids(gf, [{"name": "main"}, ".", {"name": "z"}]) == by_names(gf, ["main", "x", "y", "z"])
    assert ids(gf, [{"name": "y"}, {"name": "z"}]) == by_names(gf, ["y", "z"])
    assert ids(gf, [{"name": "x|y"}, "+"]) == by_names(gf, ["x", "y", "z", "w"])
    assert ids(gf, ["*", {"name": "z"}]) == by_names(gf, ["main", "x", "y", "z"])
    assert ids(gf, [{"depth": -1}]) == by_names(gf, ["w"])


def test_cycles_terminate():
    # main -> f -> g -> f (recursion)
    gf = gf_from_edges(["main", "f", "g"], [-1, 0, 1], extra=[(2, 1)])
    f, g = by_names(gf, ["f"])[0], by_names(gf, ["g"])[0]
    assert ids(gf, [{"name": "main"}, "*", {"name": "g"}]) == [0, f, g]
    assert ids(gf, [{"name": "g"}, {"name": "f"}]) == sorted([f, g])
    assert ids(gf, [("+", {"name": "f|g"})]) == sorted([f, g])
    assert ids(gf, [{"name": "g"}, "+", {"name": "main"}]) == []
    assert ids(gf, [{"name": "f"}, "*", {"name": "f"}, "*", {"name": "f"}]) == sorted([f, g])
    assert ids(gf, ["*"]) == [0, 1, 2]


def test_deep_chain_has_no_recursion_limit():
    n = 200_000
    b = ProfileBuilder("deep")
    b.add_nodes(np.arange(-1, n - 1), {"name": np.where(np.arange(n) == n - 1, "leaf", "f")})
    b.add_rows(np.arange(n), {"time": np.ones(n)})
    gf = GraphFrame.from_raw(b.build(exc_metrics=["time"]))
    assert len(ids(gf, [{"name": "f"}, "*", {"name": "leaf"}])) == n
    assert ids(gf, [{"name": "leaf"}, "*"]) == [n - 1]
    assert len(ids(gf, [("*", {"name": "f"}), {"name": "f"}, {"name": "f"}])) == n - 1


def test_comparison_strings_and_nan():
    gf = gf_from_edges(["m", "a", "b", "c"], [-1, 0, 0, 0], times=[1.0, np.nan, 3.0, 5.0])
    node = {gf.graph.frame(i)["name"]: i for i in range(4)}
    assert names(gf, [{"time": "> 2"}]) == ["b", "c"]
    assert names(gf, [{"time": ">=3"}]) == ["b", "c"]
    assert names(gf, [{"time": "<= 3.0"}]) == ["m", "b"]
    assert names(gf, [{"time": "== 5"}]) == ["c"]
    assert names(gf, [{"time": 5}]) == ["c"]
    assert names(gf, [{"time": "!= 5"}]) == ["m", "a", "b"]  # NaN != 5
    assert names(gf, [{"time": "<> 5"}]) == ["m", "a", "b"]  # Hatchet: SyntaxError
    assert names(gf, [{"time": "== np.nan"}]) == ["a"]
    assert names(gf, [{"time": "== nan"}]) == ["a"]
    assert names(gf, [{"time": "!= np.nan"}]) == ["m", "b", "c"]
    # Hatchet answers True for *any* comparison with "np.nan" when the value is NaN
    assert names(gf, [{"time": "< np.nan"}]) == []
    assert names(gf, [{"time": "< inf"}]) == ["m", "b", "c"]
    assert names(gf, [{"time": ["> 1", "< 5"]}]) == ["b"]  # a list is AND
    assert names(gf, [{"time": "> 2", "name": "[a-b]"}]) == ["b"]
    assert names(gf, [{"node_id": node["b"]}]) == ["b"]
    assert names(gf, [{"node_id": "> 1"}]) == [gf.graph.frame(i)["name"] for i in (2, 3)]
    assert names(gf, [{"depth": 1}]) == ["a", "b", "c"]
    assert names(gf, [{"depth": "< 1"}]) == ["m"]


def test_regex_must_match_the_whole_value():
    gf = gf_from_edges(["ab", "a", "b", "abc"], [-1, 0, 0, 0])
    # Hatchet appends \Z to the pattern: "a|b\Z" also matches "ab" and "abc"
    assert names(gf, [{"name": "a|b"}]) == ["a", "b"]
    assert names(gf, [{"name": "ab"}]) == ["ab"]
    assert names(gf, [{"name": "a.*"}]) == ["ab", "a", "abc"]
    assert names(gf, [{("name",): "b"}]) == ["b"]  # a 1-tuple key means the column


def test_missing_columns_and_missing_values():
    gf = gf_from_edges(["m", "a", "b"], [-1, 0, 0])
    df = gf.dataframe.copy()
    df["file"] = pd.Series(["x.c", None, np.nan], index=df.index, dtype=object)
    gf = replaced(gf, dataframe=df)
    # Hatchet: a key that is not a column is false; here it is an error naming it
    with pytest.raises(InvalidQueryFilter, match="no column 'nonexistent'; the columns are"):
        ids(gf, [{"nonexistent": 5}])
    with pytest.raises(InvalidQueryFilter, match="query node 0"):
        ids(gf, [{"nonexistent": "x"}, "*"])
    assert names(gf, [{"file": "x.*"}]) == ["m"]  # None/NaN never match (Hatchet raises)
    assert names(gf, [{"file": ".*"}]) == ["m"]


def test_type_errors():
    gf = spec_tree()
    with pytest.raises(InvalidQueryFilter, match="holds strings"):
        matched_nodes(gf, [{"name": 5}, "*", {"name": "whatever"}])
    with pytest.raises(InvalidQueryFilter, match="holds numbers"):
        matched_nodes(gf, [{"time": "badstring"}])
    with pytest.raises(InvalidQueryFilter, match="must be a regex string"):
        ObjectQuery([{"name": "foo"}, {"list": object()}])
    with pytest.raises(InvalidQueryFilter, match="'depth' is a number"):
        ObjectQuery([{"depth": [1.5j]}])
    with pytest.raises(QuerySyntaxError, match="needs a number after the operator"):
        matched_nodes(gf, [{"time": ">= two"}])


def test_comparison_strings_are_never_evaluated():
    gf = spec_tree()
    evil = "> 0 or __import__('test_query_object').SIDE_EFFECTS.append(1)"
    with pytest.raises(QuerySyntaxError) as err:
        matched_nodes(gf, [{"time": evil}])
    assert err.value.position == 4
    with pytest.raises(QuerySyntaxError):
        matched_nodes(gf, [{"depth": evil}])
    assert SIDE_EFFECTS == []


@pytest.mark.parametrize("bad, message", [
    ([["name", "MPI_.*"], "*"], "a query node is"),
    ([({"bad": "wildcard"}, {"time (inc)": 0.1})], "first value of a tuple"),
    ([(".", {"name": "a"}, 3)], "not 3 items"),
    ([(".", "name")], "second value"),
    ([], "no query nodes"),
    ([0], "at least 1"),
    ([-2, {"name": "a"}], "at least 1"),
    ([True], "a query node is"),
    (["?"], "quantifier"),
    ((".", {"name": "a"}), "not a tuple"),
])
def test_invalid_paths(bad, message):
    with pytest.raises(InvalidQueryPath, match=message):
        matched_nodes(spec_tree(), bad)


def test_callable_predicates():
    gf = spec_tree()
    # called per row, as in Hatchet (see test_query_callables.py)
    assert ids(gf, [(".", lambda row: row["time (inc)"] > 2), {"name": "c"}]) == [1, 2, 5, 6]
    # the row's name is the Node (Hatchet's row.name._depth)
    assert ids(gf, [lambda row: row.name._depth == 2 and row["name"] == "c"]) == [2, 6]
    assert ids(gf, [{"name": "b"}, ("+", lambda row: len(row.name.children) == 0)]) == [1, 2]
    gf2 = gf_from_edges(["m", "a", "b"], [-1, 0, 0], times=[1.0, 2.0, 9.0])
    assert ids(gf2, [lambda row: row["time"] > row["time"].mean()]) == []


def test_query_pattern_predicates_take_single_rows():
    q = ObjectQuery([{"name": "MPI_[_a-zA-Z]*"}, ("+", {"time (inc)": ">= 0.1"}),
                     (3, {"time (inc)": 0.1}), {"name": "ibv[_a-zA-Z]*"}])
    assert [s for s, _ in q.query_pattern] == [".", ".", "*", ".", ".", ".", "."]
    first, plus = q.query_pattern[0][1], q.query_pattern[1][1]
    assert first({"name": "MPI_Bcast"}) and not first({"name": "ibv_reg_mr"})
    assert not first({"time (inc)": 0.1})
    assert plus({"time (inc)": 0.1}) and not plus({"time (inc)": 0.001})
    assert not plus({"name": "MPI_Bcast"})
    assert q.query_pattern[3][1]({"time (inc)": 0.1})
    assert q.query_pattern[1][1] is q.query_pattern[2][1]  # "+" shares one predicate
    series = pd.Series({"name": "MPI_Send", "time (inc)": 3.0})
    assert first(series)


def test_misspelt_column_names_the_column():
    """Issue 33 item 12: ``gf.filter([{"nam": "main"}])`` used to empty the frame."""
    from graphframe.examples import example_graphframe
    gf = example_graphframe()
    with pytest.raises(InvalidQueryFilter) as err:
        gf.filter([{"nam": "main"}], multi_index_mode="any")
    assert str(err.value) == ("query node 0 {'nam': 'main'}: no column 'nam' (did you mean "
                              "'name'?); the columns are 'time', 'name', 'time (inc)'")
    with pytest.raises(InvalidQueryFilter, match=r"no column 'rank' \(it is an index level"):
        gf.filter([{"rank": 0}], multi_index_mode="any")
    with pytest.raises(InvalidQueryFilter, match="did you mean 'time \\(inc\\)'"):
        gf.query([("+", {"tim (inc)": "> 1"})], multi_index_mode="any")
