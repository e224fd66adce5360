"""Every event GCGC's own parser extracts from a log is among ours, with equal values.

Runs GCGC (apple/GCGC) itself, from a checkout outside this repository named by the
environment variable ``GCGC_SRC`` (the folder holding ``src/read_log_file.py``); skipped
without it or without the shared logs. Nothing of GCGC is copied here.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pandas as pd
import pytest

import graphframe

GCGC_SRC = os.environ.get("GCGC_SRC", "")


def _gcgc_parser():
    if not GCGC_SRC or not (Path(GCGC_SRC) / "src" / "read_log_file.py").is_file():
        pytest.skip("GCGC_SRC does not name a GCGC checkout (src/read_log_file.py)")
    sys.path.insert(0, GCGC_SRC)
    try:
        from src.read_log_file import get_parsed_data_from_file
    finally:
        sys.path.remove(GCGC_SRC)
    return get_parsed_data_from_file


def _same(a, b) -> bool:
    na = a is None or (isinstance(a, float) and math.isnan(a))
    nb = b is None or (isinstance(b, float) and math.isnan(b))
    if na or nb:
        return na and nb
    return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(a)))


def _mb(x):
    return None if math.isnan(x) else x / 2 ** 20


def _logs(shared: Path):
    folder = shared / "traces" / "jvm-gc"
    if not folder.is_dir():
        pytest.skip(f"no JVM GC logs at {folder}")
    return sorted((folder / "logs").glob("*.log")) + sorted(
        p for p in (folder / "gcgc-datasets").iterdir() if ".log" in p.name)


def test_gcgc_events_are_all_in_ours(shared_data):
    parse = _gcgc_parser()
    checked = 0
    for path in _logs(shared_data):
        theirs = parse(str(path))
        ev = graphframe.read_trace(path, format="jvm-gc").gc.events
        for _, r in theirs.iterrows():
            dated = r["Time"] is None or (isinstance(r["Time"], float) and math.isnan(r["Time"]))
            when = (ev["datetime"] == pd.Timestamp(r["DateTime"]).tz_convert("UTC")) if dated \
                else (ev["time"] == r["Time"])
            et = r["EventType"]
            if isinstance(et, str) and et != "Safepoint":
                cand = ev[when & (ev["gc_id"] == r["GCIndex"])]
                found = [c for _, c in cand.iterrows()
                         if _same(r["Duration_milliseconds"], c["duration"] * 1e3)
                         and _same(r["HeapBeforeGC"], _mb(c["heap_before"]))
                         and _same(r["HeapAfterGC"], _mb(c["heap_after"]))
                         and _same(r["MaxHeapsize"], _mb(c["heap_capacity"]))]
            elif isinstance(r["SafepointName"], str):
                cand = ev[when & (ev["event_type"] == "safepoint")]
                found = [c for _, c in cand.iterrows() if c["name"] == r["SafepointName"]
                         and _same(r["TotalTimeAtSafepoint_ns"], c["total"] * 1e9)]
            elif et == "Safepoint":
                cand = ev[when & (ev["event_type"] == "safepoint")]
                found = [c for _, c in cand.iterrows()
                         if _same(r["TotalApplicationThreadPauseTime_seconds"], c["total"])]
            elif isinstance(r["UsedMetaspaceAfterGCWithUnit"], str):
                u = r["UsedMetaspaceAfterGCWithUnit"]
                v = float(u[:-1]) * {"K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30}[u[-1]]
                found = list(ev[when & (ev["name"] == "Metaspace") & (ev["heap_after"] == v)]
                             .itertuples())
            else:  # code cache
                found = list(ev[when & (ev["event_type"] == "codecache")].itertuples())
            assert found, f"{path.name}: GCGC's row not found in ours: {r.to_dict()}"
            checked += 1
    assert checked > 4000
