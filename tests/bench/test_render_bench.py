"""The text-tree benchmark script runs end to end and writes its results."""

import json

from benchmarks import render_bench


def test_render_bench_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    report = render_bench.main(["--nodes", "400", "--ranks", "2", "--repeat", "2",
                                "--json", str(out)])
    assert json.loads(out.read_text()) == json.loads(json.dumps(report, default=str))
    res = report["result"]
    assert (res["nodes"], res["ranks"], res["rows"], res["repeat"]) == (400, 2, 800, 2)
    assert res["tree_depth2"]["lines"] > 2   # the header, a blank line, main and its children
    for key in ("tree_depth2", "tree_depth4", "diff_tree_depth3"):
        assert len(res[key]["seconds"]) == len(res[key]["load_average"]) == 2
    assert res["tree_depth4"]["lines"] > res["tree_depth2"]["lines"]
    assert "text trees of 400 nodes x 2 ranks (800 rows)" in capsys.readouterr().out
