"""Notebook and console views: _repr_html_ and __repr__."""

import re


from graphframe import GraphFrame, diff
from graphframe.examples import example_graphframe
from graphframe.render.registry import RENDERERS
from tests.helpers import gf_from_edges, replaced
from tests.helpers import pair


def lines_of(html):
    """(value, name) of every node line, in document order."""
    return re.findall(r"</span></span>([-0-9.na]+) ([^<]*)", html)


def test_repr_is_one_short_line():
    gf = example_graphframe()
    assert repr(gf) == ("<GraphFrame: 20 nodes (tree), 80 rows over 4 ranks; "
                        "metrics: time, time (inc) [default time]>")
    dag = gf_from_edges(list("abc"), [-1, 0, 1], extra=[(0, 2)], ranks=2, threads=3)
    assert repr(dag) == ("<GraphFrame: 3 nodes (graph with shared nodes), 18 rows over "
                         "2 ranks x 3 threads; metrics: time, time (inc) [default time]>")
    forest = gf_from_edges(["a", "b"], [-1, -1])
    assert "(forest of 2 trees)" in repr(forest)
    many = replaced(forest, exc_metrics=[f"m{i}" for i in range(9)], inc_metrics=[])
    assert repr(many)[len("<GraphFrame: "):-1].endswith("metrics: m0, m1, m2, m3, m4, m5, ... (+3) [default time]")


def test_html_shows_the_top_of_the_profile():
    gf = example_graphframe()
    html = gf._repr_html_()
    assert html.startswith('<div class="graphframe"')
    assert "<b>GraphFrame</b>: 20 nodes (tree), 80 rows over 4 ranks" in html
    assert "time (inc) (rank 0)" in html
    shown = lines_of(html)
    assert shown[0] == ("25.070", "main")
    # children by decreasing value: timestep_loop (20.85) first, then its children
    assert shown[1] == ("20.850", "timestep_loop") and shown[2] == ("11.800", "cg_solve")
    # depth 0 open, deeper levels start collapsed
    assert html.count("<details open") == 1
    assert html.count("<details") == html.count("</details>")
    # bars: the root is full width, others proportional
    assert "width:80px;height:0.7em;background:#d62728" in html
    assert len(html) < 10000


def test_html_limits_escaping_and_dags():
    names = ["<script>alert(1)</script>"] + [f"f{i:02d}" for i in range(12)]
    gf = gf_from_edges(names, [-1] + [0] * 12, times=[1.0] + [float(i) for i in range(12)])
    html = RENDERERS["html"].render(gf, max_children=5)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert [n for _, n in lines_of(html)][1:] == ["f11", "f10", "f09", "f08", "f07"]
    assert "… 7 more" in html
    dag = gf_from_edges(list("abcd"), [-1, 0, 1, 0], extra=[(3, 2)])
    html = RENDERERS["html"].render(dag, max_depth=10)
    # c is reached twice; its subtree is expanded once
    assert [n for _, n in lines_of(html)] == ["a", "b", "c", "d", "c"]
    deep = gf_from_edges([f"n{i}" for i in range(30)], [-1] + list(range(29)))
    html = RENDERERS["html"].render(deep, max_depth=3)
    assert len(lines_of(html)) == 3 and html.count("…") == 1


def test_html_without_a_numeric_metric_and_for_diffs():
    gf = GraphFrame.from_lists(("main", "solve"))
    text = replaced(gf, default_metric="name")._repr_html_()
    assert "<details" not in text and "2 nodes (tree)" in text
    d = diff(*pair(ranks=0))
    html = d._repr_html_()
    assert "time (inc) delta" in html
    values = dict((n, v) for v, n in lines_of(html))
    assert values["io"] == "-0.500" and values["main"] == "2.000"
    assert "background:#2ca02c" in html  # negative deltas are green


def test_html_is_deterministic():
    gf = example_graphframe()
    assert gf._repr_html_() == gf.copy()._repr_html_()


def test_html_line_budget():
    names = ["root"] + [f"c{i}" for i in range(10)] + [f"g{i}" for i in range(100)]
    parent = [-1] + [0] * 10 + [1 + i // 10 for i in range(100)]
    gf = gf_from_edges(names, parent)
    html = RENDERERS["html"].render(gf, max_children=10, max_lines=20)
    assert len(lines_of(html)) == 20
    assert "… more nodes not shown (the view stops at 20 lines" in html
    assert html.count("<details") == html.count("</details>")


def bar_widths(html):
    """Filled width (px) of every node's bar, in document order."""
    return [int(w) for w in re.findall(r"<span style='display:inline-block;width:(\d+)px;"
                                       r"height:0.7em;background:#(?:d62728|2ca02c)", html)]


def test_exclusive_only_profiles_show_inclusive_sums_and_unclipped_bars():
    import numpy as np

    from benchmarks.generate import generate
    gf = GraphFrame.from_raw(generate(10000, 16))
    assert gf.inc_metrics == [] and gf.exc_metrics == ["time"]
    html = gf._repr_html_()
    assert "time (inc), summed from time (rank 0)" in html
    shown = lines_of(html)
    total = gf.dataframe.xs(0, level="rank")["time"].sum()
    assert shown[0][1] == "main" and float(shown[0][0]) == round(total, 3)
    widths = bar_widths(html)
    assert widths[0] == 80 and widths.count(80) == 1  # only the root is full
    # every bar is its value over the root's, children ranked by their inclusive values
    values = np.array([float(v) for v, _ in shown])
    np.testing.assert_array_equal(widths, np.rint(values / values[0] * 80).astype(int))
    # the same as a profile that carries the inclusive column
    full = gf.update_inclusive_columns(inplace=False)
    assert lines_of(full._repr_html_()) == shown


def test_bars_are_scaled_by_the_largest_value_shown():
    # an exclusive metric asked for explicitly: the root's own time is small
    gf = gf_from_edges(["main", "a", "b"], [-1, 0, 0], times=[1.0, 4.0, 2.0])
    html = RENDERERS["html"].render(gf, metric="time")
    assert [n for _, n in lines_of(html)] == ["main", "a", "b"]
    assert bar_widths(html) == [20, 80, 40]
    # diffs: a child's delta can be larger than the root's
    d = diff(gf, gf_from_edges(["main", "a", "b"], [-1, 0, 0], times=[1.0, 8.0, -2.0]))
    html = d._repr_html_()
    assert dict((n, v) for v, n in lines_of(html)) == {"main": "0.000", "a": "4.000",
                                                       "b": "-4.000"}
    assert bar_widths(html) == [0, 80, 80]
