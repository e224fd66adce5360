"""A Thicket's values as Thicket 2026.1.1 shows them (measured side by side on the
tutorial's lassen files): float ``nid`` (Hatchet's numbers), ``spot.channel`` tuples,
list-valued metadata as lists, means equal to pandas' groupby means to the last bit;
graphframe's own tables keep ints, strings and tuples."""

import numpy as np
import pandas as pd
import pytest

import graphframe.thicket as th
from graphframe import GraphFrame
from graphframe.thicket.stats._common import compensated_mean

LASSEN = "ensemble/thicket-tutorial/lassen/clang10.0.1_nvcc10.2.89_{}/1/Base_CUDA-block_128.cali"
SIZES = ("1048576", "2097152", "4194304", "8388608")


@pytest.fixture(scope="module")
def lassen(shared_data):
    return th.Thicket.from_caliperreader([str(shared_data / LASSEN.format(s)) for s in SIZES],
                                         disable_tqdm=True)


def test_nid_is_hatchets_number_as_a_float(lassen):
    df = lassen.dataframe
    assert df["nid"].dtype == np.float64
    by_name = df.reset_index().groupby("name")["nid"].first()
    assert (by_name["RAJAPerf"], by_name["Algorithm"], by_name["Apps"]) == (1.0, 10.0, 4.0)


def test_spot_channel_holds_tuples(lassen):
    channel = lassen.dataframe["spot.channel"]
    assert channel.dtype == object
    assert channel.map(repr).value_counts().to_dict() == {"('regionprofile',)": 256}


def test_list_metadata_are_lists_and_groupby_still_works(lassen):
    meta = lassen.metadata
    assert all(isinstance(v, list) for v in meta["libraries"])
    assert meta["cmdline"].iloc[0][:3] == ["../bin/nvcc10.2.89_clang10.0.1.exe", "--variants",
                                          "Base_CUDA"]
    # the Ensemble underneath keeps tuples: grouping and from_statsframes work
    assert all(isinstance(v, tuple) for v in lassen.ensemble.metadata["libraries"])
    groups = lassen.groupby("ProblemSizeRunParam")
    assert sorted(groups) == [1048576.0, 2097152.0, 4194304.0, 8388608.0]
    assert all(isinstance(v, list) for g in groups.values() for v in g.metadata["libraries"])


def test_operations_keep_thickets_values(lassen):
    sub = lassen.filter_metadata(lambda row: row["ProblemSizeRunParam"] > 2e6)
    assert sub.dataframe["nid"].dtype == np.float64
    assert isinstance(sub.dataframe["spot.channel"].iloc[0], tuple)
    assert isinstance(sub.metadata["libraries"].iloc[0], list)


def test_a_thicketized_graphframe_keeps_its_values(shared_data):
    path = str(shared_data / LASSEN.format(SIZES[0]))
    gf = GraphFrame.from_caliperreader(path)
    tk = th.Thicket.thicketize_graphframe(gf, path)
    assert tk.dataframe["nid"].dtype == gf.dataframe["nid"].dtype == np.int64
    assert tk.dataframe["spot.channel"].iloc[0] == "regionprofile"


def test_other_formats_are_left_alone():
    tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 2)
    assert "spot.channel" not in tk.dataframe and "nid" not in tk.dataframe


def kahan_means(group, values, n_groups):
    """pandas 2's cython group_mean, one row at a time (the reference)."""
    total, carry, count = [0.0] * n_groups, [0.0] * n_groups, [0] * n_groups
    for g, v in zip(group.tolist(), values.tolist()):
        if v != v:
            continue
        count[g] += 1
        y = v - carry[g]
        t = total[g] + y
        carry[g] = (t - total[g]) - y
        if carry[g] != carry[g]:
            carry[g] = 0.0
        total[g] = t
    return np.array([t / c if c else np.nan for t, c in zip(total, count)])


def test_mean_is_pandas_groupby_mean_to_the_last_bit(lassen):
    th.stats.mean(lassen, columns=["Avg time/rank", "Bytes/Rep"])
    nodes = lassen.statsframe.dataframe.index
    group = nodes.get_indexer(lassen.dataframe.index.get_level_values("node"))
    for column in ("Avg time/rank", "Bytes/Rep"):
        ours = lassen.statsframe.dataframe[column + "_mean"].to_numpy()
        expected = kahan_means(group, lassen.dataframe[column].to_numpy(), len(nodes))
        assert np.array_equal(ours, expected, equal_nan=True)
        if pd.__version__ < "3":   # Thicket's pandas (pandas 3 sums otherwise)
            pandas_mean = lassen.dataframe[column].groupby(level="node").mean()
            assert np.array_equal(ours, pandas_mean.reindex(nodes).to_numpy(), equal_nan=True)


def test_compensated_mean_where_pairwise_sums_differ():
    # numpy's mean of these five values is 1 ulp below the compensated (and correctly
    # rounded) one; the tutorial's 'Machine clears' of Algorithm_REDUCE_SUM printed
    # 0.922819 where Thicket prints 0.922818 for the same reason
    values = np.array([0.62, 0.08, 0.83, 0.79, 0.24])
    group = np.zeros(5, dtype=np.int64)
    assert values.mean() == 0.5119999999999999
    assert compensated_mean(group, values, 1)[0] == kahan_means(group, values, 1)[0] == 0.512


@pytest.mark.parametrize("seed", range(5))
def test_compensated_mean_equals_pandas_2s(seed):
    rng = np.random.default_rng(seed)
    n = 2000
    group = rng.integers(0, 30, n)
    values = np.round(rng.random(n) * 10.0 ** rng.integers(-3, 9), rng.integers(3, 9))
    values[rng.random(n) < 0.1] = np.nan
    values[:3] = [np.inf, -np.inf, np.inf]
    assert np.array_equal(compensated_mean(group, values, 31), kahan_means(group, values, 31),
                          equal_nan=True)


def test_boxplot_columns_stay_at_the_end_of_a_column_joined_statsframe():
    # Thicket sorts a column-joined statsframe after every statistic but
    # calc_boxplot_statistics (and preference), whose columns stay where they were added
    def runs():
        return th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 3,
                                           metadata={"pk": [1, 2, 3]})
    tk = th.Thicket.concat_thickets([runs(), runs()], axis="columns", headers=["A", "B"],
                                    metadata_key="pk")
    th.stats.mean(tk, [("B", "time")])
    th.stats.calc_boxplot_statistics(tk, [("A", "time")])
    th.stats.maximum(tk, [("A", "time")])
    box = [("A", f"time_{s}(0.25, 0.5, 0.75)")
           for s in ("q1", "q2", "q3", "iqr", "lowerfence", "upperfence", "outliers")]
    # the maximum sorts everything, boxplot columns included
    assert list(tk.statsframe.dataframe.columns) == sorted(
        [("name", ""), ("A", "time_max"), ("B", "time_mean")] + box)
    th.stats.calc_boxplot_statistics(tk, [("B", "time")])
    assert list(tk.statsframe.dataframe.columns)[-7:] == [("B",) + c[1:] for c in box]
