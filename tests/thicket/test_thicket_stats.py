"""graphframe.thicket.stats: Thicket's statistics, checked against pandas/numpy/SciPy on the
same per-call-path values (Thicket tutorial: 10 GCC -O3 trials) and on hand-built inputs."""

import numpy as np
import pandas as pd
import pytest

import graphframe.thicket as th
from graphframe import GraphFrame
from graphframe.errors import ArgumentError, MetricError

O3 = "ensemble/thicket-tutorial/quartz/GCC_10.3.1_BaseSeq_08388608/O3"


@pytest.fixture()
def tk(shared_data):
    return th.Thicket.from_caliperreader(str(shared_data / O3), disable_tqdm=True)


def _by_node(tk, column):
    """What Thicket's pandas code computes from: the values grouped by node."""
    return tk.dataframe[column].groupby(level="node")


def _literal(values):
    """A Thicket of one node per value tuple (a, b) per profile."""
    gfs = [GraphFrame.from_literal([{"frame": {"name": "m"}, "metrics": {"a": a, "b": b},
                                     "children": [{"frame": {"name": "c"},
                                                   "metrics": {"a": 2 * a, "b": b * b},
                                                   "children": []}]}])
           for a, b in values]
    return th.Thicket.from_graphframes(gfs)


def test_summary_statistics_equal_pandas_on_ten_trials(tk):
    assert tk.dataframe.index.get_level_values("profile").nunique() == 10
    cols = ["time", "time (exc)", "Retiring"]
    assert th.stats.mean(tk, cols) == ["time_mean", "time (exc)_mean", "Retiring_mean"]
    assert th.stats.median(tk, cols) == [c + "_median" for c in cols]
    assert th.stats.std(tk, cols) == [c + "_std" for c in cols]
    assert th.stats.variance(tk, cols) == [c + "_var" for c in cols]
    assert th.stats.minimum(tk, cols) == [c + "_min" for c in cols]
    assert th.stats.maximum(tk, cols) == [c + "_max" for c in cols]
    assert th.stats.sum(tk, cols) == [c + "_sum" for c in cols]
    sf = tk.statsframe.dataframe
    for c in cols:
        g = _by_node(tk, c)
        for stat, expected in (("mean", g.mean()), ("median", g.median()),
                               ("std", g.std(ddof=1)), ("var", g.var(ddof=1)),
                               ("min", g.min()), ("max", g.max())):
            np.testing.assert_allclose(sf[f"{c}_{stat}"].to_numpy(),
                                       expected.reindex(sf.index).to_numpy(), rtol=1e-12)
        total = g.sum(min_count=1).reindex(sf.index).to_numpy()
        np.testing.assert_allclose(sf[f"{c}_sum"].to_numpy(), total, rtol=1e-12)
    # registered like their source columns, as Thicket does
    assert "time (exc)_mean" in tk.statsframe.exc_metrics
    assert "time_mean" in tk.statsframe.inc_metrics


def test_percentiles_equal_pandas_quantile(tk):
    names = th.stats.percentiles(tk, ["time"], [0.1, 0.5, 0.9])
    assert names == ["time_percentiles_10", "time_percentiles_50", "time_percentiles_90"]
    q = _by_node(tk, "time").quantile([0.1, 0.5, 0.9]).unstack()
    sf = tk.statsframe.dataframe
    for name, p in zip(names, (0.1, 0.5, 0.9)):
        np.testing.assert_allclose(sf[name].to_numpy(), q[p].reindex(sf.index).to_numpy(),
                                   rtol=1e-12)
    with pytest.raises(ArgumentError, match="1.5"):
        th.stats.percentiles(tk, ["time"], [1.5])


def test_boxplot_statistics_equal_numpy_with_outlier_profiles(tk):
    cols = th.stats.calc_boxplot_statistics(tk, ["time (exc)"])
    suffix = "(0.25, 0.5, 0.75)"
    assert cols == [f"time (exc)_{k}{suffix}" for k in
                    ("q1", "q2", "q3", "iqr", "lowerfence", "upperfence", "outliers")]
    sf = tk.statsframe.dataframe
    df = tk.dataframe["time (exc)"]
    n_outliers = 0
    for node in sf.index[:40]:
        vals = df.loc[node]
        q1, q2, q3 = np.quantile(vals.to_numpy(), [0.25, 0.5, 0.75])
        iqr = q3 - q1
        row = sf.loc[node]
        assert row[cols[:6]].astype(float).tolist() == pytest.approx(
            [q1, q2, q3, iqr, q1 - 1.5 * iqr, q3 + 1.5 * iqr], rel=1e-12)
        expected = vals[(vals > q3 + 1.5 * iqr) | (vals < q1 - 1.5 * iqr)].index.tolist()
        assert row[cols[6]] == expected
        n_outliers += len(expected)
    assert n_outliers > 0   # the data has outliers, so the list check bites


def test_boxplot_hand_values():
    tk = _literal([(1.0, 0), (2.0, 0), (3.0, 0), (4.0, 0), (40.0, 0)])
    cols = th.stats.calc_boxplot_statistics(tk, ["a"], quartiles=[0.25, 0.5, 0.75])
    sf = tk.statsframe.dataframe
    assert sf[cols[6]].tolist() == [[4], [4]]
    assert sf[cols[3]].tolist() == [2.0, 4.0]
    with pytest.raises(ArgumentError, match="three numbers"):
        th.stats.calc_boxplot_statistics(tk, ["a"], quartiles=[0.5])


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall"])
def test_correlation_equals_pandas(tk, method):
    if method != "pearson":  # pandas needs SciPy for rank correlations (ours does not)
        pytest.importorskip("scipy", reason="SciPy (the stats extra): pandas' spearman/kendall")
    name = th.stats.correlation_nodewise(tk, "time", "Retiring", correlation=method)
    assert name == [f"time_vs_Retiring {method}"]
    got = tk.statsframe.dataframe[name[0]]
    for node in got.index:
        rows = tk.dataframe.loc[node, ["time", "Retiring"]].dropna()
        expected = rows["time"].corr(rows["Retiring"], method=method)
        if np.isnan(expected):
            assert np.isnan(got[node]), node
        else:
            assert got[node] == pytest.approx(expected, rel=1e-9, abs=1e-12), node
    assert got.notna().sum() > 20


def test_correlation_against_scipy_with_ties():
    st = pytest.importorskip("scipy.stats", reason="SciPy (the stats extra) checks kendall")
    values = [(1.0, 3.0), (2.0, 3.0), (2.0, 1.0), (5.0, 7.0), (4.0, 2.0)]
    tk = _literal(values)
    th.stats.correlation_nodewise(tk, "a", "b", "kendall")
    th.stats.correlation_nodewise(tk, "a", "b", "spearman")
    a, b = np.array(values).T
    sf = tk.statsframe.dataframe
    assert sf.loc[0, "a_vs_b kendall"] == pytest.approx(st.kendalltau(a, b)[0], rel=1e-12)
    assert sf.loc[0, "a_vs_b spearman"] == pytest.approx(st.spearmanr(a, b)[0], rel=1e-12)
    assert sf.loc[1, "a_vs_b kendall"] == pytest.approx(st.kendalltau(2 * a, b * b)[0])
    with pytest.raises(ArgumentError, match="pearson, spearman, kendall"):
        th.stats.correlation_nodewise(tk, "a", "b", "cosine")


def test_check_normality_writes_thickets_text_equal_to_shapiro(tk):
    # Thicket writes the text "True"/"False" (its test expects strings), missing where the
    # p-value is undefined (fewer than 3 values or a missing one) or exactly 0.05
    st = pytest.importorskip("scipy.stats", reason="check_normality needs SciPy")
    assert th.stats.check_normality(tk, ["time"]) == ["time_normality"]
    got = tk.statsframe.dataframe["time_normality"]
    for node in got.index:
        vals = tk.dataframe.loc[node, "time"].to_numpy()
        if len(vals) < 3 or np.isnan(vals).any():
            assert got[node] is pd.NA or got[node] != got[node]
        else:
            assert got[node] == str(bool(st.shapiro(vals).pvalue > 0.05))
    assert set(got.dropna()) == {"True", "False"}   # both answers occur


def test_confidence_interval_equals_formula(tk):
    from statistics import NormalDist
    name = th.stats.confidence_interval(tk, ["time"], confidence_level=0.9)
    assert name == ["confidence_interval_0.9_time"]
    z = NormalDist().inv_cdf(0.95)
    g = _by_node(tk, "time")
    m, s, n = g.mean(), g.std(ddof=1), g.count()
    for node, (lo, hi) in tk.statsframe.dataframe[name[0]].items():
        half = z * s[node] / np.sqrt(n[node])
        assert (lo, hi) == pytest.approx((m[node] - half, m[node] + half), rel=1e-12)
    with pytest.raises(ArgumentError):
        th.stats.confidence_interval(tk, ["time"], confidence_level=1.5)


def test_distances_equal_formulas():
    tk = _literal([(1.0, 2.0), (2.0, 4.0), (4.0, 5.0), (3.0, 9.0)])
    assert th.stats.bhattacharyya_distance(tk, ["a", "b"]) == ["a_b_bhattacharyya_distance"]
    assert th.stats.hellinger_distance(tk, ["a", "b"]) == ["a_b_hellinger_distance"]
    a = np.array([1.0, 2.0, 4.0, 3.0])
    b = np.array([2.0, 4.0, 5.0, 9.0])
    m1, m2, v1, v2 = a.mean(), b.mean(), a.var(ddof=1), b.var(ddof=1)
    bh = 0.25 * np.log(0.25 * (v1 / v2 + v2 / v1 + 2)) + 0.25 * (m1 - m2) ** 2 / (v1 + v2)
    he = 1 - np.sqrt(2 * np.sqrt(v1) * np.sqrt(v2) / (v1 + v2)) * np.exp(
        -0.25 * (m1 - m2) ** 2 / (v1 + v2))
    sf = tk.statsframe.dataframe
    assert sf.loc[0, "a_b_bhattacharyya_distance"] == pytest.approx(bh, rel=1e-12)
    assert sf.loc[0, "a_b_hellinger_distance"] == pytest.approx(he, rel=1e-12)
    assert sf.loc[0, "a_mean"] == 2.5


def test_preference_welch_t_test():
    st = pytest.importorskip("scipy.stats", reason="preference needs SciPy")
    tk = _literal([(1.0, 10.0), (2.0, 11.0), (1.5, 12.0), (1.2, 10.5)])
    cols = th.stats.preference(tk, ["a", "b"], lambda x, y: "a" if x < y else "b")
    assert cols == ["a vs b_tvalue", "a vs b_tstatistic", "a vs b_std_preferred",
                    "a vs b_mean_preferred"]
    a = np.array([1.0, 2.0, 1.5, 1.2])
    b = np.array([10.0, 11.0, 12.0, 10.5])
    sf = tk.statsframe.dataframe
    assert sf.loc[0, "a vs b_tstatistic"] == pytest.approx(
        st.ttest_ind(a, b, equal_var=False).statistic, rel=1e-12)
    assert sf.loc[0, "a vs b_tvalue"] == pytest.approx(st.t.ppf(0.975, 6), rel=1e-12)
    assert sf.loc[0, "a vs b_mean_preferred"] == "a"


def test_errors_name_the_problem():
    tk = _literal([(1.0, 2.0), (2.0, 4.0)])
    with pytest.raises(ArgumentError, match="give columns"):
        th.stats.mean(tk)
    with pytest.raises(MetricError, match="no column 'nope'"):
        th.stats.std(tk, ["nope"])
    with pytest.raises(MetricError, match="not numbers"):
        th.stats.maximum(tk, ["name"])


def test_single_profile_and_missing_nodes_are_defined():
    gfs = [GraphFrame.from_lists(("main", "a")), GraphFrame.from_lists(("main", "b"))]
    tk = th.Thicket.from_graphframes(gfs)   # dense: NaN rows where a profile lacks a node
    th.stats.std(tk, ["time"])
    th.stats.sum(tk, ["time"])
    th.stats.mean(tk, ["time"])
    sf = tk.statsframe.dataframe
    assert sf["time_mean"].tolist() == [1.0, 1.0, 1.0]
    assert sf["time_sum"].tolist() == [2.0, 1.0, 1.0]
    assert sf["time_std"].iloc[0] == 0.0 and np.isnan(sf["time_std"].iloc[1])
