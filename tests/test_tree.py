"""tree(): exact strings for every option."""

import numpy as np
import pandas as pd
import pytest

from graphframe import Graph, GraphFrame, MetricError
from graphframe.examples import example_graphframe

ESC = "\033["


def simple():
    return GraphFrame.from_lists(("a", ("b", "c"), "d"))


def test_default_body_and_header():
    out = simple().tree()
    assert out == ("graphframe v0.1.0 \u2014 time\n\n"
                   "1.000 a\n├─ 1.000 b\n│  └─ 1.000 c\n└─ 1.000 d\n")


def test_ascii_glyphs_precision_and_several_metrics():
    out = simple().tree(metric_column=["time (inc)", "time"], precision=1, unicode=False,
                        render_header=False)
    assert out == "4.0 1.0 a\n|- 2.0 1.0 b\n|  `- 1.0 1.0 c\n`- 1.0 1.0 d\n"


def test_depth_limits_printed_levels():
    assert simple().tree(depth=1, render_header=False) == "1.000 a\n"
    assert simple().tree(depth=2, render_header=False) == "1.000 a\n├─ 1.000 b\n└─ 1.000 d\n"


def test_long_names_are_shortened_unless_expanded():
    name = "x" * 20 + "y" * 25
    gf = GraphFrame.from_lists((name,))
    assert gf.tree(render_header=False) == "1.000 " + "x" * 18 + "..." + "y" * 18 + "\n"
    assert gf.tree(render_header=False, expand_name=True) == "1.000 " + name + "\n"


def test_context_annotation_and_missing_node_decorations():
    gf = simple()
    df = gf.dataframe.copy()
    df["file"] = ["a.c", "b.c", "c.c", "d.c"]
    df["note"] = ["x", "y", "z", "w"]
    df["_missing_node"] = [0, 1, 2, 0]
    gf2 = gf._replace(dataframe=df)
    out = gf2.tree(annotation_column="note", render_header=False)
    assert out == ("1.000 [x] a a.c\n├─ 1.000 [y] b ◀  b.c\n│  └─ 1.000 [z] c ▶  c.c\n"
                   "└─ 1.000 [w] d d.c\n")
    ascii_lines = gf2.tree(context_column=None, render_header=False, unicode=False).splitlines()
    assert ascii_lines[1:3] == ["|- 1.000 b < ", "|  `- 1.000 c > "]


def test_rank_and_thread_rows_are_selected():
    g = Graph.from_lists(("a", "b"))
    idx = pd.MultiIndex.from_product([[0, 1], [0, 1], [0, 1]], names=["node", "rank", "thread"])
    df = pd.DataFrame({"time": np.arange(8.0), "name": ["a"] * 4 + ["b"] * 4}, index=idx)
    gf = GraphFrame(g, df, ["time"], [])
    assert gf.tree(render_header=False) == "0.000 a\n└─ 4.000 b\n"
    assert gf.tree(rank=1, thread=1, render_header=False) == "3.000 a\n└─ 7.000 b\n"
    assert gf.tree(rank=1).startswith("graphframe v0.1.0 \u2014 time (rank 1)\n\n")


def test_nodes_without_a_row_print_nan():
    g = Graph.from_lists(("a", "b"))
    df = pd.DataFrame({"time": [2.0], "name": ["a"]}, index=pd.Index([0], name="node"))
    out = GraphFrame(g, df, ["time"], []).tree(render_header=False)
    assert out == "2.000 a\n└─ nan b\n"


def test_dag_node_printed_under_each_parent_with_subtree_once():
    attrs = pd.DataFrame({"name": ["a", "b", "c", "d", "e"]})
    g, _ = Graph.build(attrs, [-1, 0, 0, 1, 3], ([2], [3]))
    df = pd.DataFrame({"time": [1.0] * 5, "name": list("abdec")},
                      index=pd.Index(range(5), name="node"))
    out = GraphFrame(g, df, ["time"], []).tree(render_header=False)
    assert out == ("1.000 a\n├─ 1.000 b\n│  └─ 1.000 d\n│     └─ 1.000 e\n"
                   "└─ 1.000 c\n   └─ 1.000 d\n")


def test_colour_legend_and_highlight():
    gf = simple()
    df = gf.dataframe.copy()
    df["time"] = [0.0, 5.0, 10.0, -1.0]
    gf = gf._replace(dataframe=df)
    out = gf.tree(color=True, render_header=False, highlight_name=True)
    lines = out.splitlines()
    assert lines[0] == f"{ESC}38;5;22m0.000{ESC}0m {ESC}48;5;246m{ESC}38;5;232ma{ESC}0m"
    assert lines[1].startswith(f"├─ {ESC}38;5;220m5.000{ESC}0m")
    assert lines[2].startswith(f"│  └─ {ESC}38;5;196m10.000{ESC}0m")
    assert lines[3].startswith(f"└─ {ESC}38;5;22m-1.000")  # the minimum maps to 0.0
    assert f"{ESC}4mLegend{ESC}0m (Metric: time Min: -1.00 Max: 10.00)" in out
    assert f"{ESC}38;5;196m█ {ESC}0m8.90 - 10.00" in out
    assert out.rstrip().endswith("Only in right graph")
    plain = gf.tree(render_header=False, legend=True)
    assert ESC not in plain and "Legend (Metric: time Min: -1.00 Max: 10.00)" in plain


def test_colour_range_overrides_honour_zero():
    gf = simple()
    out = gf.tree(color=True, render_header=False, min_value=0, max_value=2, legend=False)
    assert out.splitlines()[0].startswith(f"{ESC}38;5;46m1.000")  # p = 0.5 -> 4th colour
    inverted = gf.tree(color=True, render_header=False, invert_colormap=True, legend=False,
                       min_value=0, max_value=2)
    assert inverted.splitlines()[0].startswith(f"{ESC}38;5;220m1.000")


def test_bad_metric_and_colormap_and_keywords():
    gf = simple()
    with pytest.raises(MetricError, match="metric_column='nope' does not exist"):
        gf.tree(metric_column="nope")
    with pytest.raises(MetricError, match="not numeric"):
        gf.tree(metric_column="name")
    with pytest.raises(ValueError, match="unknown colormap 'Jet'"):
        gf.tree(color=True, colormap="Jet")
    with pytest.raises(TypeError, match="unexpected keyword"):
        gf.tree(bogus=1)


def test_hatchet_deprecated_keywords_are_renamed_with_a_warning():
    gf = simple()
    with pytest.warns(DeprecationWarning, match='"metric=" is deprecated'):
        out = gf.tree(metric="time (inc)", render_header=False)
    assert out.splitlines()[0] == "4.000 a"


def test_example_profile_renders_deterministically():
    first = example_graphframe().tree(metric_column="time (inc)")
    assert first == example_graphframe().tree(metric_column="time (inc)")
    assert first.splitlines()[2] == "25.070 main"


def test_large_tree_renders_in_linear_time():
    n = 100_000
    parent = np.maximum((np.arange(n) - 1) // 3, -1)
    parent[0] = -1
    g, _ = Graph.build(pd.DataFrame({"name": [f"n{i}" for i in range(n)]}), parent)
    df = pd.DataFrame({"time": np.ones(n), "name": g.attrs["name"].to_numpy()},
                      index=pd.Index(np.arange(n), name="node"))
    out = GraphFrame(g, df, ["time"], []).tree(render_header=False)
    assert out.count("\n") == n
