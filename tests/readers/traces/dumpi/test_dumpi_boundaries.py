"""DUMPI record starts found by the numpy walks equal the exact one-record-at-a-time chain."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from graphframe_readers.traces.dumpi import boundaries
from graphframe_readers.traces.dumpi.boundaries import record_starts
from graphframe_readers.traces.dumpi.layouts import (CPU, END_OF_STREAM, LABEL, THREAD, WALL,
                                                     fixed_size)


def exact(a, p, n, step):
    """The chain one record at a time (the decoder's former loop)."""
    got, slow = [], []
    while p + 3 <= n:
        label = (int(a[p]) << 8) | int(a[p + 1])
        size = fixed_size(label, int(a[p + 2])) if label < END_OF_STREAM else 0
        if size:
            if p + size > n:
                break
            got.append(p)
            p += size
        else:
            q = step(p)
            if q is None:
                break
            got.append(p)
            slow.append(p)
            p = q
    return got, slow, p


def record(name, mask, rng):
    head = LABEL[name].to_bytes(2, "big") + bytes([mask])
    size = fixed_size(LABEL[name], mask)
    return head + rng.integers(0, 256, size - 3, dtype=np.uint8).tobytes()


def variable(rng):
    """A record the table does not size: label MPI_Waitall; its length is in its byte 3."""
    body = rng.integers(0, 256, int(rng.integers(1, 200)), dtype=np.uint8).tobytes()
    return LABEL["MPI_Waitall"].to_bytes(2, "big") + bytes([WALL]) + \
        bytes([len(body)]) + body


def variable_step(a):
    return lambda p: p + 4 + int(a[p + 3])


def stream(seed, records, variable_share, junk=False):
    rng = np.random.default_rng(seed)
    names = ["MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Win_fence", "MPI_Barrier",
             "MPI_Send", "MPI_Irecv", "MPI_Allreduce", "MPI_Comm_rank"]
    masks = [THREAD | WALL, WALL, CPU | WALL, THREAD | CPU | WALL, CPU]
    mask_pick = masks[: int(rng.integers(1, len(masks) + 1))]
    parts = []
    for _ in range(records):
        if rng.random() < variable_share:
            parts.append(variable(rng))
        else:
            parts.append(record(names[int(rng.integers(len(names)))],
                                mask_pick[int(rng.integers(len(mask_pick)))], rng))
    parts.append(END_OF_STREAM.to_bytes(2, "big") + b"\0")
    data = b"".join(parts)
    if junk:  # random bytes after a cut: the chain must stop where the exact one stops
        cut = int(rng.integers(len(data) // 2, len(data)))
        data = data[:cut] + rng.integers(0, 256, len(data) - cut, dtype=np.uint8).tobytes()
    return np.frombuffer(data, dtype=np.uint8)


def eos_step(a):
    inner = variable_step(a)

    def step(p):
        label = (int(a[p]) << 8) | int(a[p + 1])
        if label >= END_OF_STREAM or label != LABEL["MPI_Waitall"]:
            return None
        q = inner(p)
        return q if q <= len(a) else None
    return step


@pytest.mark.parametrize("variable_share", [0.0, 0.01, 0.2, 0.9])
def test_whole_streams_equal_the_exact_chain(variable_share):
    a = stream(1, 3000, variable_share)
    starts, slow, stop = record_starts(a, 0, len(a), eos_step(a))
    want = exact(a, 0, len(a), eos_step(a))
    assert (starts.tolist(), slow, stop) == want
    assert a[stop] == END_OF_STREAM >> 8 and a[stop + 1] == END_OF_STREAM & 0xFF


def test_a_buffer_cut_anywhere_stops_where_the_exact_chain_stops():
    a = stream(2, 2000, 0.05)
    step = eos_step(a)
    for n in [9000, 12345, 20000, 30001, len(a) - 5]:
        got = record_starts(a, 0, n, step)
        assert (got[0].tolist(), got[1], got[2]) == exact(a, 0, n, step)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), share=st.sampled_from([0.0, 0.02, 0.3]),
       junk=st.booleans(), start=st.integers(0, 60))
def test_random_streams_and_starting_points(seed, share, junk, start):
    a = stream(seed, 600, share, junk=junk)
    step = eos_step(a)
    got = record_starts(a, start, len(a), step)
    assert (got[0].tolist(), got[1], got[2]) == exact(a, start, len(a), step)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_bytes(seed):
    """Pure noise: walks desynchronise everywhere; a step that always goes on (5 bytes)."""
    a = np.random.default_rng(seed).integers(0, 3, 20000, dtype=np.uint8)
    a[::7] = np.random.default_rng(seed + 1).integers(0, 256, len(a[::7]), dtype=np.uint8)
    step = lambda p: p + 5  # noqa: E731
    got = record_starts(a, 0, len(a), step)
    assert (got[0].tolist(), got[1], got[2]) == exact(a, 0, len(a), step)


def test_walks_that_run_out_of_steps(monkeypatch):
    """Three-byte records (no times): walks stop after STEPS steps, Python takes over."""
    monkeypatch.setattr(boundaries, "STEPS", 50)
    rec = LABEL["MPI_Finalize"].to_bytes(2, "big") + b"\0"
    a = np.frombuffer(rec * 9000 + END_OF_STREAM.to_bytes(2, "big") + b"\0", dtype=np.uint8)
    starts, slow, stop = record_starts(a, 0, len(a), eos_step(a))
    assert starts.tolist() == list(range(0, 27000, 3)) and slow == [] and stop == 27000


def test_the_step_may_raise():
    a = stream(3, 1000, 0.0)
    a = a.copy()
    a[-3:-1] = [0xFF, 0xFF]  # a bad label where the end-of-stream mark was

    def step(p):
        raise ValueError(p)
    with pytest.raises(ValueError) as err:
        record_starts(a, 0, len(a), step)
    assert err.value.args[0] == len(a) - 3


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), share=st.sampled_from([0.0, 0.05, 0.5]),
       junk=st.booleans(), chunk=st.sampled_from([64, 100, 256]),
       warmup=st.sampled_from([1, 8, 64]), stragglers=st.sampled_from([1, 4, 1000]))
def test_small_chunks_many_links(seed, share, junk, chunk, warmup, stragglers):
    """Many small chunks: trusted runs, untrusted chunks crossed in Python, re-entries."""
    a = stream(seed, 400, share, junk=junk)
    step = eos_step(a)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(boundaries, "CHUNK", chunk)
        mp.setattr(boundaries, "WARMUP", warmup)
        mp.setattr(boundaries, "SMALL", 2 * chunk)
        mp.setattr(boundaries, "STRAGGLERS", stragglers)
        for n in (len(a), len(a) - 7):
            got = record_starts(a, 0, n, step, masks={THREAD | WALL})
            assert (got[0].tolist(), got[1], got[2]) == exact(a, 0, n, step)
