"""LebIndex's per-value numbers (eight-byte loads and bit packing) = a plain LEB128 reader."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from graphframe_readers.testing.writers.mlpd import sleb as write_sleb, uleb as write_uleb
from graphframe_readers.traces.mono.leb128 import MAX_LEB_BYTES, LebIndex
from graphframe_readers.traces.mono.slow import sleb, uleb

byte = st.one_of(st.integers(0, 255), st.integers(0x80, 0xFF), st.sampled_from([0x7F, 0x40, 0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(byte, min_size=1, max_size=300))
def test_values_of_any_bytes(data):
    data = bytes(data)
    ix = LebIndex(np.frombuffer(data, np.uint8))
    for k in range(ix.count):
        start, end = int(ix.cand[k]), int(ix.cand[k + 1])
        if end - start > MAX_LEB_BYTES:
            continue        # corrupt: the decoder raises where such a value is a field
        assert int(ix.values[k]) == uleb(data, start)[0]
        assert int(ix.signed[k]) == sleb(data, start)[0]
    assert int(ix.values[ix.count]) == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(1 << 63), (1 << 63) - 1), min_size=1, max_size=50),
       st.lists(st.integers(0, (1 << 64) - 1), min_size=1, max_size=50))
def test_values_of_every_length(signed, unsigned):
    data = b"".join(write_sleb(v) for v in signed) + b"".join(write_uleb(v) for v in unsigned)
    ix = LebIndex(np.frombuffer(data, np.uint8))
    assert ix.count == len(signed) + len(unsigned)
    assert ix.signed[:len(signed)].tolist() == signed
    assert ix.values[len(signed):ix.count].tolist() == unsigned
