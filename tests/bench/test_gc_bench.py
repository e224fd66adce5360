"""benchmarks/gc_bench.py's plumbing: the generated log and the GCGC-style parse.

Nothing here measures speed; the generator and the parse the ratio is taken
against are checked on hand-made logs.
"""

from __future__ import annotations

import re

from benchmarks.gc_bench import gcgc_style_parse, generate

LOG = ("[0.010s][info][gc] Using G1\n"
       "[1.500s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) "
       "3.250ms\n"
       "[2.000s][info][gc] GC(1) Pause Full (System.gc()) 30M->2M(256M) 12.000ms\n")


def test_generated_log_continues_times_and_gc_ids(tmp_path):
    src = tmp_path / "src.log"
    src.write_text(LOG)
    out = generate(str(tmp_path / "big.log"), len(LOG) * 3 / 1e6, [str(src)])
    text = open(out).read()
    assert len(text) >= len(LOG) * 3
    ids = [int(x) for x in re.findall(r"GC\((\d+)\)", text)]
    assert ids[:6] == [0, 1, 2, 3, 4, 5]
    times = [float(x) for x in re.findall(r"^\[(\d+\.\d+)s\]", text, re.M)]
    assert times[:6] == [0.01, 1.5, 2.0, 3.01, 4.5, 5.0]  # shifted by the span + 1 s


def test_gcgc_style_parse_reads_pauses(tmp_path):
    src = tmp_path / "gc.log"
    src.write_text(LOG)
    df = gcgc_style_parse([str(src)])
    assert df["gc"].tolist() == [0, 1]
    assert df["type"].tolist() == ["Pause", "Pause"]
    assert df["before"].tolist() == [24.0, 30.0]
    assert df["after"].tolist() == [4.0, 2.0]
    assert df["ms"].tolist() == [3.25, 12.0]
