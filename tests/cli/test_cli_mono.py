"""graphframe tree / info / report / plot on Mono log profiler files (issue 28)."""

from __future__ import annotations

import io

import pytest

from graphframe.cli import main
from graphframe_readers.testing.writers.mlpd import MlpdWriter


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(map(str, argv)), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def log(tmp_path):
    w = MlpdWriter(args="log:calls,alloc", pid=321)
    w.buffer(thread=0x10, events=[
        w.thread(0, 0x10, name="Main"), w.klass(0, 0x50, 0x90, "A.Node"),
        w.vtable(0, 0x60, 0, 0x50), w.jit(1, 0x100, 0x9000, 64, "A:Main ()"),
        w.jit(1, 0x200, 0x9100, 32, "A:Work (int)"), w.enter(10, 0x100),
        w.enter(20, 0x200), w.alloc(25, 0x60, 0x1000, 40), w.leave(2_000_020, 0x200),
        w.leave(3_000_010, 0x100), w.throw(3_000_020, 0x1000),
        w.clause(3_000_030, 0, 0, 0x100, 0x1000)])
    return w.write(tmp_path / "app.mlpd")


def test_tree(log):
    code, out, err = run("tree", log, "--no-color", "--no-header", "--thread", 0x10,
                         "-m", "calls")
    assert code == 0, err
    assert out.splitlines() == ["1.000 A:Main ()", "└─ 1.000 A:Work (int)"]


def test_info_has_the_header_and_summaries(log):
    code, out, err = run("info", log)
    assert code == 0, err
    assert "format:    mono-mlpd" in out
    for line in ("\tArguments: log:calls,alloc", "\tProgram ID: 321", "\tCompiled methods: 2",
                 "\tThrows: 1", "\tExecuted catch clauses: 1", '\tThread: 0x10, name: "Main"'):
        assert "  " + line in out


def test_report_prints_mprof_reports_sections(log, tmp_path):
    code, out, err = run("report", log, "--sections", "call,alloc,exception")
    assert code == 0, err
    assert out.splitlines() == [
        "", "Method call summary", "Total(ms) Self(ms)      Calls Method name",
        "       3        1          1 A:Main ()", "       2        2          1 A:Work (int)",
        "Total calls: 2", "", "Allocation summary", "     Bytes      Count  Average Type name",
        "        40          1       40 A.Node",
        "Total memory allocated: 40 bytes in 1 objects", "", "Exception summary",
        "\tThrows: 1", "\tExecuted catch clauses: 1"]
    target = tmp_path / "r.txt"
    code, out, err = run("report", log, "-o", target)
    assert code == 0 and out == "" and target.read_text().startswith("\nMono log profiler data")


def test_report_of_a_profile_still_needs_an_output(tmp_path):
    p = tmp_path / "p.json"
    p.write_text('[{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]')
    code, out, err = run("report", p)
    assert code == 2 and "-o/--output" in err


def test_plots(log, tmp_path):
    pytest.importorskip("matplotlib")
    for kind in ("allocations", "flamegraph"):
        target = tmp_path / f"{kind}.svg"
        code, out, err = run("plot", kind, log, "-o", target)
        assert code == 0, err
        assert target.read_text().startswith("<?xml")


def test_a_truncated_log_is_an_error_line(log, tmp_path):
    bad = tmp_path / "cut.mlpd"
    bad.write_bytes(open(log, "rb").read()[:-4])
    code, out, err = run("tree", bad)
    assert code == 1 and err.startswith(f"graphframe: error: {bad}: buffer at byte ")
