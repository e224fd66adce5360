"""Every line shape of the issue, hand-made: collectors, figures, safepoints, counters."""

from __future__ import annotations

import math

import pytest

from tests.readers.traces.jvmgc.gclog import lines, read, rows

M = 2.0 ** 20
K = 2.0 ** 10
G = 2.0 ** 30


def events(ev, *types):
    return ev[ev["event_type"].isin(types)] if types else ev


def test_g1_young_with_sub_phases_regions_and_metaspace():
    text = lines(
        "Heap Region Size: 1M",
        "Using G1",
        "GC(5) Pause Young (Normal) (G1 Evacuation Pause)",
        "GC(5) Using 2 workers of 2 for evacuation",
        "GC(5)   Pre Evacuate Collection Set: 0.08ms",
        "GC(5)     Merge Heap Roots: 0.06ms",
        "GC(5) Eden regions: 67->0(63)",
        "GC(5) Old regions: 8->16",
        "GC(5) Metaspace: 215K(384K)->215K(384K) NonClass: 204K(256K)->204K(256K) "
        "Class: 11K(128K)->11K(128K)",
        "GC(5) Pause Young (Normal) (G1 Evacuation Pause) 102M->24M(128M) 6.080ms",
        "GC(5) User=0.00s Sys=0.00s Real=0.01s")
    ev, md = read(text)
    assert md["collector"] == "G1" and md["region_size"] == M
    assert md["unparsed"]["count"] == 0 and md["understood"] == 1.0
    assert rows(ev, "event_type", "name", "level", "gc_id", "generation") == [
        ["phase", "Pre Evacuate Collection Set", 1, 5, ""],
        ["phase", "Merge Heap Roots", 2, 5, ""],
        ["heap", "Eden regions", 0, 5, ""],
        ["heap", "Old regions", 0, 5, ""],
        ["metaspace", "Metaspace", 0, 5, ""],
        ["metaspace", "NonClass", 0, 5, ""],
        ["metaspace", "Class", 0, 5, ""],
        ["pause", "Pause Young", 0, 5, "young"]]
    assert rows(events(ev, "heap"), "heap_before", "heap_after", "heap_capacity")[0] == [
        67 * M, 0.0, 63 * M]
    assert math.isnan(events(ev, "heap")["heap_capacity"].iloc[1])
    assert rows(events(ev, "metaspace"), "heap_before", "heap_after", "heap_capacity")[0] == [
        215 * K, 215 * K, 384 * K]
    pause = events(ev, "pause").iloc[0]
    assert (pause["cause"], pause["info"]) == ("G1 Evacuation Pause",
                                                "(Normal) (G1 Evacuation Pause)")
    assert (pause["heap_before"], pause["heap_after"], pause["heap_capacity"]) == (
        102 * M, 24 * M, 128 * M)
    assert pause["duration"] == pytest.approx(6.08e6)


def test_g1_mixed_full_remark_cleanup_and_concurrent_cycle():
    ev, md = read(lines(
        "Using G1",
        "GC(7) Pause Young (Mixed) (G1 Evacuation Pause) 50M->20M(128M) 3.0ms",
        "GC(8) Pause Full (System.gc()) 79M->47M(128M) 13.069ms",
        "GC(9) Concurrent Mark Cycle",
        "GC(9) Concurrent Mark From Roots 5.0ms",
        "GC(9) Concurrent Mark (0.100s, 0.110s) 10.0ms",
        "GC(9) Pause Remark 60M->60M(128M) 1.0ms",
        "GC(9) Pause Cleanup 60M->60M(128M) 0.1ms",
        "GC(9) Concurrent Mark Cycle 20.0ms"))
    assert rows(ev, "event_type", "name", "cause", "generation") == [
        ["pause", "Pause Young", "G1 Evacuation Pause", "mixed"],
        ["pause", "Pause Full", "System.gc()", "full"],
        ["concurrent", "Concurrent Mark From Roots", None, "old"],
        ["concurrent", "Concurrent Mark", None, "old"],
        ["pause", "Pause Remark", None, "old"],
        ["pause", "Pause Cleanup", None, "old"],
        ["concurrent", "Concurrent Mark Cycle", None, "old"]]
    assert md["unparsed"]["count"] == 0


def test_parallel_three_transitions_on_one_line():
    ev, md = read(lines(
        "Using Parallel",
        "GC(2) PSYoungGen: 29696K(38400K)->4064K(38400K) Eden: 29696K(29696K)->0K(29696K) "
        "From: 0K(8704K)->4064K(8704K)",
        "GC(2) ParOldGen: 1024K->2048K(87552K)",
        "GC(2) Pause Young (Allocation Failure) 29M->5M(123M) 5.303ms",
        "GC(3) Marking Phase 3.1ms",
        "GC(3) Pause Full (Ergonomics) 1G->512M(2G) 20.0ms"))
    got = rows(ev, "name", "heap_before", "heap_after", "heap_capacity")
    assert [r[0] for r in got] == ["PSYoungGen", "Eden", "From", "ParOldGen", "Pause Young",
                                   "Marking Phase", "Pause Full"]
    assert got[0][1:] == [29696 * K, 4064 * K, 38400 * K]
    assert got[3][1:] == [1024 * K, 2048 * K, 87552 * K]
    assert got[6][1:] == [1 * G, 512 * M, 2 * G]
    assert events(ev, "phase")["name"].tolist() == ["Marking Phase"]
    assert md["collector"] == "Parallel"


def test_serial_defnew_tenured_bytes_figures():
    ev, _ = read(lines(
        "Using Serial",
        "GC(0) DefNew: 17024K(19136K)->2112K(19136K) Eden: 17024K(17024K)->0K(17024K) "
        "From: 0K(2112K)->2112K(2112K)",
        "GC(0) Tenured: 0K(43712K)->2876K(43712K)",
        "GC(0) Pause Young (Allocation Failure) 512B->0B(1K) 0.1ms"))
    assert ev["name"].tolist() == ["DefNew", "Eden", "From", "Tenured", "Pause Young"]
    assert rows(events(ev, "pause"), "heap_before", "heap_after", "heap_capacity") == [
        [512.0, 0.0, 1024.0]]


def test_cms():
    ev, md = read(lines(
        "Using Concurrent Mark Sweep",
        "GC(0) ParNew: 17024K->2112K(19136K)",
        "GC(0) CMS: 0K->2876K(43712K)",
        "GC(0) Pause Young (Allocation Failure) 16M->4M(61M) 2.137ms",
        "GC(1) Pause Initial Mark 30M->30M(61M) 0.312ms",
        "GC(1) Concurrent Mark",
        "GC(1) Concurrent Mark 10.021ms",
        "GC(1) Concurrent Abortable Preclean 3.981ms",
        "GC(1) Pause Remark 35M->35M(61M) 1.113ms",
        "GC(1) Concurrent Sweep 4.001ms",
        "GC(1) Concurrent Reset 0.411ms"))
    assert md["collector"] == "CMS" and md["unparsed"]["count"] == 0
    assert rows(ev, "event_type", "name", "generation") == [
        ["heap", "ParNew", ""], ["heap", "CMS", ""],
        ["pause", "Pause Young", "young"], ["pause", "Pause Initial Mark", "old"],
        ["concurrent", "Concurrent Mark", "old"],
        ["concurrent", "Concurrent Abortable Preclean", "old"],
        ["pause", "Pause Remark", "old"], ["concurrent", "Concurrent Sweep", "old"],
        ["concurrent", "Concurrent Reset", "old"]]


def test_shenandoah_degenerated_full_and_concurrent_with_heap():
    ev, md = read(lines(
        "Using Shenandoah",
        "GC(3) Pause Init Mark (unload classes) 0.5ms",
        "GC(3) Concurrent marking (unload classes) 12.0ms",
        "GC(3) Concurrent cleanup 100M->60M(256M) 0.123ms",
        "GC(7) Pause Degenerated GC (Outside of Cycle) 240M->120M(256M) 10.456ms",
        "GC(8) Pause Full 250M->100M(256M) 50.1ms"))
    assert rows(ev, "event_type", "name", "cause", "info") == [
        ["pause", "Pause Init Mark", None, "(unload classes)"],
        ["concurrent", "Concurrent marking", None, "(unload classes)"],
        ["concurrent", "Concurrent cleanup", None, None],
        ["pause", "Pause Degenerated GC", "Outside of Cycle", "(Outside of Cycle)"],
        ["pause", "Pause Full", None, None]]
    assert events(ev, "concurrent")["heap_after"].tolist()[1] == 60 * M
    assert md["collector"] == "Shenandoah"


def test_zgc_collection_line_with_percentages_and_no_duration():
    ev, _ = read(lines(
        "Initializing The Z Garbage Collector",
        "GC(36) Garbage Collection (Proactive)",
        "GC(36) Pause Mark Start 0.006ms",
        "GC(36) Concurrent Mark 24.943ms",
        "GC(36) Garbage Collection (Proactive) 2332M(28%)->190M(2%)"))
    coll = events(ev, "collection").iloc[0]
    assert (coll["name"], coll["cause"], coll["heap_before"], coll["heap_after"],
            coll["heap_before_pct"], coll["heap_after_pct"]) == (
        "Garbage Collection", "Proactive", 2332 * M, 190 * M, 28.0, 2.0)
    assert math.isnan(coll["duration"])
    assert ev["event_type"].tolist() == ["pause", "concurrent", "collection"]


def test_generational_zgc():
    ev, md = read(lines(
        "Using The Z Garbage Collector",
        "GC(0) Major Collection (Warmup)",
        "GC(0) Using 2 Workers for Young Generation",
        "GC(0) Y: Young Generation",
        "GC(0) Y: Pause Mark Start (Major) 0.012ms",
        "GC(0) Y: Concurrent Mark 19.845ms",
        "GC(0) Y: Young Generation 26M(10%)->12M(5%) 0.030s",
        "GC(0) O: Old Generation",
        "GC(0) O: Concurrent Mark 0.952ms",
        "GC(0) O: Old Generation 12M(5%)->10M(4%) 0.030s",
        "GC(0) Major Collection (Warmup) 26M(10%)->10M(4%) 0.060s",
        "GC(1) Minor Collection (Allocation Rate) 50M(20%)->20M(8%) 0.020s"))
    assert md["collector"] == "ZGC" and md["generational_zgc"] is True
    assert md["unparsed"]["count"] == 0
    assert rows(ev, "event_type", "name", "generation", "cause") == [
        ["pause", "Pause Mark Start", "young", None],
        ["concurrent", "Concurrent Mark", "young", None],
        ["collection", "Young Generation", "young", None],
        ["concurrent", "Concurrent Mark", "old", None],
        ["collection", "Old Generation", "old", None],
        ["collection", "Major Collection", "full", "Warmup"],
        ["collection", "Minor Collection", "young", "Allocation Rate"]]
    assert ev["duration"].tolist()[2] == pytest.approx(0.030e9)
    assert ev["heap_after_pct"].tolist()[-1] == 8.0


def test_epsilon_heap_counter():
    ev, md = read(lines(
        "Using Epsilon",
        "Using TLAB allocation; max: 4096K",
        "Heap: 256M reserved, 256M (100.00%) committed, 52736K (20.12%) used"))
    assert md["collector"] == "Epsilon"
    assert rows(ev, "event_type", "name", "heap_after", "heap_capacity", "kind", "value") == [
        ["heap", "Heap", 52736 * K, 256 * M, "counter", 52736 * K]]


def test_graalvm_after_banner():
    text = ("$ numactl --physcpubind=4 app -Xmx64m -XX:+PrintGC\n"
            "__  ____  __  _____\n"
            "2024-01-16 12:26:37,338 INFO  [io.quarkus] (main) started in 0.033s.\n"
            "[3.497s] GC(0) Pause Full GC (Collect on allocation) 13.00M->3.00M 14.698ms\n"
            "[3.713s] GC(1) Pause Incremental GC (Collect on allocation) 16.00M->3.50M 2.440ms\n")
    ev, md = read(text)
    assert md["collector"] == "GraalVM" and md["decorators"] == "uptime"
    assert rows(ev, "name", "cause", "generation", "heap_before", "heap_after") == [
        ["Pause Full GC", "Collect on allocation", "full", 13 * M, 3 * M],
        ["Pause Incremental GC", "Collect on allocation", "young", 16 * M, 3.5 * M]]
    assert ev["heap_capacity"].isna().all()
    assert md["unparsed"]["count"] == 3 and md["unparsed"]["gc_lines"] == 0
    assert [e[1] for e in md["unparsed"]["examples"]] == [1, 2, 3]


def test_safepoint_variants():
    ev, _ = read(lines(
        'Safepoint "G1CollectForAllocation", Time since last: 100 ns, Reaching safepoint: '
        '20 ns, At safepoint: 30 ns, Total: 50 ns',
        'Safepoint "GenCollectForAllocation", Time since last: 67913342 ns, Reaching '
        'safepoint: 3355 ns, Cleanup: 14792 ns, At safepoint: 2866926 ns, Total: 2885073 ns',
        'Safepoint "ZMarkEndYoung", Time since last: 3027666 ns, Reaching safepoint: 1522 ns, '
        'Cleanup: 1603 ns, At safepoint: 27951 ns, Leaving safepoint: 692 ns, Total: 31768 ns'))
    got = rows(ev, "name", "time_since_last", "time_to_reach", "cleanup", "at_safepoint",
               "leaving", "total")
    assert got[0][0] == "G1CollectForAllocation"
    assert got[0][1:] == pytest.approx([100e-9, 20e-9, math.nan, 30e-9, math.nan, 50e-9],
                                       nan_ok=True)
    assert got[1][1:] == pytest.approx([67913342e-9, 3355e-9, 14792e-9, 2866926e-9, math.nan,
                                        2885073e-9], nan_ok=True)
    assert got[2][1:] == pytest.approx([3027666e-9, 1522e-9, 1603e-9, 27951e-9, 692e-9,
                                        31768e-9])
    assert ev["event_type"].tolist() == ["safepoint"] * 3
    assert ev["duration"].tolist() == pytest.approx([50.0, 2885073.0, 31768.0])


def test_jdk11_safepoint_region_lines():
    ev, md = read(lines(
        "Entering safepoint region: EnableBiasedLocking",
        "Leaving safepoint region",
        "Total time for which application threads were stopped: 0.0081351 seconds, "
        "Stopping threads took: 0.0000562 seconds",
        "Application time: 0.0240119 seconds",
        "Entering safepoint region: RevokeBias",
        "Leaving safepoint region",
        "Total time for which application threads were stopped: 0.0009469 seconds, "
        "Stopping threads took: 0.0008442 seconds"))
    got = rows(ev, "name", "total", "time_to_reach", "time_since_last")
    assert [g[0] for g in got] == ["EnableBiasedLocking", "RevokeBias"]
    assert got[1][1:] == pytest.approx([0.0009469, 0.0008442, 0.0240119])
    assert math.isnan(got[0][3])
    assert md["unparsed"]["count"] == 0 and md["counts"]["gc_lines"] == 7


def test_jdk11_safepoint_name_carries_across_blocks():
    text = lines("Application time: 0.5 seconds", "Entering safepoint region: Cleanup",
                 "Leaving safepoint region",
                 "Total time for which application threads were stopped: 0.001 seconds, "
                 "Stopping threads took: 0.0001 seconds")
    whole, _ = read(text)
    small, _ = read(text, block_size=40)
    assert rows(small, "name", "time_since_last") == rows(whole, "name", "time_since_last") \
        == [["Cleanup", 0.5]]


def test_statistics_tables_are_not_events():
    ev, md = read(lines(
        "GC(0) Pause Init Mark (unload classes) 0.5ms",
        "All times are wall-clock times, except per-root-class counters, that are sum over",
        "Pause Init Mark (G)                 643 us",
        "  Update Region States               89 us",
        "      0 of   199 ms (  0.0%): <total>",
        "      Phase: Pause Mark Start                              0.010 / 0.010         "
        "0.010 / 0.010         0.010 / 0.010         0.010 / 0.010       ms",
        "   Subphase: Concurrent Mark                              3.1 / 4.2       "
        "3.1 / 4.2       3.1 / 4.2       3.1 / 4.2      ms"))
    assert ev["name"].tolist() == ["Pause Init Mark"]
    assert md["unparsed"]["count"] == 0


def test_code_cache_and_metaspace_counters():
    ev, _ = read(
        "[2.432s][debug][compilation,codecache] CodeHeap 'non-profiled nmethods': "
        "size=2272Kb used=207Kb max_used=207Kb free=2064Kb\n"
        "[2.433s][debug][codecache,sweep,start] CodeCache flushing\n"
        "[0.507s][info][gc,metaspace] GC(0) Metaspace: 3821K used, 4480K committed, "
        "13056K reserved\n"
        "[1.507s][info][gc,metaspace] GC(1) Metaspace: 896M used, 964M committed, 1059M reserved\n"
        "[2.507s][info][gc,metaspace] GC(2) Metaspace: 359G used, 538G committed, 1024G reserved\n"
        "[35.056s][info][gc,metaspace] Metaspace: 1864K(4480K)->562K(832K) NonClass: "
        "1517K(3136K)->528K(704K) Class: 347K(1344K)->34K(128K)\n"
        "[3.0s][info][gc,heap,exit] Heap\n"
        "[3.0s][info][gc,heap,exit]  garbage-first heap   total 131072K, used 68000K "
        "[0x00000000f8000000, 0x0000000100000000)\n"
        "[3.0s][info][gc,heap,exit]  Metaspace       used 1234K, committed 1300K, reserved "
        "1056768K\n")
    got = rows(ev, "event_type", "name", "gc_id", "heap_after", "heap_capacity")
    assert [g[:3] for g in got] == [
        ["codecache", "CodeHeap 'non-profiled nmethods'", -1],
        ["codecache", "CodeCache flushing", -1],
        ["metaspace", "Metaspace", 0], ["metaspace", "Metaspace", 1],
        ["metaspace", "Metaspace", 2], ["metaspace", "Metaspace", -1],
        ["metaspace", "NonClass", -1], ["metaspace", "Class", -1],
        ["heap", "garbage-first heap", -1], ["metaspace", "Metaspace", -1]]
    assert [g[3] for g in got if not math.isnan(g[3])] == [
        207 * K, 3821 * K, 896 * M, 359 * G, 562 * K, 528 * K, 34 * K, 68000 * K, 1234 * K]
    assert got[8][4] == 131072 * K


def test_generational_zgc_cycle_with_its_tables_is_understood_whole():
    y = "GC(0) Y: "
    ev, md = read(lines(
        "GC(0) Major Collection (Warmup)",
        "GC(0) Using 2 Workers for Young Generation",
        "GC(0) Using 2 Workers for Old Generation",
        y + "Young Generation",
        y + "Pause Mark Start (Major) 0.013ms",
        y + "Concurrent Mark 12.665ms",
        y + "Pause Mark End 0.017ms",
        y + "Concurrent Mark Free 0.001ms",
        y + "                        Mark Start        Mark End      Relocate Start    Relocate End",
        y + "Allocation Stalls:          0                0                0                0",
        y + "Load: 0.52 (26%) / 0.55 (28%) / 0.58 (29%)",
        y + "MMU: 2ms/99.2%, 5ms/99.7%, 10ms/99.8%, 20ms/99.9%, 50ms/100.0%, 100ms/100.0%",
        y + "Mark: 2 stripe(s), 2 proactive flush(es), 1 terminate flush(es), 0 completion(s), "
            "0 continuation(s)",
        y + "Mark Stack Usage: 32M",
        y + "NMethods: 296 registered, 0 unregistered",
        y + "Metaspace: 0M used, 0M committed, 1088M reserved",
        y + "                       Candidates     Selected     In-Place         Size        Empty",
        y + "Small Pages:                    8            5            0          16M           4M",
        y + "Forwarding Usage: 0M",
        y + "Age Table:",
        y + "                   Live             Garbage             Small              Medium",
        y + "Eden               1M (0%)         14M (6%)          7 / 5              0 / 0",
        y + "Survivor 1         0M (0%)          0M (0%)          0 / 0              0 / 0",
        y + "Min Capacity: 8M(3%)",
        y + "Heap Statistics:",
        y + " Capacity:       16M (6%)           18M (7%)           18M (7%)           18M (7%)",
        y + "Young Generation Statistics:",
        y + "     Used:       16M (6%)           18M (7%)           18M (7%)            2M (1%)",
        y + " Promoted:         -                  -                 0M (0%)            0M (0%)",
        y + "Young Generation 16M(6%)->2M(1%) 0.019s",
        "GC(0) O: Old Generation",
        "GC(0) O: Concurrent Mark 6.110ms",
        "GC(0) O: Concurrent Process Non-Strong 1.190ms",
        "GC(0) O: Old Generation Statistics:",
        "GC(0) O: Old Generation 4M(2%)->4M(2%) 0.009s",
        "GC(0) Major Collection (Warmup) 16M(6%)->4M(2%) 0.028s"))
    assert md["unparsed"]["count"] == 0 and md["understood"] == 1.0
    assert ev[ev["event_type"] != "metaspace"]["name"].tolist() == [
        "Pause Mark Start", "Concurrent Mark", "Pause Mark End", "Concurrent Mark Free",
        "Young Generation", "Concurrent Mark", "Concurrent Process Non-Strong",
        "Old Generation", "Major Collection"]
    assert ev["prefix"].tolist()[:3] == ["Y", "Y", "Y"]
