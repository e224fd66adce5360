"""The vectorised enter/leave matching against a per-stream stack, on random streams."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphframe_readers.traces.events import Kind
from graphframe_readers.traces.matching import match_events


def stack_matching(kind, stream):
    """The reference: one stack per stream, a LEAVE with nothing open unmatched."""
    n = len(kind)
    match, depth, parent = [-1] * n, [-1] * n, [-1] * n
    stacks: dict = {}
    dropped = 0
    for i, (k, s) in enumerate(zip(kind, stream)):
        stack = stacks.setdefault(s, [])
        if k == Kind.ENTER:
            depth[i] = len(stack)
            parent[i] = stack[-1] if stack else -1
            stack.append(i)
        elif k == Kind.LEAVE:
            if not stack:
                dropped += 1
                continue
            e = stack.pop()
            match[i], match[e] = e, i
            depth[i], parent[i] = depth[e], parent[e]
    open_ = sum(len(s) for s in stacks.values())
    return match, depth, parent, open_, dropped


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([0, 0, 1, 1, 2])),
                max_size=60))
def test_matching_equals_a_stack_per_stream(rows):
    rows = sorted(rows, key=lambda r: r[0])  # grouped by stream, order kept within
    stream = np.array([r[0] for r in rows], dtype=np.int64)
    kind = np.array([r[1] for r in rows], dtype=np.uint8)
    m = match_events(kind, stream)
    want = stack_matching(kind.tolist(), stream.tolist())
    assert (m.match.tolist(), m.depth.tolist(), m.parent.tolist(),
            m.unmatched_enters, m.unmatched_leaves) == want


def test_large_stream_codes_take_the_wide_search():
    # stream x level codes beyond 2**16: the non-radix order; results as the reference
    rng = np.random.default_rng(1)
    stream = np.repeat(np.arange(40_000, dtype=np.int64), 4)
    kind = np.tile(np.array([0, 0, 1, 1], dtype=np.uint8), 40_000)
    kind[rng.integers(0, len(kind), 50)] = 2
    m = match_events(kind, stream)
    want = stack_matching(kind.tolist(), stream.tolist())
    assert (m.match.tolist(), m.depth.tolist(), m.parent.tolist()) == want[:3]
    assert m.match.dtype == np.int32 and m.depth.dtype == np.int32
