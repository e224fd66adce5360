"""Timeline of a trace: boxes (start, width, lane, depth, colour) equal the events."""

import numpy as np
import pytest

from graphframe import read_trace
from graphframe.errors import ArgumentError
from graphframe.plot import timeline, timeline_data
from graphframe.plot.timeline import LANE_FILL, OTHER_COLOR
from graphframe.traces import TraceFrame
from graphframe_readers.traces.table import TableBuilder
from graphframe_readers.traces import EventBatch, Kind, StringTable
from tests.plot.profiles import matplotlib_agg

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot", reason="the plot tests need matplotlib")

E, L = Kind.ENTER, Kind.LEAVE


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def two_ranks() -> TraceFrame:
    """rank 0: main [1000, 9000] > send [2000, 5000]; rank 1: main [0, 4000] > recv [1000, 3000]
    > poll [1500, 2000] (times in ns)."""
    t = StringTable(["main", "send", "recv", "poll"])
    h = TableBuilder()
    h.on_batch(EventBatch.build(t, kind=[E, E, L, L], time=[1000, 2000, 5000, 9000], rank=0,
                                name=[0, 1, 1, 0]))
    h.on_batch(EventBatch.build(t, kind=[E, E, E, L, L, L],
                                time=[0, 1000, 1500, 2000, 3000, 4000], rank=1,
                                name=[0, 2, 3, 3, 2, 0]))
    h.on_end()
    return TraceFrame(h.result(), h.definitions)


def test_timeline_data_is_one_box_per_call():
    d = timeline_data(two_ranks())
    order = np.lexsort((d.start, d.lane))
    got = sorted(zip(d.lane.tolist(), d.depth.tolist(), d.name.tolist(),
                     np.round(d.start * 1e9).astype(int).tolist(),
                     np.round(d.width * 1e9).astype(int).tolist()))
    assert got == [(0, 0, "main", 1000, 8000), (0, 1, "send", 2000, 3000),
                   (1, 0, "main", 0, 4000), (1, 1, "recv", 1000, 2000),
                   (1, 2, "poll", 1500, 500)]
    assert d.lanes == [(0, 0), (1, 0)] and d.levels == 3 and len(order) == 5
    # exclusive totals: main 8000-3000 + 4000-2000 = 7000, send 3000, recv 1500, poll 500
    assert d.colored == ["main", "send", "recv", "poll"]
    two = timeline_data(two_ranks(), colors=2, ranks=[1], max_depth=1)
    assert two.colored == ["main", "recv"] and two.lanes == [(1, 0)]
    assert sorted(two.name.tolist()) == ["main", "recv"]


def test_boxes_drawn_match_the_data_and_the_legend_names_the_colours():
    trace = two_ranks()
    d = timeline_data(trace, colors=2)
    ax = timeline(trace, colors=2)
    boxes = ax.collections[0]
    paths = boxes.get_paths()
    assert len(paths) == 5
    sub = LANE_FILL / d.levels
    for i, path in enumerate(paths):
        xs, ys = path.vertices[:4, 0], path.vertices[:4, 1]
        assert np.allclose([xs.min(), xs.max()], [d.start[i], d.start[i] + d.width[i]])
        y0 = d.lane[i] + d.depth[i] * sub
        assert np.allclose([ys.min(), ys.max()], [y0, y0 + sub])
    faces = boxes.get_facecolors()
    grey = mpl.colors.to_rgba(OTHER_COLOR)
    assert [tuple(faces[i]) == grey for i in range(5)] == (d.color_index < 0).tolist()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["main", "send", "other"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["rank 0", "rank 1"]
    assert ax.get_xlim() == (0.0, 9000 / 1e9)


def test_bad_input_names_the_choices_and_leaves_no_figure():
    with pytest.raises(ArgumentError, match=r"ranks \[7\] are not in this trace; its ranks "
                                            "are 0, 1"):
        timeline(two_ranks(), ranks=[7])
    with pytest.raises(ArgumentError, match="give a graphframe TraceFrame"):
        timeline(object())
    with pytest.raises(ArgumentError, match="is not a matplotlib colormap"):
        timeline(two_ranks(), cmap="nope")
    assert plt.get_fignums() == []


def test_real_dumpi_trace_has_a_lane_per_rank(shared_data):
    trace = read_trace(shared_data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks")
    calls = trace.events[trace.events["kind"] == "enter"]
    ax = timeline(trace)
    assert len(ax.collections[0].get_paths()) == len(calls)
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"rank {r}" for r in range(4)]


def test_cli_timeline_writes_a_png(shared_data, tmp_path):
    from tests.plot.test_plot_cli import png_size, run
    out = tmp_path / "t.png"
    trace = shared_data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks"
    assert run("plot", "timeline", trace, "-o", out, "--top", "5") == (0, "", "")
    assert png_size(out) == (1200, 450)
    code, _, err = run("plot", "timeline", trace, "-o", out, "--rank", "9")
    assert code == 1 and "ranks [9] are not in this trace" in err
