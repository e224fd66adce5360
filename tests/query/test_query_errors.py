"""Bad queries and queries that do not fit the data: our errors, with where the problem is."""

import sys

import numpy as np
import pandas as pd
import pytest

from graphframe.query import (CypherQuery, InvalidQueryFilter, InvalidQueryPath, ObjectQuery,
                              Query, QueryConditionError, QuerySyntaxError, StringQuery,
                              matched_nodes, parse_cypher_query, parse_string_dialect)
from graphframe.query.parser import MAX_NESTING

from tests.helpers import gf_from_edges, replaced
from test_query_object import spec_tree


def ids(gf, query, mode="off"):
    return matched_nodes(gf, query, multi_index_mode=mode).tolist()


# ------------------------------------------------------------------ nesting
def test_nested_braces_around_queries_have_a_limit():
    text = "{" * 200 + "MATCH (p)" + "}" * 200
    with pytest.raises(QuerySyntaxError, match="nesting too deep") as err:
        parse_string_dialect(text)
    assert err.value.position == MAX_NESTING == 64
    assert (err.value.line, err.value.column) == (1, 65)


def test_nested_braces_in_where_have_a_limit():
    head = 'MATCH (p) WHERE '
    text = head + "{" * 2000 + 'p."time" > 1' + "}" * 2000
    with pytest.raises(QuerySyntaxError, match="nesting too deep") as err:
        parse_string_dialect(text)
    assert err.value.position == len(head) + MAX_NESTING


def test_nesting_up_to_the_limit_works():
    gf = spec_tree()
    deep = "{" * MAX_NESTING + "MATCH (p) WHERE p IS LEAF" + "}" * MAX_NESTING
    assert ids(gf, deep) == [2, 4, 6, 7]
    where = 'MATCH (p) WHERE ' + "{" * MAX_NESTING + 'p."name" = "d"' + "}" * MAX_NESTING
    assert ids(gf, where) == [3]
    # well inside Python's recursion limit, with room for the caller's frames
    assert MAX_NESTING * 6 < sys.getrecursionlimit() // 2


# ----------------------------------------------------- unhashable values
@pytest.fixture
def with_lists():
    gf = gf_from_edges(["m", "a", "b"], [-1, 0, 0])
    df = gf.dataframe.copy()
    df["lst"] = pd.Series([[1, 2], None, [3]], index=df.index, dtype=object)
    return replaced(gf, dataframe=df)


@pytest.mark.parametrize("query", [
    [{"lst": "x"}],
    [{"lst": ">= 1"}],
    [{"name": "a"}, {"lst": 1}],
    'MATCH (p) WHERE p."lst" = "x"',
    'MATCH (p) WHERE p."lst" > 1',
])
def test_columns_of_lists_are_our_error(with_lists, query):
    with pytest.raises(InvalidQueryFilter, match=r"column 'lst' holds a list value \(\[1, 2\]\)"):
        matched_nodes(with_lists, query)


def test_columns_of_lists_still_answer_missing_value_tests(with_lists):
    assert ids(with_lists, 'MATCH (p) WHERE p."lst" IS NONE') == [1]
    assert ids(with_lists, 'MATCH (p) WHERE p."lst" IS NOT NONE') == [0, 2]
    with pytest.raises(InvalidQueryFilter, match="no column 'nope'"):
        ids(with_lists, [{"nope": "x"}])
    assert ids(with_lists, [lambda row: row["lst"] == [3]]) == [2]


# ------------------------------------------------------- not a string
@pytest.mark.parametrize("make", [StringQuery, parse_string_dialect, CypherQuery,
                                  parse_cypher_query])
@pytest.mark.parametrize("value, kind", [(5, "int"), (None, "NoneType"),
                                         (b"MATCH (p)", r"bytes \(decode the bytes first\)")])
def test_string_dialect_needs_a_str(make, value, kind):
    with pytest.raises(InvalidQueryPath, match=f"a string-dialect query is a str, not {kind}"):
        make(value)


def test_object_dialect_needs_a_list():
    with pytest.raises(InvalidQueryPath, match="a list of query nodes, not a NoneType"):
        ObjectQuery(None)


# ---------------------------------------------------- evaluation context
def test_bad_comparison_names_the_query_node_and_the_column():
    gf = spec_tree()
    query = [{"name": "a"}, "*", {"time (inc)": ">= two"}]
    ObjectQuery(query)  # ">= two" is a valid regex: only the data says it is a comparison
    with pytest.raises(QuerySyntaxError) as err:
        matched_nodes(gf, query)
    assert err.value.problem == ("query node 2 {'time (inc)': '>= two'}: column 'time (inc)': "
                                 "a comparison needs a number after the operator")
    assert (err.value.text, err.value.position) == (">= two", 3)
    assert str(err.value).endswith("\n  >= two\n     ^")
    # on a string column the same text is a regex
    named = gf_from_edges(["m", ">= two"], [-1, 0])
    assert ids(named, [{"name": ">= two"}]) == [1]


def test_type_mismatch_in_the_string_dialect_has_a_position():
    gf = spec_tree()
    text = 'MATCH (p)->(q) WHERE p."time" > 0 AND q."name" > 3'
    with pytest.raises(QueryConditionError) as err:
        matched_nodes(gf, text)
    assert isinstance(err.value, InvalidQueryFilter)
    assert err.value.position == text.index("> 3")
    assert (err.value.line, err.value.column) == (1, 48)
    assert str(err.value) == (
        "node 'q': Type mismatch in filter: column 'name' holds strings, but '>' compares "
        "numbers at line 1, column 48\n"
        "  MATCH (p)->(q) WHERE p.\"time\" > 0 AND q.\"name\" > 3\n"
        + "  " + " " * 47 + "^")
    text = 'MATCH (p)\nWHERE p."time" STARTS WITH "1"'
    with pytest.raises(QueryConditionError, match="holds numbers") as err:
        matched_nodes(gf, text)
    assert (err.value.line, err.value.column) == (2, 16)


def test_multi_index_mismatch_names_the_query_node():
    gf = gf_from_edges(["m", "a"], [-1, 0], ranks=2)
    with pytest.raises(InvalidQueryFilter, match=r"^query node 1 \{'time': '> 5'\}: the data"):
        matched_nodes(gf, [".", {"time": "> 5"}])
    with pytest.raises(InvalidQueryFilter, match=r"^node 'q': the data"):
        matched_nodes(gf, 'MATCH (p)->(q) WHERE q."time" > 5')


@pytest.mark.parametrize("build", [
    lambda: ObjectQuery([{"name": "main"}, "*", {"name": "(a"}]),
    lambda: Query().match(".", {"name": "main"}).rel("*").rel(".", {"name": "(a"}),
])
def test_bad_regex_is_refused_when_the_query_is_built(build):
    with pytest.raises(InvalidQueryFilter) as err:
        build()
    assert str(err.value) == ("query node 2: column 'name': bad regular expression '(a': "
                              "missing ), unterminated subpattern at position 0")


def test_neither_regex_nor_comparison_is_refused_when_built():
    with pytest.raises(QuerySyntaxError) as err:
        ObjectQuery([{"time": ">= ("}])
    assert err.value.problem == ("query node 0: column 'time': a comparison needs a number "
                                 "after the operator")
    assert err.value.position == 3
    with pytest.raises(QuerySyntaxError, match="query node 1: a comparison needs a number"):
        ObjectQuery([".", {"depth": "> x"}])


def test_query_nodes_count_quantifier_elements_too():
    gf = spec_tree()
    with pytest.raises(InvalidQueryFilter, match=r"^query node 3 \{'time': 'x'\}: column 'time' "
                                                 "holds numbers"):
        matched_nodes(gf, [{"name": "a"}, "*", 2, {"time": "x"}])
    with pytest.raises(InvalidQueryFilter, match=r"^query node 1 \{'name': 5\}: column 'name' "
                                                 "holds strings"):
        matched_nodes(gf, [{"name": "a"}, {"name": 5}])


def test_errors_keep_their_cause():
    gf = spec_tree()
    with pytest.raises(QuerySyntaxError) as err:
        matched_nodes(gf, [{"time": "> x"}])
    assert isinstance(err.value.__cause__, QuerySyntaxError)
    assert np.array_equal(matched_nodes(gf, [{"time": "> 0"}]), np.arange(8))
