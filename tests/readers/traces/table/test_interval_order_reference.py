"""interval_order's sort (time first, ties by every key) against the five-key lexsort."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphframe_readers.traces.intervals import interval_order


def lexsort_order(start, end, level=None):
    """The order by all five keys at once (the rules of the module docs)."""
    start = np.asarray(start, dtype=np.int64)
    end = np.maximum(np.asarray(end, dtype=np.int64), start)
    n = len(start)
    idx = np.arange(n, dtype=np.int64)
    zero = end == start
    time = np.concatenate([start, start, np.where(zero, start, end)])
    cls = np.concatenate([np.ones(2 * n, np.int8), np.where(zero, 1, 0).astype(np.int8)])
    outer = -end if level is None else np.asarray(level, dtype=np.int64)
    third = np.concatenate([outer, outer, np.where(zero, outer, -start)])
    fourth = np.concatenate([idx, idx, np.where(zero, idx, -idx)])
    sub = np.concatenate([np.zeros(n, np.int8), np.ones(n, np.int8),
                          np.where(zero, 2, 0).astype(np.int8)])
    order = np.lexsort((sub, fourth, third, cls, time))
    return order % max(n, 1), order // max(n, 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(-1, 4), st.integers(0, 3)),
                max_size=30), st.booleans())
def test_interval_order_equals_the_five_key_sort(calls, with_level):
    start = [s for s, _, _ in calls]
    end = [s + d for s, d, _ in calls]
    level = np.array([v for _, _, v in calls], dtype=np.int64) if with_level else None
    call, slot = interval_order(np.array(start, dtype=np.int64), np.array(end, dtype=np.int64),
                                level)
    want_call, want_slot = lexsort_order(start, end, level)
    assert call.tolist() == want_call.tolist() and slot.tolist() == want_slot.tolist()
    c2, s2 = interval_order(np.array(start, dtype=np.int64), np.array(end, dtype=np.int64),
                            level, data=False)
    keep = want_slot != 1
    assert c2.tolist() == want_call[keep].tolist() and s2.tolist() == want_slot[keep].tolist()
