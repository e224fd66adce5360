"""A GC log file decoded by threads in byte ranges gives the one-thread table."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from graphframe_readers.errors import ArgumentError
from graphframe_readers.traces import FileSource
from graphframe_readers.traces.jvmgc import parallel
from graphframe_readers.traces.jvmgc.decoder import JvmGcDecoder
from graphframe_readers.traces.jvmgc.table import GcTableBuilder


def _read(path, threads, block_size=512):
    b = GcTableBuilder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        JvmGcDecoder(threads=threads).decode(FileSource(path, block_size=block_size), b)
    b.on_end()
    return b.result(), b.definitions.metadata


def _log(tmp_path, body):
    lines = [f"[{1.0 + i / 1000:.3f}s][info][gc] {b}\n" for i, b in enumerate(body)]
    path = tmp_path / "gc.log"
    path.write_text("".join(lines))
    return path


def _same(tmp_path, monkeypatch, body, threads=2, again=False):
    """The tables of one and of ``threads`` threads (``again``: some range was parsed
    again, from the state one thread had there)."""
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    path = _log(tmp_path, body)
    one, md1 = _read(path, 1)
    calls = []
    work = parallel._work
    monkeypatch.setattr(parallel, "_work", lambda *a: calls.append(a[1:3]) or work(*a))
    many, md2 = _read(path, threads)
    pd.testing.assert_frame_equal(one, many, check_exact=True)
    assert md1 == md2
    assert (len(set(calls)) < len(calls)) == again
    return one, md1


def test_region_size_changed_in_an_earlier_range(tmp_path, monkeypatch):
    # a second run's header sets another region size: later ranges are parsed again
    body = ["Using G1", "Heap Region Size: 1M"]
    body += [f"GC({i}) Eden regions: 5->0(6)" for i in range(40)]
    body += ["Using G1", "Heap Region Size: 4M"]
    body += [f"GC({i}) Eden regions: 5->0(6)" for i in range(40, 120)]
    ev, _ = _same(tmp_path, monkeypatch, body, again=True)
    assert ev["heap_before"].iloc[0] == 5 * 2 ** 20 and ev["heap_before"].iloc[-1] == 5 * 2 ** 22


def test_collector_changed_in_an_earlier_range(tmp_path, monkeypatch):
    body = ["Using G1"] + [f"GC({i}) Pause Young (Normal) (G1 Evacuation Pause) 9M->3M(64M) "
                           "1.0ms" for i in range(40)]
    body += ["Using Shenandoah"] + [f"GC({i}) Pause Final Mark 1.0ms" for i in range(40, 120)]
    ev, md = _same(tmp_path, monkeypatch, body, again=True)
    assert md["collector"] == "Shenandoah"


def test_title_learnt_in_an_earlier_range(tmp_path, monkeypatch):
    # "Odd Step" is no start word: its start lines are understood once its title was seen
    # with a duration, which happened in an earlier range
    pause = "GC(1) Pause Young (Normal) 1M->1M(2M) 1.0ms"
    body = ["Using G1"] + [pause] * 20 + ["GC(0) Odd Step 1.0ms"] + [pause] * 40
    body += ["GC(2) Odd Step"] * 60
    _, md = _same(tmp_path, monkeypatch, body, threads=3, again=True)
    assert md["unparsed"]["count"] == 0


def test_jdk11_safepoints_across_ranges(tmp_path, monkeypatch):
    body = ["Using G1"]
    for i in range(60):
        body += [f"Application time: 0.{i + 1:04d} seconds", "Entering safepoint region: G1 "
                 f"{i % 3}", "Leaving safepoint region",
                 "Total time for which application threads were stopped: 0.0009804 seconds, "
                 "Stopping threads took: 0.0000039 seconds"]
        body += [f"GC({i}) Pause Young (Normal) 1M->1M(2M) 1.0ms"] * (i % 4)
    ev, _ = _same(tmp_path, monkeypatch, body, threads=3)
    sp = ev[ev["event_type"] == "safepoint"]
    assert len(sp) == 60 and sp["name"].notna().all() and sp["time_since_last"].notna().all()


def test_default_threads_from_the_size(monkeypatch):
    assert parallel.default_threads(1 << 20) == 1
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert parallel.default_threads(parallel.THREAD_BYTES) == 2
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0})
    assert parallel.default_threads(parallel.THREAD_BYTES) == 1


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_threads_argument(bad):
    with pytest.raises(ArgumentError, match="threads="):
        JvmGcDecoder(threads=bad)
