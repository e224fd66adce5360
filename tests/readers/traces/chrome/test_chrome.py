"""Chrome trace-event JSON: reading, ordering, writing, bad input."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphframe
import graphframe_readers.traces as rt
from graphframe.traces import read_tree
from graphframe_readers import ReadError
from tests.trace_collect import located
from graphframe_readers.traces.warnings import TraceWarning


def _write(tmp_path, events, wrap=False, name="t.json", tail=""):
    p = tmp_path / name
    body = json.dumps({"traceEvents": events, "displayTimeUnit": "ns"} if wrap else events)
    p.write_text(body + tail)
    return p


EVENTS = [
    {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "solver"}},
    {"ph": "M", "name": "thread_name", "pid": 7, "tid": 3, "args": {"name": "worker"}},
    {"ph": "B", "name": "main", "pid": 7, "tid": 3, "ts": 0.5},
    {"ph": "X", "name": "step", "pid": 7, "tid": 3, "ts": 1.25, "dur": 2.0, "args": {"i": 1}},
    {"ph": "i", "name": "mark", "pid": 7, "tid": 3, "ts": 2, "s": "t"},
    {"ph": "C", "name": "mem", "pid": 7, "tid": 3, "ts": 2.5, "args": {"rss": 10, "heap": 4.5}},
    {"ph": "X", "name": "step", "pid": 7, "tid": 3, "ts": 3.25, "dur": 0},
    {"ph": "E", "pid": 7, "tid": 3, "ts": 9.999},
]


@pytest.mark.parametrize("wrap", [False, True])
def test_read_all_phases(tmp_path, wrap):
    tf = graphframe.read_trace(_write(tmp_path, EVENTS, wrap))
    ev = tf.events
    assert ev["time"].tolist() == [500, 1250, 2000, 2500, 2500, 3250, 3250, 3250, 9999]
    assert ev["kind"].astype(str).tolist() == [
        "enter", "enter", "instant", "counter", "counter", "leave", "enter", "leave", "leave"]
    assert ev["name"].astype(object).tolist()[:4] == ["main", "step", "mark", "mem"]
    assert ev["depth"].tolist() == [0, 1, -1, -1, -1, 1, 1, 1, 0]
    assert ev["duration"].tolist()[:2] == [9499.0, 2000.0]
    assert ev.loc[ev["kind"] == "counter", "value"].tolist() == [10.0, 4.5]
    assert ev["args"].tolist()[1] == '{"i": 1}'
    assert set(ev["rank"]) == {7} and set(ev["thread"]) == {3}
    assert tf.definitions.ranks[7]["name"] == "solver"
    assert tf.definitions.threads[(7, 3)]["name"] == "worker"


def test_round_trip(tmp_path):
    tf = graphframe.read_trace(_write(tmp_path, EVENTS))
    out = tf.to_chrome(tmp_path / "out.json")
    back = graphframe.read_trace(out)
    pd.testing.assert_frame_equal(tf.events, back.events)
    assert back.definitions.threads == tf.definitions.threads


def _random_trace(n_threads=3, calls=400, seed=1):
    rng = np.random.default_rng(seed)
    events = []
    for tid in range(n_threads):
        t = 0
        stack = []
        for _ in range(calls):
            if stack and rng.random() < 0.45:
                name, start = stack.pop()
                events.append({"ph": "X", "name": name, "pid": 1, "tid": tid, "ts": start,
                               "dur": t - start})
            else:
                stack.append((f"f{rng.integers(5)}", t))
            t += int(rng.integers(0, 3))
        while stack:
            name, start = stack.pop()
            events.append({"ph": "X", "name": name, "pid": 1, "tid": tid, "ts": start,
                           "dur": t - start})
    return events  # in end order, like viztracer


def test_unsorted_file_gives_the_sorted_table(tmp_path):
    events = _random_trace()
    ordered = sorted(events, key=lambda e: (e["tid"], e["ts"], -e["dur"]))
    a = graphframe.read_trace(_write(tmp_path, events, name="a.json"))
    b = graphframe.read_trace(_write(tmp_path, ordered, name="b.json"))
    pd.testing.assert_frame_equal(a.events.drop(columns=[]), b.events)
    assert (a.events["match"] >= 0).all()


def test_streaming_small_blocks_and_limits(tmp_path):
    events = sorted(_random_trace(), key=lambda e: (e["ts"], -e["dur"]))
    path = _write(tmp_path, events)
    whole = graphframe.read_trace(path)
    src = rt.FileSource(path, block_size=97)
    streamed = graphframe.read_trace(src, format="chrome", sort_limit=50)
    pd.testing.assert_frame_equal(whole.events, streamed.events)
    tree_a = whole.to_graphframe()
    tree_b = read_tree(rt.FileSource(path, block_size=200), format="chrome", order="stream")
    assert tree_a.dataframe.equals(tree_b.dataframe)


def test_stream_order_rejects_unsorted(tmp_path):
    path = _write(tmp_path, _random_trace())
    with pytest.raises(ReadError, match=r"t.json: byte \d+: events of one pid/tid are not in time"):
        graphframe.read_trace(path, order="stream")


def test_missing_closing_bracket_is_allowed(tmp_path):
    p = tmp_path / "open.json"
    p.write_text('[{"ph": "X", "name": "a", "pid": 0, "tid": 0, "ts": 1, "dur": 1},\n')
    assert len(graphframe.read_trace(p)) == 2


def test_escapes_and_unicode_names(tmp_path):
    ev = [{"ph": "X", "name": 'q"uote\\ \u00e9', "pid": 0, "tid": 0, "ts": 1, "dur": 1}]
    tf = graphframe.read_trace(_write(tmp_path, ev))
    assert tf.events["name"].iloc[0] == 'q"uote\\ \u00e9'


def test_escaped_keys_and_unnamed_events(tmp_path):
    p = tmp_path / "esc.json"
    p.write_text('[{"p\\u0068": "X", "n\\u0061me": "main", "pid": 0, "tid": 0, "ts": 1, '
                 '"dur": 4},\n {"ph": "X", "pid": 0, "tid": 0, "ts": 2, "dur": 1},\n'
                 ' {"ph": "X", "name": "x", "pid": 0, "tid": 1, "ts": 1e0, "dur": 2.5E-3}]')
    tf = graphframe.read_trace(p)
    ev = tf.events[tf.events["kind"] == "enter"]
    assert ev[["time", "name", "thread", "duration"]].values.tolist() == [
        [1000, "main", 0, 4000.0], [2000, "", 0, 1000.0], [1000, "x", 1, 3.0]]
    assert sorted(read_tree(p).dataframe["name"]) == ["", "main", "x"]


@pytest.mark.parametrize("text, where, what", [
    ('[{"ph": "X", "name": "a", "pid": 0, "tid": 0, "ts": 1, "dur": 1}, {"ph": "X", "na',
     "byte 66", "the trace ends inside an event"),
    ('[{"ph": "X", "ts": 1x, "pid": 0, "tid": 0}]', "byte 19", "ts is not a number"),
    ('[{"ph": "X", "ts": 1} {"ph": "X", "ts": 2}]', "byte 21", "not separated by exactly one"),
    ('[{"name": "a", "ts": 1}]', "byte 1", "an event has no 'ph'"),
    ('[{"ph": "B", "name": "a"}]', "byte 1", "an event has no 'ts'"),
    ('{"otherData": {}}', "byte", "no traceEvents|no trace events"),
    ('[{"ph": "X", "ts": 1, 7, "pid": 0}]', "byte 23", "misplaced ',' in an event"),
    ('[{"ph": "X", "ts": 1,}]', "byte 21", "misplaced '}' in an event"),
    ('[{"ph": "X", "ts" 1}]', "byte 19", "misplaced '}' in an event"),
    ('[{"ph": "X", "ts": 1, "args": {"a": [1}]}]', "byte 38", "'}' does not match its opening"),
    ('[{"ph": "X", "ts": 1], {"ph": "X", "ts": 2}]', "byte 18", "not one JSON value"),
    ('[{"ph": "X", "ts": 1, "pid": "\\u12"}]', "byte 29", "bad 'pid'/'tid' string"),
    ('[{"ph": "X", "ts": 1, "dur": 1}]]', "byte 32", "unexpected ']' after the event array"),
    ('[{"ph": "X", "ts": 1, "args": {"a": [1,, 2]}}]', "byte 39", "misplaced ',' in a nested"),
    ('[{"ph": "X", "ts": 1, "args": {"a": [1, 2,]}}]', "byte 42", "misplaced ']' in a nested"),
    ('[{"ph": "X", "ts": 1, "args": {"a": 1, "b"}}]', "byte 42", "misplaced '}' in a nested"),
    ('[{"ph": "X", "ts": 1, "args": {3: 1}}]', "byte 32", "misplaced ':' in a nested"),
    ('[{"ph": "X", "ts": 1, "args": {"a": {x}}}]', "byte 38", "misplaced '}' in a nested"),
    # scalars inside args and in members not read are JSON values too (issue 34)
    ('[{"ph": "X", "ts": 1, "args": {"a": tru}}]', "byte 36", "'tru' is not a JSON value"),
    ('[{"ph": "X", "ts": 1, "args": {"a": [1, 01]}}]', "byte 40", "'01' is not a JSON value"),
    ('[{"ph": "X", "ts": 1, "args": {"a": "x" y}}]', "byte 41", "misplaced '}' in a nested"),
    ('[{"ph": "X", "ts": 1, "args": {"a": [1] 2}}]', "byte 41", "misplaced '}' in a nested"),
    ('[{"ph": "X", "ts": 1, "cat": nul, "dur": 1}]', "byte 29", "'nul' is not a JSON value"),
    ('[{"ph": "X", "ts": 1, "id": 1e, "dur": 1}]', "byte 28", "'1e' is not a JSON value"),
    ('[{"ph": "X", "ts": .5}]', "byte 19", "ts is not a number: '.5'"),
    ('[{"ph": "X", "ts": 05}]', "byte 19", "ts is not a number: '05'"),
    ('[{"ph": "X", "ts": 1, "n\\q": 1}]', "byte 22", "bad key escape"),
    ('{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}], "x": }', "byte 55",
     "bad JSON after the event array"),
])
def test_bad_input_is_located(tmp_path, text, where, what):
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(ReadError, match=what) as info:
        graphframe.read_trace(p, format="chrome")
    assert where in str(info.value) and "bad.json" in str(info.value)
    assert located(info, "bad.json")[:2] == ("bad.json", where) or where == "byte"


def test_unmatched_policy_one_warning(tmp_path):
    ev = [{"ph": "E", "pid": 0, "tid": 0, "ts": 1},
          {"ph": "B", "name": "a", "pid": 0, "tid": 0, "ts": 2},
          {"ph": "B", "name": "b", "pid": 0, "tid": 0, "ts": 3},
          {"ph": "E", "pid": 0, "tid": 0, "ts": 4},
          {"ph": "i", "name": "end", "pid": 0, "tid": 0, "ts": 10}]
    p = _write(tmp_path, ev)
    with pytest.warns(TraceWarning, match="1 enter.*closed at the end.*1 leave") as rec:
        tf = graphframe.read_trace(p)
    assert len(rec) == 1
    a = tf.events[tf.events["name"] == "a"].iloc[0]
    assert (a["match"], a["duration"], a["exclusive"]) == (-1, 8000.0, 7000.0)
    with pytest.warns(TraceWarning) as rec:
        gf = read_tree(p)
    assert len(rec) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tf.to_graphframe().dataframe.equals(gf.dataframe)
    assert gf.dataframe["time (inc)"].tolist() == [8e-06, 1e-06]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789-+.eEtrufalsn", min_size=1, max_size=12))
def test_scalar_check_agrees_with_json(token):
    """bad_scalar accepts exactly the JSON numbers and literals (json.loads' grammar)."""
    from graphframe_readers.traces.chrome.values import bad_scalar, padded
    try:
        json.loads(token)
        valid = True
    except ValueError:
        valid = False
    a = padded(("[" + token + "]").encode())
    assert (bad_scalar(a, np.array([1]), np.array([1 + len(token)])) == -1) == valid
