"""benchmarks/io_bench.py: every case runs on a tiny profile (plumbing only, no timing)."""

import argparse

import pytest

from benchmarks import io_bench


# the exports case times to_flamegraph with its default scale, which notes the scale chosen
@pytest.mark.filterwarnings("ignore::graphframe.render.weights.ExportNote")
def test_cases_run_on_tiny_profiles(tmp_path):
    args = argparse.Namespace(small=300, big=400, ranks=2, repeat=1, hatchet_repeat=1,
                              hatchet_python="", workdir=str(tmp_path))
    exports = io_bench.case_exports(args)
    assert exports["nodes"] == 300 and exports["rows"] == 600 and "hatchet" not in exports
    d = io_bench.case_diff(args)
    assert d["nodes_before"] == 400 and set(d["status"]) <= {"common", "added", "removed"}
    assert d["ranked_all_rows"] >= d["regressions_rows"] > 0
    saved = io_bench.case_save(args)
    loaded = io_bench.case_load(args)
    assert saved["rows"] == loaded["rows"] == 800
    line = io_bench._line("diff", d)
    assert line.startswith("diff: diff ") and "peak RSS" in line
