"""The streaming tree builder: any split of a trace into batches gives the same tree."""

import json
import warnings

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import graphframe
from graphframe.traces import TableBuilder, TraceFrame, TreeBuilder, read_tree
from graphframe_readers.traces import EventBatch, Kind, StringTable
from graphframe_readers.traces.warnings import TraceWarning


@st.composite
def traces(draw):
    """Enter/leave streams of a few (rank, thread) pairs, possibly unbalanced, interleaved."""
    rows = []
    for stream in range(draw(st.integers(1, 3))):
        depth, t = 0, 0
        for op in draw(st.lists(st.integers(0, 4), min_size=1, max_size=40)):
            t += draw(st.integers(0, 3))
            if op < 2 or depth == 0 and op < 4:
                rows.append((stream, t, Kind.ENTER, op % 3))
                depth += 1
            else:
                rows.append((stream, t, Kind.LEAVE, -1))
                depth -= 1
    order = draw(st.permutations(range(len(rows))))
    # interleave streams but keep each stream's order
    by_stream = {}
    for i in order:
        by_stream.setdefault(rows[i][0], []).append(i)
    merged, cursors = [], {s: iter(sorted(v)) for s, v in by_stream.items()}
    for i in order:
        merged.append(next(cursors[rows[i][0]]))
    return [rows[i] for i in merged]


def _batches(rows, cuts, strings):
    arr = np.array([(s, t, k, n) for s, t, k, n in rows], dtype=np.int64).reshape(-1, 4)
    bounds = [0] + sorted(set(c % (len(rows) + 1) for c in cuts)) + [len(rows)]
    for lo, hi in zip(bounds, bounds[1:]):
        part = arr[lo:hi]
        if len(part):
            yield EventBatch.build(strings, kind=part[:, 2], time=part[:, 1], rank=part[:, 0] // 2,
                                   thread=part[:, 0] % 2, name=part[:, 3])


@settings(max_examples=60, deadline=None)
@given(traces(), st.lists(st.integers(0, 200), max_size=5))
def test_batches_do_not_change_the_tree(rows, cuts):
    assume(any(k == Kind.ENTER for _, _, k, _ in rows))
    strings = StringTable(["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TraceWarning)
        tree = TreeBuilder()
        for b in _batches(rows, cuts, strings):
            tree.on_batch(b)
        tree.on_end()
        table = TableBuilder()
        for b in _batches(rows, [], strings):
            table.on_batch(b)
        table.on_end()
        whole = TraceFrame(table.result(), table.definitions).to_graphframe()
    streamed = tree.graphframe()
    assert streamed.graph == whole.graph
    a = streamed.dataframe.reset_index().sort_values(["node", "rank", "thread"])
    b = whole.dataframe.reset_index().sort_values(["node", "rank", "thread"])
    assert a.reset_index(drop=True).equals(b.reset_index(drop=True))
    # exclusive times sum to the inclusive times of the roots, per stream
    df = streamed.dataframe.reset_index()
    roots = df[df["node"].isin(streamed.graph.root_ids)]
    for key, grp in df.groupby(["rank", "thread"]):
        r = roots[(roots["rank"] == key[0]) & (roots["thread"] == key[1])]
        assert np.isclose(grp["time"].sum(), r["time (inc)"].sum())


def test_parallel_chrome_falls_back_when_cuts_are_not_between_events(tmp_path):
    # pretty-printed events whose args hold arrays of objects on their own lines
    events = []
    for i in range(3000):
        events.append({"ph": "X", "name": f"f{i % 3}", "pid": 0, "tid": 0, "ts": i * 10,
                       "dur": 5, "args": {"items": [{"k": i}, {"k": i + 1}]}})
    text = "[\n" + ",\n".join(json.dumps(e, indent=1) for e in events) + "\n]"
    p = tmp_path / "pretty.json"
    p.write_text(text)
    from graphframe_readers.traces import FileSource
    serial = graphframe.read_trace(FileSource(p, block_size=4096), format="chrome")
    parallel = graphframe.read_trace(FileSource(p, block_size=4096), format="chrome", jobs=2)
    assert serial.events.equals(parallel.events)
    one_line = tmp_path / "one-line.json"
    one_line.write_text(json.dumps(events))
    assert read_tree(one_line, jobs=2).dataframe.equals(read_tree(one_line).dataframe)


def test_tree_rows_exist_only_where_a_stream_ran_the_node(tmp_path):
    """No NaN-only rows: a node gets a row per (rank, thread) that entered it, nothing else."""
    ev = [{"ph": "X", "name": "main", "pid": 0, "tid": 0, "ts": 0, "dur": 10},
          {"ph": "X", "name": "a", "pid": 0, "tid": 0, "ts": 1, "dur": 2},
          {"ph": "X", "name": "main", "pid": 1, "tid": 0, "ts": 0, "dur": 10},
          {"ph": "X", "name": "b", "pid": 1, "tid": 0, "ts": 1, "dur": 4},
          {"ph": "X", "name": "c", "pid": 1, "tid": 3, "ts": 1, "dur": 2}]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(ev))
    for gf in (graphframe.read_trace(path).to_graphframe(), read_tree(path)):
        df = gf.dataframe.reset_index()
        rows = sorted(df[["name", "rank", "thread", "time (inc)", "time", "count"]]
                      .assign(**{"time (inc)": df["time (inc)"] * 1e6, "time": df["time"] * 1e6})
                      .round(6).values.tolist())
        assert rows == [["a", 0, 0, 2.0, 2.0, 1], ["b", 1, 0, 4.0, 4.0, 1], ["c", 1, 3, 2.0, 2.0, 1],
                        ["main", 0, 0, 10.0, 8.0, 1], ["main", 1, 0, 10.0, 6.0, 1]]
        assert not gf.dataframe[["time (inc)", "time", "count"]].isna().any().any()
