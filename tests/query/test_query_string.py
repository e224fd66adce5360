"""String dialect: grammar, every condition, agreement with the object dialect, errors."""

import warnings

import numpy as np
import pandas as pd
import pytest

from graphframe.query import (DisjunctionQuery, ExclusiveDisjunctionQuery, ConjunctionQuery,
                              InvalidQueryFilter, InvalidQueryPath, QuerySyntaxError,
                              RedundantQueryFilterWarning, StringQuery, matched_nodes,
                              parse_string_dialect)

from tests.helpers import gf_from_edges, replaced
from test_query_object import chain, dag, lazy_tree, spec_tree

SIDE_EFFECTS = []


def ids(gf, query, mode="off"):
    return matched_nodes(gf, query, multi_index_mode=mode).tolist()


def names(gf, query, mode="off"):
    return [gf.graph.frame(i)["name"] for i in ids(gf, query, mode)]


# (object dialect, equivalent string dialect, graph, expected ids)
EQUIVALENT = [
    ([{"name": "b"}, ".", {"name": "c"}],
     'MATCH (p)->(".")->(q) WHERE p."name" = "b" AND q."name" = "c"', spec_tree, [1, 3, 4]),
    ([{"name": "a"}, ".", {"name": "c"}],
     'MATCH (p)->(".")->(q) WHERE p."name" = "a" AND q."name" = "c"', spec_tree, [0, 1, 2, 5, 6]),
    ([{"name": "a"}, ("*", {"time (inc)": ">= 2"})],
     'MATCH (p)->("*", q) WHERE p."name" = "a" AND q."time (inc)" >= 2', spec_tree, [0, 1, 3, 5]),
    ([{"depth": -1}], 'MATCH (p) WHERE p."depth" = -1', spec_tree, [2, 4, 6, 7]),
    ([{"depth": -1}], "MATCH (p) WHERE p IS LEAF", spec_tree, [2, 4, 6, 7]),
    ([{"name": "a"}, "*", {"name": "c"}],
     'MATCH (p)->("*")->(q) WHERE p."name" = "a" AND q."name" = "c"', lazy_tree,
     [0, 1, 2, 3, 4, 5]),
    ([{"name": "a"}, "+", {"name": "c"}],
     'MATCH (p)->("+")->(q) WHERE p."name" =~ "a" AND q."name" =~ "c"', lazy_tree,
     [0, 1, 2, 3, 4, 5]),
    ([{"name": "main"}, (3, {"name": "a"}), {"name": "b"}],
     'MATCH (p)->(3, q)->(r) WHERE p."name" = "main" AND q."name" = "a" AND r."name" = "b"',
     chain, [0, 1, 2, 3, 4]),
    ([{"name": "main"}, ("+", {"name": "x"}), {"name": "a"}],
     'MATCH (p)->("+", q)->(r) WHERE p."name" = "main" AND q."name" = "x" AND r."name" = "a"',
     chain, []),
    ([{"name": "main"}, ("*", {"name": "x"}), {"name": "a"}],
     'MATCH (p)->("*", q)->(r) WHERE p."name" = "main" AND q."name" = "x" AND r."name" = "a"',
     chain, [0, 1]),
    (["*", {"name": "b"}], 'MATCH ("*")->(p) WHERE p."name" = "b"', chain, [0, 1, 2, 3, 4]),
    ([{"name": "b"}, "*"], 'MATCH (p)->("*") WHERE p."name" = "b"', chain, [4]),
    ([{"name": "y"}, "*", {"name": "w"}],
     'MATCH (p)->("*")->(q) WHERE p."name" = "y" AND q."name" = "w"', dag, [2, 3, 4]),
    ([{"name": "main"}, ".", {"name": "z"}],
     'MATCH (p)->(".")->(q) WHERE p."name" = "main" AND q."name" = "z"', dag, [0, 1, 2, 4]),
    (["*"], 'MATCH ("*")', chain, [0, 1, 2, 3, 4]),
    ([2], "MATCH (2)", chain, [0, 1, 2, 3, 4]),
]


@pytest.mark.parametrize("obj, text, make, expected", EQUIVALENT)
def test_dialects_agree(obj, text, make, expected):
    gf = make()
    assert ids(gf, obj) == expected
    assert ids(gf, text) == expected
    assert ids(gf, StringQuery(text)) == expected


def test_dag_ids_are_what_the_table_says():
    gf = dag()
    assert gf.graph.attrs["name"].tolist() == ["main", "x", "z", "w", "y"]


@pytest.fixture
def table():
    gf = gf_from_edges(["main", "MPI_Send", "MPI_Recv", "solve", "io"], [-1, 0, 0, 0, 3],
                       times=[1.0, np.nan, 3.0, np.inf, 5.0])
    df = gf.dataframe.copy()
    files = {"main": "a.c", "MPI_Send": None, "MPI_Recv": "b.c", "solve": np.nan, "io": "a.h"}
    df["file"] = pd.Series([files[n] for n in df["name"]], index=df.index, dtype=object)
    return replaced(gf, dataframe=df)


@pytest.mark.parametrize("where, expected", [
    ('p."name" = "solve"', ["solve"]),
    ('p."name" <> "solve"', ["main", "MPI_Recv", "MPI_Send", "io"]),
    ('p."name" != "solve"', ["main", "MPI_Recv", "MPI_Send", "io"]),
    ('p."name" =~ "MPI_.*"', ["MPI_Recv", "MPI_Send"]),
    ('p."name" =~ "MPI"', ["MPI_Recv", "MPI_Send"]),  # anchored at the start (Hatchet)
    ('p."name" =~ "PI"', []),                         # ... and only there
    ('p."name" =~ "MPI_S$"', []),
    ('p."name" =~ "s|i"', ["solve", "io"]),
    ('p."name" STARTS WITH "MPI"', ["MPI_Recv", "MPI_Send"]),
    ('p."name" ENDS WITH "v"', ["MPI_Recv"]),
    ('p."name" CONTAINS "o"', ["solve", "io"]),
    ('p."time" = 3', ["MPI_Recv"]),
    ('p."time" < 3', ["main"]),
    ('p."time" <= 3', ["main", "MPI_Recv"]),
    ('p."time" > 3', ["solve", "io"]),
    ('p."time" >= 3.0', ["MPI_Recv", "solve", "io"]),
    ('p."time" != 3', ["main", "MPI_Send", "solve", "io"]),
    ('p."time" IS NAN', ["MPI_Send"]),
    ('p."time" IS NOT NAN', ["main", "MPI_Recv", "solve", "io"]),
    ('p."time" IS INF', ["solve"]),
    ('p."time" IS NOT INF', ["main", "MPI_Recv", "MPI_Send", "io"]),
    ('p."file" IS NONE', ["MPI_Send", "solve"]),
    ('p."file" IS NOT NONE', ["main", "MPI_Recv", "io"]),
    ('p."file" ENDS WITH ".c"', ["main", "MPI_Recv"]),
    ('p."file" <> "a.c"', ["MPI_Recv", "MPI_Send", "solve", "io"]),
    ('p IS LEAF', ["MPI_Recv", "MPI_Send", "io"]),
    ('p IS NOT LEAF', ["main", "solve"]),
    ('NOT p IS LEAF', ["main", "solve"]),
    ('p."depth" = 1', ["MPI_Recv", "MPI_Send", "solve"]),
    ('p."depth" >= 1 AND p."depth" < 2', ["MPI_Recv", "MPI_Send", "solve"]),
    ('p."node_id" = 0', ["main"]),
    ('p."node_id" > 2', ["solve", "io"]),
    ('p."depth" IS NAN', []),
    ('NOT p."name" STARTS WITH "MPI"', ["main", "solve", "io"]),
    ('p."missing" = 1', []),
    ('p."missing" IS NONE', ["main", "MPI_Recv", "MPI_Send", "solve", "io"]),
    ('NOT p."missing" = "x"', ["main", "MPI_Recv", "MPI_Send", "solve", "io"]),
    # AND binds tighter than OR
    ('p."name" = "io" OR p."name" = "solve" AND p."time" < 0', ["io"]),
    ('p."time" < 2 OR p."time" > 4 AND p IS LEAF', ["main", "io"]),
    ('p."name" STARTS WITH "MPI" AND NOT p."time" IS NAN', ["MPI_Recv"]),
])
def test_conditions(table, where, expected):
    assert names(table, f"MATCH (p) WHERE {where}") == expected


def test_tuple_column_keys():
    gf = gf_from_edges(["m", "a", "b"], [-1, 0, 0], times=[1.0, 2.0, 3.0])
    df = gf.dataframe[["time", "name"]].copy()
    df.columns = pd.MultiIndex.from_tuples([("time", "max"), ("name", "")])
    gf2 = replaced(gf, dataframe=df, exc_metrics=[], inc_metrics=[])
    assert names(gf2, 'MATCH (p) WHERE p.("time", "max") >= 2') == ["a", "b"]
    assert names(gf2, [{("time", "max"): "< 2"}]) == ["m"]


def test_where_is_a_condition_on_the_whole_path():
    gf = spec_tree()
    # an OR across two nodes: paths where either side holds. Hatchet drops the
    # OR between conditions of different nodes and ANDs them (here: nothing,
    # verified with Hatchet 2026.2.0).
    text = 'MATCH (p)->(q) WHERE p."name" = "b" OR q."name" = "f"'
    assert ids(gf, text) == [1, 2, 3, 5, 7]
    assert ids(gf, [{"name": "b"}, "."]) == [1, 2, 3]
    assert ids(gf, [".", {"name": "f"}]) == [5, 7]
    # per node the OR is one predicate, evaluated once
    q = StringQuery('MATCH (p)->(q) WHERE q."name" = "c" OR q."name" = "d"')
    assert len(q.alternatives) == 1 and ids(gf, q) == [1, 2, 3, 4, 5, 6]
    q2 = StringQuery(text)
    assert len(q2.alternatives) == 2 and q2.query_pattern is q2.alternatives[0]


def test_named_nodes_without_conditions_are_fine():
    gf = spec_tree()
    # Hatchet raises a Python SyntaxError for these
    assert ids(gf, 'MATCH (p)->("*", x)->(q) WHERE p."name" = "a" AND q."name" = "d"') == [0, 1, 3]
    assert ids(gf, 'MATCH (p)->(q) WHERE p."name" = "d"') == [3, 4]
    assert ids(gf, "MATCH (p)") == list(range(8))
    # Hatchet crashes on a MATCH without WHERE (AttributeError)
    assert ids(gf, 'MATCH (".")->("+")') == list(range(8))


def test_free_layout():
    gf = spec_tree()
    text = 'MATCH (p)\n  -> ( "." )->(q)\nWHERE p."name" = "b"\n  AND NOT q."name" = "x"'
    assert ids(gf, text) == [1, 3, 4]


@pytest.mark.parametrize("text, position, word", [
    ('match (p)', 0, "MATCH"),
    ('MATCH (p) where p IS LEAF', 10, "WHERE"),
    ('MATCH (p) WHERE p IS LEAF and p."time" > 1', 26, "AND"),
    ('MATCH (p) WHERE not p IS LEAF', 16, "NOT"),
    ('MATCH (p) WHERE p is LEAF', 18, "IS"),
    ('MATCH (p) WHERE p IS leaf', 21, "LEAF"),
    ('MATCH (p) WHERE p."name" starts WITH "a"', 25, "STARTS"),
])
def test_keywords_are_upper_case(text, position, word):
    # Hatchet's grammar matches upper-case keywords only; a lower-case keyword is a name
    with pytest.raises(QuerySyntaxError, match=f"keywords are upper-case: {word}") as err:
        parse_string_dialect(text)
    assert err.value.position == position


def test_lower_case_keywords_are_names():
    gf = spec_tree()
    for name in ("leaf", "none", "inf", "nan", "match", "where", "is", "not", "and", "or",
                 "xor", "with", "contains", "starts", "ends"):
        assert ids(gf, f'MATCH ({name})') == list(range(8)), name
        text = f'MATCH ({name})->("*", x) WHERE {name}."name" = "b" AND x IS LEAF'
        assert ids(gf, text) == [1, 2], name
        assert ids(gf, f'MATCH (".", {name}) WHERE {name} IS NOT LEAF') == [0, 1, 3, 5], name
    assert ids(gf, 'MATCH (p)->(leaf) WHERE p."name" = "d" AND leaf IS LEAF') == [3, 4]
    assert ids(gf, 'MATCH (Leaf) WHERE NOT Leaf IS LEAF') == [0, 1, 3, 5]
    # upper-case keywords are reserved words, not names
    with pytest.raises(QuerySyntaxError, match="unexpected LEAF"):
        parse_string_dialect("MATCH (LEAF)")


def test_string_escapes():
    gf = gf_from_edges(['say "hi"', "a.b", "axb", "it's"], [-1, 0, 0, 0])
    assert names(gf, r'MATCH (p) WHERE p."name" = "say \"hi\""') == ['say "hi"']
    assert names(gf, r"MATCH (p) WHERE p.'name' = 'it\'s'") == ["it's"]
    assert names(gf, r'MATCH (p) WHERE p."name" =~ "a\.b"') == ["a.b"]
    assert names(gf, r'MATCH (p) WHERE p."name" =~ "a\\.b"') == ["a.b"]
    assert names(gf, r'MATCH (p) WHERE p."name" =~ "a.b"') == ["a.b", "axb"]


def test_compound_queries_in_braces():
    gf = spec_tree()
    leaf = 'MATCH (p) WHERE p IS LEAF'
    below_b = 'MATCH (p)->("*", q) WHERE p."name" = "b"'
    union = parse_string_dialect("{" + leaf + "} OR {" + below_b + "}")
    assert isinstance(union, DisjunctionQuery) and ids(gf, union) == [1, 2, 3, 4, 6, 7]
    both = parse_string_dialect("{" + leaf + "} AND {" + below_b + "}")
    assert isinstance(both, ConjunctionQuery) and ids(gf, both) == [2, 4]
    either = parse_string_dialect("{" + leaf + "} XOR {" + below_b + "}")
    assert isinstance(either, ExclusiveDisjunctionQuery) and ids(gf, either) == [1, 3, 6, 7]
    # condition groups sharing one MATCH combine the results of each group
    shared = 'MATCH (p)->(q) WHERE {p."name" = "b"} OR {q."name" = "f"}'
    assert ids(gf, shared) == [1, 2, 3, 5, 7]
    # AND binds tighter than OR (Hatchet: left to right)
    text = "{" + leaf + "} OR {" + below_b + "} AND {MATCH (p) WHERE p.\"name\" = \"d\"}"
    assert ids(gf, text) == [2, 3, 4, 6, 7]
    nested = "{{" + leaf + "} OR {" + below_b + "}} AND {MATCH (p) WHERE p.\"name\" = \"d\"}"
    assert ids(gf, nested) == [3]
    # a single braced query is just that query (Hatchet returns None)
    assert ids(gf, "{" + leaf + "}") == [2, 4, 6, 7]
    # braces inside strings are not groups (Hatchet splits on them)
    assert ids(gf, 'MATCH (p) WHERE p."name" =~ "c{1}"') == [2, 4, 6]
    with pytest.raises(InvalidQueryPath, match="parse_string_dialect"):
        StringQuery("{" + leaf + "} OR {" + below_b + "}")


@pytest.mark.parametrize("text, position, message", [
    ("", 0, "unexpected end of query"),
    ("MATCH", 5, "unexpected end of query"),
    ("MATCH (p", 8, "unexpected end of query"),
    ("MATCH (p))", 9, r"unexpected '\)'"),
    ('MATCH (p)->(q) WHERE r."name" = "a"', 21, "unknown node name 'r'"),
    ('MATCH (p) WHERE p."name" == "a"', 26, "unexpected '='"),
    ('MATCH (p) WHERE p."time" > "a"', 27, "unexpected string 'a'"),
    ('MATCH ("?", p)', 7, "bad quantifier '?'"),
    ("MATCH (0, p)", 7, "bad quantifier 0"),
    ('MATCH (p)->(p)', 12, "the node name 'p' is used twice"),
    ('MATCH (p) WHERE p."name" = "a', 27, "unterminated string"),
    ('MATCH (p) WHERE p."name" =~ "(a"', 28, "bad regular expression"),
    ('MATCH (p) WHERE p."name" = "a" XOR p."name" = "b"', 31, "unexpected XOR"),
    ("MATCH (p) OR {MATCH (q)}", 10, "put each in braces"),
    ('MATCH (p) WHERE p."depth" = "x"', 28, "Type mismatch"),
    ('MATCH (p) WHERE p."name" = "a";', 30, "unexpected character ';'"),
    ("MATCH (p)\nWHERE p.name = 1", 18, "unexpected name 'name'"),
    ('MATCH (p) WHERE p IS NONE', 21, "unexpected NONE"),
    ('{MATCH (p)} OR MATCH (q)', 15, "unexpected MATCH"),
])
def test_syntax_errors_point_at_the_problem(text, position, message):
    with pytest.raises(QuerySyntaxError, match=message) as err:
        parse_string_dialect(text)
    assert err.value.position == position
    assert err.value.text == text
    lines = str(err.value).split("\n")
    assert lines[-1].index("^") - 2 == err.value.column - 1


def test_syntax_error_line_and_column():
    with pytest.raises(QuerySyntaxError) as err:
        parse_string_dialect("MATCH (p)\nWHERE p.name = 1")
    assert (err.value.line, err.value.column) == (2, 9)
    assert str(err.value) == ("unexpected name 'name' at line 2, column 9 (expected a quoted "
                              'column name such as "time (inc)", a tuple of names)\n'
                              "  WHERE p.name = 1\n          ^")


@pytest.mark.parametrize("text", [
    'MATCH (p) WHERE p."name" = "a" or __import__("test_query_string").SIDE_EFFECTS.append(1)',
    '__import__("test_query_string").SIDE_EFFECTS.append(1)',
    'MATCH (p) WHERE p."name" = "a" and (lambda: __import__("os"))()',
    'MATCH (p) WHERE p."time" > 1 if True else exec("SIDE_EFFECTS.append(1)")',
    'MATCH (p) WHERE p."name" = "a"\nimport os',
    'MATCH (p) WHERE p."name".__class__ = "str"',
])
def test_python_code_is_a_syntax_error(text):
    with pytest.raises(QuerySyntaxError):
        matched_nodes(spec_tree(), text)
    assert SIDE_EFFECTS == []


def test_quotes_in_values_cannot_break_out():
    gf = spec_tree()
    text = 'MATCH (p) WHERE p."name" = "\\"); SIDE_EFFECTS.append(1); (\\""'
    assert ids(gf, text) == []
    text = 'MATCH (p) WHERE p."name" =~ ".*\\" or SIDE_EFFECTS.append(1) or \\""'
    assert ids(gf, text) == []
    assert SIDE_EFFECTS == []


def test_type_mismatch_at_evaluation():
    gf = spec_tree()
    with pytest.raises(InvalidQueryFilter, match="Type mismatch.*holds strings"):
        matched_nodes(gf, 'MATCH (p) WHERE p."name" > 5')
    with pytest.raises(InvalidQueryFilter, match="Type mismatch.*holds numbers"):
        matched_nodes(gf, 'MATCH (p) WHERE p."time" = "x"')
    with pytest.raises(InvalidQueryFilter, match="Type mismatch.*holds numbers"):
        matched_nodes(gf, 'MATCH (p) WHERE p."time" STARTS WITH "1"')


def test_redundant_conditions_warn():
    gf = spec_tree()
    with pytest.warns(RedundantQueryFilterWarning, match="never negative"):
        assert ids(gf, 'MATCH (p) WHERE p."depth" < 0') == []
    with pytest.warns(RedundantQueryFilterWarning):
        assert ids(gf, 'MATCH (p) WHERE p."node_id" = -3') == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ids(gf, 'MATCH (p) WHERE p."depth" > -1') == list(range(8))
        assert ids(gf, 'MATCH (p) WHERE p."depth" = -1') == [2, 4, 6, 7]


# dag(): main0 -> {x1, y4}; x1 -> z2; y4 -> z2 (z has two parents); z2 -> w3
# downward paths from main: main-x-z-w and main-y-z-w
@pytest.mark.parametrize("text, expected", [
    # "+": one or more nodes satisfying the node's conditions
    ('MATCH ("+", p) WHERE p."name" =~ "x|z"', [1, 2]),
    ('MATCH (p)->("+")->(q) WHERE p."name" = "main" AND q."name" = "w"', [0, 1, 2, 3, 4]),
    ('MATCH (p)->("+", q) WHERE p."name" = "y" AND q."name" =~ "z|w"', [2, 3, 4]),
    ('MATCH (p)->("+", q) WHERE p."name" = "main" AND q."name" =~ "y|z"', [0, 2, 4]),
    ('MATCH ("+", p)->(q) WHERE p."name" =~ "[xy]" AND q."name" = "z"', [1, 2, 4]),
    ('MATCH (p)->("+", q) WHERE p."name" = "w" AND q."name" = "w"', []),
    ('MATCH (p)->("+") WHERE p."name" = "z"', [2, 3]),
    ('MATCH (p)->("+") WHERE p."name" = "w"', []),
    # counts: exactly k nodes
    ('MATCH (p)->(2)->(q) WHERE p."name" = "main" AND q."name" = "w"', [0, 1, 2, 3, 4]),
    ('MATCH (p)->(2) WHERE p."name" = "main"', [0, 1, 2, 4]),
    ('MATCH (p)->(1)->(q) WHERE p."name" = "y" AND q."name" = "w"', [2, 3, 4]),
    ('MATCH (p)->(3)->(q) WHERE p."name" = "main" AND q."name" = "w"', []),
    ('MATCH (3, p) WHERE p."name" =~ "main|y|z"', [0, 2, 4]),
    ('MATCH (2, p)->(q) WHERE p."name" =~ "x|z" AND q IS LEAF', [1, 2, 3]),
    ('MATCH (p)->(2, q) WHERE p."name" = "main" AND q."name" =~ "x|y"', []),
    ("MATCH (4)", [0, 1, 2, 3, 4]),
    ("MATCH (5)", []),
])
def test_plus_and_counts_on_a_dag(text, expected):
    gf = dag()
    assert gf.graph.attrs["name"].tolist() == ["main", "x", "z", "w", "y"]
    assert ids(gf, text) == expected


def test_plus_and_counts_through_a_cycle():
    # main0 -> f1 -> g2 -> f1 (recursion)
    gf = gf_from_edges(["main", "f", "g"], [-1, 0, 1], extra=[(2, 1)])
    assert gf.graph.attrs["name"].tolist() == ["main", "f", "g"]
    assert ids(gf, 'MATCH (p)->("+", q) WHERE p."name" = "main" AND q."name" =~ "f|g"') == [0, 1, 2]
    assert ids(gf, 'MATCH (p)->(3)->(q) WHERE p."name" = "main" AND q."name" = "g"') == [0, 1, 2]
    assert ids(gf, 'MATCH (p)->(2)->(q) WHERE p."name" = "main" AND q."name" = "g"') == []
    assert ids(gf, 'MATCH ("+", p)->(q) WHERE p."name" = "g" AND q."name" = "main"') == []
