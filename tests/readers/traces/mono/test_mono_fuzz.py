"""Corrupted logs: decoding either succeeds or raises a located ReadError, nothing else."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from graphframe_readers import ReadError
from graphframe_readers.traces.mono.handler import run
from graphframe_readers.traces.mono.model import ModelBuilder
from graphframe_readers.traces.sources import MemorySource
from tests.readers.traces.mono.test_mono_versions import cases

LOGS = {}


def log(version: int) -> bytes:
    if version not in LOGS:
        w, c = cases(version)
        events = [e for e, _, _ in c]
        w.buffer(thread=1, events=events[:30], ptr_base=0x5000_0000, obj_base=0x100,
                 method_base=0x7000)
        w.buffer(thread=2, events=events[30:], ptr_base=0x5000_0077, obj_base=0xF0,
                 method_base=0x7500)
        LOGS[version] = w.getvalue()
    return LOGS[version]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(13, 17), st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 255)),
                                     min_size=1, max_size=6), st.integers(0, 2))
def test_corrupted_bytes(version, edits, cut):
    data = bytearray(log(version))
    for where, value in edits:
        data[where % len(data)] = value
    if cut:
        data = data[:len(data) - (edits[0][0] % 50) * cut]
    try:
        run(MemorySource(bytes(data), name="fuzz.mlpd"), ModelBuilder())
    except ReadError as exc:
        assert str(exc).startswith("fuzz.mlpd: ")
