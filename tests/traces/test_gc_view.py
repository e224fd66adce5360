"""The GC view (tf.gc) on hand-made logs: summary, percentiles, filter, groups, GCGC's
columns, the phase tree."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe.traces.gc import GcView
from graphframe.traces.gc.gcgc import GCGC_COLUMNS

M = 2.0 ** 20

G1 = """[0.010s][info][gc] Using G1
[0.010s][info][gc,init] Heap Region Size: 1M
[1.000s][info][gc,start] GC(0) Pause Young (Normal) (G1 Evacuation Pause)
[1.000s][info][gc,phases] GC(0)   Evacuate Collection Set: 3.0ms
[1.000s][info][gc,phases] GC(0)     Merge Heap Roots: 1.0ms
[1.000s][info][gc,heap] GC(0) Old regions: 2->5
[1.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 40M->10M(100M) 4.0ms
[1.001s][info][safepoint] Safepoint "G1CollectForAllocation", Time since last: 1000000 ns, Reaching safepoint: 2000 ns, Cleanup: 1000 ns, At safepoint: 4100000 ns, Total: 4103000 ns
[2.000s][info][gc] GC(1) Concurrent Mark Cycle
[2.010s][info][gc] GC(1) Concurrent Mark From Roots 8.0ms
[2.020s][info][gc] GC(1) Pause Remark 60M->60M(100M) 2.0ms
[2.030s][info][gc] GC(1) Concurrent Mark Cycle 30.0ms
[3.000s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 70M->20M(100M) 6.0ms
[4.000s][info][gc] GC(3) Pause Full (System.gc()) 50M->15M(100M) 20.0ms
"""

ZGC = """[0.010s][info][gc] Initializing The Z Garbage Collector
[1.000s][info][gc] GC(0) Garbage Collection (Warmup)
[1.000s][info][gc,phases] GC(0) Pause Mark Start 0.010ms
[1.020s][info][gc,phases] GC(0) Concurrent Mark 20.000ms
[1.020s][info][gc,phases] GC(0) Pause Mark End 0.020ms
[1.030s][info][gc] GC(0) Garbage Collection (Warmup) 60M(30%)->20M(10%)
[2.000s][info][gc] GC(1) Garbage Collection (Proactive) 80M(40%)->30M(15%)
"""


@pytest.fixture
def logs(tmp_path):
    (tmp_path / "g1.log").write_text(G1)
    (tmp_path / "zgc.log").write_text(ZGC)
    return tmp_path


def test_events_columns_and_values(logs):
    ev = graphframe.read_trace(logs / "g1.log").gc.events
    assert list(ev.columns[:19]) == [
        "log", "gc_id", "time", "datetime", "event_type", "name", "cause", "collector",
        "generation", "heap_before", "heap_after", "heap_capacity", "duration",
        "time_to_reach", "at_safepoint", "cleanup", "leaving", "total", "time_since_last"]
    pauses = ev[ev["event_type"] == "pause"]
    assert pauses[["gc_id", "time", "name", "generation"]].values.tolist() == [
        [0, 1.0, "Pause Young", "young"], [1, 2.02, "Pause Remark", "old"],
        [2, 3.0, "Pause Young", "young"], [3, 4.0, "Pause Full", "full"]]
    assert pauses["duration"].tolist() == [0.004, 0.002, 0.006, 0.02]
    assert set(ev["collector"]) == {"G1"}
    sp = ev[ev["event_type"] == "safepoint"].iloc[0]
    assert (sp["name"], sp["time_to_reach"], sp["at_safepoint"], sp["total"]) == (
        "G1CollectForAllocation", 2e-06, 0.0041, 0.004103)


def test_summary_by_log(logs):
    gc = graphframe.read_trace(logs).gc
    s = gc.summary()
    assert s.index.tolist() == ["g1.log", "zgc.log"]
    g1 = s.loc["g1.log"]
    assert g1["run_time"] == 4.0
    assert (g1["gc_count"], g1["pause_count"], g1["full_gc_count"]) == (4, 4, 1)
    assert g1["pause_total"] == pytest.approx(0.032)
    assert g1["pause_max"] == 0.02 and g1["pause_mean"] == pytest.approx(0.008)
    assert g1["pause_p50"] == pytest.approx(0.005)
    assert g1["throughput"] == pytest.approx(1 - 0.032 / 4.0)
    assert g1["concurrent_time"] == pytest.approx(0.030)   # the cycle, not its phases too
    # allocation: 40M before GC(0); then 60-10, 70-60, 50-20 MB
    assert g1["allocated"] == (40 + 50 + 10 + 30) * M
    assert g1["allocation_rate"] == pytest.approx((40 + 50 + 10 + 30) * M / 4.0)
    assert g1["reclaimed"] == (30 + 0 + 50 + 35) * M
    assert g1["promoted"] == 3 * M  # Old regions 2 -> 5 during the young GC(0)
    assert (g1["safepoint_count"], g1["safepoint_total"], g1["time_to_reach_max"]) == (
        1, 0.004103, 2e-06)
    z = s.loc["zgc.log"]
    assert (z["gc_count"], z["pause_count"]) == (2, 2)
    assert z["pause_total"] == pytest.approx(0.00003)
    assert z["concurrent_time"] == pytest.approx(0.020)
    assert z["allocated"] == (60 + 60) * M
    assert math.isnan(z["promoted"]) and z["safepoint_count"] == 0


def test_summary_by_other_columns(logs):
    gc = graphframe.read_trace(logs).gc
    by_cause = gc.filter(event_type="pause").summary(by="cause")
    assert by_cause.index.tolist() == ["G1 Evacuation Pause", "System.gc()"]
    assert by_cause["pause_count"].tolist() == [2, 1]
    assert by_cause["run_time"].tolist() == [4.0, 4.0]
    two = gc.summary(by=["log", "generation"])
    assert two.loc[("g1.log", "full"), "pause_total"] == 0.02
    assert two.loc[("zgc.log", ""), "pause_count"] == 2


def test_percentiles(logs):
    gc = graphframe.read_trace(logs).gc
    p = gc.percentiles(q=(50, 100))
    assert p.columns.tolist() == ["p50", "p100"]
    assert p.loc["g1.log"].tolist() == pytest.approx([0.005, 0.02])
    assert gc.percentiles(q=(100,), by="name", event_type="concurrent").loc[
        "Concurrent Mark", "p100"] == 0.02


def test_filter_returns_a_new_view_and_leaves_the_input(logs):
    tf = graphframe.read_trace(logs)
    before = tf.events.copy()
    gc = tf.gc
    young = gc.filter(name="Pause Young", time=(0, 3.5), duration=(0.005, None))
    assert young.events["gc_id"].tolist() == [2]
    assert len(gc.filter(lambda e: e["heap_after"] > 50 * M)) == 1
    assert gc.filter(collector="ZGC", event_type="collection").events["cause"].tolist() == [
        "Warmup", "Proactive"]
    pd.testing.assert_frame_equal(tf.events, before)
    assert isinstance(young, GcView) and young is not gc


def test_groups(logs):
    gc = graphframe.read_trace(logs).gc.filter(event_type="pause")
    got = {k: len(v) for k, v in gc.groups("log")}
    assert got == {"g1.log": 4, "zgc.log": 2}
    assert [k for k, _ in gc.groups(["log", "generation"])][:2] == [("g1.log", "young"),
                                                                    ("g1.log", "old")]


def test_nesting_of_phases(logs):
    ev = graphframe.read_trace(logs / "g1.log").gc.events
    row = {n: i for i, n in enumerate(ev["name"].astype(str)) if n not in ("Pause Young",)}
    first_pause = ev.index[(ev["name"] == "Pause Young")][0]
    assert ev.loc[row["Evacuate Collection Set"], ["depth", "parent"]].tolist() == [1, first_pause]
    assert ev.loc[row["Merge Heap Roots"], ["depth", "parent"]].tolist() == [
        2, row["Evacuate Collection Set"]]
    cycle = ev.index[(ev["name"] == "Concurrent Mark Cycle")][0]
    assert ev.loc[row["Pause Remark"], "parent"] == cycle


def test_gcgc_frame(logs):
    tf = graphframe.read_trace(logs)
    g = tf.gc.gcgc_frame()
    assert tuple(g.columns) == GCGC_COLUMNS and len(GCGC_COLUMNS) == 23
    young = g[(g["EventType"] == "Pause") & (g["EventName"] == "Young")].iloc[0]
    assert (young["GCIndex"], young["AdditionalEventInfo"], young["HeapBeforeGC"],
            young["HeapAfterGC"], young["MaxHeapsize"], young["Duration_milliseconds"],
            young["TimeFromStart_seconds"]) == (0, "(Normal) (G1 Evacuation Pause) ", 40.0,
                                                10.0, 100.0, 4.0, 1.0)
    z = g[g["EventType"] == "Garbage Collection"]
    assert z["EventName"].isna().all()
    assert z[["HeapBeforeGC", "HeapPercentFull"]].values.tolist() == [[60.0, 10.0],
                                                                        [80.0, 15.0]]
    sp = g[g["EventType"] == "Safepoint"].iloc[0]
    assert (sp["SafepointName"], sp["TotalTimeAtSafepoint_ns"]) == ("G1CollectForAllocation",
                                                                    4103000.0)
    # GCGC notebook code: a row filter and a column mean
    long = g[g.apply(lambda r: r["Duration_milliseconds"] == r["Duration_milliseconds"]
                     and r["Duration_milliseconds"] > 5, axis=1)]
    assert long["Duration_milliseconds"].tolist() == [8.0, 30.0, 6.0, 20.0, 20.0]


def test_phase_tree(logs):
    tf = graphframe.read_trace(logs / "g1.log")
    gf = tf.to_graphframe()
    df = gf.dataframe
    counts = dict(zip(df["name"], df["count"]))
    assert counts["Pause Young"] == 2 and counts["Evacuate Collection Set"] == 1
    assert counts["Merge Heap Roots"] == 1 and counts["Pause Full"] == 1
    inc = dict(zip(df["name"], df["time (inc)"]))
    assert inc["Pause Young"] == pytest.approx(0.010)
    assert inc["Safepoints"] == pytest.approx(0.004103)
    two = graphframe.read_trace(logs).to_graphframe()
    assert two.metadata["logs"] == ["g1.log", "zgc.log"]
    assert "Garbage Collection" in set(two.dataframe["name"])


def test_gc_view_only_for_gc_logs(tmp_path):
    p = tmp_path / "t.json"
    p.write_text('[{"ph": "X", "name": "main", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]')
    with pytest.raises(ValueError, match="JVM GC logs"):
        graphframe.read_trace(p).gc


def test_labels(logs):
    tf = graphframe.read_trace([logs / "g1.log", logs / "zgc.log"], labels=["run A", "run B"])
    assert tf.gc.logs == ["run A", "run B"]


@pytest.mark.parametrize("shared", [False, True])
def test_the_view_and_the_events_table_share_no_memory(logs, monkeypatch, shared):
    from graphframe.traces.gc import frame

    if shared:  # as a large table's view: its columns shared copy-on-write
        monkeypatch.setattr(frame, "COPY_ROWS", 0)
    tf = graphframe.read_trace(logs / "g1.log")
    events = tf.events.copy(deep=True)
    view = tf.gc.events
    kept = view.copy(deep=True)
    numeric = [c for c in view.columns if view[c].dtype.kind in "fiu"]
    for c in numeric:  # a change to the view stays in the view
        view.loc[0, c] = 7
    view.loc[0, "event_type"] = "safepoint"
    pd.testing.assert_frame_equal(tf.events, events)
    assert view.loc[0, "line"] == 7
    for c in tf.events.columns:  # and the other way round
        if tf.events[c].dtype.kind in "fiu":
            tf.events.loc[0, c] = 9
    tf2 = graphframe.read_trace(logs / "g1.log")
    tf2.events.loc[1, "duration"] = -1.0  # a column filled from another keeps its values
    assert tf2.events.loc[1, "exclusive"] == tf2.events.loc[1, "duration_s"] * 1e9
    assert kept.loc[1:, numeric].equals(view.loc[1:, numeric])


def test_a_large_tables_view_equals_a_small_ones(logs, monkeypatch):
    from graphframe.traces.gc import frame

    copied = graphframe.read_trace(logs / "g1.log").gc.events
    monkeypatch.setattr(frame, "COPY_ROWS", 0)
    shared = graphframe.read_trace(logs / "g1.log").gc.events
    pd.testing.assert_frame_equal(copied, shared, check_exact=True)
