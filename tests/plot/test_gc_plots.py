"""The GC plots: what each draws from hand-made logs, ax=, filter=, by=, errors."""

from __future__ import annotations

import numpy as np
import pytest

import graphframe
from graphframe.errors import ArgumentError
from graphframe.plot.gc.allocation import gc_allocation
from graphframe.plot.gc.causes import gc_causes
from graphframe.plot.gc.heap import gc_heap
from graphframe.plot.gc.heatmap import gc_heatmap, heatmap_data
from graphframe.plot.gc.histogram import gc_histogram
from graphframe.plot.gc.latency import gc_latency
from graphframe.plot.gc.pauses import gc_pauses
from graphframe.plot.gc.percentiles import gc_percentiles
from graphframe.plot.gc.phases import gc_phases
from graphframe.plot.gc.report import gc_report
from tests.plot.profiles import matplotlib_agg

matplotlib_agg()

A = """[0.010s][info][gc] Using Parallel
[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 40M->10M(100M) 4.000ms
[2.000s][info][gc] GC(1) Pause Young (Allocation Failure) 50M->12M(100M) 6.000ms
[3.000s][info][gc] GC(2) Pause Full (System.gc()) 30M->8M(100M) 20.000ms
"""
B = """[0.010s][info][gc] Initializing The Z Garbage Collector
[1.500s][info][gc] GC(0) Garbage Collection (Warmup)
[1.500s][info][gc] GC(0) Pause Mark Start 0.010ms
[1.520s][info][gc] GC(0) Concurrent Mark 20.000ms
[1.530s][info][gc] GC(0) Garbage Collection (Warmup) 60M(30%)->20M(10%)
"""


@pytest.fixture
def tf(tmp_path):
    (tmp_path / "a.log").write_text(A)
    (tmp_path / "b.log").write_text(B)
    return graphframe.read_trace(tmp_path)


@pytest.fixture
def ax():
    from matplotlib.figure import Figure
    return Figure().add_subplot()


def test_pauses_scatter_per_group(tf, ax):
    assert gc_pauses(tf, ax=ax) is ax
    offsets = [c.get_offsets().tolist() for c in ax.collections]
    assert offsets == [[[1.0, 4.0], [2.0, 6.0], [3.0, 20.0]], [[1.5, 0.01]]]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a.log", "b.log"]


def test_pauses_filter_and_by(tf, ax):
    gc_pauses(tf.gc, filter={"generation": "young"}, by="cause", unit="s", ax=ax)
    assert [c.get_offsets().tolist() for c in ax.collections] == [[[1.0, 0.004],
                                                                  [2.0, 0.006]]]
    assert ax.get_ylabel() == "duration (s)"


def test_filter_callable_and_bad_filter(tf, ax):
    gc_pauses(tf, filter=lambda ev: ev["duration"] > 0.005, by=None, ax=ax)
    assert len(ax.collections[0].get_offsets()) == 2
    with pytest.raises(ArgumentError, match="filter="):
        gc_pauses(tf, filter=3, ax=ax)
    with pytest.raises(ArgumentError, match="no column 'nope'"):
        gc_pauses(tf, by="nope", ax=ax)


def test_phases_bars(tf, ax):
    gc_phases(tf, ax=ax)
    spans = [np.round(p.get_paths()[0].vertices[:, 0].min(), 6) for p in ax.collections]
    assert len(ax.collections) == 3  # a.log pauses, b.log pauses, b.log concurrent
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a.log", "b.log"]
    assert min(spans) == pytest.approx(0.996)


def test_heap_sawtooth(tf, ax):
    gc_heap(tf, ax=ax, capacity=True)
    lines = ax.get_lines()
    assert lines[0].get_xdata().tolist() == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    assert lines[0].get_ydata().tolist() == [40.0, 10.0, 50.0, 12.0, 30.0, 8.0]
    assert lines[1].get_ydata().tolist() == [100.0, 100.0, 100.0]
    assert lines[2].get_ydata().tolist() == [60.0, 20.0]  # ZGC: no capacity line
    # two logs: one entry per log and one saying what the dashed lines are
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == "capacity (dashed)"
    assert len(ax.get_legend().get_texts()) == 3


def test_heap_legend_of_one_log(tf, ax):
    gc_heap(tf, ax=ax, capacity=True, filter=lambda ev: ev["log"] == ev["log"].iloc[0])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["used", "capacity"]


def test_allocation_rate(tf, ax):
    gc_allocation(tf, ax=ax)
    a = ax.get_lines()[0]
    # 40M in the first second, then 40M in one second, 18M in one second
    assert a.get_ydata().tolist() == [40.0, 40.0, 18.0]


def test_histogram_percentiles_latency(tf, ax):
    gc_histogram(tf, bins=4, ax=ax)
    assert len(ax.patches) == 2
    from matplotlib.figure import Figure
    ax2 = Figure().add_subplot()
    gc_percentiles(tf, ax=ax2)
    assert ax2.get_lines()[0].get_ydata()[0] == pytest.approx(4.0)
    assert ax2.get_lines()[0].get_ydata()[-1] == pytest.approx(20.0, rel=1e-3)
    ax3 = Figure().add_subplot()
    gc_latency(tf, q=(50, 100), ax=ax3)
    heights = [round(p.get_height(), 6) for p in ax3.patches]
    assert heights == [6.0, 20.0, 0.01, 0.01]


def test_heatmap(tf, ax):
    m, d, t = heatmap_data(tf, filter={"log": "a.log"}, time_buckets=2, duration_buckets=2)
    assert m.tolist() == [[1.0, 1.0], [0.0, 1.0]]
    assert d.tolist() == [4.0, 12.0, 20.0] and t.tolist() == [1.0, 2.0, 3.0]
    mt, _, _ = heatmap_data(tf, filter={"log": "a.log"}, value="time", time_buckets=2,
                            duration_buckets=2)
    assert mt.tolist() == [[4.0, 6.0], [0.0, 20.0]]
    assert gc_heatmap(tf, filter={"log": "a.log"}, ax=ax) is ax
    with pytest.raises(ArgumentError, match="draws one group"):
        gc_heatmap(tf, by="log", ax=ax)


def test_causes(tf, ax):
    gc_causes(tf, ax=ax)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["(none)", "Allocation Failure", "System.gc()"]
    widths = sorted(round(p.get_width(), 6) for p in ax.patches if p.get_width())
    assert widths == [0.01, 10.0, 20.0]


def test_report_page(tf):
    page = gc_report(tf, title="t")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 8
    assert "a.log" in page and "b.log" in page and "x" in page
