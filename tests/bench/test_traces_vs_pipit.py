"""The trace benchmark's plumbing on tiny inputs: the NVTX generator and one fresh-process run."""

from __future__ import annotations

import sys

import pandas as pd

import graphframe as gf
from benchmarks import traces_generate, traces_vs_pipit


def test_the_nvtx_generator_writes_nested_ranges_the_export_describes(tmp_path):
    path = traces_generate.nvtx(200, str(tmp_path / "t.csv"), processes=2)
    csv = pd.read_csv(path)
    assert len(csv) == 2 * (1 + 12 * 8) and sorted(csv["PID"].unique()) == [4000, 4001]
    tf = gf.read_trace(path)
    calls = tf.events[tf.events["kind"] == "enter"]
    assert calls["depth"].tolist() == csv["Lvl"].tolist()
    assert calls["duration"].astype(int).tolist() == csv["Duration (ns)"].tolist()
    assert calls["exclusive"].astype(int).tolist() == csv["DurNonChild (ns)"].tolist()


def test_one_fresh_process_run_reports_times_and_memory(tmp_path):
    path = traces_generate.nvtx(100, str(tmp_path / "t.csv"), processes=1)
    for warm, named in ((False, False), (True, True)):
        res = traces_vs_pipit.run_once(sys.executable, "ours", "nvtx-small", path,
                                       warm=warm, named=named)
        assert res is not None and res["size"] == 2 * (1 + 12 * 8)
        assert res["total_s"] >= res["read_s"] > 0 and res["peak_mb"] > 0
    assert traces_vs_pipit.run_once("/no/such/python", "pipit", "nvtx-small", path) is None
