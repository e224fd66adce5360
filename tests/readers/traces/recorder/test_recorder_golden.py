"""Recorder io-mix (formats 2.5.0 and 2.2.0) against the golden output of Recorder's own tools.

The golden files are parsed here, independently of the decoders: ``recorder2text`` (one
line per call), recorder-viz's / v2.2.1's reader dumps (CSV), ``recorder_summary``
(per-function counts of rank 0) and ``recorder2timeline`` (Chrome JSON).
"""

from __future__ import annotations

import csv
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

import graphframe as gf

RUNS = ["np2"]


def _ticks(text: str, resolution: Decimal) -> int:
    return int((Decimal(text) / resolution).to_integral_value())


def golden_v25(folder: Path) -> list:
    """(rank, start tick, end tick, name, level, args) per line of recorder2text."""
    out = []
    for path in sorted((folder / "recorder2text").glob("*.txt")):
        rank = int(path.stem)
        for line in path.read_text().splitlines():
            m = re.fullmatch(r"(\S+) (\S+) (\S+) (\d+) (\d+) \( (.*)\)", line)
            assert m, line
            t0, t1, name, level, _, args = m.groups()
            out.append((rank, _ticks(t0, Decimal("1e-7")), _ticks(t1, Decimal("1e-7")), name,
                        int(level), args.strip()))
    return out


def golden_v22(folder: Path) -> list:
    """(rank, start µs, end µs, name, res, args) per line of v2.2.1's recorder2text."""
    out = []
    for path in sorted((folder / "recorder2text").glob("*.txt")):
        rank = int(path.stem)
        for line in path.read_text().splitlines():
            m = re.fullmatch(r"(\S+) (\S+) (-?\d+) (\S+) \( (.*)\)", line)
            assert m, line
            t0, t1, res, name, args = m.groups()
            out.append((rank, _ticks(t0, Decimal("1e-6")), _ticks(t1, Decimal("1e-6")), name,
                        int(res), args.strip()))
    return out


@pytest.fixture(scope="module")
def iomix(shared_data):
    return shared_data / "traces" / "recorder" / "io-mix"


def _calls(tf, origin_of):
    ev = tf.events
    c = ev[ev.kind == "enter"]
    tick = tf.metadata["time_resolution"] * 1e9
    origin = c["rank"].map(origin_of)
    start = ((c.time - origin) / tick).round().astype(int)
    if c["end"].ge(0).all():  # 2.5: the recorded end is on the call's row
        end = ((c["end"] - origin) / tick).round().astype(int)
    else:
        end = start + (c.duration / tick).round().astype(int)
    return c.assign(t0=start, t1=end)


@pytest.mark.parametrize("run", RUNS)
def test_v25_every_record_equals_recorder2text(iomix, run):
    tf = gf.read_trace(iomix / "traces" / run)
    assert tf.metadata["version"] == "2.5.0" and tf.metadata["time_resolution"] == 1e-7
    c = _calls(tf, lambda r: tf.metadata["start_time"])
    ours = sorted(zip(c["rank"], c.t0, c.t1, c.name.astype(str), c.depth, c.args))
    gold = sorted(golden_v25(iomix / "golden" / run))
    assert len(ours) == len(gold) == 116
    assert ours == gold  # level of each call == its nesting depth


@pytest.mark.parametrize("run", RUNS)
def test_v25_every_record_equals_the_recorder_viz_csv(iomix, run):
    tf = gf.read_trace(iomix / "traces" / run)
    c = _calls(tf, lambda r: tf.metadata["start_time"])
    with open(iomix / "golden" / run / "recorder_viz_records.csv") as fh:
        rows = list(csv.DictReader(fh))
    gold = sorted((int(r["rank"]), _ticks(r["tstart"], Decimal("1e-7")),
                   _ticks(r["tend"], Decimal("1e-7")), r["func_name"], int(r["level"]),
                   r["args"], int(r["arg_count"])) for r in rows)
    argc = c.args.map(lambda a: len(a.split(" ")) if a else 0)
    ours = sorted(zip(c["rank"], c.t0, c.t1, c.name.astype(str), c.depth, c.args, argc))
    assert ours == gold


@pytest.mark.parametrize("run", RUNS)
def test_v25_summary_counts_and_timeline(iomix, run):
    tf = gf.read_trace(iomix / "traces" / run)
    c = _calls(tf, lambda r: tf.metadata["start_time"])
    r0 = c[c["rank"] == 0]
    text = (iomix / "golden" / run / "recorder_summary.txt").read_text()
    table = re.findall(r"^(\w+)\s+(\d+)\s+(\d+)$", text, re.M)
    assert table
    for func, unique, total in table:
        name = func[1:] if func.startswith("PMPI_") else func
        mine = r0[r0.name == name]
        assert (len(mine), mine.args.nunique()) == (int(total), int(unique)), func
    events = json.loads((iomix / "golden" / run / "recorder2timeline" / "timeline_0.json")
                        .read_text())["traceEvents"]
    gold = sorted((e["pid"], round(e["ts"] * 10), round(e["dur"] * 10), e["name"],
                   " ".join(e["args"]["args"])) for e in events if e.get("ph") == "X")
    ours = sorted(zip(c["rank"], c.t0, c.t1 - c.t0, c.name.astype(str), c.args))
    assert ours == gold


@pytest.mark.parametrize("run", RUNS)
def test_v22_every_record_equals_recorder2text_and_the_reader_csv(iomix, run):
    folder = iomix / "traces-v2.2" / run
    tf = gf.read_trace(folder)
    assert tf.metadata["version"] == "2.2.0"
    starts = {r: d["start_time"] for r, d in tf.definitions.ranks.items()}
    c = _calls(tf, starts.get)
    ours = sorted(zip(c["rank"], c.t0, c.t1, c.name.astype(str), c.args))
    gold = golden_v22(iomix / "golden-v2.2" / run)
    assert ours == sorted((r, t0, t1, n, a) for r, t0, t1, n, _, a in gold)
    with open(iomix / "golden-v2.2" / run / "reader_records.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert sorted((int(r["rank"]), _ticks(r["tstart"], Decimal("1e-6")),
                   _ticks(r["tend"], Decimal("1e-6")), r["func_name"], r["args"])
                  for r in rows) == ours
    # the descriptors 2.2 records resolve to the same files 2.5 names in place
    opened = c[c.name == "open"]
    res = {(r, t0): res for r, t0, _, n, res, _ in gold if n == "open"}
    assert [res[(r, t)] for r, t in zip(opened["rank"], opened.t0)] == opened.fd.tolist()


@pytest.mark.parametrize("run", RUNS)
def test_both_formats_give_the_same_files_and_counts(iomix, run):
    new = gf.read_trace(iomix / "traces" / run)
    old = gf.read_trace(iomix / "traces-v2.2" / run)

    def per_file(tf, prefix):
        s = tf.io_summary(per="file")["count"]
        s = s[s.index.get_level_values("file").str.startswith(prefix)]
        return {(f.split("/")[-1], n): int(v) for (f, n), v in s.items()}

    a = per_file(new, "/home/perf/recorder-demo/np2/data/")
    b = per_file(old, "/home/perf/recorder-demo/v221-np2/data/")
    assert a == b and a[("shared_mpiio.dat", "MPI_File_write_at_all")] == 6
    assert a[("posix_rank1.dat", "write")] == 5
