"""The layers on their own: sources (gzip, a file being written, chunking), the tree, the
trace view, a writer round trip (property test) and mprof-report side by side."""

from __future__ import annotations

import gzip
from collections import Counter
import shutil
import subprocess
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphframe
from graphframe_readers.testing.writers.mlpd import MlpdWriter, write_calls_log
from graphframe_readers.traces.mono.handler import MonoHandler, run
from graphframe_readers.traces.mono.model import ModelBuilder
from graphframe_readers.traces.mono.report import report_lines
from graphframe_readers.traces.mono.tree import read_mono_tree
from graphframe_readers.traces.sources import FileSource, FollowSource, MemorySource
from graphframe_readers.traces.warnings import TraceWarning
from tests.corpus import SHARED_DATA
from tests.readers.traces.mono.test_mono_debug import DebugLines

REAL = SHARED_DATA / "traces" / "mono-mlpd" / "mlpd"


def report(source, **kw):
    return list(report_lines(run(source, ModelBuilder(), **kw)))


def test_gzip_log_reads_as_the_plain_one(tmp_path, shared_data):
    plain = REAL / "sample.mlpd"
    packed = tmp_path / "sample.mlpd.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert run(FileSource(packed), DebugLines()).lines == \
        run(FileSource(plain), DebugLines()).lines
    # small input blocks: the inflater's state carries over
    assert report(FileSource(packed, block_size=1000)) == report(FileSource(plain))


def test_chunking_does_not_change_anything(shared_data):
    path = REAL / "calls_alloc.mlpd"
    whole = report(FileSource(path))
    assert report(FileSource(path, block_size=4096), chunk_bytes=20_000) == whole
    assert report(FileSource(path), chunk_bytes=1) == whole     # one buffer per chunk


def test_a_file_still_being_written(tmp_path, shared_data):
    data = (REAL / "default.mlpd").read_bytes()
    live = tmp_path / "live.mlpd"
    live.write_bytes(data[:200])

    def writer():
        with open(live, "ab") as fh:
            for at in range(200, len(data), 7000):
                time.sleep(0.02)
                fh.write(data[at:at + 7000])
                fh.flush()
    t = threading.Thread(target=writer)
    t.start()
    try:
        got = run(FollowSource(live, poll_interval=0.01, idle_timeout=2.0), DebugLines()).lines
    finally:
        t.join()
    assert got == run(MemorySource(data), DebugLines()).lines


def test_call_tree_sums_equal_the_method_summary(shared_data):
    path = REAL / "calls_alloc.mlpd"
    model = run(FileSource(path), ModelBuilder(traces=False))
    gf = graphframe.read(path)
    df = gf.dataframe
    by_name = {}   # several methods (wrappers) share a name
    for method, n in model.method_calls.items():
        entry = by_name.setdefault(model.method_name(method), [0, 0])
        entry[0] += n
        entry[1] += model.method_self[method]
    calls = df.groupby("name")["calls"].sum()
    self_ns = (df.groupby("name")["time"].sum() * 1e9).round()
    assert {n: [int(calls[n]), int(self_ns[n])] for n in calls.index} == by_name
    assert gf.metadata["tree"] == "calls" and gf.default_metric == "time"


def test_sample_tree_counts_every_sample(shared_data):
    path = REAL / "sample.mlpd"
    raw = read_mono_tree(path)
    assert int(raw.metrics["samples"].sum()) == 106
    roots = np.flatnonzero(np.asarray(raw.nodes["parent"]) < 0)
    is_root = np.isin(raw.metrics["node"], roots)
    assert int(raw.metrics["samples (inc)"][is_root].sum()) == 106
    names = set(raw.nodes["name"].tolist())
    assert {"ProfDemo.Work:Spin (int)", "__nptl_death_event"} <= names
    with pytest.raises(Exception, match="no method enter/leave events"):
        read_mono_tree(path, kind="calls")


def test_read_trace_and_the_mono_view(shared_data):
    with pytest.warns(TraceWarning, match="1 leave"):   # mprof-report's unmatched leave
        tf = graphframe.read_trace(REAL / "calls_alloc.mlpd")
    assert tf.metadata["format"] == "mono-mlpd" and tf.metadata["mlpd_data_version"] == 17
    kinds = tf.events["kind"].value_counts().to_dict()
    assert kinds["enter"] == 93481 and kinds["leave"] == 93477 + 5
    allocs = tf.events[tf.events["name"].str.startswith("alloc: ")]
    assert len(allocs) == 19308 and int(allocs["bytes"].sum()) == 1166712
    top = tf.mono.allocations().iloc[0]
    assert (top["class"], top["bytes"], top["count"]) == ("ProfDemo.Point[]", 336000, 2000)
    assert tf.mono.gc()["object_moves"] == 8329
    names = {(0x7f478958cbc0, "Main")}
    assert names <= {(t, d["name"]) for (_, t), d in tf.definitions.threads.items()}


def test_exception_types_from_allocations(shared_data):
    model = run(FileSource(REAL / "calls_alloc.mlpd"), ModelBuilder())
    from graphframe_readers.traces.mono import summary
    assert summary.exceptions(model)["by_type"].values.tolist() == [
        ["System.InvalidOperationException", 4],
        ["System.Globalization.CultureNotFoundException", 1]]
    sampled = run(FileSource(REAL / "sample.mlpd"), ModelBuilder())   # no allocations
    assert summary.exceptions(sampled)["by_type"].values.tolist() == [
        ["(type unknown: no allocation event)", 1201]]


def test_exception_type_follows_a_gc_move():
    w = MlpdWriter()
    w.buffer(thread=1, events=[w.klass(0, 0x50, 0x90, "A.BadException"),
                               w.vtable(0, 0x60, 0, 0x50), w.alloc(1, 0x60, 0x1000, 64),
                               w.gc_moves(2, [(0x1000, 0x2000)]), w.throw(3, 0x2000)])
    model = run(MemorySource(w.getvalue()), ModelBuilder())
    assert dict(model.throw_types) == {0x50: 1}


def test_tf_mono_of_another_trace_is_an_argument_error(tmp_path):
    p = tmp_path / "t.json"
    p.write_text('[{"ph": "X", "name": "f", "pid": 0, "tid": 0, "ts": 1, "dur": 2}]')
    with pytest.raises(Exception, match="tf.mono needs a trace read from a Mono log"):
        graphframe.read_trace(p).mono


events_strategy = st.lists(
    st.tuples(st.sampled_from(["enter", "leave", "alloc", "sample", "gc", "throw"]),
              st.integers(0, 5000), st.integers(0, 7), st.integers(1, 1 << 20)),
    min_size=0, max_size=60)


@settings(max_examples=60, deadline=None)
@given(events_strategy, st.integers(13, 17), st.integers(0, 1 << 40))
def test_writer_round_trip(spec, version, base):
    """Whatever the writer writes (times, pointers, bases), the decoder reads back."""
    w = MlpdWriter(version=version)
    events, expected = [], []
    clock = 0
    methods = [0x7000 + 0x40 * i for i in range(8)]
    for kind, step, m, size in spec:
        clock += step
        meth = methods[m]
        if kind == "enter":
            events.append(w.enter(clock, meth))
            expected.append(("enter", clock, (meth,)))
        elif kind == "leave":
            events.append(w.leave(clock, meth))
            expected.append(("leave", clock, (meth,)))
        elif kind == "alloc":
            bt = tuple(methods[:m])
            events.append(w.alloc(clock, base + 0x80, 0x7E00_0000 + 8 * size, size,
                                  backtrace=list(bt)))
            expected.append(("alloc", clock, (base + 0x80, 0x7E00_0000 + 8 * size, size, bt)))
        elif kind == "sample":
            events.append(w.sample(clock, 0x10, [base + size], [meth]))
            expected.append(("sample", clock, (0x10, (base + size,), (meth,), 1)))
        elif kind == "gc":
            events.append(w.gc_event(clock, m % 6, m % 3))
            expected.append(("gc", clock, (m % 6, m % 3)))
        else:
            events.append(w.throw(clock, 0x7E00_0000 + 8 * size, backtrace=[meth]))
            expected.append(("throw", clock, (0x7E00_0000 + 8 * size, (meth,))))
    w.buffer(thread=3, events=events, time_base=0, ptr_base=base, obj_base=base >> 5,
             method_base=0x6000)

    class Keep(MonoHandler):
        def on_chunk(self, chunk):
            self.got = [(k, t, f) for k, _, t, f in chunk.events()]
    h = run(MemorySource(w.getvalue()), Keep())
    assert getattr(h, "got", []) == expected


@pytest.mark.skipif(shutil.which("mprof-report") is None, reason="mprof-report not installed")
def test_side_by_side_with_mprof_report_on_a_generated_log(tmp_path):
    path = write_calls_log(tmp_path / "gen.mlpd", 2_000_000, seed=3)
    theirs = subprocess.run(["mprof-report", str(path)], capture_output=True, text=True,
                            check=True).stdout
    ours = "\n".join(report_lines(run(FileSource(path), ModelBuilder()))) + "\n"
    assert ours == theirs


def test_call_tree_allocations_by_open_call_path(shared_data):
    """Each allocation goes to the innermost open frame of its thread (mprof-report's
    emulated stack), checked against a per-event handler keeping its own stacks."""
    class Innermost(MonoHandler):
        def __init__(self):
            self.stacks, self.names, self.bytes = {}, {}, Counter()

        def on_jit(self, thread, time, method, code, size, name):
            self.names[method] = name

        def on_enter(self, thread, time, method):
            self.stacks.setdefault(thread, []).append(method)

        def on_leave(self, thread, time, method):
            stack = self.stacks.setdefault(thread, [])
            if stack and stack[-1] == method:
                stack.pop()
        on_exc_leave = on_leave

        def on_alloc(self, thread, time, vtable, obj, size, backtrace):
            stack = self.stacks.get(thread)
            if stack:
                self.bytes[self.names.get(stack[-1], "?")] += size
    path = REAL / "calls_alloc.mlpd"
    expected = run(FileSource(path), Innermost()).bytes
    df = graphframe.read(path).dataframe
    got = df.groupby("name")["alloc bytes"].sum()
    assert {k: int(v) for k, v in got.items() if v} == dict(expected)
    assert int(df["allocs"].sum()) == 19245      # of 19308: the rest outside any call
