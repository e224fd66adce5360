"""Callable predicates: Hatchet's per-row semantics, the row object, the opt-in vectorised form."""

import numpy as np
import pandas as pd
import pytest

from graphframe import Node
from graphframe.query import (InvalidQueryFilter, MultiIndexModeMismatch, ObjectQuery, Query, Row,
                              matched_nodes, vectorised)

from tests.helpers import gf_from_edges, replaced
from test_query_api import ranked
from test_query_object import spec_tree


def ids(gf, query, mode="off"):
    return matched_nodes(gf, query, multi_index_mode=mode).tolist()


def star(n=100):
    # f0 -> {f1, ..., f99}; ids follow Hatchet's frame order (f1, f10, f11, ..., f2, ...)
    return gf_from_edges([f"f{i}" for i in range(n)], [-1] + [0] * (n - 1),
                         times=[float(i) for i in range(n)])


def node_of(gf, name):
    return int(np.flatnonzero(gf.graph.attrs["name"].to_numpy() == name)[0])


def test_row_name_is_the_node_never_the_name_column():
    gf = star()
    # a whole-table call would read row.name as the "name" column; per row it is the Node
    assert ids(gf, [lambda row: row.name == "f50"]) == []
    assert ids(gf, [lambda row: row.name == "f0"]) == []
    assert ids(gf, [lambda row: row.name.frame["name"] == "f50"]) == [node_of(gf, "f50")]
    assert ids(gf, [lambda row: isinstance(row.name, Node) and row.name == 7]) == [7]
    for i in range(100):
        name = f"f{i}"
        assert ids(gf, [lambda row, name=name: row["name"] == name]) == [node_of(gf, name)]


def test_whole_column_expressions_are_per_row():
    gf = star()
    # per row, row["time"] is one number and its mean is itself: x > 1.5 x never holds
    # for x >= 0 (a whole-table call would compare with the column mean)
    assert ids(gf, [lambda row: row["time"] > row["time"].mean() * 1.5]) == []
    assert ids(gf, [lambda row: row["time"] >= row["time"].mean()]) == list(range(100))
    # the whole-table meaning is available, explicitly
    wanted = sorted(node_of(gf, f"f{i}") for i in range(75, 100))  # time > 1.5 * 49.5
    assert ids(gf, [vectorised(lambda df: df["time"] > df["time"].mean() * 1.5)]) == wanted


def test_called_once_per_row_with_a_row():
    gf = spec_tree()
    seen = []

    def pred(row):
        seen.append((type(row), int(row.name)))
        return row["name"] == "c"

    assert ids(gf, [{"name": "b|e"}, ("*", pred)]) == [1, 2, 5, 6]
    assert seen == [(Row, i) for i in range(8)]


def test_the_row_behaves_like_hatchets_series():
    gf = gf_from_edges(["main", "a", "b"], [-1, 0, 0], times=[1.0, 2.5, np.nan])
    df = gf.dataframe.copy()
    df["calls"] = np.array([3, 4, 5], dtype=np.int64)
    df["file"] = pd.Series(["m.c", None, "b.c"], index=df.index, dtype=object)
    gf = replaced(gf, dataframe=df)
    rows = []
    assert ids(gf, [lambda row: rows.append(row) or True]) == [0, 1, 2]
    for node, row in enumerate(rows):
        series = df.loc[node]
        assert isinstance(row.name, Node) and int(row.name) == node
        assert row.name.frame["name"] == series["name"]
        for column in df.columns:
            got, want = row[column], series[column]
            assert type(got) is type(want), column
            assert got == want or (pd.isna(got) and pd.isna(want)), column
        assert list(row.index) == list(df.columns) == list(row.keys())
        assert len(row) == len(df.columns)
        assert "time" in row and "nope" not in row
        assert row.get("nope", 7) == 7 and row.get("calls") == series["calls"]
        assert row.to_dict().keys() == series.to_dict().keys()
        assert [k for k, _ in row.items()] == list(series.index)
        assert row.loc["name"] == row.name.frame["name"]     # anything else: the real Series
        assert row.calls == series["calls"]
        assert row[["name", "calls"]].tolist() == [series["name"], series["calls"]]
        assert row.series.equals(series) and row.series.name is not None
        assert row.series.name == node
        with pytest.raises(KeyError):
            row["nope"]
    assert bool((rows[0] == rows[0].series).all())     # operators go to the Series


def test_multi_index_callables_still_get_the_node_rows():
    gf = ranked()
    frames = []
    assert ids(gf, [lambda rows: frames.append(rows) or bool((rows["time"] > 5).all())]) == [2, 3]
    assert [len(f) for f in frames] == [2, 2, 2, 2]
    assert all(isinstance(f, pd.DataFrame) and f.index.names == ["node", "rank"] for f in frames)


def test_errors_in_callables_name_the_query_node_and_the_node():
    gf = spec_tree()
    with pytest.raises(InvalidQueryFilter) as err:
        matched_nodes(gf, [{"name": "a"}, "*", lambda row: row["nope"] > 1])
    assert str(err.value) == ("query node 2 <lambda>: the predicate <lambda> raised KeyError: "
                              "'nope' on node 0 (a)")
    assert isinstance(err.value.__cause__.__cause__, KeyError)

    def bad(row):
        return 1 // 0 if row["name"] == "d" else False

    with pytest.raises(InvalidQueryFilter, match=r"query node 0 bad: .*ZeroDivisionError.* "
                                                 r"on node 3 \(d\)"):
        Query().match(".", bad).apply(gf)
    with pytest.raises(InvalidQueryFilter, match="returned a Series whose truth value"):
        matched_nodes(gf, [lambda row: row[["time", "time (inc)"]] > 1])
    with pytest.raises(InvalidQueryFilter, match=r"query node 0 .*on node 0 \(main\)"):
        matched_nodes(ranked(), [lambda rows: rows["time"] > 5])


def test_vectorised_predicates():
    gf = spec_tree()
    calls = []

    def big(df):
        calls.append(df.shape)
        return df["time (inc)"] > 2

    q = ObjectQuery([(".", vectorised(big)), {"name": "c"}])
    assert ids(gf, q) == [1, 2, 5, 6]
    assert calls == [gf.dataframe.shape]                     # one call on the whole table
    assert ids(gf, [vectorised(lambda df: np.asarray(df["name"] == "d"))]) == [3]
    assert ids(gf, [vectorised(lambda df: [None, 1, 0, 0, 0, 0, 0, 1])]) == [1, 7]
    assert ObjectQuery([vectorised(big)]).query_pattern[0][1]({"time (inc)": 3.0})
    # several rows per node: the rows combine by multi_index_mode, like dict conditions
    r = ranked()
    over = vectorised(lambda df: df["time"] > 11)
    assert ids(r, [over], "any") == [1, 2, 3] and ids(r, [over], "all") == [3]
    with pytest.raises(MultiIndexModeMismatch, match="vectorised"):
        matched_nodes(r, [over])


@pytest.mark.parametrize("func, message", [
    (lambda df: df[["time"]] > 1, "returned a DataFrame"),
    (lambda df: (df["time"] > 1).iloc[::-1], "index is not the dataframe's"),
    (lambda df: [True, False], r"one boolean per row \(8\), got a result of shape \(2,\)"),
    (lambda df: df["nope"], r"raised KeyError: 'nope'$"),
])
def test_vectorised_results_are_checked(func, message):
    with pytest.raises(InvalidQueryFilter, match=message):
        matched_nodes(spec_tree(), [vectorised(func)])
    with pytest.raises(InvalidQueryFilter, match="takes a function"):
        vectorised("time > 1")


def test_compiled_predicates_accept_the_row():
    gf = spec_tree()
    by_name = ObjectQuery([{"name": "c|d"}]).query_pattern[0][1]
    leaf = ObjectQuery([{"depth": -1}]).query_pattern[0][1]
    assert ids(gf, [lambda row: by_name(row) and leaf(row)]) == [2, 4, 6]
