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


def test_read_int_and_decimals_over_many_rows_equal_python():
    import random

    import numpy as np

    from graphframe_readers.traces.jvmgc.scan import ROWS, read_int
    from graphframe_readers.traces.jvmgc.tokens import decimals

    rng = random.Random(7)
    texts = []
    for _ in range(2 * ROWS + 123):  # more rows than one matrix holds
        whole = rng.randint(0, 10 ** rng.randint(1, 17))
        k = rng.randint(0, 6)
        texts.append(str(whole) if k == 0 else f"{whole}.{rng.randint(0, 10 ** k - 1):0{k}d}")
    texts += ["1.2.3", ".5", "5.", "12a", "9" * 16, "1" * 40 + "." + "2" * 40]
    pad = np.frombuffer(" ".join(texts).encode() + bytes(8), np.uint8)
    lengths = np.array([len(t) for t in texts])
    lo = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]])
    value, number, exact = decimals(pad, lo, lo + lengths)
    grammar = [t.replace(".", "", 1).isdigit() and not t.startswith(".") and
               not t.endswith(".") for t in texts]
    assert number.tolist() == grammar
    assert exact.tolist() == [g and len(t.replace(".", "")) <= 15 for g, t in zip(grammar, texts)]
    assert all(v == float(t) for v, t, e in zip(value, texts, exact) if e)
    ints = [i for i, t in enumerate(texts) if t.isdigit() and len(t) <= 18]
    got = read_int(pad, lo[ints], lengths[ints])
    assert got.tolist() == [int(texts[i]) for i in ints]


def test_numbers_of_one_shape_are_read_together_and_odd_ones_apart():
    import numpy as np

    from graphframe_readers.traces.jvmgc.tokens import decimals

    texts = [f"{100 + i % 900}.{i % 1000:03d}" for i in range(300)]  # one shape: ddd.ddd
    texts[5], texts[77], texts[150] = "12a.456", "1.2.345", "1234567"  # the same width
    texts += [f"{i}" for i in range(1000, 1100)]  # another shape: dddd
    pad = np.frombuffer(" ".join(texts).encode() + bytes(8), np.uint8)
    lengths = np.array([len(t) for t in texts])
    lo = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]])
    value, number, exact = decimals(pad, lo, lo + lengths)
    odd = {5, 77}
    assert number.tolist() == [i not in odd for i in range(len(texts))]
    assert exact.tolist() == number.tolist()
    assert [v for i, v in enumerate(value) if i not in odd] == \
        [float(t) for i, t in enumerate(texts) if i not in odd]
