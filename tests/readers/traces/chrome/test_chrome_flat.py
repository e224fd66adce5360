"""The flat-event path of the Chrome reader (pyarrow's JSON parser) gives exactly what the
scanner gives: the same events table, definitions and call tree, or the same ReadError.

Each trace is read twice, with ``graphframe_readers.traces.chrome.flat.ENABLED`` on and
off, at several block sizes; traces are drawn with the spellings the path must take or
must decline (braces, commas and ``null`` inside names, numbers written as strings,
duplicate members, more than three decimals, string pids, unknown members of every
scalar type, one event per line, all on one line, events spread over lines).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphframe
from graphframe.traces import read_tree
from graphframe_readers import ReadError
from graphframe_readers.traces.chrome import flat
from graphframe_readers.traces.sources import MemorySource

NAMES = ["main", "f", "x{y}", "}, {", "c,o:m", "null", "br]ack", "\u00e9", "\u65e5\u672c", ""]


def _read(text: str, block: int, enabled: bool):
    src = MemorySource(text.encode(), name="t.json", block_size=block)
    saved, flat.ENABLED = flat.ENABLED, enabled
    try:
        return graphframe.read_trace(src, format="chrome")
    except ReadError as err:
        return str(err)
    finally:
        flat.ENABLED = saved


def _same(text: str, block: int) -> None:
    fast = _read(text, block, True)
    slow = _read(text, block, False)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
        return
    pd.testing.assert_frame_equal(fast.events, slow.events)
    assert fast.definitions.ranks == slow.definitions.ranks
    assert fast.definitions.threads == slow.definitions.threads


def _number(ns: int, form: int) -> str:
    return [f"{ns // 1000}.{ns % 1000:03d}", str(ns // 1000), f"{ns}e-3",
            f"{ns // 1000}.{ns % 1000:03d}5", f'"{ns // 1000}"', f"{ns // 1000}.{ns % 1000:03d}0"
            ][form]


event = st.tuples(
    st.sampled_from(["X", "X", "X", "B", "E", "i", "M", "C"]),
    st.sampled_from(NAMES + [None]),
    st.sampled_from([0, 1, 2, "io"]),           # pid
    st.sampled_from([0, 3, None]),              # tid
    st.integers(0, 10**8), st.integers(0, 10**5),
    st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5]),  # spelling of ts
    st.sampled_from([None, None, ("cat", '"gpu"'), ("id", "7"), ("bp", "true"),
                     ("w", "1.5"), ("ph", '"X"')]),  # another member (ph: a duplicate)
)


def _text(events, layout: int) -> str:
    out = []
    for ph, name, pid, tid, ts, dur, form, extra in events:
        members = [("ph", json.dumps(ph))]
        if name is not None:
            members.append(("name", json.dumps(name, ensure_ascii=False)))
        members.append(("pid", json.dumps(pid)))
        if tid is not None:
            members.append(("tid", str(tid)))
        members.append(("ts", _number(ts, form)))
        if ph == "X":
            members.append(("dur", _number(dur, 0)))
        if extra is not None:
            members.append(extra)
        sep = [", ", ",", ",\n  "][layout]
        out.append("{" + sep.join(f'"{k}": {v}' for k, v in members) + "}")
    joint = [",\n", ",", ",\n"][layout]
    return "[\n" + joint.join(out) + "\n]\n"


@settings(max_examples=60, deadline=None)
@given(st.lists(event, min_size=1, max_size=30), st.integers(0, 2),
       st.sampled_from([16, 200, 1 << 20]))
def test_flat_path_reads_what_the_scanner_reads(events, layout, block):
    _same(_text(events, layout), block)


@pytest.mark.parametrize("text", [
    '[{"ph": "X", "ts": "5", "dur": 1}]',                  # a number written as a string
    '[{"ph": "X", "ts": 5, "dur": 1, "ts": 6}]',           # a duplicate member
    '[{"ph": "X", "ts": 0.0005, "dur": 1.23456}]',         # rounded half up
    '[{"ph": "X", "ts": 1e30, "dur": 1}]',                 # beyond 64 bits
    '[{"ph": "X", "ts": 1, "dur": -1}]',                   # negative duration
    '[{"ph": "XY", "ts": 1}]',                             # a two-letter phase
    '[{"ts": 1}]',                                         # no phase
    '[{"ph": "X", "ts": 1, "dur": 2}, {"ph": "X", "ts": 2, "dur": 1},]',  # trailing comma
    '[{"ph": "X", "ts": 1, "dur": 2},, {"ph": "X", "ts": 2, "dur": 1}]',
    '[{"ph": "X", "ts": 1, "dur": 2} {"ph": "X", "ts": 2, "dur": 1}]',
    '[{"ph": "X", "ts": 1, "dur": 2}, {"ph": "X", "ts": 01, "dur": 1}]',
    '[{"ph": "X", "ts": 1, "dur": 2, "name": "a"b"}]',
    '[{"ph": "X", "ts": 1, "dur": 2, "name": 5}]',
    '[{"ph": "X", "ts": 1, "dur": 2, "pid": 1.5}]',
    '[{"ph": "X", "ts": 1, "dur": 2, "cat": "2024-01-01"}]',  # a date-like string
    '[{"ph": "X", "ts": 1, "dur": 2}, {"ph": "X", "ts": 3, "dur": 1}',  # no closing ']'
    '[{"ph": "X", "ts": 1, "dur": 2}, {"ph": "X", "ts": 3',            # cut inside an event
    '{"traceEvents": [{"ph": "B", "name": "a", "ts": 1}, {"ph": "E", "ts": 2}], "x": 1}',
    '[{"ph": "B", "name": "a", "ts": 1}, {"ph": "E", "ts": 2}] x',
])
def test_edge_cases_agree(text):
    for block in (8, 1 << 20):
        _same(text, block)


def test_flat_events_take_the_path_and_build_the_same_tree(tmp_path, monkeypatch):
    lines = [f'{{"ph": "X", "name": "{n}", "pid": 0, "tid": {t}, "ts": {ts}.250, "dur": {d}}}'
             for t in (0, 1) for n, ts, d in (("main", 0, 100), ("a", 1, 10), ("b", 2, 3),
                                             ("a", 20, 5), ("main", 200, 1))]
    path = tmp_path / "t.json"
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    calls = []
    parse = flat.parse
    monkeypatch.setattr(flat, "parse", lambda p, b: calls.append(len(p.opens)) or parse(p, b))
    fast = read_tree(path)
    assert calls == [10]
    monkeypatch.setattr(flat, "ENABLED", False)
    slow = read_tree(path)
    pd.testing.assert_frame_equal(fast.dataframe, slow.dataframe)
    got = fast.dataframe.xs((0, 0), level=("rank", "thread"))
    assert got["name"].tolist() == ["main", "a", "b"]
    assert got["time (inc)"].tolist() == [101e-6, 15e-6, 3e-6]


def test_prepare_declines_what_it_cannot_prove():
    assert flat.prepare(b'{"ph": "X", "name": "a\\"b"}', False) is None       # escapes
    assert flat.prepare(b'{"ph": "X", "name": null}', False) is None          # null
    assert flat.prepare(b'{"ph": "X", "args": {"a": 1}}', False) is None      # nesting
    assert flat.prepare(b'{"ph": "X", "name": "}{"}', False) is None          # braces in text
    assert flat.prepare(b', {"ph": "X"}', False) is None                     # a comma first
    assert flat.prepare(b'{"ph": "X"}', True) is None                        # none expected
    run = flat.prepare(b' , {"ph": "X"},\n{"ph": "B"}, {"ph"', True)
    assert (run.end, run.opens.tolist()) == (27, [3, 16])
    assert flat.parse(flat.prepare(b'{"ph": "X", "name": "}, {"}', False),
                      b'{"ph": "X", "name": "}, {"}') is None  # fewer rows than braces
