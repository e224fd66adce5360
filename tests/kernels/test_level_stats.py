"""The statistics kernels: block_stats against numpy's nan-functions, level_stats'
row layouts (dense, shuffled, sparse, merged levels) against pandas."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from graphframe.errors import ArgumentError, MetricError
from graphframe.kernels import level_stats as ls
from graphframe.kernels.block_stats import STATS, block_stats
from graphframe.kernels.level_stats import LevelPlan, level_stats, sample_labels

VALUE_STATS = ("sum", "min", "max", "mean", "median", "std", "var")


def numpy_reference(b, ddof=0):
    """What numpy's nan-functions say (their all-NaN warnings silenced here only)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        empty = np.isnan(b).all(axis=1)
        ref = {"sum": np.where(empty, np.nan, np.nansum(b, axis=1)),
               "min": np.nanmin(b, axis=1), "max": np.nanmax(b, axis=1),
               "mean": np.nanmean(b, axis=1), "median": np.nanmedian(b, axis=1),
               "std": np.nanstd(b, axis=1, ddof=ddof), "var": np.nanvar(b, axis=1, ddof=ddof)}
        n = (~np.isnan(b)).sum(axis=1)
        ref["std"] = np.where(n > ddof, ref["std"], np.nan)
        ref["var"] = np.where(n > ddof, ref["var"], np.nan)
        ref["count"] = n
    return ref


def holey(shape, seed=0, frac=0.3):
    rng = np.random.default_rng(seed)
    b = rng.gamma(2.0, 3.0, shape)
    b[rng.random(shape) < frac] = np.nan
    return b


@pytest.mark.parametrize("ddof", [0, 1])
def test_block_stats_equal_numpy_exactly(ddof):
    b = holey((400, 7), seed=ddof)
    b[3] = np.nan            # no value at all
    b[4] = np.nan
    b[4, 2] = 5.0            # a single value
    b[5] = 2.0               # all equal
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = block_stats(b, STATS, percentiles=[0, 10, 25, 50, 90, 99.9, 100], ddof=ddof)
    ref = numpy_reference(b, ddof)
    for key in VALUE_STATS:
        assert np.array_equal(out[key], ref[key], equal_nan=True), key
    assert out["count"].tolist() == ref["count"].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pct = np.nanpercentile(b, [0, 10, 25, 50, 90, 99.9, 100], axis=1).T
    assert np.array_equal(out["percentiles"], pct, equal_nan=True)
    assert out["count"][3] == 0 and np.isnan(out["sum"][3])
    assert out["argmax"][3] == -1 and out["argmin"][3] == -1
    if ddof == 0:
        assert out["std"][4] == 0.0 and out["median"][4] == 5.0
    else:
        assert np.isnan(out["std"][4]) and np.isnan(out["var"][4])
    assert out["imbalance"][4] == 1.0 and out["imbalance"][5] == 1.0


def test_block_stats_positions_are_the_first_extreme():
    b = np.array([[1.0, 3.0, 3.0, 0.0], [np.nan, 2.0, np.nan, 2.0], [7.0, 7.0, 7.0, 7.0]])
    out = block_stats(b, ["argmax", "argmin"], top=4)
    assert out["argmax"].tolist() == [1, 1, 0]
    assert out["argmin"].tolist() == [3, 1, 0]
    assert out["top"].tolist() == [[1, 2, 0, 3], [1, 3, -1, -1], [0, 1, 2, 3]]


def test_block_stats_top_with_infinities_and_more_than_samples():
    b = np.array([[-np.inf, 1.0, -np.inf], [np.inf, np.inf, 0.0]])
    out = block_stats(b, [], top=5)
    assert out["top"].tolist() == [[1, 0, 2, -1, -1], [0, 1, 2, -1, -1]]


def test_block_stats_zero_mean_and_empty_shapes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zero = block_stats(np.zeros((2, 3)), ["imbalance", "mean", "std"])
        assert np.isnan(zero["imbalance"]).all() and zero["mean"].tolist() == [0.0, 0.0]
        none = block_stats(np.empty((2, 0)), STATS, percentiles=[50], top=2)
        assert none["count"].tolist() == [0, 0] and np.isnan(none["sum"]).all()
        assert none["argmax"].tolist() == [-1, -1] and none["top"].tolist() == [[-1, -1]] * 2
        assert np.isnan(none["percentiles"]).all()
        rows = block_stats(np.empty((0, 4)), STATS, percentiles=[50], top=2)
        assert all(len(v) == 0 for v in rows.values())


def test_block_stats_mixed_infinities_are_nan_not_warnings():
    b = np.array([[np.inf, -np.inf, 1.0], [np.inf, 1.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = block_stats(b, ["sum", "mean", "max", "imbalance", "std", "argmax"])
    assert np.isnan(out["sum"][0]) and out["max"].tolist() == [np.inf, np.inf]
    assert np.isnan(out["imbalance"]).all() and out["argmax"].tolist() == [0, 0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 30), st.integers(1, 9), st.floats(0.0, 1.0), st.integers(0, 2**31))
def test_block_stats_property_matches_numpy(g, s, frac, seed):
    b = holey((g, s), seed=seed, frac=frac)
    assume(np.isfinite(b).any())
    out = block_stats(b, VALUE_STATS, percentiles=[37.5])
    ref = numpy_reference(b)
    for key in VALUE_STATS:
        assert np.allclose(out[key], ref[key], equal_nan=True, rtol=1e-12, atol=0), key


# ------------------------------------------------------------------ level_stats
def frame(values, nodes, ranks, extra=None):
    arrays = {"node": nodes, "rank": ranks}
    arrays.update(extra or {})
    idx = pd.MultiIndex.from_arrays(list(arrays.values()), names=list(arrays))
    return pd.DataFrame({"time": values}, index=idx)


def pandas_reference(df, over="rank"):
    wide = df["time"].unstack(over)
    return wide


def test_dense_grid_is_detected_and_matches_pandas():
    rng = np.random.default_rng(3)
    nodes, ranks = np.repeat(np.arange(50), 6), np.tile(np.arange(6), 50)
    df = frame(rng.random(300), nodes, ranks)
    plan = LevelPlan.of(df.index, ["rank"])
    assert plan.dense and plan.order is None and plan.first_row.tolist() == list(range(0, 300, 6))
    out = level_stats(df, ["time"], stats=["max", "mean", "argmax"], plan=plan)
    wide = pandas_reference(df)
    assert out["time.max"].tolist() == wide.max(axis=1).tolist()
    assert np.array_equal(out["time.mean"].to_numpy(), wide.mean(axis=1).to_numpy())
    assert out["time.argmax"].tolist() == wide.idxmax(axis=1).tolist()
    assert str(out["time.argmax"].dtype) == "Int64"


@pytest.mark.parametrize("block_cells", [1, 5, 1 << 22])
def test_shuffled_sparse_rows_equal_the_dense_answer(monkeypatch, block_cells):
    monkeypatch.setattr(ls, "BLOCK_CELLS", block_cells)
    rng = np.random.default_rng(4)
    nodes, ranks = np.repeat(np.arange(40), 5), np.tile(np.array([3, 9, 11, 20, 21]), 40)
    values = rng.random(200)
    values[rng.random(200) < 0.2] = np.nan
    full = frame(values, nodes, ranks)
    keep = ~np.isnan(values) | (rng.random(200) < 0.5)   # drop some NaN rows: missing rows
    perm = rng.permutation(int(keep.sum()))
    sparse = full[keep].iloc[perm]
    stats = ["count", "sum", "min", "max", "mean", "median", "std", "imbalance", "argmax",
             "argmin"]
    a = level_stats(full, ["time"], stats=stats, percentiles=[25], top=3)
    b = level_stats(sparse, ["time"], stats=stats, percentiles=[25], top=3)
    assert not LevelPlan.of(sparse.index, ["rank"]).dense
    pd.testing.assert_frame_equal(a, b)
    wide = pandas_reference(full)
    assert a["time.count"].tolist() == wide.count(axis=1).tolist()
    assert np.allclose(a["time.sum"], wide.sum(axis=1, min_count=1), equal_nan=True)
    assert set(a["time.argmax"].dropna().tolist()) <= {3, 9, 11, 20, 21}


def test_levels_not_over_are_merged_by_the_rule():
    idx = pd.MultiIndex.from_product([[0, 1], [0, 1], [0, 1]], names=["node", "rank", "thread"])
    df = pd.DataFrame({"t": [1.0, 2.0, 3.0, np.nan, 5.0, 6.0, np.nan, np.nan]}, index=idx)
    summed = level_stats(df, ["t"], ["rank"], stats=["min", "max", "count"])
    assert summed["t.min"].tolist() == [3.0, 11.0] and summed["t.max"].tolist() == [3.0, 11.0]
    assert summed["t.count"].tolist() == [2, 1]
    for rule, want in (("max", [2.0, 3.0]), ("min", [1.0, 3.0]), ("mean", [1.5, 3.0]),
                       ("first", [1.0, 3.0])):
        got = level_stats(df, ["t"], ["rank"], stats=["mean"], merge={"t": rule})
        assert got["t.mean"].tolist()[0] == np.mean(want), rule
    kept = level_stats(df, ["t"], ["rank"], keep=["thread"], stats=["sum"])
    assert list(kept.index.names) == ["node", "thread"]
    assert kept["t.sum"].tolist() == [4.0, 2.0, 5.0, 6.0]


def test_several_over_levels_give_tuple_labels():
    idx = pd.MultiIndex.from_product([[0], [0, 1], [0, 1]], names=["node", "rank", "thread"])
    df = pd.DataFrame({"t": [1.0, 4.0, 3.0, 2.0]}, index=idx)
    out = level_stats(df, ["t"], ["rank", "thread"], stats=["argmax", "argmin"], top=2)
    assert out.loc[0].tolist() == [(0, 1), (0, 0), (0, 1), (1, 0)]


def test_unsorted_and_unused_level_labels():
    idx = pd.MultiIndex(levels=[[0, 1], [30, 10, 20, 99]], codes=[[0, 0, 0, 1], [0, 1, 2, 1]],
                        names=["node", "rank"])
    df = pd.DataFrame({"t": [5.0, 1.0, 9.0, 2.0]}, index=idx)
    plan = LevelPlan.of(df.index, ["rank"])
    assert plan.labels.tolist() == [10, 20, 30]
    out = level_stats(df, ["t"], stats=["argmax", "argmin", "median"], top=3, plan=plan)
    assert out.loc[0].tolist()[:2] == [20, 10]
    assert out.loc[0, "t.top1"] == 20 and out.loc[0, "t.top3"] == 10
    assert out.loc[1, "t.top2"] is pd.NA


def test_string_labels_are_objects_with_none():
    df = frame([1.0, np.nan], [0, 0], ["a", "b"])
    out = level_stats(df, ["time"], stats=["argmax"], top=2)
    assert out["time.argmax"].tolist() == ["a"] and out["time.top2"].tolist() == [None]


def test_empty_frame_has_columns_and_no_rows():
    df = frame(np.array([], dtype=float), np.array([], dtype=np.int64),
               np.array([], dtype=np.int64))
    out = level_stats(df, ["time"], stats=["sum", "argmax"], percentiles=[50])
    assert list(out.columns) == ["time.sum", "time.argmax", "time.p50"] and len(out) == 0


def test_integer_and_nullable_metrics():
    df = frame(pd.array([1, None, 3, 4], dtype="Int64"), [0, 0, 1, 1], [0, 1, 0, 1])
    out = level_stats(df, ["time"], stats=["sum", "count"])
    assert out["time.sum"].tolist() == [1.0, 7.0] and out["time.count"].tolist() == [1, 2]


def test_sample_labels_of_no_samples():
    assert sample_labels(pd.Index([], dtype=np.int64), np.array([-1])).tolist() == [pd.NA]
    assert sample_labels(pd.Index([], dtype=object), np.array([-1])).tolist() == [None]


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(stats=["mode"]), ArgumentError, "unknown statistic 'mode'"),
    (dict(stats=["max", "max"]), ArgumentError, "twice"),
    (dict(percentiles=[101]), ArgumentError, "percentile 101"),
    (dict(percentiles=["50"]), ArgumentError, "percentile '50'"),
    (dict(top=-1), ArgumentError, "top=-1"),
    (dict(ddof=True), ArgumentError, "ddof=True"),
    (dict(over=["thread"]), ArgumentError, "no index level 'thread'"),
    (dict(over=["node"]), ArgumentError, "no index level 'node'"),
    (dict(over=[]), ArgumentError, "at least one index level"),
    (dict(over=["rank"], keep=["rank"]), ArgumentError, "different levels"),
    (dict(merge={"time": "median"}), ArgumentError, "merge rule 'median'"),
])
def test_bad_arguments(kwargs, error, words):
    df = frame([1.0, 2.0], [0, 0], [0, 1])
    with pytest.raises(error, match=words):
        level_stats(df, ["time"], **kwargs)


def test_bad_metrics_and_labels():
    df = frame([1.0, 2.0], [0, 0], [0, 1]).assign(name=["a", "b"])
    with pytest.raises(MetricError, match="no column 'cycles'"):
        level_stats(df, ["cycles"])
    with pytest.raises(MetricError, match="not numbers"):
        level_stats(df, ["name"])
    idx = pd.MultiIndex.from_arrays([[0, 0], [0.0, np.nan]], names=["node", "rank"])
    with pytest.raises(ArgumentError, match="missing labels"):
        level_stats(pd.DataFrame({"time": [1.0, 2.0]}, index=idx), ["time"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 12), st.integers(1, 6), st.floats(0.0, 0.9), st.integers(0, 2**31),
       st.integers(1, 40))
def test_level_stats_property_any_row_layout_equals_pandas(nodes, ranks, drop, seed, cells):
    """Dropped rows, NaN values, shuffled order and any block size: pandas' answer."""
    rng = np.random.default_rng(seed)
    n, r = np.repeat(np.arange(nodes), ranks), np.tile(np.arange(ranks) * 2, nodes)
    values = rng.normal(5.0, 2.0, nodes * ranks)
    values[rng.random(len(values)) < drop / 2] = np.nan
    keep = rng.random(len(values)) >= drop / 2
    assume(keep.any())
    df = frame(values, n, r).iloc[rng.permutation(np.flatnonzero(keep))]
    old, ls.BLOCK_CELLS = ls.BLOCK_CELLS, cells   # blocks of any size give the same answer
    try:
        out = level_stats(df, ["time"], stats=["count", "sum", "min", "max", "mean", "argmax"])
    finally:
        ls.BLOCK_CELLS = old
    wide = df["time"].unstack("rank").sort_index()
    assert out.index.tolist() == wide.index.tolist()
    assert out["time.count"].tolist() == wide.count(axis=1).tolist()
    for stat, ref in (("sum", wide.sum(axis=1, min_count=1)), ("min", wide.min(axis=1)),
                      ("max", wide.max(axis=1)), ("mean", wide.mean(axis=1))):
        assert np.allclose(out[f"time.{stat}"], ref, equal_nan=True, rtol=1e-12), stat
    has = wide.notna().any(axis=1)
    assert out["time.argmax"][has.to_numpy()].tolist() == wide[has].idxmax(axis=1).tolist()


@pytest.mark.parametrize("frac", [None, 0.0, 0.6])
def test_percentiles_of_many_distinct_counts_equal_numpy(frac):
    """More distinct per-row counts than MAX_SORT_GROUPS (one sort of the block), with a
    few rows holding NaN (recomputed apart) or nearly all (treated in place), give
    numpy's numbers too."""
    from graphframe.kernels.block_stats import MAX_SORT_GROUPS
    rng = np.random.default_rng(7)
    b = rng.gamma(2.0, 3.0, (300, 80))
    if frac is None:
        for i in range(40):          # rows 0..39 lack 1..40 values
            b[i, :i + 1] = np.nan
    else:
        b[rng.random(b.shape) < rng.random((300, 1)) * (frac + 0.4)] = np.nan
    assert len(np.unique((~np.isnan(b)).sum(axis=1))) > MAX_SORT_GROUPS
    qs = [0, 25, 50, 90, 100]
    out = block_stats(b, ["median", "mean", "std"], percentiles=qs, ddof=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.array_equal(out["percentiles"], np.nanpercentile(b, qs, axis=1).T,
                              equal_nan=True)
        assert np.array_equal(out["median"], np.nanmedian(b, axis=1), equal_nan=True)
        assert np.array_equal(out["mean"], np.nanmean(b, axis=1), equal_nan=True)
        np.testing.assert_allclose(out["std"], np.nanstd(b, axis=1, ddof=1), rtol=1e-12)
