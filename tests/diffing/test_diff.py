"""graphframe.diff on constructed pairs: exact deltas, statuses, DAGs, flat diffs, options."""

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import GraphFrame, GraphframeError, MetricError, diff
from graphframe.diffing import outermost, ranked_changes, regressions, significant
from tests.helpers import pair, gf_from_edges, replaced


def col(d, name):
    return dict(zip(d.dataframe["name"], d.dataframe[name]))


def test_path_diff_exact_values_mean_over_ranks():
    before, after = pair()
    d = diff(before, after)
    df = d.dataframe
    assert list(df.index) == [0, 1, 2, 3, 4]
    assert df["name"].tolist() == ["main", "io", "solve", "mpi", "spmv"]
    assert df["status"].tolist() == ["common", "removed", "common", "added", "common"]
    # mean over the two ranks = time + 5
    assert df["time before"].tolist() == [6.0, 5.5, 7.0, 0.0, 10.0]
    assert df["time after"].tolist() == [6.0, 0.0, 7.5, 6.0, 11.0]
    assert df["time delta"].tolist() == [0.0, -5.5, 0.5, 6.0, 1.0]
    assert df["time (inc) before"].tolist() == [28.5, 5.5, 17.0, 0.0, 10.0]
    assert df["time (inc) after"].tolist() == [30.5, 0.0, 24.5, 6.0, 11.0]
    assert df["time (inc) delta"].tolist() == [2.0, -5.5, 7.5, 6.0, 1.0]
    ratio = df["time ratio"].to_numpy()
    assert ratio[0] == 1.0 and ratio[1] == 0.0 and np.isinf(ratio[3]) and ratio[4] == 1.1
    assert d.exc_metrics == ["time before", "time after", "time delta"]
    assert d.inc_metrics == ["time (inc) before", "time (inc) after", "time (inc) delta"]
    assert d.inclusive_of["time delta"] == "time (inc) delta"
    assert d.default_metric == "time delta"
    assert list(df.columns) == ["name"] + [f"{m} {s}" for m in ("time", "time (inc)")
                                           for s in ("before", "after", "delta", "ratio")] + [
        "status", "significant"]
    info = d.metadata["diff"]
    assert info["by"] == "path" and info["primary"] == "time" and info["aggregate"] == "mean"
    assert info["totals"]["before"] == {"time": 28.5, "time (inc)": 28.5}
    assert info["totals"]["after"] == {"time": 30.5, "time (inc)": 30.5}


def test_rank_choice_and_other_aggregates():
    before, after = pair()
    d = diff(before, after, "time", rank=0)
    assert col(d, "time delta") == {"main": 0.0, "io": -0.5, "solve": 0.5, "mpi": 1.0,
                                    "spmv": 1.0}
    assert d.metadata["diff"]["rank"] == 0 and d.metadata["diff"]["aggregate"] is None
    d = diff(before, after, "time", aggregate="sum")
    assert col(d, "time before")["spmv"] == 20.0 and col(d, "time after")["mpi"] == 12.0
    d = diff(before, after, "time", aggregate="max")
    assert col(d, "time delta")["io"] == -10.5


def test_before_plus_delta_is_after_and_inclusive_delta_is_consistent():
    before, after = pair()
    d = diff(before, after)
    df = d.dataframe
    for m in ("time", "time (inc)"):
        np.testing.assert_array_equal(df[f"{m} before"] + df[f"{m} delta"], df[f"{m} after"])
    # deltas are additive: recomputing the inclusive delta from the exclusive one agrees
    again = d.update_inclusive_columns(inplace=False).dataframe
    np.testing.assert_allclose(again["time (inc) delta"], df["time (inc) delta"])


def test_different_rank_counts_and_index_levels():
    before, _ = pair(ranks=2)
    _, after = pair(ranks=0)           # single process: node index only
    d = diff(before, after, "time")
    assert col(d, "time delta") == {"main": -5.0, "io": -5.5, "solve": -4.5, "mpi": 1.0,
                                    "spmv": -4.0}


def test_missing_values_count_as_zero_and_nodes_without_rows():
    lit_b = [{"frame": {"name": "a"}, "metrics": {"time": 1.0},
              "children": [{"frame": {"name": "b"}, "metrics": {"time": float("nan")}},
                           {"frame": {"name": "c"}, "metrics": {}}]}]
    lit_a = [{"frame": {"name": "a"}, "metrics": {"time": 2.0},
              "children": [{"frame": {"name": "b"}, "metrics": {"time": 3.0}},
                           {"frame": {"name": "c"}, "metrics": {"time": 4.0}}]}]
    d = diff(GraphFrame.from_literal(lit_b), GraphFrame.from_literal(lit_a))
    assert col(d, "time before") == {"a": 1.0, "b": 0.0, "c": 0.0}
    assert col(d, "time delta") == {"a": 1.0, "b": 3.0, "c": 4.0}
    # c has no row before, but its call path exists in both graphs
    assert col(d, "status") == {"a": "common", "b": "common", "c": "common"}


def test_ratio_rules():
    before = GraphFrame.from_literal([{"frame": {"name": "a"}, "metrics": {"time": 0.0},
                                       "children": [{"frame": {"name": "b"},
                                                     "metrics": {"time": 0.0}}]}])
    after = GraphFrame.from_literal([{"frame": {"name": "a"}, "metrics": {"time": 0.0},
                                      "children": [{"frame": {"name": "b"},
                                                    "metrics": {"time": 2.0}}]}])
    r = col(diff(before, after), "time ratio")
    assert np.isnan(r["a"]) and r["b"] == np.inf


def test_dag_diff_keeps_shared_nodes_and_statuses():
    # before: a -> b -> c, a -> d, d -> c (c shared); after adds c -> x and drops nothing
    before = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 1, 0], times=[1, 2, 3, 4],
                           extra=[(3, 2)])
    after = gf_from_edges(["a", "b", "c", "d", "x"], [-1, 0, 1, 0, 2], times=[1, 2, 5, 4, 7],
                          extra=[(3, 2)])
    d = diff(before, after)
    assert not d.graph.is_forest
    c = d.graph.node(int(np.flatnonzero(d.dataframe["name"] == "c")[0]))
    assert sorted(p.frame["name"] for p in c.parents) == ["b", "d"]
    assert col(d, "status") == {"a": "common", "b": "common", "c": "common", "d": "common",
                                "x": "added"}
    assert col(d, "time delta") == {"a": 0.0, "b": 0.0, "c": 2.0, "d": 0.0, "x": 7.0}
    # inclusive (each distinct descendant once): a 10 -> 19, d 7 -> 16 (d reaches c and x)
    assert col(d, "time (inc) delta") == {"a": 9.0, "b": 9.0, "c": 9.0, "d": 9.0, "x": 7.0}


def test_same_graph_object_and_identical_profiles():
    before, _ = pair()
    d = diff(before, before.copy())
    assert d.graph is before.graph
    assert (d.dataframe["time delta"] == 0).all() and (d.dataframe["status"] == "common").all()
    assert not d.dataframe["significant"].any()
    assert len(ranked_changes(d)) == 0


def test_normalize_gives_percent_of_total():
    before, after = pair(ranks=0)  # totals 8.5 and 10.5
    d = diff(before, after, normalize=True)
    b, a = col(d, "time (inc) before"), col(d, "time (inc) after")
    assert b["main"] == pytest.approx(100.0) and a["main"] == pytest.approx(100.0)
    assert b["spmv"] == pytest.approx(5 / 8.5 * 100) and a["spmv"] == pytest.approx(6 / 10.5 * 100)
    assert col(d, "time (inc) delta")["main"] == pytest.approx(0.0, abs=1e-12)
    assert d.metadata["diff"]["totals"]["before"]["time"] == 100.0


def test_noise_threshold_marks_significant_changes():
    before, after = pair(ranks=0)  # before total 8.5; inclusive deltas main 2, solve 2.5...
    d = diff(before, after, threshold=25.0)  # 2.125 or more
    assert col(d, "significant") == {"main": False, "io": False, "solve": True, "mpi": False,
                                      "spmv": False}
    d = diff(before, after)
    assert col(d, "significant") == {"main": True, "io": True, "solve": True, "mpi": True,
                                     "spmv": True}
    assert significant(np.array([-3.0, 3.0, 0.0]), 10.0, 30.0).tolist() == [True, True, False]


def test_flat_diff_by_name_aggregates_call_sites_and_skips_nested_recursion():
    # main -> f -> g -> f (recursion) ; main -> h -> g
    names = ["main", "f", "g", "f", "h", "g"]
    parent = [-1, 0, 1, 2, 0, 4]
    before = gf_from_edges(names, parent, times=[1, 2, 3, 4, 5, 6])
    after = gf_from_edges(names[:5], parent[:5], times=[1, 2, 3, 9, 5])
    d = diff(before, after, by="name")
    assert d.graph.is_forest and len(d.graph.root_ids) == 4
    assert d.dataframe["name"].tolist() == ["f", "g", "h", "main"]
    assert d.dataframe["status"].tolist() == ["common"] * 4
    # exclusive: every call site; before f = 2 + 4, g = 3 + 6; after g = 3
    assert col(d, "time before") == {"f": 6.0, "g": 9.0, "h": 5.0, "main": 1.0}
    assert col(d, "time after") == {"f": 11.0, "g": 3.0, "h": 5.0, "main": 1.0}
    # inclusive: outermost calls only; before f = 2+3+4 (inner f inside it), g = (3+4) + 6
    assert col(d, "time (inc) before") == {"f": 9.0, "g": 13.0, "h": 11.0, "main": 21.0}
    assert col(d, "time (inc) after") == {"f": 14.0, "g": 12.0, "h": 5.0, "main": 20.0}
    assert d.metadata["diff"]["by"] == "name"


def test_flat_diff_added_and_removed_names():
    before, after = pair(ranks=0)
    d = diff(before, after, "time", by="name")
    assert col(d, "status") == {"io": "removed", "main": "common", "mpi": "added",
                                "solve": "common", "spmv": "common"}
    assert col(d, "time delta") == {"io": -0.5, "main": 0.0, "mpi": 1.0, "solve": 0.5,
                                    "spmv": 1.0}


def test_outermost_on_a_dag():
    gf = gf_from_edges(["f", "g", "f", "h"], [-1, 0, 1, 0], extra=[(3, 2)])
    names = [n.frame["name"] for n in gf.graph.traverse()]
    codes = np.array([{"f": 0, "g": 1, "h": 2}[n] for n in names])
    inner_f = [i for i, n in enumerate(names) if n == "f"][1]
    expected = [True] * len(names)
    expected[inner_f] = False
    assert outermost(gf.graph, codes).tolist() == expected


def test_errors():
    before, after = pair()
    with pytest.raises(MetricError, match="metric 'nope' is not a numeric column of the before"):
        diff(before, after, "nope")
    other = replaced(after, dataframe=after.dataframe.rename(columns={"time": "t"}),
                           exc_metrics=["t"], inc_metrics=[], inclusive_of={})
    with pytest.raises(MetricError, match="of the after profile"):
        diff(before, other, "time")
    with pytest.raises(ValueError, match="by='stack'"):
        diff(before, after, by="stack")
    with pytest.raises(GraphframeError, match="not a diff result"):
        ranked_changes(before)
    with pytest.raises(MetricError, match="was not diffed"):
        ranked_changes(diff(before, after, "time", inclusive=False), metric="time (inc)")


def test_inputs_are_not_changed():
    before, after = pair()
    b_df, a_df = before.dataframe.copy(), after.dataframe.copy()
    diff(before, after)
    diff(before, after, by="name")
    pd.testing.assert_frame_equal(before.dataframe, b_df)
    pd.testing.assert_frame_equal(after.dataframe, a_df)


def test_method_and_package_function_agree():
    before, after = pair()
    pd.testing.assert_frame_equal(before.diff(after, "time").dataframe,
                                  graphframe.diff(before, after, "time").dataframe)


def test_ranked_changes_order_kinds_and_top():
    before, after = pair(ranks=0)
    d = diff(before, after)
    inc = ranked_changes(d)
    assert inc.attrs["metric"] == "time (inc)"
    # |delta| descending; mpi (id 3) and spmv (id 4) tie and go by node id
    assert inc["name"].tolist() == ["solve", "main", "mpi", "spmv", "io"]
    assert inc["delta"].tolist() == [2.5, 2.0, 1.0, 1.0, -0.5]
    exc = ranked_changes(d, kind="exclusive", top=3)
    assert exc["name"].tolist() == ["mpi", "spmv", "io"]
    assert exc.loc[exc["name"] == "mpi", "change %"].item() == np.inf
    assert exc.loc[exc["name"] == "io", "change %"].item() == -100.0
    assert exc["path"].tolist() == ["main > solve > mpi", "main > solve > spmv", "main > io"]
    everything = ranked_changes(d, kind="exclusive", top=None, significant_only=False)
    assert len(everything) == 5 and everything["delta"].tolist()[-1] == 0.0


def test_regressions_relative_to_the_node_and_noise():
    before, after = pair(ranks=0)
    d = diff(before, after)
    # inclusive changes: solve +2.5 of 7 (35.7%), main +2 of 8.5 (23.5%), spmv +1 of 5
    # (exactly 20%), mpi added (inf); io shrank
    assert regressions(d, 30.0)["name"].tolist() == ["solve", "mpi"]
    assert regressions(d, 20.0)["name"].tolist() == ["solve", "main", "mpi"]
    assert regressions(d, 19.9)["name"].tolist() == ["solve", "main", "mpi", "spmv"]
    assert regressions(d, 1000.0)["name"].tolist() == ["mpi"]
    # with a noise threshold of 15% of the total (1.275), mpi's +1 no longer counts
    quiet = diff(before, after, threshold=15.0)
    assert regressions(quiet, 30.0)["name"].tolist() == ["solve"]


# ---------------------------------------------------------- inclusive partners
def exclusive_only(gf):
    """``gf`` without its inclusive column (like Caliper's json-split profiles)."""
    return replaced(gf, dataframe=gf.dataframe.drop(columns=["time (inc)"]), inc_metrics=[],
                       inclusive_of={})


@pytest.mark.parametrize("options", [{}, {"rank": 1}, {"aggregate": "min"},
                                     {"aggregate": "sum", "normalize": True},
                                     {"by": "name"}])
def test_exclusive_only_profiles_get_their_inclusive_partner(options):
    before, after = pair()
    full = diff(before, after, **options)
    d = diff(exclusive_only(before), exclusive_only(after), **options)
    assert d.metadata["diff"]["metrics"] == ["time", "time (inc)"]
    assert d.metadata["diff"]["computed_inclusive"] == ["time (inc)"]
    assert full.metadata["diff"]["computed_inclusive"] == []
    assert d.inc_metrics == ["time (inc) before", "time (inc) after", "time (inc) delta"]
    assert d.inclusive_of["time delta"] == "time (inc) delta"
    pd.testing.assert_frame_equal(d.dataframe, full.dataframe)
    assert d.metadata["diff"]["totals"] == full.metadata["diff"]["totals"]


def test_inclusive_partner_on_one_side_only_is_computed_on_both():
    before, after = pair(ranks=0)
    # before's declared inclusive values are deliberately wrong: both sides are summed
    wrong = before.dataframe.assign(**{"time (inc)": 100.0})
    d = diff(replaced(before, dataframe=wrong), exclusive_only(after), "time")
    assert d.metadata["diff"]["computed_inclusive"] == ["time (inc)"]
    assert col(d, "time (inc) before") == {"main": 8.5, "io": 0.5, "solve": 7.0, "mpi": 0.0,
                                           "spmv": 5.0}
    assert col(d, "time (inc) after")["main"] == 10.5


def test_inclusive_false_and_explicit_inclusive_metric():
    before, after = pair(ranks=0)
    d = diff(exclusive_only(before), exclusive_only(after), inclusive=False)
    assert d.metadata["diff"]["metrics"] == ["time"] and d.inc_metrics == []
    # ranked tables and the tree show the exclusive metric as it is, and say so
    table = ranked_changes(d)
    assert table.attrs["metric"] == "time"
    with pytest.raises(MetricError, match="has no inclusive partner in the diff"):
        regressions(d, 10.0)
    assert regressions(d, 10.0, kind="exclusive")["name"].tolist() == ["mpi", "spmv", "solve"]
    # an inclusive metric brings its exclusive partner along
    d = diff(before, after, "time (inc)")
    assert d.metadata["diff"]["metrics"] == ["time (inc)", "time"]
    assert d.metadata["diff"]["computed_inclusive"] == []


def test_a_column_named_like_the_partner_is_left_alone():
    before, after = pair(ranks=0)
    taken = [replaced(gf, dataframe=exclusive_only(gf).dataframe.assign(**{"time (inc)": "x"}),
                         inc_metrics=[], inclusive_of={}) for gf in (before, after)]
    d = diff(*taken)
    assert d.metadata["diff"]["metrics"] == ["time"]
    assert d.dataframe["time (inc)"].tolist() == ["x"] * 5


def test_regressions_kind_exclusive_tests_the_nodes_own_value():
    before, after = pair(ranks=0)
    d = diff(exclusive_only(before), exclusive_only(after))
    # inclusive: main grew 2 of 8.5 = 23.5% although its own time did not change
    assert regressions(d, 20.0)["name"].tolist() == ["solve", "main", "mpi"]
    inc = regressions(d, 20.0)
    assert (inc.attrs["metric"], inc.attrs["kind"]) == ("time (inc)", "inclusive")
    exc = regressions(d, 20.0, kind="exclusive")
    assert exc["name"].tolist() == ["mpi", "solve"]
    assert (exc.attrs["metric"], exc.attrs["kind"]) == ("time", "exclusive")
    with pytest.raises(ValueError, match="kind='as-is'"):
        regressions(d, 20.0, kind="as-is")


def test_ranked_changes_top_must_be_a_count():
    d = diff(*pair(ranks=0))
    assert len(ranked_changes(d, top=0)) == 0
    for bad in (-1, 2.5, True):
        with pytest.raises(ValueError, match="give a number of rows"):
            ranked_changes(d, top=bad)


# ---------------------------------------------------------- call paths of many rows
def test_paths_on_a_dag_follow_first_parents():
    before = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 1, 0], times=[1, 2, 3, 4],
                           extra=[(3, 2)])
    after = gf_from_edges(["a", "b", "c", "d", "x"], [-1, 0, 1, 0, 2], times=[1, 2, 5, 4, 7],
                          extra=[(3, 2)])
    table = ranked_changes(diff(before, after), kind="exclusive", top=None,
                           significant_only=False)
    assert dict(zip(table["name"], table["path"])) == {
        "x": "a > b > c > x", "c": "a > b > c", "a": "a", "b": "a > b", "d": "a > d"}
    flat = ranked_changes(diff(before, after, by="name"), top=None)
    assert flat["path"].tolist() == flat["name"].tolist()


def test_regressions_of_a_large_diff_are_exact():
    # speed is the io benchmark's job (benchmarks/io_bench.py, case diff), not a unit test's
    from benchmarks.generate import generate
    raw = generate(100_000, ranks=0, seed=1)
    before = GraphFrame.from_raw(raw)
    df = before.dataframe
    slower = df.assign(time=df["time"] * np.where(np.arange(len(df)) % 3 == 0, 1.5, 1.0))
    after = replaced(before, dataframe=slower)
    d = diff(before, after)
    bad = regressions(d, 10.0)
    every = ranked_changes(d, top=None)
    assert len(bad) > 30_000 and len(every) >= len(bad)
    # spot-check paths against Node.path()
    for v in bad.index[:: len(bad) // 50]:
        names = [n.frame["name"] for n in d.graph.node(int(v)).path()]
        assert bad.loc[v, "path"] == " > ".join(names)


def test_nodes_of_one_side_merged_by_the_union_add_up():
    # before: two separate u's (under p and under q); after: one u shared by p and q
    before = gf_from_edges(["main", "p", "u", "q", "u"], [-1, 0, 1, 0, 3],
                           times=[1, 1, 2, 1, 3])
    after = gf_from_edges(["main", "p", "u", "q"], [-1, 0, 1, 0], times=[1, 1, 4, 1],
                          extra=[(3, 2)])
    d = diff(before, after, "time", inclusive=False)
    assert (d.dataframe["name"] == "u").sum() == 1
    u = d.dataframe[d.dataframe["name"] == "u"].iloc[0]
    assert (u["time before"], u["time after"], u["time delta"], u["status"]) == \
        (5.0, 4.0, -1.0, "common")
    assert d.dataframe["time before"].sum() == before.dataframe["time"].sum()


def test_a_rank_the_profiles_lack_is_our_error():
    before, after = pair()  # ranks 0 and 1
    with pytest.raises(GraphframeError, match=r"rank=7 does not exist; the ranks are 0, 1"):
        diff(before, after, rank=7)
    with pytest.raises(GraphframeError, match="rank=7"):
        diff(before, after, "time", rank=7, by="name")
    _, single = pair(ranks=0)  # a profile without a rank level cannot pick a rank
    with pytest.raises(GraphframeError, match="rank=1 does not exist: the data has no rank"):
        diff(before, single, rank=1)


def test_metrics_that_are_not_summed_get_no_computed_inclusive_partner():
    gfs = []
    for times in ([1.0, 0.5, 2.0, 5.0], [1.0, 0.5, 3.0, 5.0]):
        gf = exclusive_only(gf_from_edges(["main", "io", "solve", "spmv"], [-1, 0, 0, 2],
                                          times=times))
        df = gf.dataframe.assign(mem=[10.0, 20.0, 30.0, 40.0])
        gfs.append(type(gf)(gf.graph, df, ["time", "mem"], [], default_metric="time",
                            aggregations={"mem": "max"}))
    d = diff(*gfs)
    assert d.metadata["diff"]["metrics"] == ["time", "mem", "time (inc)"]
    assert d.metadata["diff"]["computed_inclusive"] == ["time (inc)"]


def test_a_diff_that_matches_few_nodes_warns_and_says_so():
    """Issue 19 item 2: fewer than half of the nodes in both profiles -> PoorMatchWarning."""
    a = GraphFrame.from_lists(("main", "solve", "io"))
    b = GraphFrame.from_lists(("start", "solve", "io"))
    with pytest.warns(graphframe.errors.PoorMatchWarning, match=r"share 0 of 6 nodes .*by=\"name\""):
        d = diff(a, b)
    assert d.metadata["diff"]["match"] == {"common": 0, "nodes": 6, "fraction": 0.0}
    # matching by name pairs them all: no warning
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flat = diff(a, b, by="name")
    assert flat.metadata["diff"]["match"]["fraction"] == 0.5  # main/start unmatched, 2 of 4


def test_a_diff_that_matches_most_nodes_does_not_warn():
    import warnings
    a = GraphFrame.from_lists(("main", "solve", "io"))
    b = GraphFrame.from_lists(("main", "solve", "mpi"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = diff(a, b)
    assert d.metadata["diff"]["match"] == {"common": 2, "nodes": 4, "fraction": 0.5}


def _renamed(gf, names):
    from graphframe.diffing.metric_pairs import rename_metrics
    return rename_metrics(gf, names)


def test_profiles_without_common_metrics_get_a_short_error_with_the_pairing():
    """Issue 19 item 6: first names and a count, and the metric_map that pairs them."""
    base = GraphFrame.from_lists(("main", "solve", "io"))
    extra = {f"m{k}": float(k) for k in range(40)}
    before = _renamed(base, {"time": "cycles (E)", "time (inc)": "cycles (I)"})
    before = GraphFrame(before.graph, before.dataframe.assign(**extra),
                        before.exc_metrics + list(extra), before.inc_metrics,
                        inclusive_of=before.inclusive_of)
    after = _renamed(base, {"time": "cycles", "time (inc)": "cycles (inc)"})
    with pytest.raises(MetricError) as info:
        diff(before, after, metric_map={})   # {}: no pairing (None pairs by spelling)
    message = str(info.value)
    assert message == (
        "the two profiles have no numeric metric in common: before has 'cycles (E)', 'm0', "
        "'m1', 'm2' and 38 more (42 in all), after has 'cycles', 'cycles (inc)'; they pair by "
        "name as {'cycles (E)': 'cycles', 'cycles (I)': 'cycles (inc)'}: pass metric_map= "
        "(Python) or --pair auto (graphframe diff)")
    d = diff(before, after, metric_map={"cycles (E)": "cycles", "cycles (I)": "cycles (inc)"})
    assert d.metadata["diff"]["metrics"] == ["cycles", "cycles (inc)"]
    assert d.dataframe["cycles delta"].tolist() == [0.0, 0.0, 0.0]
    assert d.metadata["diff"]["computed_inclusive"] == []
    # issue 33 item 4: spellings pair by themselves when no metric_map is given
    auto = diff(before, after)
    assert auto.metadata["diff"]["metric_map"] == {"cycles (E)": "cycles",
                                                   "cycles (I)": "cycles (inc)"}
    assert auto.dataframe.equals(d.dataframe)


def test_metric_map_names_must_exist():
    a = GraphFrame.from_lists(("main", "solve"))
    with pytest.raises(MetricError, match=r"metric_map names 'cycles', which the before "
                                          r"profile does not have"):
        diff(a, a, metric_map={"cycles": "time"})
    with pytest.raises(MetricError, match=r"metric_map renames to 'time \(inc\)', a column"):
        diff(a, a, metric_map={"time": "time (inc)"})
