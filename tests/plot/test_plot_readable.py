"""Pictures a new user could not read (issue 33 items 15-17), checked on the artists:
labels inside the figure, tick values, segment counts. Rendered with Agg."""

import io
import os
import re

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe.cli import main
from graphframe.plot import scaling
from graphframe.plot._mpl import fit_title
from graphframe.plot.svg import new_figure
from tests.plot.profiles import matplotlib_agg

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot")

LULESH = os.path.join("ensemble", "hatchet-tutorial", "lulesh-scaling")


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def drawn(fig):
    """Draw ``fig`` (Agg) and return its renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def outside(fig, texts):
    """The texts (shown, non-empty) whose box leaves the figure."""
    renderer = drawn(fig)
    box = fig.bbox
    bad = []
    for t in texts:
        if not t.get_visible() or not t.get_text():
            continue
        e = t.get_window_extent(renderer)
        if e.x0 < box.x0 - 0.5 or e.x1 > box.x1 + 0.5 or e.y0 < box.y0 - 0.5 \
                or e.y1 > box.y1 + 0.5:
            bad.append(t.get_text())
    return bad


def tick_labels(axis, minor=False):
    """The tick labels ``axis`` draws: text, inside the view limits (draw the figure first)."""
    lo, hi = sorted(axis.get_view_interval())
    pairs = zip(axis.get_ticklocs(minor=minor), axis.get_ticklabels(minor=minor))
    return [t for x, t in pairs if lo - 1e-9 * abs(hi) <= x <= hi + 1e-9 * abs(hi)
            and t.get_visible() and t.get_text()]


def shown(axis, minor=False):
    return [t.get_text() for t in tick_labels(axis, minor)]


# ---- item 15 and 17: plot scaling -----------------------------------------------------


def test_scaling_of_a_folder_has_a_short_title_in_key_order(shared_data, tmp_path):
    out = tmp_path / "s.svg"
    assert run("plot", "scaling", shared_data / LULESH, "-o", out) == (0, "", "")
    svg = out.read_text()
    assert "scaling: 8 profiles in lulesh-scaling, ranks 1 to 512" in svg
    assert "lulesh-annotation-profile" not in svg  # no chain of file names


def test_scaling_title_stays_inside_the_figure(shared_data):
    from graphframe.cli.plot_ensemble import profile_paths
    from graphframe.plot.kinds.scaling import scaling_title
    from graphframe.plot.registry import PlotRequest, plot_kind
    from graphframe.plot.scaling import scaling_table

    paths = profile_paths([str(shared_data / LULESH)])
    request = PlotRequest([str(shared_data / LULESH)], read_profile=graphframe.read,
                          expand=profile_paths)
    fig = plot_kind("scaling").cli(request)
    table = scaling_table([graphframe.read(p) for p in paths], None, top=5)
    title = fig._suptitle
    assert title.get_text().replace("\n", " ") == scaling_title(paths, table)
    assert table.index.tolist() == [1.0, 8.0, 27.0, 64.0, 125.0, 216.0, 343.0, 512.0]
    drawn(fig)
    texts = [title] + [t for a in fig.axes for t in
                       tick_labels(a.xaxis) + tick_labels(a.yaxis) + [a.title]]
    assert outside(fig, texts) == []


def test_log_axes_of_scaling_are_labelled_with_plain_numbers():
    t = pd.DataFrame({"solve": [64.0, 40.0, 25.0, 60.0]},
                     index=pd.Index([1, 2, 4, 8], name="ranks"))
    fig = scaling(t, panels=["time", "speedup"])
    drawn(fig)
    time_ax, speedup_ax = fig.axes
    for ax in (time_ax, speedup_ax):
        labels = shown(ax.yaxis) + shown(ax.yaxis, minor=True)
        assert labels, "no labels on the value axis"
        assert not [x for x in labels if "times" in x or "$" in x or "^" in x]
        for text in labels:
            float(text.replace("\u2212", "-"))  # each one a plain number
    # between 25 and 64 (one decade): matplotlib labels 30, 40, 60; written plainly
    minor = shown(time_ax.yaxis, minor=True)
    assert {"30", "40", "60"} <= set(minor)
    assert shown(time_ax.xaxis) == ["1", "2", "4", "8"]


def test_plain_numbers():
    from graphframe.plot._mpl import plain_number

    assert [plain_number(v) for v in (60.0, 0.5, 1.0, 1e5, 2e7, 0.0)] == \
        ["60", "0.5", "1", "100000", "2e+07", "0"]


# ---- item 17: stacked bars of many ranks, the imbalance colour bar -----------------------


def many_ranks(ranks=512):
    from tests.plot.profiles import SOLVER, build

    rng = np.random.default_rng(7)
    times = rng.uniform(0.5, 1.5, size=(len(SOLVER), ranks)) * \
        np.array([0.5, 1.0, 8.0, 0.5, 2.0, 0.25])[:, None]
    times[2, min(300, ranks - 1)] *= 40.0  # one slow rank on spmv
    return build(SOLVER, times)


def test_stacked_bars_of_512_ranks_draw_11_ranks_and_others():
    from graphframe.plot import bar

    gf = many_ranks()
    ax = bar(gf, "time", top=4, stacked="rank")
    assert len(ax.containers) == 12
    labels = [c.get_label() for c in ax.containers]
    assert labels[-1] == "others (501 ranks)"
    per_rank = gf.dataframe["time"].unstack("rank")
    rows = per_rank.sum(axis=1).sort_values(ascending=False, kind="stable").index[:4]
    shown = per_rank.loc[rows]
    totals = shown.sum(axis=0)
    kept = sorted(totals.sort_values(ascending=False, kind="stable").index[:11].tolist())
    assert labels[:-1] == [str(r) for r in kept] and "300" in labels
    widths = np.array([[p.get_width() for p in c] for c in ax.containers]).T
    assert np.allclose(widths.sum(axis=1), shown.sum(axis=1).to_numpy())  # nothing lost
    assert np.allclose(widths[:, :-1], shown[kept].to_numpy())
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == labels
    fig = ax.figure
    assert outside(fig, legend.get_texts() + [legend.get_title()]) == []
    assert outside(fig, tick_labels(ax.yaxis)) == []


def test_few_ranks_are_all_drawn_and_the_cap_is_an_option():
    from graphframe.plot import bar
    from graphframe.plot.bar import bar_chart

    gf = many_ranks(12)
    assert len(bar(gf, "time", top=3, stacked="rank").containers) == 12
    ax = bar(gf, "time", top=3, stacked="rank", max_series=4)
    assert [c.get_label() for c in ax.containers][-1] == "others (9 ranks)"
    with pytest.raises(graphframe.errors.ArgumentError, match="max_series=1: give a whole "
                                                             "number, 2 or more"):
        bar_chart(["a"], [[1.0, 2.0]], series=[0, 1], max_series=1)


def test_imbalance_colour_bar_has_a_tick_at_1(shared_data):
    from graphframe.plot import heatmap

    gf = graphframe.read(shared_data / "caliper" / "hatchet-tutorial" / "lulesh-json" /
                         "lulesh-annotation-profile-64cores.json")
    fig = new_figure((10.0, 7.0))
    heatmap(gf, imbalance=True, ax=fig.axes[0])
    drawn(fig)
    colour_bar = fig.axes[1]
    ticks = [float(t) for t in colour_bar.get_yticks()]
    lo, hi = colour_bar.get_ylim()
    assert 1.0 in ticks and lo <= 1.0 <= hi
    labels = shown(colour_bar.yaxis)
    assert "1" in labels and labels == [_plain(t) for t in ticks if lo <= t <= hi]
    # no two labels closer than their height
    boxes = sorted((t.get_window_extent() for t in tick_labels(colour_bar.yaxis)),
                   key=lambda b: b.y0)
    assert all(b.y0 >= a.y1 for a, b in zip(boxes, boxes[1:]))


def _plain(value):
    from graphframe.plot._mpl import plain_number

    return plain_number(value)


# ---- item 16: heatmaps with long call-path labels ----------------------------------------


def long_names(ranks=16):
    """A chain of functions with 90-character names, and a sibling of the leaf."""
    from tests.plot.profiles import build

    name = lambda i: f"ns{i}::detail::very_long_template_function<std::vector<double>, {i}>"
    nodes = [(name(0), -1, "app")] + [(name(i), i - 1, "app") for i in range(1, 7)]
    nodes.append(("MPI_Wait", 6, "mpi"))
    rng = np.random.default_rng(3)
    times = rng.uniform(0.5, 2.0, size=(len(nodes), ranks)) * np.arange(1, len(nodes) + 1)[:, None]
    return build(nodes, times)


def check_readable(fig, ax):
    """Every label inside the figure, column labels apart, the plot not squeezed."""
    renderer = drawn(fig)
    colour_bar = fig.axes[1]
    texts = (tick_labels(ax.yaxis) + tick_labels(ax.xaxis) + list(fig.texts) + [ax.xaxis.label,
             ax.yaxis.label] + tick_labels(colour_bar.yaxis) + [colour_bar.yaxis.label])
    assert outside(fig, texts) == []
    assert ax.get_window_extent(renderer).width >= 0.45 * fig.bbox.width
    columns = sorted((t.get_window_extent(renderer) for t in tick_labels(ax.xaxis)),
                     key=lambda b: b.x0)
    assert all(b.x0 > a.x1 for a, b in zip(columns, columns[1:])), "column labels overlap"
    rows = sorted((t.get_window_extent(renderer) for t in tick_labels(ax.yaxis)),
                  key=lambda b: b.y0)
    assert all(b.y0 >= a.y1 - 0.5 for a, b in zip(rows, rows[1:])), "row labels overlap"
    assert colour_bar.yaxis.get_offset_text().get_text() == ""  # no "1e7" by the title
    for title in fig.texts:  # the figure's title (suptitle)
        box = title.get_window_extent(renderer)
        for t in tick_labels(colour_bar.yaxis) + [ax.title]:
            assert not (t.get_text() and box.overlaps(t.get_window_extent(renderer)))


@pytest.mark.parametrize("size", [(10.0, 7.0), (10.0, 4.8), (6.0, 4.0)])
def test_a_heatmap_of_long_call_paths_keeps_its_labels_inside(size):
    from graphframe.plot import heatmap

    gf = long_names()
    fig = new_figure(size)
    ax = heatmap(gf, "time", ax=fig.axes[0], top=8)
    fit_title(fig, "heatmap: a profile with a rather long file name, run 2026-12-01.cali")
    check_readable(fig, ax)
    labels = shown(ax.yaxis)
    assert labels[0] == "MPI_Wait" and all(len(t) <= 48 for t in labels)
    assert labels[1].startswith("… > ns6::detail::") or labels[1].startswith("ns6::detail")


def test_rank_ticks_are_whole_ranks_spaced_so_they_do_not_collide():
    from graphframe.plot import heatmap

    for ranks, size, want in ((16, (10.0, 4.0), list(range(16))),
                              (512, (10.0, 4.0), list(range(0, 512, 32))),
                              (64, (5.0, 3.0), list(range(0, 64, 8)))):
        gf = long_names(ranks)
        fig = new_figure(size)
        ax = heatmap(gf, "time", ax=fig.axes[0], top=4)
        drawn(fig)
        assert [int(t) for t in shown(ax.xaxis)] == want, ranks
        check_readable(fig, ax)


@pytest.fixture(scope="module")
def gamess(shared_data):
    """16 ranks x 7 threads, 11,302 nodes, long HPCToolkit names."""
    return graphframe.read(shared_data / "hpctoolkit" / "hatchet-gamess-v4-database",
                           parallel_profiles_mode=True)


def test_the_imbalance_heatmap_of_a_real_database_is_readable(gamess):
    from graphframe.plot import heatmap

    gf = gamess
    fig = new_figure((10.0, 4.8))  # the report's size for ten rows
    ax = heatmap(gf, imbalance=True, top=10, ax=fig.axes[0])
    fit_title(fig, "heatmap: hatchet-gamess-v4-database")
    check_readable(fig, ax)
    assert shown(ax.xaxis) == [str(r) for r in range(16)]


def test_the_reports_imbalance_rows_are_those_of_graphframe_stats(gamess):
    """Item 8: one threshold rule. Unfiltered, the top ten were call paths one rank ran
    for microseconds (imbalance 16); now they are what ``graphframe stats`` ranks."""
    from graphframe.cli.stats import ranked_nodes
    from graphframe.plot.matrix import rank_matrix
    from graphframe.plot.report import _threads

    noisy = rank_matrix(gamess, "time", imbalance=True, top=10, aggregate="sum", threshold=0)
    assert np.allclose(noisy.stat, 16.0)
    per_rank = gamess.dataframe["time"].groupby(level=["node", "rank"]).sum().unstack()
    largest = np.nanmax(per_rank.to_numpy())
    assert (per_rank.loc[noisy.nodes].max(axis=1) < 0.01 * largest).all()
    m = rank_matrix(gamess, "time", imbalance=True, top=10, aggregate=_threads(gamess, "time"))
    table = ranked_nodes(gamess, "time", ("rank",), 1.0)[0]
    assert m.nodes.tolist() == [int(v) for v in table.index[:10]]
    assert np.allclose(m.stat, table["imbalance"].to_numpy()[:10])
    assert len(m.nodes) == 8  # the 8 call paths above the 1 % threshold, as stats prints
