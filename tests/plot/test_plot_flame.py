"""Flame graphs and icicles: the data behind the boxes, the drawn artists, errors."""

import numpy as np
import pandas as pd
import pytest

from graphframe import diff
from graphframe.errors import ArgumentError, MetricError
from graphframe.plot import flame_data, flamegraph, icicle
from tests.plot.profiles import SOLVER, build, matplotlib_agg, node_of, solver

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def box_geometry(collection):
    """(x, width, y) of each quadrilateral of a PolyCollection."""
    out = []
    for path in collection.get_paths():
        v = path.vertices[:4]
        out.append((v[:, 0].min(), v[:, 0].max() - v[:, 0].min(), v[:, 1].min()))
    return np.array(out)


def test_widths_are_inclusive_means_over_ranks_and_children_follow_node_order():
    gf = solver()
    data = flame_data(gf)
    inc = gf.dataframe["time (inc)"].groupby(level="node").mean()
    lay = data.layout
    assert np.allclose(lay.width, inc.to_numpy()[lay.node])
    assert data.value_label == "time (inc), mean over ranks"
    solve, io = node_of(gf, "main > solve"), node_of(gf, "main > io")
    x = dict(zip(lay.node.tolist(), lay.x.tolist()))
    assert x[io] == 0.0 and np.isclose(x[solve], inc[io])  # io < solve in node order
    assert list(data.labels) == [gf.dataframe.loc[(v, 0), "name"] for v in lay.node]


def test_an_exclusive_only_profile_is_summed_over_subtrees_and_a_rank_can_be_picked():
    gf = build(SOLVER, np.array([0.5, 1.0, 8.0, 0.5, 2.0, 0.25]), inclusive=False)
    assert gf.inc_metrics == []
    data = flame_data(gf)
    widths = dict(zip(data.labels.tolist(), data.layout.width.tolist()))
    assert widths["main"] == 12.25 and widths["solve"] == 9.5 and widths["io"] == 2.25
    assert data.value_label == "time (sum over subtree)"
    ranked = solver()
    picked = flame_data(ranked, rank=3)
    rows = ranked.dataframe.xs(3, level="rank")["time (inc)"]
    assert np.allclose(picked.layout.width, rows.to_numpy()[picked.layout.node])
    assert picked.value_label == "time (inc), rank 3"


def test_one_poly_collection_per_depth_with_the_boxes_of_the_layout():
    gf = solver()
    data = flame_data(gf, color="name")
    ax = flamegraph(gf, color="name")
    lay = data.layout
    assert len(ax.collections) == lay.max_depth + 1 == 3
    for d, coll in enumerate(ax.collections):
        rows = lay.depth == d
        geo = box_geometry(coll)
        assert np.allclose(geo[:, 0], lay.x[rows]) and np.allclose(geo[:, 1], lay.width[rows])
        assert (geo[:, 2] == d).all()
    assert ax.get_xlim() == (0.0, lay.total)
    assert ax.get_xlabel() == "time (inc), mean over ranks"
    texts = [t.get_text() for t in ax.texts]
    assert "main" in texts and "solve" in texts
    # the same name, the same colour: both MPI_Allreduce boxes
    faces = ax.collections[2].get_facecolors()
    allreduce = [i for i, v in enumerate(lay.node[lay.depth == 2])
                 if data.labels[lay.depth == 2][i] == "MPI_Allreduce"]
    assert len(allreduce) == 2 and np.allclose(faces[allreduce[0]], faces[allreduce[1]])


def test_module_colours_by_default_with_a_legend_widest_first():
    gf = solver()
    data = flame_data(gf)
    assert data.color_kind == "category" and data.categories == ("app", "libmpi")
    ax = flamegraph(gf)
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["app", "libmpi"]
    assert legend.get_title().get_text() == "module"
    tab10 = mpl.colormaps["tab10"].colors
    faces = np.concatenate([c.get_facecolors() for c in ax.collections])
    expected = [tab10[0] if data.categories[c] == "app" else tab10[1]
                for c in data.color_values]
    assert np.allclose(faces[:, :3], np.array(expected))


def test_a_numeric_colour_column_uses_the_colormap_and_a_colour_bar():
    gf = solver()
    data = flame_data(gf, color="time")
    exc = gf.dataframe["time"].groupby(level="node").mean().to_numpy()
    assert np.allclose(data.color_values, exc[data.layout.node])
    ax = flamegraph(gf, color="time", cmap="viridis")
    norm = mpl.colors.Normalize(exc.min(), exc.max())
    faces = np.concatenate([c.get_facecolors() for c in ax.collections])
    assert np.allclose(faces, mpl.colormaps["viridis"](norm(data.color_values)))
    colorbar_axes = [a for a in ax.figure.axes if a is not ax]
    assert len(colorbar_axes) == 1 and colorbar_axes[0].get_ylabel() == "time"


def test_a_diff_is_coloured_by_delta_red_slower_blue_faster():
    before = solver()
    times = np.array([0.5, 1.0, 4.0, 2.0, 2.0, 0.25])[:, None] * np.ones(4)
    after = build(SOLVER, times)
    d = diff(before, after)
    data = flame_data(d)
    assert data.color_kind == "diverging" and data.value_label == "time (inc) after"
    after_inc = after.dataframe["time (inc)"].groupby(level="node").mean()
    widths = dict(zip(data.labels.tolist(), data.layout.width.tolist()))
    assert np.isclose(widths["main"], after_inc[node_of(after, "main")])
    delta = d.dataframe["time delta"].to_numpy()
    assert np.allclose(data.color_values, delta[data.layout.node])
    ax = flamegraph(d)
    faces = np.concatenate([c.get_facecolors() for c in ax.collections])
    spmv = list(data.labels).index("spmv")
    slower = [i for i, v in enumerate(data.color_values) if v > 0]
    assert data.color_values[spmv] < 0 and faces[spmv][2] > faces[spmv][0]  # blue
    assert slower and all(faces[i][0] > faces[i][2] for i in slower)  # red
    bar = [a for a in ax.figure.axes if a is not ax][0]
    lo, hi = bar.get_ylim()
    assert np.isclose(-lo, hi) and np.isclose(hi, np.abs(delta).max())
    before_view = flame_data(d, width="before")
    assert before_view.value_label == "time (inc) before"
    # an inclusive primary metric still colours by each node's own (exclusive) change
    by_inc = flame_data(diff(before, after, "time (inc)"))
    assert by_inc.color_label == "time delta" and by_inc.value_label == "time (inc) after"
    assert flame_data(d, color="time (inc) delta").color_label == "time (inc) delta"


def test_icicle_puts_the_roots_on_top_and_returns_the_axes_it_was_given():
    fig, ax = plt.subplots()
    out = icicle(solver(), ax=ax)
    assert out is ax and ax.yaxis_inverted()
    assert not flamegraph(solver()).yaxis_inverted()


def test_small_boxes_are_merged_with_a_count_label():
    # mean exclusive times: main 0.5, io 2.0 > MPI_Allreduce 0.4, solve 1.0 > spmv 8.75,
    # MPI_Allreduce 1.1; total 13.75, so boxes under 1.375 are merged
    data = flame_data(solver(), min_fraction=0.1)
    lay = data.layout
    assert data.labels.tolist() == ["main", "io", "solve", "(1 more)", "spmv", "(1 more)"]
    assert np.allclose(lay.width, [13.75, 2.4, 10.85, 0.4, 8.75, 1.1])
    assert np.allclose(lay.x, [0.0, 0.0, 2.4, 0.0, 2.4, 11.15])
    assert lay.merged.tolist() == [0, 0, 0, 1, 0, 1]
    ax = flamegraph(solver(), min_fraction=0.1)
    faces = ax.collections[2].get_facecolors()
    assert np.allclose(faces[[0, 2]], mpl.colors.to_rgba("#bdbdbd"))


@pytest.mark.parametrize("call, error, text", [
    (dict(metric="nope"), MetricError, "available metrics: time, time (inc)"),
    (dict(color="colour"), MetricError, "choose 'name' or one of: time, name, module"),
    (dict(rank=9), ArgumentError, "rank=9 does not exist; the ranks are 0, 1, 2, 3"),
    (dict(aggregate="median"), ArgumentError, "choose one of sum, mean, min, max"),
    (dict(min_fraction=1.5), ArgumentError, "0 <= min_fraction < 1"),
    (dict(cmap="nope", color="time"), ArgumentError, "not a matplotlib colormap"),
])
def test_bad_input_names_the_choices_and_leaves_no_figure_open(call, error, text):
    with pytest.raises(error, match=None) as info:
        flamegraph(solver(), **call)
    assert text in str(info.value)
    assert plt.get_fignums() == []


def test_nothing_to_draw_is_an_error():
    gf = build(SOLVER, np.zeros(6))
    with pytest.raises(ArgumentError, match="no node has a positive time"):
        flamegraph(gf)
    assert plt.get_fignums() == []


def test_a_failure_while_drawing_closes_the_figure_it_made():
    from graphframe.plot import _mpl
    with pytest.raises(RuntimeError):
        with _mpl.axes(None) as ax:
            assert plt.get_fignums() == [ax.figure.number]
            raise RuntimeError("boom")
    assert plt.get_fignums() == []
    fig, given = plt.subplots()
    with pytest.raises(RuntimeError):
        with _mpl.axes(given):
            raise RuntimeError("boom")
    assert plt.get_fignums() == [fig.number]  # the caller's figure is theirs


def test_ax_must_be_an_axes():
    with pytest.raises(ArgumentError, match="not a matplotlib Axes"):
        flamegraph(solver(), ax="left")


def test_a_graph_with_shared_nodes_draws_each_node_once_scaled_to_fit():
    from graphframe import GraphFrame
    shared = {"frame": {"name": "shared"}, "metrics": {"time": 4.0, "_hatchet_nid": 9}}
    gf = GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": 1.0},
                                   "children": [
        {"frame": {"name": "a"}, "metrics": {"time": 1.0}, "children": [shared]},
        {"frame": {"name": "b"}, "metrics": {"time": 1.0}, "children": [dict(shared)]}]}])
    gf = gf.update_inclusive_columns(inplace=False)  # main 7 (shared counted once), a 5, b 5, shared 4
    data = flame_data(gf, min_fraction=0)
    # a and b (5 + 5) are scaled into main (7); shared sits under its first parent, a
    assert data.labels.tolist() == ["main", "a", "b", "shared"]
    assert np.allclose(data.layout.width, [7.0, 3.5, 3.5, 2.8])
    assert np.allclose(data.layout.x, [0.0, 0.0, 3.5, 0.0])
