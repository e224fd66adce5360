"""remap_rows merging rows whose nodes map together: the reduceat path against
pandas' groupby (sum with min_count=1, min, max, mean, first) that defines the rule."""

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from graphframe.ops.rows import merge_duplicate_rows, remap_rows
from tests.strategies import SETTINGS


def reference(df, new_of_old, rules):
    node = new_of_old[df.index.get_level_values("node").to_numpy()]
    keyed = df.set_axis(pd.MultiIndex.from_arrays(
        [node] + [df.index.get_level_values(n) for n in df.index.names[1:]],
        names=df.index.names) if df.index.nlevels > 1 else pd.Index(node, name="node"))
    return merge_duplicate_rows(keyed.sort_index(kind="stable"), rules)


@st.composite
def frames(draw):
    n_nodes = draw(st.integers(1, 8))
    ranks = draw(st.integers(1, 3))
    new_of_old = np.array([draw(st.integers(0, 3)) for _ in range(n_nodes)])
    nodes = np.repeat(np.arange(n_nodes), ranks)
    rank = np.tile(np.arange(ranks), n_nodes)
    floats = [draw(st.one_of(st.just(np.nan), st.floats(-5, 5, allow_nan=False)))
              for _ in nodes]
    ints = [draw(st.integers(-3, 3)) for _ in nodes]
    names = [f"f{new_of_old[v]}" for v in nodes]
    index = pd.MultiIndex.from_arrays([nodes, rank], names=["node", "rank"])
    df = pd.DataFrame({"time": floats, "count": np.array(ints, dtype=np.int32),
                       "name": names, "line": np.arange(len(nodes))}, index=index)
    return df, new_of_old


KINDS = ["sum", "min", "max", "mean", "first"]


@SETTINGS
@given(frames(), st.sampled_from(KINDS), st.sampled_from(KINDS), st.sampled_from(KINDS))
def test_merging_matches_pandas_groupby(case, time_kind, count_kind, line_kind):
    df, new_of_old = case
    got = remap_rows(df, new_of_old, ["time", "count"])
    pd.testing.assert_frame_equal(got, reference(df, new_of_old, ["time", "count"]),
                                  check_index_type=False)
    rules = {"time": time_kind, "count": count_kind, "line": line_kind}
    got = remap_rows(df, new_of_old, rules)
    new_keys = pd.MultiIndex.from_arrays([new_of_old[df.index.get_level_values("node")],
                                          df.index.get_level_values("rank")])
    if new_keys.has_duplicates:
        pd.testing.assert_frame_equal(got, reference(df, new_of_old, rules),
                                      check_index_type=False)
    else:  # nothing merges: columns keep their dtype
        assert got.dtypes.tolist() == df.dtypes.tolist()


def test_merge_by_declared_aggregation():
    index = pd.MultiIndex.from_arrays([[0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1]],
                                      names=["node", "rank"])
    df = pd.DataFrame({"min#t": [1.0, np.nan, 2.0, np.nan, 4.0, 8.0],
                       "max#t": [1.0, 5.0, 2.0, 3.0, 4.0, 8.0],
                       "avg#t": [1.0, 5.0, 3.0, np.nan, 4.0, 8.0],
                       "calls": np.array([1, 2, 3, 4, 5, 6], dtype=np.int64),
                       "name": ["b", "a", "a", "c", "c", "c"]}, index=index)
    rules = {"min#t": "min", "max#t": "max", "avg#t": "mean", "calls": "max", "name": "min"}
    out = remap_rows(df, np.array([0, 0, 1]), rules)
    assert out.index.tolist() == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert out["min#t"].iloc[0] == 1.0 and np.isnan(out["min#t"].iloc[1])
    assert out["max#t"].tolist() == [2.0, 5.0, 4.0, 8.0]
    assert out["avg#t"].tolist() == [2.0, 5.0, 4.0, 8.0]
    assert out["calls"].tolist() == [3, 4, 5, 6] and out["calls"].dtype == np.int64
    assert out["name"].tolist() == ["a", "a", "c", "c"]


def test_merge_exact_values():
    index = pd.MultiIndex.from_arrays([[0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1]],
                                      names=["node", "rank"])
    df = pd.DataFrame({"time": [1.0, np.nan, 2.0, np.nan, 4.0, 8.0],
                       "name": ["a", "a", "b", "b", "c", "c"]}, index=index)
    out = remap_rows(df, np.array([0, 0, 1]), ["time"])
    assert out.index.tolist() == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert out["time"].iloc[0] == 3.0
    assert np.isnan(out["time"].iloc[1])  # both missing: stays missing (min_count=1)
    assert out["time"].tolist()[2:] == [4.0, 8.0]
    assert out["name"].tolist() == ["a", "a", "c", "c"]
