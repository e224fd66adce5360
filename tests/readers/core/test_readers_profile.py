"""RawProfile, ProfileBuilder and ReadError (the neutral contract of readers/)."""

import numpy as np
import pandas as pd
import pytest

import graphframe_readers
from graphframe_readers import ProfileBuilder, ProfileError, RawProfile, ReadError


def small_builder():
    b = ProfileBuilder("mem", index_levels=("rank",))
    a = b.add_node({"name": "a", "type": "function"})
    c = b.add_node({"name": "c", "type": "function"}, parent=a)
    return b, a, c


def test_builder_row_path_builds_a_valid_profile():
    b, a, c = small_builder()
    b.add_row(a, {"time": 1.0}, rank=0)
    b.add_row(c, {"time": 2.0}, rank=1)
    raw = b.build(exc_metrics=["time"], default_metric="time")
    assert raw.num_nodes == 2
    assert raw.frame_columns == ("name", "type")
    assert raw.metrics.to_dict("list") == {"node": [0, 1], "rank": [0, 1], "time": [1.0, 2.0]}
    assert raw.metadata["source"] == "mem"


def test_builder_bulk_path_matches_row_path():
    b = ProfileBuilder("bulk", index_levels=("rank",))
    ids = b.add_nodes([-1, 0, 0], {"name": ["a", "b", "c"]})
    b.add_rows(np.repeat(ids, 2), {"time": np.arange(6.0)}, rank=np.tile([0, 1], 3))
    b.add_edges([1], [2])
    raw = b.build(exc_metrics=["time"])
    assert ids.tolist() == [0, 1, 2]
    assert raw.metrics["time"].tolist() == [0, 1, 2, 3, 4, 5]
    assert raw.edges.to_dict("list") == {"parent": [1], "child": [2]}


def test_integer_attributes_with_gaps_stay_integers():
    b = ProfileBuilder("ints")
    b.add_node({"name": "f", "line": None})
    b.add_node({"name": "g", "line": 12}, parent=0)
    b.add_row(0, {"t": 1.0})
    raw = b.build(exc_metrics=["t"])
    assert raw.nodes["line"].tolist() == [None, 12]
    assert type(raw.nodes["line"].iloc[1]) is int


@pytest.mark.parametrize("mutate, message", [
    (lambda b: b.add_node({"name": "x"}, parent=42), "unknown node id 42"),
    (lambda b: b.add_row(7, {"time": 1.0}), "unknown node id 7"),
    (lambda b: b.add_edge(0, 9), "unknown node id 9"),
    (lambda b: b.add_node({"name": None, "type": None}), "empty frame"),
    (lambda b: (b.add_row(0, {"time": 1.0}), b.add_row(0, {"time": 2.0})), "two metric rows"),
    (lambda b: b.add_node({"name": "dup"}, node_id=0), "used twice"),
])
def test_invalid_tables_raise_profile_error(mutate, message):
    b = ProfileBuilder("bad.prof")
    b.add_node({"name": "a"})
    mutate(b)
    with pytest.raises(ProfileError, match=message) as info:
        b.build(exc_metrics=[])
    assert str(info.value).startswith("bad.prof")


def test_parent_cycle_is_rejected():
    raw = RawProfile(nodes=pd.DataFrame({"node": [0, 1, 2], "parent": [-1, 2, 1],
                                         "name": list("abc")}),
                     metrics=pd.DataFrame({"node": [0]}))
    with pytest.raises(ProfileError, match="forms a cycle"):
        raw.validate("loop.json")


def test_undeclared_metric_and_bad_default_are_rejected():
    nodes = pd.DataFrame({"node": [0], "parent": [-1], "name": ["a"]})
    metrics = pd.DataFrame({"node": [0], "time": [1.0]})
    with pytest.raises(ProfileError, match="declared metric 'cycles'"):
        RawProfile(nodes, metrics, exc_metrics=("cycles",)).validate()
    with pytest.raises(ProfileError, match="default metric"):
        RawProfile(nodes, metrics, exc_metrics=("time",), default_metric="x").validate()
    with pytest.raises(ProfileError, match="no nodes"):
        RawProfile(nodes.iloc[:0], metrics.iloc[:0]).validate()


def test_read_error_message_names_source_position_and_expectation():
    err = ReadError("f.json", "bad thing", position="line 3", expected="a number")
    assert str(err) == "f.json: line 3: bad thing (expected a number)"
    assert isinstance(err, graphframe_readers.GraphframeError) and isinstance(err, ValueError)
