"""The rank_stats benchmark script runs end to end, checks its results and writes them."""

import json

import numpy as np

from benchmarks import stats_bench


def test_stats_bench_writes_json(tmp_path, capsys):
    out = tmp_path / "s.json"
    report = stats_bench.main(["--nodes", "300", "--ranks", "8", "--repeat", "2",
                               "--json", str(out)])
    assert json.loads(out.read_text()) == json.loads(json.dumps(report, default=str))
    res = report["result"]
    assert (res["nodes"], res["ranks"], res["rows"], res["repeat"]) == (300, 8, 2400, 2)
    assert res["equal"] == {stat: True for stat in stats_bench.STATS}
    assert len(res["ours"]["seconds"]) == len(res["numpy"]["seconds"]) == 2
    assert res["within_limits"]["equal"] is True
    text = capsys.readouterr().out
    assert "rank_stats on 300 nodes x 8 ranks (2,400 rows)" in text and "ratio" in text


def test_numpy_side_computes_the_nine_statistics():
    values = np.array([1.0, 3.0, 2.0, 2.0, 5.0, 1.0])
    got = stats_bench.numpy_stats(values, 2, 3)
    assert got["median"].tolist() == [2.0, 2.0] and got["argmax"].tolist() == [1, 1]
    assert got["imbalance"].tolist() == [1.5, 1.875]
