"""``graphframe gc``, and ``info`` / ``plot gc-*`` / ``report`` given JVM GC logs."""

from __future__ import annotations

import io

import pytest

from graphframe.cli import main
from tests.plot.profiles import matplotlib_agg

matplotlib_agg()

A = """[0.010s][info][gc] Using Parallel
[0.010s][info][gc,init] Version: 17.0.2+8 (release)
[0.010s][info][gc,init] Heap Max Capacity: 100M
[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 40M->10M(100M) 4.000ms
[2.000s][info][gc] GC(1) Pause Young (Allocation Failure) 50M->12M(100M) 6.000ms
[3.000s][info][gc] GC(2) Pause Full (System.gc()) 30M->8M(100M) 20.000ms
"""


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def log(tmp_path):
    p = tmp_path / "a.log"
    p.write_text(A)
    q = tmp_path / "b.log"
    q.write_text(A.replace("20.000ms", "30.000ms"))
    return p, q


def test_gc_summary(log):
    code, out, err = run("gc", log[0], log[1])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["log", "GCs", "pauses", "pause"]
    assert lines[1].split()[:5] == ["a.log", "3", "3", "30.000", "ms"]
    assert lines[2].split()[:5] == ["b.log", "3", "3", "40.000", "ms"]


def test_gc_summary_by_and_filter(log):
    code, out, _ = run("gc", log[0], "--by", "cause", "--filter", "event_type=pause",
                       "--filter", "duration=0.005:")
    assert code == 0
    rows = [line.split()[:3] for line in out.splitlines()[1:]]
    assert rows == [["Allocation", "Failure", "1"], ["System.gc()", "1", "1"]]
    code, out, err = run("gc", log[0], "--filter", "bogus=1")
    assert code != 0 and "KEY=VALUE" in err


def test_info_of_a_gc_log(log):
    code, out, err = run("info", log[0])
    assert code == 0, err
    assert "format:       jvm-gc (JVM garbage-collection log)" in out
    assert "  collector:  Parallel" in out and "  jvm:        17.0.2+8" in out
    assert "  heap:       100 MB max" in out
    assert "  GCs:        3 (3 pauses, 1 full, 0 safepoints)" in out


@pytest.mark.parametrize("kind", ["gc-pauses", "gc-heap", "gc-heatmap", "gc-percentiles",
                                  "gc-phases", "gc-allocation", "gc-histogram", "gc-latency",
                                  "gc-causes"])
def test_plot_kinds(log, tmp_path, kind):
    out = tmp_path / f"{kind}.png"
    paths = [log[0]] if kind == "gc-heatmap" else [log[0], log[1]]
    code, _, err = run("plot", kind, *paths, "-o", out)
    assert code == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_one_and_two_logs(log, tmp_path):
    out = tmp_path / "r.html"
    code, _, err = run("report", log[0], log[1], "-o", out)
    assert code == 0, err
    page = out.read_text()
    assert "a.log" in page and "b.log" in page and "x1.33" in page  # 40 ms vs 30 ms
    code, _, err = run("report", log[0], "-o", tmp_path / "one.html")
    assert code == 0, err
