"""Every GraphFrame's dataframe is the user's: assignment works and never reaches
another GraphFrame, a RawProfile or a reader's buffers."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import graphframe
import graphframe_readers
from graphframe import GraphFrame, load
from graphframe.errors import PoorMatchWarning
from graphframe.examples import example_graphframe
from tests.corpus import SHARED_DATA
from tests.helpers import gf_from_edges
from tests.corpus import corpus_inputs

LIT = [{"frame": {"name": "a"}, "metrics": {"time": 1.0, "time (inc)": 3.0}, "children": [
    {"frame": {"name": "b"}, "metrics": {"time": 2.0, "time (inc)": 2.0}}]}]


def assign_everywhere(gf):
    """Write a value into every numeric column (by label and by position)."""
    df = gf.dataframe
    first = df.index[0]
    for col in df.columns:
        if pd.api.types.is_numeric_dtype(df[col]) and not pd.api.types.is_bool_dtype(df[col]):
            df.loc[first, col] = 42
            assert df.loc[first, col] == 42
    df.iloc[-1, 0] = df.iloc[-1, 0]
    df["new"] = 1.0


def snapshot(gf):
    return gf.dataframe.copy(deep=True)


def check_independent(result, *inputs):
    """Writing into ``result`` works and leaves ``inputs`` unchanged."""
    before = [snapshot(g) for g in inputs]
    assign_everywhere(result)
    for g, b in zip(inputs, before):
        pd.testing.assert_frame_equal(g.dataframe, b)


def test_from_literal_frames_are_writable():
    gf = GraphFrame.from_literal(LIT)
    gf.dataframe.loc[0, "time"] = 3.0
    assert gf.dataframe["time"].tolist() == [3.0, 2.0]
    assign_everywhere(GraphFrame.from_literal(LIT).copy())
    assign_everywhere(GraphFrame.from_literal(LIT).update_inclusive_columns(inplace=False))


def test_from_raw_never_writes_into_the_raw_profile():
    b = graphframe_readers.ProfileBuilder("t")
    n = b.add_node({"name": "main"})
    b.add_row(n, {"time": 1.0})
    raw = b.build(exc_metrics=["time"])
    gf = GraphFrame.from_raw(raw)
    gf.dataframe.loc[0, "time"] = 9.0
    assert raw.metrics["time"].tolist() == [1.0]
    assert GraphFrame.from_raw(raw).dataframe["time"].tolist() == [1.0]


def test_read_only_reader_arrays_are_copied():
    # a reader may hand over np.frombuffer views (read-only, over bytes)
    ro = np.frombuffer(np.array([1.0, 2.0]).tobytes())
    raw = graphframe_readers.RawProfile(
        nodes=pd.DataFrame({"node": [0, 1], "parent": [-1, 0], "name": ["a", "b"]}),
        metrics=pd.DataFrame({"node": [0, 1], "time": ro}, copy=False),
        exc_metrics=("time",))
    gf = GraphFrame.from_raw(raw.validate())
    gf.dataframe.loc[1, "time"] = 5.0
    assert gf.dataframe["time"].tolist() == [1.0, 5.0]


def test_constructors_and_operations_give_writable_independent_frames(tmp_path):
    base = gf_from_edges(["main", "a", "b", "c"], [-1, 0, 0, 1], ranks=2)
    other = gf_from_edges(["main", "a", "d"], [-1, 0, 0], ranks=2)
    check_independent(GraphFrame.from_lists(("a", "b")))
    check_independent(example_graphframe())
    check_independent(GraphFrame.from_json(base.to_json()))
    check_independent(load(base.save(tmp_path / "b.gfz")))
    check_independent(base.copy(), base)
    check_independent(base.deepcopy(), base)
    check_independent(base.update_inclusive_columns(inplace=False), base)
    check_independent(base.generate_exclusive_columns(inplace=False), base)
    check_independent(base.subtree_sum(["time"], ["total"], inplace=False), base)
    check_independent(base.filter(base.dataframe["time"] > 0), base)
    check_independent(base.filter(base.dataframe["time"] > 10, squash=False), base)
    check_independent(base.squash(), base)
    left, right = base.unify(other, inplace=False)
    check_independent(left, base, other)
    check_independent(right, base, other)
    check_independent(base + other, base, other)
    check_independent(base.sub(other, fill_value=0), base, other)
    check_independent(base.drop_index_levels(inplace=False), base)
    check_independent(base.drop_index_levels(inplace=False).drop_index_levels(inplace=False), base)
    check_independent(base.groupby_aggregate("name", "sum"), base)
    with pytest.warns(PoorMatchWarning, match="share 2 of 5 nodes"):
        changes = graphframe.diff(base, other)
    check_independent(changes, base, other)


def _one_file_per_format():
    if not SHARED_DATA.is_dir():
        return []
    seen = {}
    for rel in corpus_inputs():
        fmt = graphframe_readers.sniff(SHARED_DATA / rel)
        if fmt not in seen and not rel.endswith("py2.pstats"):
            seen[fmt] = rel
    return sorted(seen.values())


@pytest.mark.parametrize("rel", _one_file_per_format())
def test_frames_read_from_files_are_writable(rel):
    gf = graphframe.read(SHARED_DATA / rel)
    check_independent(gf)
    again = graphframe.read(SHARED_DATA / rel)
    check_independent(again.update_inclusive_columns(inplace=False) if again.exc_metrics else again.copy(),
                      again)


def test_read_literal_file_is_writable(tmp_path):
    p = tmp_path / "lit.json"
    p.write_text(json.dumps(LIT))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_independent(graphframe.read(p))
