"""Decorator sets, padding and time units of hand-made lines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.readers.traces.jvmgc.gclog import read, rows

PAUSE = "GC(0) Pause Young (Allocation Failure) 32M->4M(123M) 5.303ms"


@pytest.mark.parametrize("prefix, time, decorators", [
    ("[0.237s][info][gc          ] ", 0.237, "uptime,level,tags"),
    ("[0.237s][info   ][gc,start] ", 0.237, "uptime,level,tags"),
    ("[237ms][info][gc] ", 0.237, "uptimemillis,level,tags"),
    ("[237000000ns][info][gc] ", 0.237, "uptimenanos,level,tags"),
    ("[2026-12-01T19:47:50.572+0000][0.237s][26795][26802][info] ", 0.237,
     "time,uptime,pid,tid,level"),
    ("[2026-12-01T19:47:50.572+0000][237ms][info][gc] ", 0.237,
     "time,uptimemillis,level,tags"),
    ("[myhost][0.237s][info][gc] ", 0.237, "hostname,uptime,level,tags"),
    ("[info][gc][0.237s] ", 0.237, "level,tags,uptime"),
    ("[0.237s] ", 0.237, "uptime"),
])
def test_decorator_sets(prefix, time, decorators):
    ev, md = read(prefix + PAUSE + "\n")
    assert md["decorators"] == decorators
    assert rows(ev, "time", "name", "heap_before", "heap_after", "heap_capacity") == [
        [round(time * 1e9), "Pause Young", 32 * 2 ** 20, 4 * 2 ** 20, 123 * 2 ** 20]]
    assert ev["duration"].tolist() == [pytest.approx(5.303e6)]


def test_dates_with_zone_give_utc_datetime():
    ev, _ = read("[2026-12-01T19:47:50.572+0130][0.5s][info][gc] " + PAUSE + "\n")
    assert ev["datetime"].tolist() == [pd.Timestamp("2026-12-01T18:17:50.572", tz="UTC")]


def test_epoch_decorators():
    ev, md = read("[1764618470572ms][0.5s][info][gc] " + PAUSE + "\n"
                  "[1764618470573000000ns][0.6s][info][gc] " + PAUSE.replace("GC(0)", "GC(1)")
                  + "\n")
    assert md["decorators"] == "timemillis,uptime,level,tags"
    assert ev["datetime"].iloc[0] == pd.Timestamp(1764618470572, unit="ms", tz="UTC")


def test_dates_only_time_from_first_line_and_out_of_order_kept():
    text = ("[2021-08-29T21:19:47.352-0700][info][gc ] GC(1) Pause Young (Allocation Failure) "
            "649M->385M(4574M) 16.328ms\n"
            "[2021-08-29T21:19:49.442-0700][info][gc ] GC(2) Pause Full (System.gc()) "
            "514M->383M(4574M) 453.056ms\n"
            "[2021-08-29T21:19:49.250-0700][info][gc,phases ] GC(2) Phase 2: Compute new object "
            "addresses 49.677ms\n")
    ev, md = read(text)
    assert md["decorators"] == "time,level,tags"
    assert ev["time"].tolist() == [0, 2_090_000_000, 1_898_000_000]
    assert ev["line"].tolist() == [1, 2, 3]


def test_tags_kept_trimmed():
    ev, _ = read("[0.1s][info][gc,phases   ] GC(3)   Pre Evacuate Collection Set: 0.1ms\n")
    assert rows(ev, "tags", "event_type", "name", "level", "gc_id") == [
        ["gc,phases", "phase", "Pre Evacuate Collection Set", 1, 3]]
    assert ev["duration"].tolist() == [pytest.approx(1e5)]


def test_crlf_line_ends():
    ev, _ = read("[0.1s][info][gc] " + PAUSE + "\r\n")
    assert ev["duration"].tolist() == [pytest.approx(5.303e6)]


def test_block_boundaries_do_not_change_the_result():
    text = "".join(f"[{i}.000s][info][gc] GC({i}) Pause Young (Allocation Failure) "
                   f"{i + 10}M->{i}M(100M) {i}.5ms\n" for i in range(50))
    whole, _ = read(text)
    small, _ = read(text, block_size=7)
    pd.testing.assert_frame_equal(whole, small)
    assert whole["gc_id"].tolist() == list(range(50))
    np.testing.assert_allclose(whole["duration"], (np.arange(50) + 0.5) * 1e6)


@pytest.mark.parametrize("uptime", ["1e5s", "+1.5s", ".5s", "5.s", "1.2.3s", "1 2s", "s",
                                    "inf", "nans", "0x1p3s", "1_000s"])
def test_uptime_field_that_is_no_decimal_gives_no_time(uptime):
    # the first line sets the layout; a later line whose uptime field is no plain decimal
    # keeps its event, without a time
    ev, _ = read("[0.5s][info][gc] " + PAUSE + "\n"
                 f"[{uptime}][info][gc] " + PAUSE.replace("GC(0)", "GC(1)") + "\n"
                 "[0.7s][info][gc] " + PAUSE.replace("GC(0)", "GC(2)") + "\n")
    assert ev["gc_id"].tolist() == [0, 1, 2]
    assert ev["time"].tolist() == [500_000_000, -1, 700_000_000]
    assert np.isnan(ev["time_s"].iloc[1])
