"""Literal metric types and the node dicts to_literal writes, as Hatchet 2026.2.0 has them."""

import json

import numpy as np
import pytest

from graphframe import GraphFrame, ReadError
from graphframe.errors import MetricError


def three(m1, m2, m3):
    """main -> a, b with the given metrics dicts."""
    return [{"frame": {"name": "main", "type": "function"}, "metrics": m1,
             "children": [{"frame": {"name": "a", "type": "function"}, "metrics": m2},
                          {"frame": {"name": "b", "type": "function"}, "metrics": m3}]}]


# (metrics of main, a, b) -> dtype of "c" and its values (Hatchet's, from pandas' inference)
TYPES = {
    "int": (({"c": 1}, {"c": 2}, {"c": 3}), "int64", [1, 2, 3]),
    "int and float": (({"c": 1}, {"c": 2.5}, {"c": 3}), "float64", [1.0, 2.5, 3.0]),
    "int and integral float": (({"c": 1}, {"c": 2.0}, {"c": 3}), "float64", [1.0, 2.0, 3.0]),
    "int and missing": (({"c": 1}, {}, {"c": 3}), "float64", [1.0, None, 3.0]),
    "int and null": (({"c": 1}, {"c": None}, {"c": 3}), "float64", [1.0, None, 3.0]),
    "beyond int64": (({"c": 1}, {"c": 2 ** 63}, {"c": 3}), "uint64", [1, 2 ** 63, 3]),
    "bool": (({"c": True}, {"c": False}, {"c": True}), "bool", [True, False, True]),
}


@pytest.mark.parametrize("case", sorted(TYPES))
def test_metric_types_follow_hatchet(case):
    metrics, dtype, values = TYPES[case]
    gf = GraphFrame.from_literal(three(*metrics))
    assert str(gf.dataframe["c"].dtype) == dtype
    got = [None if isinstance(v, float) and np.isnan(v) else v
           for v in gf.dataframe["c"].tolist()]
    assert got == values
    assert gf.exc_metrics == ["c"]


def test_the_audit_example_keeps_int64_through_inclusive_sums_and_to_literal():
    gf = GraphFrame.from_literal([{"frame": {"name": "m"}, "metrics": {"count": 3, "time": 1.5},
                                   "children": [{"frame": {"name": "x"},
                                                 "metrics": {"count": 4, "time": 0.5}}]}])
    df = gf.dataframe
    assert (df["count"].dtype, df["time"].dtype) == (np.dtype("int64"), np.dtype("float64"))
    gf.update_inclusive_columns()
    assert gf.dataframe["count (inc)"].dtype == np.int64
    assert gf.dataframe["count (inc)"].tolist() == [7, 4]
    out = gf.to_literal()
    assert out[0]["metrics"] == {"count": 3, "time": 1.5, "count (inc)": 7, "time (inc)": 2.0,
                                 "_hatchet_nid": 0}
    assert type(out[0]["metrics"]["count"]) is int
    # the JSON reader and the literal reader agree
    back = GraphFrame.from_json(gf.to_json())
    assert back.dataframe["count"].dtype == np.int64
    again = GraphFrame.from_literal(json.loads(json.dumps(out)))
    assert again.dataframe["count (inc)"].dtype == np.int64
    assert again.dataframe.equals(gf.dataframe)


def test_bool_metric_sums_to_a_count():
    gf = GraphFrame.from_literal(three({"t": 1.0, "flag": True}, {"t": 2.0, "flag": False},
                                       {"t": 3.0, "flag": True}))
    assert gf.dataframe["flag"].dtype == bool and gf.exc_metrics == ["t", "flag"]
    gf.update_inclusive_columns()
    # Hatchet: an object column [np.int64(2), False, True]; here the same numbers as int64
    assert gf.dataframe["flag (inc)"].dtype == np.int64
    assert gf.dataframe["flag (inc)"].tolist() == [2, 0, 1]
    assert gf.to_literal()[0]["metrics"]["flag"] is True


def test_inclusive_columns_of_integers_with_missing_rows():
    gf = GraphFrame.from_literal(three({"c": 1}, {"c": 2}, {"c": 3}))
    gf.update_inclusive_columns()
    assert gf.dataframe["c (inc)"].tolist() == [6, 2, 3]
    big = GraphFrame.from_literal(three({"c": 1}, {"c": 2 ** 63}, {"c": 3}))
    big.update_inclusive_columns()
    assert big.dataframe["c (inc)"].dtype == np.uint64
    assert big.dataframe["c (inc)"].tolist() == [2 ** 63 + 4, 2 ** 63, 3]
    # squash recomputes inclusive columns: still integers
    kept = gf.filter(lambda row: row["name"] != "a", squash=True)
    assert kept.dataframe["c"].dtype == np.int64 and kept.dataframe["c (inc)"].tolist() == [4, 3]
    exc = GraphFrame.from_literal(three({"c (inc)": 6}, {"c (inc)": 2}, {"c (inc)": 3}))
    exc.generate_exclusive_columns()
    assert exc.dataframe["c"].dtype == np.int64 and exc.dataframe["c"].tolist() == [1, 2, 3]


def test_arithmetic_on_one_graph_keeps_integers():
    gf = GraphFrame.from_literal(three({"c": 7, "t": 1.5}, {"c": 6, "t": 1.0}, {"c": 3, "t": 2.0}))
    same = gf.copy()
    assert (gf + same).dataframe["c"].tolist() == [14, 12, 6]
    assert (gf + same).dataframe["c"].dtype == np.int64
    assert (gf - same).dataframe["c"].dtype == np.int64
    assert (gf * same).dataframe["c"].tolist() == [49, 36, 9]
    assert (gf / same).dataframe["c"].dtype == np.int64  # whole quotients: pandas keeps int64
    half = GraphFrame.from_literal(three({"c": 2, "t": 1.5}, {"c": 4, "t": 1.0},
                                         {"c": 2, "t": 2.0}))
    # two graphs are unified first: Hatchet's rows then become float64, as here
    assert (gf / half).dataframe["c"].dtype == np.float64
    assert (gf / half).dataframe["c"].tolist() == [3.5, 1.5, 1.5]
    gf += same
    assert gf.dataframe["c"].dtype == np.int64 and gf.dataframe["c"].tolist() == [14, 12, 6]


@pytest.mark.parametrize("metrics, where, what", [
    (({"c": True}, {"c": 2}, {"c": 3}), r"\[0\].children\[0\]",
     r"'c' is a number here and a boolean at \[0\]"),
    (({"c": 1.5}, {"c": False}, {"c": 3}), r"\[0\].children\[0\]",
     r"'c' is a boolean here and a number at \[0\]"),
    (({"c": True}, {}, {"c": False}), r"\[0\].children\[0\]",
     r"'c' is a boolean at \[0\] but this node has no value"),
    (({"c": True}, {"c": False}, {"c": None}), r"\[0\].children\[1\]",
     "this node has no value"),
    (({"c": 1}, {"c": 2 ** 64}, {"c": 3}), r"\[0\].children\[0\]", "needs more than 64 bits"),
    (({"c": -1}, {"c": 2 ** 63}, {"c": 3}), r"\[0\].children\[0\]",
     r"larger than 2\*\*63 - 1 here and negative at \[0\]"),
    (({"c": [1]}, {"c": 2}, {"c": 3}), r"\[0\].children\[0\]",
     r"'c' is a number here and an object at \[0\]"),
])
def test_values_without_a_column_type_are_located_errors(metrics, where, what):
    with pytest.raises(ReadError, match=what) as info:
        GraphFrame.from_literal(three(*metrics))
    assert __import__("re").fullmatch(where, info.value.position)
    assert info.value.source == "<literal>"


# ---------------------------------------------------------------- node dicts
def test_to_literal_writes_hatchets_keys():
    gf = GraphFrame.from_literal(three({"t": 1.0, "module": "main"}, {"t": 2.0, "module": "a"},
                                       {"t": 3.0, "module": "b"}))
    out = gf.to_literal()
    assert list(out[0]) == ["name", "frame", "metrics", "attributes", "children"]
    assert out[0]["attributes"] == {} and out[0]["name"] == "main"
    assert list(out[0]["children"][0]) == ["name", "frame", "metrics", "attributes"]
    assert [c["metrics"]["_hatchet_nid"] for c in out[0]["children"]] == [1, 2]
    with_cats = gf.to_literal(cat_columns=["module", "name", "nothing"])
    assert with_cats[0]["attributes"] == {"module": "main", "name": "main"}  # sorted
    # the display name comes from the column `name` names
    assert gf.to_literal(name="module")[0]["children"][1]["name"] == "b"
    with pytest.raises(MetricError, match="name='modul' is not a column"):
        gf.to_literal(name="modul")
    # our reader takes it back: attributes repeating the name or a metric are skipped
    back = GraphFrame.from_literal(with_cats)
    assert list(back.dataframe.columns) == ["name", "t", "module"]
    assert back.dataframe["module"].tolist() == ["main", "a", "b"]
    assert GraphFrame.from_literal(out).dataframe[["name", "t"]].equals(gf.dataframe[["name", "t"]])
    without = gf.to_literal(include_nid=False)
    assert "_hatchet_nid" not in without[0]["metrics"]


def test_attribute_that_contradicts_a_metric_is_an_error():
    lit = [{"frame": {"name": "a"}, "metrics": {"t": 1.0}, "attributes": {"t": 2.0}}]
    with pytest.raises(ReadError, match="attribute 't' is also a metric, with another value"):
        GraphFrame.from_literal(lit)
    lit[0]["attributes"] = {"t": 1.0, "name": "a"}
    assert list(GraphFrame.from_literal(lit).dataframe.columns) == ["name", "t"]


# ------------------------------------------------------------ side by side
@pytest.fixture(scope="module")
def hatchet():
    return pytest.importorskip("hatchet", reason="the side-by-side checks run Hatchet "
                               "2026.2.0 (the bench extra, pandas 2)")


@pytest.mark.parametrize("case", sorted(TYPES))
def test_types_as_hatchet(hatchet, case):
    metrics = three(*TYPES[case][0])
    theirs = hatchet.GraphFrame.from_literal(json.loads(json.dumps(metrics)))
    ours = GraphFrame.from_literal(metrics)
    assert ours.dataframe["c"].dtype == theirs.dataframe["c"].dtype
    if case != "bool":  # Hatchet sums booleans into an object column
        theirs.update_inclusive_columns()
        ours.update_inclusive_columns()
        assert ours.dataframe["c (inc)"].dtype == theirs.dataframe["c (inc)"].dtype
        np.testing.assert_array_equal(ours.dataframe["c (inc)"].to_numpy(),
                                      theirs.dataframe["c (inc)"].to_numpy())


def test_node_dicts_as_hatchet(hatchet, shared_data):
    text = (shared_data / "literal" / "hatchet_dag_literal1.json").read_text()
    theirs = hatchet.GraphFrame.from_literal(json.loads(text)).to_literal(cat_columns=["name"])
    ours = GraphFrame.from_literal(json.loads(text)).to_literal(cat_columns=["name"])

    def nodes(lit):
        out, stack = [], list(reversed(lit))
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.get("children", [])))
        return {n["metrics"]["_hatchet_nid"]: n for n in out}

    theirs, ours = nodes(theirs), nodes(ours)
    assert sorted(theirs) == sorted(ours)
    for nid, node in theirs.items():
        mine = ours[nid]
        assert list(mine) == list(node)
        assert mine["name"] == node["name"] and mine["attributes"] == node["attributes"]
        assert mine["metrics"] == {k: v.item() if hasattr(v, "item") else v
                                   for k, v in node["metrics"].items()}
