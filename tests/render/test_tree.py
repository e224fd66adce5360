"""tree(): exact strings for every option."""

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import Graph, GraphFrame, MetricError
from graphframe.errors import ArgumentError
from graphframe.examples import example_graphframe
from graphframe_readers import ProfileBuilder
from tests.helpers import replaced

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
    gf2 = replaced(gf, dataframe=df)
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
    assert gf.tree(rank=1).startswith("graphframe v0.1.0 \u2014 time (rank 1, thread 0)\n\n")


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
    gf = replaced(gf, dataframe=df)
    out = gf.tree(color=True, render_header=False, highlight_name=True)
    lines = out.splitlines()
    assert lines[0] == f"{ESC}38;5;65m0.000{ESC}0m {ESC}48;5;246m{ESC}38;5;232ma{ESC}0m"
    assert lines[1].startswith(f"├─ {ESC}38;5;220m5.000{ESC}0m")
    assert lines[2].startswith(f"│  └─ {ESC}38;5;196m10.000{ESC}0m")
    assert lines[3].startswith(f"└─ {ESC}38;5;65m-1.000")  # the minimum maps to 0.0
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
    with pytest.raises(ArgumentError, match="unknown colormap 'Jet'"):
        gf.tree(color=True, colormap="Jet")
    with pytest.raises(TypeError, match="unexpected keyword"):
        gf.tree(bogus=1)


def test_hatchet_deprecated_keywords_are_renamed_with_a_warning():
    gf = simple()
    with pytest.warns(DeprecationWarning, match='"metric=" is deprecated'):
        out = gf.tree(metric="time (inc)", render_header=False)
    assert out.splitlines()[0] == "4.000 a"
    # both names at once: which one wins is unclear, a TypeError as in Hatchet
    with pytest.warns(DeprecationWarning), \
            pytest.raises(TypeError, match="both metric= .deprecated. and metric_column="):
        gf.tree(metric="time", metric_column="time")


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


# ----------------------------------------------------- argument checks (audit 7, 8)
def test_a_rank_or_thread_the_data_lacks_is_an_error_naming_the_ones_it_has():
    gf = example_graphframe()
    with pytest.raises(ArgumentError, match=r"^rank=99 does not exist; the ranks are 0, 1, 2, 3$"):
        gf.tree(rank=99)
    # a level the data lacks is ignored, as in Hatchet (its only rows are printed)
    assert gf.tree(thread=1, render_header=False) == gf.tree(render_header=False)
    assert GraphFrame.from_lists(("main", "solve")).tree(rank=1, render_header=False) == \
        GraphFrame.from_lists(("main", "solve")).tree(render_header=False)
    with pytest.raises(ArgumentError, match="rank=99 does not exist"):
        gf.to_flamegraph(rank=99)
    with pytest.raises(ArgumentError, match="rank=5 does not exist"):
        gf.to_dot(rank=5)
    with pytest.raises(ArgumentError, match="rank=5 does not exist"):
        gf.to_literal(rank=5)
    with pytest.raises(ArgumentError, match="rank=5 does not exist"):
        graphframe.diff(gf, gf, rank=5)
    assert gf.tree(rank=3, render_header=False).splitlines()[0] == "0.100 main"


@pytest.mark.parametrize("options, error, message", [
    ({"annotation_column": "nope"}, MetricError,
     "annotation_column='nope' does not exist in the dataframe; columns: time, name, time (inc)"),
    ({"name_column": "nope"}, MetricError,
     "name_column='nope' is neither a dataframe column nor a frame attribute"),
    ({"precision": -1}, ArgumentError, "precision=-1 is not allowed (expected an integer >= 0)"),
    ({"precision": 2.5}, ArgumentError, "precision=2.5 is not allowed"),
    ({"depth": -1}, ArgumentError, "depth=-1 is not allowed (expected an integer >= 0)"),
    ({"depth": "2"}, ArgumentError, "depth='2' is not allowed"),
    ({"colormap": "Jet"}, ArgumentError, "unknown colormap 'Jet'; choose one of BrBG, PRGn"),
    ({"colormap": "Jet", "color": True}, ArgumentError, "unknown colormap 'Jet'"),
    ({"colormap_annotations": "Jet"}, ArgumentError, "unknown colormap_annotations 'Jet'"),
    ({"min_value": "low"}, ArgumentError, "min_value='low' is not a number"),
])
def test_bad_tree_arguments_raise_our_errors(options, error, message):
    with pytest.raises(error) as info:
        simple().tree(**options)
    assert message in str(info.value)


def test_depth_none_prints_everything_and_name_column_may_be_a_frame_attribute():
    gf = simple()
    assert gf.tree(depth=None, render_header=False) == gf.tree(render_header=False)
    lit = [{"frame": {"name": "main", "file": "m.c"}, "metrics": {"time": 1.0}}]
    assert GraphFrame.from_literal(lit).tree(name_column="file", render_header=False) == \
        "1.000 m.c\n"


def test_a_profile_without_metrics_prints_its_structure():
    b = ProfileBuilder("structure")
    main = b.add_node({"name": "main"})
    b.add_node({"name": "solve"}, parent=main)
    b.add_node({"name": "io"}, parent=main)
    for i in range(3):
        b.add_row(i, {})
    gf = GraphFrame.from_raw(b.build())
    assert gf.default_metric is None
    assert gf.tree() == ("graphframe v0.1.0 \u2014 structure only (no metrics)\n\n"
                         "main\n├─ io\n└─ solve\n")
    assert gf.tree(render_header=False, unicode=False, color=True) == "main\n|- io\n`- solve\n"
    with pytest.raises(MetricError, match="metric_column='time' does not exist"):
        gf.tree(metric_column="time")


def test_structure_only_real_profile(shared_data):
    gf = graphframe.read(shared_data / "hpctoolkit" / "hpcviewer-bug-nometric-xml-database")
    lines = gf.tree(render_header=False).splitlines()
    assert lines[0] == "<program root> /tmp/tmp.exbc9HFH6I/monitor/src/main.c"
    assert lines[1] == "└─ 525:main <unknown file> [a.out]"
    assert len(lines) == 5


def test_tree_signature_lists_every_option():
    import inspect

    params = list(inspect.signature(GraphFrame.tree).parameters)
    assert params == ["self", "metric_column", "annotation_column", "precision", "name_column",
                      "expand_name", "context_column", "rank", "thread", "depth",
                      "highlight_name", "colormap", "invert_colormap", "colormap_annotations",
                      "render_header", "min_value", "max_value", "color", "unicode", "legend",
                      "hatchet_names"]
    with pytest.warns(DeprecationWarning, match='"name=" is deprecated'):
        assert simple().tree(name="name", render_header=False).startswith("1.000 a")


def test_by_default_the_lowest_rank_is_shown():
    # one file of a per-rank set holds rank 1 only: the default must not fail
    b = ProfileBuilder("rank1", index_levels=("rank",))
    main = b.add_node({"name": "main"})
    b.add_row(main, {"time": 2.0}, rank=1)
    gf = GraphFrame.from_raw(b.build(exc_metrics=["time"], default_metric="time"))
    assert gf.tree() == "graphframe v0.1.0 \u2014 time (rank 1)\n\n2.000 main\n"
    assert gf.to_literal() == [{"name": "main", "frame": {"name": "main", "type": "None"},
                                "metrics": {"time": 2.0, "_hatchet_nid": 0}, "attributes": {}}]
    with pytest.raises(ArgumentError, match="rank=0 does not exist; the ranks are 1"):
        gf.tree(rank=0)
    assert "time (rank 1)" in gf._repr_html_()


def test_legend_highlights_name_only_when_names_are_highlighted():
    # Hatchet 2024.1.3 / 2026.2.0: "name" in the legend's last line carries the highlight
    # colours only with highlight_name=True
    gf = GraphFrame.from_lists(("main", "solve"))
    plain = gf.tree(color=True, render_header=False).splitlines()[-1]
    lit = gf.tree(color=True, render_header=False, highlight_name=True).splitlines()[-1]
    assert plain.startswith("name\x1b[0m User code    \x1b[38;5;196m")
    assert lit.startswith("\x1b[48;5;246m\x1b[38;5;232mname\x1b[0m User code")
