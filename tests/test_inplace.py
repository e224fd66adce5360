"""Hatchet's in-place methods (issue 14 item 1; STYLE rule 3).

Each changes the GraphFrame it is called on by rebinding its fields, returns
None, and never writes into a frame another object holds; ``inplace=False``
gives the value-returning form and leaves the object alone.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from graphframe import GraphFrame
from graphframe.errors import ArgumentError, GraphMismatchError, OperationError

from helpers import by_name, gf_from_edges, replaced


def ranked() -> GraphFrame:
    return gf_from_edges(["main", "solve", "io"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)


def exclusive_only() -> GraphFrame:
    gf = gf_from_edges(["main", "solve", "mpi"], [-1, 0, 1], [1.0, 2.0, 4.0])
    return replaced(gf, dataframe=gf.dataframe[["name", "time"]], inc_metrics=[],
                    inclusive_of={})


CALLS = {
    "update_inclusive_columns": lambda gf, **kw: gf.update_inclusive_columns(**kw),
    "generate_exclusive_columns": lambda gf, **kw: gf.generate_exclusive_columns(**kw),
    "subtree_sum": lambda gf, **kw: gf.subtree_sum(["time"], ["total"], **kw),
    "subgraph_sum": lambda gf, **kw: gf.subgraph_sum(["time"], ["total"], **kw),
    "drop_index_levels": lambda gf, **kw: gf.drop_index_levels(np.max, **kw),
}


def input_for(method: str) -> GraphFrame:
    if method == "update_inclusive_columns":
        return exclusive_only()
    if method == "generate_exclusive_columns":
        gf = ranked()
        return replaced(gf, dataframe=gf.dataframe[["name", "time (inc)"]], exc_metrics=[],
                        inclusive_of={})
    return ranked()


@pytest.mark.parametrize("method", sorted(CALLS))
def test_in_place_form_returns_none_and_equals_the_value_form(method):
    gf = input_for(method)
    alias = gf
    old_frame = gf.dataframe
    snapshot = old_frame.copy()
    expected = CALLS[method](input_for(method), inplace=False)
    assert CALLS[method](gf) is None
    assert alias is gf
    pd.testing.assert_frame_equal(gf.dataframe, expected.dataframe)
    assert (gf.exc_metrics, gf.inc_metrics, gf.inclusive_of, gf.graph) == (
        expected.exc_metrics, expected.inc_metrics, expected.inclusive_of, expected.graph)
    assert gf.dataframe is not old_frame
    pd.testing.assert_frame_equal(old_frame, snapshot)  # the old frame was never written


@pytest.mark.parametrize("method", sorted(CALLS))
def test_value_form_leaves_the_object_alone(method):
    gf = input_for(method)
    snapshot = gf.dataframe.copy()
    out = CALLS[method](gf, inplace=False)
    assert isinstance(out, GraphFrame) and out is not gf
    pd.testing.assert_frame_equal(gf.dataframe, snapshot)


@pytest.mark.parametrize("method", sorted(CALLS))
def test_in_place_on_a_copy_leaves_the_original_alone(method):
    original = input_for(method)
    snapshot = original.dataframe.copy()
    metrics = (list(original.exc_metrics), list(original.inc_metrics))
    copy = original.copy()
    CALLS[method](copy)
    pd.testing.assert_frame_equal(original.dataframe, snapshot)
    assert (original.exc_metrics, original.inc_metrics) == metrics


@pytest.mark.parametrize("bad", ["no", 1, None])
def test_inplace_must_be_a_bool(bad):
    gf = ranked()
    with pytest.raises(ArgumentError, match="inplace must be True or False"):
        gf.drop_index_levels(inplace=bad)
    with pytest.raises(ArgumentError, match="inplace must be True or False"):
        gf.unify(gf.copy(), inplace=bad)


def test_drop_index_levels_in_place_as_in_the_tutorials():
    gf = ranked()
    gf.drop_index_levels()
    assert list(gf.dataframe.index.names) == ["node"]
    assert by_name(gf) == {"main": 6.0, "io": 8.0, "solve": 7.0}  # mean of ranks 0 and 1


def test_update_inclusive_columns_in_place_creates_the_partner():
    gf = exclusive_only()
    gf.update_inclusive_columns()
    assert gf.inc_metrics == ["time (inc)"] and gf.inclusive_of == {"time": "time (inc)"}
    assert by_name(gf, "time (inc)") == {"main": 7.0, "solve": 6.0, "mpi": 4.0}


def test_unify_changes_both_operands_and_shares_the_graph():
    a = gf_from_edges(["main", "solve"], [-1, 0], [1.0, 2.0])
    b = gf_from_edges(["main", "io"], [-1, 0], [3.0, 4.0])
    a_frame, b_frame = a.dataframe, b.dataframe
    a_before, b_before = a_frame.copy(), b_frame.copy()
    assert a.unify(b) is None
    assert a.graph is b.graph and len(a.graph) == 3
    assert dict(zip(a.dataframe["name"], a.dataframe["_missing_node"])) == {
        "main": 0, "io": 2, "solve": 1}
    assert sorted(b.dataframe["name"]) == ["io", "main"]
    assert by_name(b) == {"main": 3.0, "io": 4.0}
    pd.testing.assert_frame_equal(a_frame, a_before)
    pd.testing.assert_frame_equal(b_frame, b_before)


def test_unify_in_place_of_equal_but_distinct_graphs_shares_one_graph():
    a = gf_from_edges(["main", "solve"], [-1, 0])
    b = gf_from_edges(["main", "solve"], [-1, 0])
    assert a.graph is not b.graph
    a.unify(b)
    assert a.graph is b.graph
    assert "_missing_node" not in a.dataframe.columns


def test_unify_in_place_with_the_same_graph_is_a_no_op_without_copies():
    a = gf_from_edges(["main", "solve"], [-1, 0])
    b = a.copy()
    frames = (a.dataframe, b.dataframe)
    a.unify(b)
    assert a.dataframe is frames[0] and b.dataframe is frames[1]


def test_unify_value_form_returns_the_pair_and_changes_nothing():
    a = gf_from_edges(["main", "solve"], [-1, 0])
    b = gf_from_edges(["main", "io"], [-1, 0])
    graphs = (a.graph, b.graph)
    ua, ub = a.unify(b, inplace=False)
    assert ua.graph is ub.graph and (a.graph, b.graph) == graphs
    assert "_missing_node" not in a.dataframe.columns


def test_unify_errors_leave_both_operands_unchanged():
    a = gf_from_edges(["main", "solve"], [-1, 0])
    b = gf_from_edges(["main", "solve"], [-1, 0], ranks=2)
    frames = (a.dataframe, b.dataframe)
    with pytest.raises(GraphMismatchError):
        a.unify(b)
    with pytest.raises(OperationError, match="needs a GraphFrame"):
        a.unify(None)
    assert (a.dataframe is frames[0]) and (b.dataframe is frames[1])


@pytest.mark.parametrize("op, expected", [("+=", 11.0), ("-=", -9.0), ("*=", 10.0),
                                          ("/=", 0.1)])
def test_augmented_operators_change_the_object(op, expected):
    left = gf_from_edges(["a", "b"], [-1, 0], [1.0, 1.0])
    right = gf_from_edges(["a", "c"], [-1, 0], [10.0, 10.0])
    alias, old_frame = left, left.dataframe
    right_frame = right.dataframe.copy()
    namespace = {"left": left, "right": right}
    exec(f"left {op} right", namespace)
    assert namespace["left"] is alias
    assert len(alias.graph) == 3 and by_name(alias)["a"] == pytest.approx(expected)
    assert old_frame["time"].tolist() == [1.0, 1.0]
    pd.testing.assert_frame_equal(right.dataframe, right_frame)


def test_augmented_operator_on_a_copy_never_writes_the_source():
    base = gf_from_edges(["a", "b"], [-1, 0], [1.0, 1.0])
    twice = base.copy()
    twice += base
    assert twice.dataframe["time"].tolist() == [2.0, 2.0]
    assert base.dataframe["time"].tolist() == [1.0, 1.0]
    assert twice.graph is base.graph


def test_augmented_operator_with_a_non_graphframe_is_a_type_error():
    gf = gf_from_edges(["a"], [-1])
    with pytest.raises(TypeError):
        gf += 5


def test_in_place_rebinds_every_field_of_the_new_object():
    """A field added to GraphFrame is rebound by the in-place methods too."""
    gf = ranked()
    new = gf.drop_index_levels(inplace=False)
    new.extra_field = object()
    gf._rebind(new)
    for name, value in vars(new).items():
        if name == "metadata":
            assert gf.metadata == value
        else:
            assert getattr(gf, name) is value, name
