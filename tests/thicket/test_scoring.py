"""Thicket's scores (graphframe.thicket.stats.score_*) on a column-joined Thicket.

Expected numbers are computed here with numpy from the same literal values, and compared
with what Thicket 2026.1.1 wrote for the same data (recorded once, see RECORDED)."""

import warnings

import numpy as np
import pandas as pd
import pytest

import graphframe.thicket as th
from graphframe import GraphFrame
from graphframe.errors import ArgumentError

# per profile (pk 0, 1, 2): (main, child) exclusive times under two headers
A = [(1.0, 2.0), (2.0, 3.0), (3.0, 5.0)]
B = [(2.0, 1.0), (4.0, 3.0), (6.0, 5.0)]
COLS = [("A", "time"), ("B", "time")]

# Thicket 2026.1.1 on the same data (thicketize_graphframe of each literal, metadata
# pk = 0, 1, 2, concat_thickets(axis="columns", headers=["A", "B"], metadata_key="pk"),
# then each score on [("A", "time"), ("B", "time")]), printed with repr(float(v)):
# rows main, child.
RECORDED = {
    ("Scoring", "A_time_B_time__calc_score_delta_mean_delta_stdnorm"):
        [-2.5, -1.0840909717108256],
    ("Scoring", "A_time_B_time__calc_score_delta_mean_delta_coefficient_of_variation"):
        [-2.0, 0.12492423616225079],
    ("Scoring", "bhattacharyya"): [-0.3115717756571049, 0.022327664504699866],
    ("Scoring", "hellinger"): [-0.267704952339215, 0.02208024704271483],
    ("A_time_B_time_bhattacharyya_distance", ""): [0.3115717756571049, 0.022327664504699866],
    ("A_time_B_time_hellinger_distance", ""): [0.267704952339215, 0.02208024704271483],
}


def runs(pairs):
    gfs = [GraphFrame.from_literal([{
        "frame": {"name": "main"}, "metrics": {"time": a},
        "children": [{"frame": {"name": "child"}, "metrics": {"time": b}, "children": []}]}])
        for a, b in pairs]
    return th.Thicket.from_graphframes(gfs, metadata=pd.DataFrame({"pk": range(len(pairs))}))


@pytest.fixture
def joined():
    return th.Thicket.concat_thickets([runs(A), runs(B)], axis="columns", headers=["A", "B"],
                                      metadata_key="pk")


def moments(pairs):
    v = np.array(pairs)                      # profiles x (main, child)
    return v.mean(axis=0), v.std(axis=0, ddof=1)


def test_columnar_layout_is_thickets(joined):
    cols = joined.dataframe.columns
    assert isinstance(cols, pd.MultiIndex)
    assert list(cols) == [("A", "time"), ("B", "time"), ("name", "")]
    assert joined.dataframe[("name", "")].tolist() == ["main"] * 3 + ["child"] * 3
    assert list(joined.statsframe.dataframe.columns) == [("name", "")]
    assert joined.exc_metrics == COLS


def test_scores_equal_numpy_and_thicket(joined):
    (m1, s1), (m2, s2) = moments(A), moments(B)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = (th.stats.score_delta_mean_delta_stdnorm(joined, COLS)
                + th.stats.score_delta_mean_delta_coefficient_of_variation(joined, COLS)
                + th.stats.score_bhattacharyya(joined, COLS)
                + th.stats.score_hellinger(joined, COLS))
    assert made == list(RECORDED)[:4]
    sf = joined.statsframe.dataframe
    v1, v2 = s1 ** 2, s2 ** 2
    bhatt = 0.25 * np.log(0.25 * (v1 / v2 + v2 / v1 + 2)) + 0.25 * (m1 - m2) ** 2 / (v1 + v2)
    hell = 1 - np.sqrt(2 * s1 * s2 / (v1 + v2)) * np.exp(-0.25 * (m1 - m2) ** 2 / (v1 + v2))
    sign = np.where(m1 < m2, -1.0, 1.0)
    expected = [(m1 - m2) + (s1 - s2) / np.abs(m1 - m2),
                (m1 - m2) + s1 / m1 - s2 / m2, sign * bhatt, sign * hell, bhatt, hell]
    for (name, recorded), mine in zip(RECORDED.items(), expected):
        got = sf[name].to_numpy(dtype=float)
        np.testing.assert_allclose(got, mine, rtol=1e-12, err_msg=str(name))
        np.testing.assert_allclose(got, recorded, rtol=1e-12, err_msg=str(name))
    # the means and standard deviations the scores used are there too, per header
    np.testing.assert_allclose(sf[("A", "time_mean")], m1)
    np.testing.assert_allclose(sf[("B", "time_std")], s2)


def test_sign_follows_comparison_and_characterization(joined):
    name = th.stats.score_bhattacharyya(joined, COLS, output_column_name="b",
                                        characterization_func=th.stats.std,
                                        comparison_func=lambda x, y: x > y)
    assert name == [("Scoring", "b")]
    (_, s1), (_, s2) = moments(A), moments(B)
    d = joined.statsframe.dataframe[("A_time_B_time_bhattacharyya_distance", "")].to_numpy()
    got = joined.statsframe.dataframe[("Scoring", "b")].to_numpy()
    assert got.tolist() == np.where(s1 > s2, -d, d).tolist()
    # a comparison that only works on two numbers is called node by node
    th.stats.score_hellinger(joined, COLS, output_column_name="h",
                             comparison_func=lambda x, y: min(x, y) == x)
    h = joined.statsframe.dataframe[("A_time_B_time_hellinger_distance", "")].to_numpy()
    (m1, _), (m2, _) = moments(A), moments(B)
    assert joined.statsframe.dataframe[("Scoring", "h")].tolist() == \
        np.where(np.minimum(m1, m2) == m1, -h, h).tolist()


def test_undefined_scores_are_nan_without_warnings():
    same = [(1.0, 2.0), (2.0, 2.0), (3.0, 2.0)]      # equal means; child has no spread
    zero = [(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)]      # child: zero mean
    tk = th.Thicket.concat_thickets([runs(same), runs(zero)], axis="columns",
                                    headers=["A", "B"], metadata_key="pk")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = th.stats.score_delta_mean_delta_stdnorm(tk, COLS)[0]
        b = th.stats.score_delta_mean_delta_coefficient_of_variation(tk, COLS)[0]
        c = th.stats.score_bhattacharyya(tk, COLS)[0]
    sf = tk.statsframe.dataframe
    assert np.isnan(sf[a].tolist()[0])                # means equal: (s1 - s2) / 0
    assert sf[a].tolist()[1] == pytest.approx(2.0)    # |2 - 0| = 2: (2 - 0) + 0 / 2
    assert sf[b].tolist()[0] == pytest.approx(0.0)    # 0 + 1/2 - 1/2
    assert np.isnan(sf[b].tolist()[1])                # zero mean in B
    assert np.isnan(sf[c].tolist()[1])                # zero standard deviations


def test_bad_arguments(joined):
    with pytest.raises(ArgumentError, match="list of 2 columns"):
        th.stats.score_hellinger(joined, [("A", "time")])
    flat = runs(A)
    with pytest.raises(ArgumentError, match="column-joined"):
        th.stats.score_delta_mean_delta_stdnorm(flat, ["time", "time"])
    with pytest.raises(ArgumentError, match="2 statsframe columns"):
        th.stats.score_bhattacharyya(joined, COLS, characterization_func=lambda tk, columns: [])


def test_column_joined_thicket_operations_keep_the_layout(joined):
    th.stats.mean(joined, COLS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = joined.filter_stats(lambda row: row[("name", "")] == "main")
        squashed = joined.squash()
        queried = joined.query(th.QueryMatcher().match(
            ".", lambda row: (row[("name", "")] == "main").all()))
    assert kept.statsframe.dataframe[("A", "time_mean")].tolist() == [2.0]
    assert ("name", "") in squashed.dataframe.columns
    assert queried.dataframe[("A", "time")].tolist() == [1.0, 2.0, 3.0]
    assert queried.dataframe[("name", "")].tolist() == ["main"] * 3


def test_boxplot_outliers_name_the_key_of_a_column_joined_thicket():
    a = [(1.0, 2.0), (1.0, 2.0), (1.0, 2.0), (1.0, 2.0), (9.0, 2.0)]
    tk = th.Thicket.concat_thickets([runs(a), runs(a)], axis="columns", headers=["A", "B"],
                                    metadata_key="pk")
    made = th.stats.calc_boxplot_statistics(tk, [("A", "time")])
    outliers = tk.statsframe.dataframe[made[-1]].tolist()
    assert made[-1] == ("A", "time_outliers(0.25, 0.5, 0.75)")
    assert outliers == [[4], []]          # pk of the run whose main took 9
