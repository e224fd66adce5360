"""Numbers read with numpy (uptimes, durations): exact as ``float(text)``, long ones read
as text, malformed ones not taken for durations."""

from __future__ import annotations

import math

from tests.readers.traces.jvmgc.gclog import lines, read


def test_durations_in_every_unit_are_seconds_as_float_gives_them():
    ev, md = read(lines("GC(0) Pause Young (Normal) 6M->1M(128M) 2.704ms",
                        "GC(1) Pause Young (Normal) 6M->1M(128M) 0.030s",
                        "GC(2) Pause Young (Normal) 6M->1M(128M) 153us",
                        "GC(3) Pause Young (Normal) 6M->1M(128M) 98765ns",
                        "GC(4) Pause Young (Normal) 6M->1M(128M) 0.1234567890123456789ms"))
    assert ev["duration_s"].tolist() == [
        float("2.704") / 1e3, float("0.030"), float("153") / 1e6, float("98765") / 1e9,
        float("0.1234567890123456789") / 1e3]
    assert md["unparsed"]["count"] == 0


def test_a_malformed_duration_is_a_line_not_understood_not_an_error():
    ev, md = read(lines("GC(0) Pause Young (Normal) 1.2.3ms",
                        "GC(1) Pause Young (Normal) 6M->1M(128M) .5ms",
                        "GC(2) Pause Young (Normal) 6M->1M(128M) 2.704ms"))
    assert ev["gc_id"].tolist() == [2]
    assert ev["duration_s"].tolist() == [float("2.704") / 1e3]
    assert md["unparsed"]["count"] == 2 and md["unparsed"]["gc_lines"] == 2
    assert [e[1] for e in md["unparsed"]["examples"]] == [1, 2]


def test_uptimes_of_every_length_are_exact():
    text = ("[0.1234567890123456789s][info][gc] GC(0) Pause Young (Normal) 6M->1M(128M) 1ms\n"
            "[107.479s][info][gc] GC(1) Pause Young (Normal) 6M->1M(128M) 1ms\n"
            "[x.5s][info][gc] GC(2) Pause Young (Normal) 6M->1M(128M) 1ms\n")
    ev, _ = read(text)
    up = ev["time_s"].tolist()
    assert up[:2] == [float("0.1234567890123456789"), float("107.479")]
    assert math.isnan(up[2])


def test_uptime_in_nanoseconds_with_nineteen_digits():
    ev, _ = read("[123456789012345ns][info][gc] GC(0) Pause Young (Normal) 6M->1M(128M) 1ms\n"
                 "[1234567890123456789ns][info][gc] GC(1) Pause Young (Normal) 6M->1M(128M) "
                 "1ms\n")
    assert ev["time_s"].tolist() == [123456789012345 / 1e9,
                                     float("1234567890123456789") / 1e9]
