"""The lanes walk (fast.walk_lanes) finds exactly the event starts the jump-table walk finds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from graphframe_readers.testing.writers.mlpd import MlpdWriter, encode_events, write_calls_log
from graphframe_readers.traces.mono import decode as decode_module
from graphframe_readers.traces.mono.blocks import BlockReader, RawBuffer
from graphframe_readers.traces.mono.decode import _ChunkDecoder, decode_buffers
from graphframe_readers.traces.mono.fast import event_steps, walk_lanes
from graphframe_readers.traces.mono.handler import chunks
from graphframe_readers.traces.mono.leb128 import LebIndex
from graphframe_readers.traces.mono.slow import SlowReader
from graphframe_readers.traces.sources import FileSource


def chain(nxt: np.ndarray, count: int):
    """The events' chain from value 0 followed one step at a time (None: a step that is
    not a plain one, or the chain does not end at the last value)."""
    out, i = [], 0
    while i < count:
        out.append(i)
        if nxt[i] < 0:
            return None
        i = int(nxt[i])
    return out if i == count else None


def kinds_strategy():
    return st.lists(st.tuples(
        st.sampled_from(["enter", "leave", "exc_leave", "alloc", "alloc_bt", "gc", "resize",
                         "moves", "handle", "handle_bt", "unhandle", "finalize", "throw",
                         "throw_bt", "clause", "monitor", "monitor_bt", "heap_object",
                         "roots", "sample", "sync", "jit"]),
        st.integers(0, 1 << 30), st.integers(0, 12), st.integers(0, 1 << 45)),
        min_size=1, max_size=300)


def events_of(w: MlpdWriter, spec, *, slow: bool):
    events, clock = [], 0
    for kind, step, m, big in spec:
        clock += step
        meth = 0x7000 + 0x40 * m
        bt = [0x7000 + 0x40 * i for i in range(m)]
        if kind == "enter":
            events.append(w.enter(clock, meth))
        elif kind in ("leave", "exc_leave"):
            events.append(w.leave(clock, meth, exception=kind == "exc_leave"))
        elif kind in ("alloc", "alloc_bt"):
            events.append(w.alloc(clock, big, 8 * big, m * 8,
                                  backtrace=bt if kind == "alloc_bt" else None))
        elif kind == "gc":
            events.append(w.gc_event(clock, m % 6, m % 3))
        elif kind == "resize":
            events.append(w.gc_resize(clock, big))
        elif kind == "moves":
            events.append(w.gc_moves(clock, [(8 * big, 8 * i) for i in range(m)]))
        elif kind in ("handle", "handle_bt"):
            events.append(w.gc_handle_created(clock, m % 4, big, 8 * big,
                                              backtrace=bt if kind == "handle_bt" else None))
        elif kind == "unhandle":
            events.append(w.gc_handle_destroyed(clock, m % 4, big))
        elif kind == "finalize":
            events.append(w.finalize(clock, end=bool(m % 2), obj=8 * big if m > 6 else None))
        elif kind in ("throw", "throw_bt"):
            events.append(w.throw(clock, 8 * big, backtrace=bt if kind == "throw_bt" else None))
        elif kind == "clause":
            events.append(w.clause(clock, m % 4, m, meth, 8 * big))
        elif kind in ("monitor", "monitor_bt"):
            events.append(w.monitor(clock, 1 + m % 3, 8 * big,
                                    backtrace=bt if kind == "monitor_bt" else None))
        elif kind == "heap_object":
            events.append(w.heap_object(clock, 8 * big, big, m, refs=[(i, 8 * i) for i in
                                                                      range(m)]))
        elif kind == "roots":
            events.append(w.heap_roots(clock, [(big + i, 8 * i) for i in range(m)]))
        elif kind == "sample":
            events.append(w.sample(clock, big, [big + i for i in range(m % 3)], bt))
        elif kind == "sync":
            events.append(w.sync_point(clock, m % 3))
        elif slow:
            events.append(w.jit(clock, meth, big, m, f"M{m}"))
    return events


def jump_walk(data: bytes, version: int):
    raw = RawBuffer(0, 1, 0, 0, 0, 0, data)
    dec = _ChunkDecoder([raw], version, "x.mlpd")
    return dec, dec.walk(event_steps(dec.ix, version), SlowReader(dec))[1]


@settings(max_examples=150, deadline=None)
@given(kinds_strategy(), st.sampled_from([15, 16, 17]), st.sampled_from([4, 8, 16, 128]),
       st.booleans())
def test_lanes_equal_the_jump_walk_on_valid_events(spec, version, lane_values, slow):
    w = MlpdWriter(version=version)
    data = encode_events(events_of(w, spec, slow=slow), time_base=0)
    dec, expected = jump_walk(data, version)
    got = walk_lanes(event_steps(dec.ix, version), dec.ix, lane_values)
    if got is not None:
        assert got.tolist() == expected.tolist()
    if not slow and lane_values == 128 and 0 < dec.ix.count < 256:
        assert got is not None      # one lane: nothing to prove but the chain itself


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=1, max_size=600), st.sampled_from([13, 14, 15, 16, 17]),
       st.sampled_from([2, 3, 8, 32]))
def test_lanes_on_any_bytes_give_the_chain_or_nothing(data, version, lane_values):
    ix = LebIndex(np.frombuffer(data, np.uint8))
    nxt = event_steps(ix, version)
    got = walk_lanes(nxt, ix, lane_values)
    if got is not None:
        assert got.tolist() == chain(nxt, ix.count)


def test_a_calls_log_is_walked_by_lanes_after_its_first_chunk(tmp_path):
    path = write_calls_log(tmp_path / "calls.mlpd", 1_200_000)
    reader = BlockReader(FileSource(str(path)))
    pending, size, proved, total = [], 0, 0, 0
    for raw in reader:
        pending.append(raw)
        size += len(raw.data)
        if size >= 1 << 18:
            dec = _ChunkDecoder(pending, 17, "calls.mlpd")
            nxt = event_steps(dec.ix, 17)
            got = walk_lanes(nxt, dec.ix)
            expected = dec.walk(nxt, SlowReader(dec))[1]
            total += 1
            if got is not None:
                proved += 1
                assert got.tolist() == expected.tolist()
            pending, size = [], 0
    assert total >= 4 and proved >= total - 1     # the first holds the metadata and JIT


def test_decoded_chunks_do_not_depend_on_the_walk(tmp_path, monkeypatch):
    path = write_calls_log(tmp_path / "calls.mlpd", 800_000, seed=5)

    def decoded():
        out = []
        for chunk in chunks(BlockReader(FileSource(str(path)))):
            out.append((chunk.kind.tolist(), chunk.time.tolist(), chunk.start.tolist(),
                        {k: {c: v.tolist() for c, v in cols.items()}
                         for k, cols in chunk.tables.items()},
                        {k: v.tolist() for k, v in chunk.lists.items()}))
        return out
    lanes = decoded()
    monkeypatch.setattr(decode_module, "walk_lanes", lambda nxt, ix: None)
    assert decoded() == lanes


@pytest.mark.parametrize("lane_values", [1, 2, 5])
def test_tiny_lanes(lane_values):
    w = MlpdWriter()
    data = encode_events([w.enter(5, 0x10), w.alloc(9, 0x60, 0x1000, 40, backtrace=[0x10]),
                          w.leave(12, 0x10)] * 4, time_base=0)
    ix = LebIndex(np.frombuffer(data, np.uint8))
    nxt = event_steps(ix, 17)
    got = walk_lanes(nxt, ix, lane_values)
    assert got is None or got.tolist() == chain(nxt, ix.count)
    assert decode_buffers([RawBuffer(0, 1, 0, 0, 0, 0, data)], 17, "x").kind_names() == \
        ["enter", "alloc", "leave"] * 4


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("version", [15, 16, 17])
def test_lanes_on_long_mixed_buffers(seed, version):
    """3000 fixed-shape events of every kind with values of every length: proved by the
    lanes (128 values each) and equal to the jump walk; any lane size gives that or None."""
    import random
    rng = random.Random(seed)
    kinds = ["enter", "leave", "exc_leave", "alloc", "alloc_bt", "gc", "resize", "moves",
             "handle", "handle_bt", "unhandle", "finalize", "throw", "throw_bt", "clause",
             "monitor", "monitor_bt", "heap_object", "roots", "sample", "sync"]
    spec = [(rng.choice(kinds), rng.randrange(1 << rng.randrange(1, 30)), rng.randrange(6),
             rng.randrange(1 << rng.randrange(1, 45))) for _ in range(3000)]
    data = encode_events(events_of(MlpdWriter(version=version), spec, slow=False), time_base=0)
    dec, expected = jump_walk(data, version)
    nxt = event_steps(dec.ix, version)
    assert len(expected) == 3000
    assert walk_lanes(nxt, dec.ix, 128).tolist() == expected.tolist()
    for lane_values in (16, 32, 64):
        got = walk_lanes(nxt, dec.ix, lane_values)
        assert got is None or got.tolist() == expected.tolist()


@settings(max_examples=400, deadline=None)
@given(st.binary(min_size=1, max_size=400), st.sampled_from([13, 14, 15, 16, 17]))
def test_event_steps_equal_the_ends_computed_byte_by_byte(data, version):
    """Value steps (tables, layouts) = each fixed-shape event's end found byte by byte, for
    an event starting at every value of any bytes."""
    from graphframe_readers.traces.mono.fast import _byte_steps, _shapes
    ix = LebIndex(np.frombuffer(data, np.uint8))
    nxt = event_steps(ix, version)
    shapes = _shapes(version)
    for k in range(ix.count):
        code = data[ix.cand[k]]
        if code in shapes:
            expected = int(_byte_steps(ix, np.array([k]), shapes[code])[0])
            assert int(nxt[k]) == expected, (k, hex(code))
        else:
            assert nxt[k] < -3          # read by the slow path
