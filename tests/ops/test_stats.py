"""rank_stats and load_imbalance: definitions, edge cases and the acceptance checks on real
profiles (per-rank min/max/mean/imbalance equal numpy on the raw per-rank values)."""

import warnings

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import GraphFrame
from graphframe.errors import ArgumentError, EmptyFilter, MetricError
from graphframe.examples import example_graphframe


def ranked(times, levels=("rank",), shape=None, graph=("main", ("solve", "mpi"), "io")):
    """A GraphFrame of ``graph`` whose rows are ``times``: {(node, rank[, thread]): value}."""
    base = GraphFrame.from_lists(graph)
    keys = sorted(times)
    idx = pd.MultiIndex.from_tuples(keys, names=["node", *levels])
    names = base.dataframe["name"].to_numpy()
    df = pd.DataFrame({"name": names[[k[0] for k in keys]],
                       "time": [times[k] for k in keys]}, index=idx)
    return GraphFrame(base.graph, df, exc_metrics=["time"], inc_metrics=[])


def per_rank(gf, metric, over):
    """Raw per-sample values: one row per node, one column per rank (pandas, no graphframe)."""
    df = gf.dataframe
    others = [lv for lv in df.index.names if lv not in ("node", *over)]
    values = df[metric]
    if others:
        values = values.groupby(level=["node", *over]).sum(min_count=1)
    return values.unstack(list(over))


def assert_equal_numpy(stats, wide, metric):
    v = wide.to_numpy(dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mean, high = np.nanmean(v, axis=1), np.nanmax(v, axis=1)
        want = {"min": np.nanmin(v, axis=1), "max": high, "mean": mean,
                "median": np.nanmedian(v, axis=1), "std": np.nanstd(v, axis=1),
                "imbalance": np.where(mean != 0, high / mean, np.nan)}
    assert stats.index.tolist() == wide.index.tolist()
    for stat, values in want.items():
        got = stats[f"{metric}.{stat}"].to_numpy(dtype=float)
        assert np.array_equal(got, values, equal_nan=True), stat
    has = ~np.isnan(v).all(axis=1)
    labels = list(wide.columns)
    argmax = [labels[i] for i in np.nanargmax(v[has], axis=1)]
    assert stats[f"{metric}.argmax"][has].tolist() == argmax


# ------------------------------------------------------------- definitions
def test_example_against_pandas():
    gf = example_graphframe()
    st = gf.rank_stats()
    assert list(st.columns[:4]) == ["name", "time.sum", "time.min", "time.max"]
    for metric in ("time", "time (inc)"):
        assert_equal_numpy(st, per_rank(gf, metric, ("rank",)), metric)
    assert st.loc[10, "name"] == "MPI_Allreduce"
    assert st.loc[10, "time.imbalance"] == pytest.approx(1.75 / 1.225)
    assert st.loc[10, "time.sum"] == pytest.approx(4.9)


def test_missing_rows_are_no_value_not_zero():
    gf = ranked({(0, 0): 4.0, (0, 1): 2.0, (0, 2): 6.0, (1, 0): 3.0, (1, 2): np.nan,
                 (2, 1): np.nan, (3, 0): 0.0, (3, 1): 0.0})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        st = gf.rank_stats(stats=("count", "sum", "min", "mean", "std", "imbalance", "argmax",
                                  "argmin"), top=2)
    assert st["time.count"].tolist() == [3, 1, 0, 2]
    assert st["time.min"].tolist()[:2] == [2.0, 3.0] and np.isnan(st.loc[2, "time.min"])
    assert st.loc[1, "time.mean"] == 3.0 and st.loc[1, "time.std"] == 0.0       # a single rank
    assert st.loc[1, "time.imbalance"] == 1.0
    assert np.isnan(st.loc[2, "time.sum"]) and st.loc[2, "time.argmax"] is pd.NA  # NaN only
    assert np.isnan(st.loc[3, "time.imbalance"]) and st.loc[3, "time.mean"] == 0.0  # zero mean
    assert st.loc[0, "time.imbalance"] == 1.5
    assert st["time.top1"].tolist() == [2, 0, pd.NA, 0]
    assert st["time.top2"].tolist() == [0, pd.NA, pd.NA, 1]


def test_ddof_and_percentiles():
    gf = ranked({(0, 0): 1.0, (0, 1): 2.0, (0, 2): 3.0, (0, 3): 10.0})
    st = gf.rank_stats(stats=("std",), percentiles=(25, 50, 90), ddof=1)
    assert st.loc[0, "time.std"] == np.std([1, 2, 3, 10], ddof=1)
    assert [st.loc[0, f"time.p{q}"] for q in (25, 50, 90)] == \
        np.percentile([1, 2, 3, 10], [25, 50, 90]).tolist()


def test_threads_are_added_up_per_rank_and_rank_thread_pairs_are_samples():
    gf = ranked({(0, 0, 0): 1.0, (0, 0, 1): 2.0, (0, 1, 0): 6.0, (0, 1, 1): 1.0,
                 (1, 0, 0): 1.0, (1, 1, 1): 5.0}, levels=("rank", "thread"))
    by_rank = gf.rank_stats(stats=("max", "mean", "argmax"))
    assert by_rank.loc[0].tolist() == ["main", 7.0, 5.0, 1]
    by_thread = gf.rank_stats(stats=("max", "argmax"), over="thread")
    assert by_thread.loc[0].tolist() == ["main", 7.0, 0]
    both = gf.rank_stats(stats=("max", "argmax", "count"), over=("rank", "thread"))
    assert both.loc[0].tolist() == ["main", 6.0, (1, 0), 4]
    assert both.loc[1].tolist() == ["io", 5.0, (1, 1), 2]


def test_declared_min_aggregation_merges_threads_with_min():
    gf = ranked({(0, 0, 0): 1.0, (0, 0, 1): 2.0, (0, 1, 0): 6.0, (0, 1, 1): 4.0},
                levels=("rank", "thread"))
    gf = GraphFrame(gf.graph, gf.dataframe, ["time"], [], aggregations={"time": "min"})
    assert gf.rank_stats(stats=("max",)).loc[0, "time.max"] == 4.0


def test_no_rank_level_and_bad_metrics_are_our_errors():
    serial = GraphFrame.from_lists(("main", "solve"))
    with pytest.raises(ArgumentError, match="no 'rank' level .* index levels are node"):
        serial.rank_stats()
    gf = example_graphframe()
    with pytest.raises(MetricError, match="no metric 'cycles'"):
        gf.rank_stats("cycles")
    with pytest.raises(MetricError, match="not numbers"):
        gf.rank_stats("name")
    with pytest.raises(ArgumentError, match="unknown statistic 'mode'"):
        gf.rank_stats(stats=("mode",))
    bare = GraphFrame(gf.graph, gf.dataframe[["name"]], [], [], default_metric=None)
    with pytest.raises(MetricError, match="declares no numeric metric"):
        bare.rank_stats()


def test_rank_stats_leaves_the_graphframe_alone():
    gf = example_graphframe()
    before = gf.dataframe.copy()
    out = gf.rank_stats(top=2)
    out.iloc[0, 1] = -1.0
    pd.testing.assert_frame_equal(gf.dataframe, before)


# ---------------------------------------------------------- load_imbalance
def test_load_imbalance_columns_and_declarations():
    gf = example_graphframe()
    li = gf.load_imbalance("time", top=3)
    df = li.dataframe
    assert list(df.index.names) == ["node"] and len(df) == 20
    assert list(df.columns) == ["time", "name", "time (inc)", "time.mean", "time.max",
                                "time.imbalance", "time.ranks"]
    assert li.default_metric == "time.imbalance"
    assert li.exc_metrics == ["time", "time.mean", "time.max", "time.imbalance"]
    assert li.inc_metrics == ["time (inc)"]
    assert li.aggregations == {"time.max": "max", "time.imbalance": "max"}
    means = gf.dataframe.groupby(level="node")[["time", "time (inc)"]].mean()
    assert np.allclose(df["time"], means["time"]) and np.allclose(df["time (inc)"],
                                                                  means["time (inc)"])
    assert df.loc[10, "time.ranks"] == (3, 2, 1) and df.loc[0, "time.ranks"] == (0, 1, 2)
    assert df.loc[10, "time.imbalance"] == pytest.approx(1.75 / 1.225)
    assert gf.load_imbalance(top=0).dataframe.loc[0, "time.ranks"] == ()


def test_load_imbalance_prints_as_a_tree_and_in_a_notebook():
    li = example_graphframe().load_imbalance("time (inc)")
    text = li.tree(metric_column="time (inc).imbalance", render_header=False, depth=2,
                   unicode=False)
    assert text.splitlines()[:2] == ["1.100 main", "|- 1.051 initialize"]
    both = li.tree(metric_column=["time (inc).imbalance", "time (inc).max"],
                   render_header=False, depth=1)
    assert both.splitlines()[0] == "1.100 30.620 main"
    assert "1.100" in li._repr_html_() and "time (inc).imbalance" in li._repr_html_()


def test_load_imbalance_threshold_squashes_small_nodes():
    gf = example_graphframe()
    li = gf.load_imbalance("time", threshold=0.2)   # max > 0.2 x 9.5 (spmv on rank 3)
    names = sorted(li.dataframe["name"].tolist())
    assert names == ["compute_fluxes", "spmv", "write_hdf5"]
    assert li.graph.num_nodes == 3
    with pytest.raises(ArgumentError, match="threshold=-1"):
        gf.load_imbalance("time", threshold=-1)
    with pytest.raises(EmptyFilter):
        gf.load_imbalance("time", threshold=2.0)


def test_load_imbalance_over_threads_names_the_column_threads():
    gf = ranked({(0, 0, 0): 1.0, (0, 0, 1): 3.0, (0, 1, 0): 1.0, (0, 1, 1): 3.0},
                levels=("rank", "thread"))
    li = gf.load_imbalance(over="thread", top=2)
    assert li.dataframe.loc[0, ["time.max", "time.threads"]].tolist() == [6.0, (1, 0)]


# ------------------------------------------------------ acceptance: real data
def test_cpi_four_ranks(shared_data):
    gf = graphframe.read(shared_data / "hpctoolkit" / "hatchet-cpi-database")
    st = gf.rank_stats()
    for metric in ("time", "time (inc)"):
        assert_equal_numpy(st, per_rank(gf, metric, ("rank",)), metric)
    root = st.loc[0]   # <program root>: 999238, 999390, 1000306, 999308 on ranks 0..3
    assert root["time (inc).sum"] == 3998242.0 and root["time (inc).median"] == 999349.0
    assert root["time (inc).mean"] == 999560.5 and root["time (inc).argmax"] == 2
    assert root["time (inc).imbalance"] == 1000306.0 / 999560.5


@pytest.mark.parametrize("over", [("rank",), ("thread",), ("rank", "thread")])
def test_osu_allgather_ten_ranks_two_threads(shared_data, over):
    gf = graphframe.read(shared_data / "hpctoolkit" / "hatchet-osu-allgather-database")
    st = gf.rank_stats(over=over)
    for metric in ("time", "time (inc)"):
        assert_equal_numpy(st, per_rank(gf, metric, over), metric)
    assert len(st) == gf.graph.num_nodes


def test_lulesh_scaling_one_run_at_a_time(shared_data):
    folder = shared_data / "ensemble" / "hatchet-tutorial" / "lulesh-scaling"
    files = sorted(folder.glob("lulesh-annotation-profile-*core*.json"))
    assert len(files) == 8
    for path in files:
        gf = graphframe.read(path)
        st = gf.rank_stats(["time", "time (inc)"])
        for metric in ("time", "time (inc)"):
            assert_equal_numpy(st, per_rank(gf, metric, ("rank",)), metric)
        ranks = gf.dataframe.index.get_level_values("rank").nunique()
        if ranks == 1:
            assert (st["time.imbalance"].dropna() == 1.0).all()
            assert (st["time.std"] == 0.0).all()
