"""foRMA on real DUMPI traces (rma-fence, 2 and 3 ranks) against the golden tables: the RMA
operations and fences from dumpi2ascii (rma_ops_derived.csv) and pydumpi (pydumpi_rma.csv).
Bounds and statistics are computed here from the golden rows, independently of graphframe."""

from __future__ import annotations

import csv
import subprocess
import sys
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

import graphframe as gf

RUNS = ["np2", "np3"]


def _ns(text: str) -> int:
    return int(Decimal(text) * 1_000_000_000)


def golden(folder):
    with open(folder / "rma_ops_derived.csv") as fh:
        rows = list(csv.DictReader(fh))
    return [dict(rank=int(r["rank"]), window=int(r["win"]), epoch=int(r["epoch"]), op=r["op"],
                 start=_ns(r["t_enter"]), end=_ns(r["t_return"]),
                 bytes=int(r["bytes"]) if r["bytes"] else -1,
                 target=int(r["target_rank"]) if r["target_rank"] else -1,
                 assertion=int(r["assertion"]) if r["assertion"] else -1) for r in rows]


def golden_bounds(rows):
    """(rank, window, start) -> end of the next fence of that rank and window - start."""
    out = {}
    for i, r in enumerate(rows):
        if r["op"] == "MPI_Win_fence":
            continue
        nxt = next(x for x in rows[i + 1:] if x["op"] == "MPI_Win_fence"
                   and (x["rank"], x["window"]) == (r["rank"], r["window"]))
        out[(r["rank"], r["window"], r["start"])] = nxt["end"] - r["start"]
    return out


@pytest.fixture(scope="module", params=RUNS)
def run(request, shared_data):
    base = shared_data / "traces" / "dumpi" / "rma-fence"
    return (gf.read_trace(base / "traces" / request.param),
            golden(base / "golden" / request.param), base / "golden" / request.param)


def test_operations_equal_the_golden_table(run):
    tf, rows, _ = run
    ops = tf.rma_operations()
    gold_ops = [r for r in rows if r["op"] != "MPI_Win_fence"]
    bounds = golden_bounds(rows)
    want = sorted((r["rank"], r["window"], r["epoch"], r["op"], r["start"], r["end"] - r["start"],
                   r["bytes"], bounds[(r["rank"], r["window"], r["start"])], r["target"])
                  for r in gold_ops)
    have = sorted(zip(ops["rank"], ops["window"], ops["epoch"], ops["op"], ops["start"],
                      ops["duration"], ops["bytes"], ops["bound"].astype(np.int64), ops["target"]))
    assert have == want and len(have) == len(gold_ops) > 20


def test_fences_equal_the_golden_table(run):
    tf, rows, _ = run
    syncs = tf.rma_syncs()
    want = sorted((r["rank"], r["window"], r["epoch"], r["start"], r["end"] - r["start"],
                   r["assertion"]) for r in rows if r["op"] == "MPI_Win_fence")
    have = sorted(zip(syncs["rank"], syncs["window"], syncs["epoch"], syncs["start"],
                      syncs["duration"], syncs["assertion"]))
    assert have == want
    assert {a for *_, a in have} == {255, 8, 16}  # fence(0) recorded as 255, NOPRECEDE, NOSUCCEED


def test_operations_equal_pydumpi(run):
    tf, _, folder = run
    with open(folder / "pydumpi_rma.csv") as fh:
        rows = [r for r in csv.DictReader(fh) if r["op"] != "MPI_Win_fence"]
    ops = tf.rma_operations()
    rank = [int(r["file"].rsplit("-", 1)[1].split(".")[0]) for r in rows]
    want = sorted((k, r["op"], int(r["win"]), _ns(r["wall_start"]), _ns(r["wall_stop"]),
                   int(r["bytes"]), int(r["target_or_assertion"])) for k, r in zip(rank, rows))
    have = sorted(zip(ops["rank"], ops["op"], ops["window"], ops["start"],
                      ops["start"] + ops["duration"], ops["bytes"], ops["target"]))
    assert have == want


@pytest.mark.parametrize("per", [("rank", "window", "epoch"), ("rank", "window"), ("rank",),
                                 ("window",)])
def test_statistics_at_every_level(run, per):
    tf, rows, _ = run
    bounds = golden_bounds(rows)
    g = pd.DataFrame([dict(r, duration=(r["end"] - r["start"]) / 1e9,
                           bound=bounds[(r["rank"], r["window"], r["start"])] / 1e9)
                      for r in rows if r["op"] != "MPI_Win_fence"])
    s = tf.rma_summary(per=per)
    grouped = g.groupby(list(per))
    assert s["count"].tolist() == grouped.size().tolist()
    for col, label in (("bytes", "bytes"), ("duration", "duration"), ("bound", "bound")):
        for stat in ("min", "max", "mean"):
            assert s[f"{label} {stat}"].to_numpy() == pytest.approx(
                grouped[col].agg(stat).to_numpy(), rel=1e-12, abs=1e-15), (label, stat)
    assert s["bytes sum"].tolist() == grouped["bytes"].sum().tolist()


def test_totals(run):
    tf, rows, _ = run
    total = tf.rma_summary(per=())
    ops = [r for r in rows if r["op"] != "MPI_Win_fence"]
    assert total["count"].tolist() == [len(ops)]
    assert total["bytes sum"].tolist() == [sum(r["bytes"] for r in ops)]


def test_cli_report(shared_data):
    folder = shared_data / "traces" / "dumpi" / "rma-fence" / "traces" / "np2"
    out = subprocess.run([sys.executable, "-m", "graphframe", "rma", str(folder)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    rows = golden(shared_data / "traces" / "dumpi" / "rma-fence" / "golden" / "np2")
    ops = [r for r in rows if r["op"] != "MPI_Win_fence"]
    assert f"{len(ops)} one-sided operations" in text
    assert "per rank" in text and "per window" in text and "per epoch" in text
    assert f"{sum(r['bytes'] for r in ops)} bytes" in text


def test_cli_without_one_sided_calls(shared_data):
    folder = shared_data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks"
    out = subprocess.run([sys.executable, "-m", "graphframe", "rma", str(folder)],
                         capture_output=True, text=True)
    assert out.returncode == 1
    assert "no one-sided" in out.stderr and "testtrace" in out.stderr
