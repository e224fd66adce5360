"""The Chrome reader sees JSON values, not their spelling.

One random trace is written twice: plainly (``json.dumps``) and with other
whitespace, ``\\uXXXX`` escapes in keys and names, ``\\/``, exponent forms of
the times and nested ``args``; both must give the same events table at any
block size. The same text cut short must be a ReadError with a position.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphframe
from graphframe_readers import ReadError
from graphframe_readers.traces.sources import MemorySource

NAMES = ["main", "f", 'q"uote', "back\\slash", "x{y}", "c,o:m", "\u00e9", "\u65e5\u672c",
         "\U0001F600", "tab\there", "br]ack[", "sl/ash"]


def _escaped(text: str, draw_bits: int) -> str:
    """``text`` as a JSON string with some characters written as escapes."""
    out = []
    for i, ch in enumerate(text):
        if ch in '"\\' or ord(ch) < 32:
            out.append(json.dumps(ch)[1:-1])
        elif ch == "/" and draw_bits >> (i % 16) & 1:
            out.append("\\/")
        elif (draw_bits >> (i % 16)) & 1:
            out.append("\\ud83d\\ude00" if ch == "\U0001F600" else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _number(ns: int, form: int) -> str:
    """``ns`` nanoseconds as microseconds in one of several JSON spellings."""
    return [f"{ns // 1000}.{ns % 1000:03d}", f"{ns}e-3", f"{ns}E-3", f"{ns * 10}e-4",
            f"{ns // 1000}.{ns % 1000:03d}000"][form]


events = st.lists(st.tuples(st.sampled_from(NAMES), st.integers(0, 2), st.integers(0, 1),
                            st.integers(0, 10**7), st.integers(0, 10**5),
                            st.sampled_from([None, {"a": [1, {"b": "}"}]}, ["x", []], {}])),
                  min_size=1, max_size=25)


def _texts(evs, bits: int, form: int):
    plain, fancy = [], []
    ws = [" ", "\n", "\t", "", " \r\n "]
    for k, (name, pid, tid, ts, dur, args) in enumerate(evs):
        ev = {"ph": "X", "name": name, "pid": pid, "tid": tid, "ts": ts / 1000, "dur": dur / 1000}
        if args is not None:
            ev["args"] = args
        plain.append(json.dumps({**ev, "ts": f"@{ts}", "dur": f"@{dur}"})
                     .replace(f'"@{ts}"', _number(ts, 0)).replace(f'"@{dur}"', _number(dur, 0)))
        w = ws[(bits + k) % len(ws)]
        members = [(_escaped("name", bits + k), _escaped(name, bits >> 3)),
                   ('"ph"', '"X"'), ('"pid"', str(pid)), ('"t\\u0069d"', str(tid)),
                   ('"ts"', _number(ts, (form + k) % 5)), ('"dur"', _number(dur, form))]
        if args is not None:
            members.append(('"args"', json.dumps(args, indent=1)))
        fancy.append("{" + w + ("," + w).join(f"{key}{w}:{w}{v}" for key, v in members) + w + "}")
    return "[" + ",\n".join(plain) + "]", "[\n" + " ,\n".join(fancy) + "\n]"


def _table(text: str, block: int) -> pd.DataFrame:
    tf = graphframe.read_trace(MemorySource(text.encode(), name="t.json", block_size=block),
                               format="chrome")
    return tf.events


def _args(table: pd.DataFrame) -> list:
    return [json.loads(a) if isinstance(a, str) else None for a in table["args"]]


@settings(max_examples=40, deadline=None)
@given(events, st.integers(0, 2**16), st.integers(0, 4), st.sampled_from([7, 64, 1 << 20]))
def test_spelling_does_not_change_the_events(evs, bits, form, block):
    plain, fancy = _texts(evs, bits, form)
    expected = _table(plain, 1 << 20)
    got = _table(fancy, block)
    assert ("args" in got) == ("args" in expected)
    if "args" in got:
        assert _args(got) == _args(expected)
        got, expected = got.drop(columns="args"), expected.drop(columns="args")
    pd.testing.assert_frame_equal(got, expected)
    assert sorted(set(expected["name"])) == sorted({e[0] for e in evs})


@settings(max_examples=30, deadline=None)
@given(events, st.integers(0, 2**16), st.floats(0.05, 0.95))
def test_text_cut_inside_an_event_is_located(evs, bits, where):
    _, fancy = _texts(evs, bits, 0)
    raw = fancy.encode()
    cut = int(len(raw) * where)
    last_open = raw.rfind(b"{", 0, cut)
    last_close = raw.rfind(b"}", 0, cut)
    if last_open <= last_close:   # cut between events: a valid, shorter trace (']' may be missing)
        cut = last_open = raw.find(b"{", cut) + 2 if raw.find(b"{", cut) >= 0 else last_open + 2
    with pytest.raises(ReadError) as err:
        graphframe.read_trace(MemorySource(raw[:cut], name="t.json", block_size=64),
                              format="chrome")
    assert err.value.position and err.value.position.startswith("byte ")
    assert err.value.expected
