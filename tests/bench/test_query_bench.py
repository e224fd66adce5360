"""The query benchmark script runs end to end and writes what it measured."""

import json

from benchmarks import query_bench
from graphframe.query import matched_nodes


def test_query_bench_writes_json(tmp_path, capsys):
    out = tmp_path / "q.json"
    report = query_bench.main(["--sizes", "300x2,200x1", "--repeat", "1", "--no-hatchet",
                               "--json", str(out)])
    assert json.loads(out.read_text()) == json.loads(json.dumps(report))
    first, second = report["results"]
    assert (first["nodes"], first["ranks"], first["rows"], first["mode"]) == (300, 2, 600, "any")
    assert (second["nodes"], second["ranks"], second["rows"]) == (200, 1, 200)
    assert second["mode"] == "off"
    gf = query_bench.build_graphframe(query_bench.generate(300, 2))
    assert first["ours"]["matched"] == len(matched_nodes(gf, query_bench.object_query(), "any"))
    assert len(first["ours"]["object_times"]) == len(first["ours"]["string_times"]) == 1
    assert first["hatchet"] == {"skipped": "--no-hatchet"}
    assert report["settings"]["object_query"][1] == "*"
    assert "graphframe object dialect" in capsys.readouterr().out


def test_sizes_are_parsed():
    assert query_bench.parse_sizes("1e4x16, 5000") == [(10000, 16), (5000, 1)]
