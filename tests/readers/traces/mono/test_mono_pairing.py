"""The numpy pairing of enter/leave events equals the one-event-at-a-time rule."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from graphframe_readers.traces.mono import calls as calls_module
from graphframe_readers.traces.mono.calls import CallStacks


@st.composite
def streams(draw):
    """Events of up to three threads, mostly well nested, sometimes a stray leave."""
    n = draw(st.integers(0, 400))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    stacks = {t: [] for t in range(3)}
    out = []
    clock = 0
    for _ in range(n):
        t = int(rng.integers(0, 3))
        clock += int(rng.integers(0, 50))
        stack = stacks[t]
        r = rng.random()
        if r < 0.03:                                   # unmatched: another method, or empty
            out.append((t, clock, int(rng.integers(0, 5)), False))
        elif r < 0.15:                                 # a query (an allocation, say)
            out.append((t, clock, -1, None))
        elif stack and r < 0.5:
            out.append((t, clock, stack.pop(), False))
        else:
            m = int(rng.integers(0, 5))
            stack.append(m)
            out.append((t, clock, m, True))
    cuts = sorted(draw(st.lists(st.integers(0, max(n, 1)), max_size=4)))
    return out, cuts


def run(events, cuts, vector: bool):
    saved = calls_module.MIN_VECTOR_RUN
    calls_module.MIN_VECTOR_RUN = 1 if vector else 10 ** 9
    try:
        cs = CallStacks(paths=True)
        results = []
        bounds = [0] + cuts + [len(events)]
        for lo, hi in zip(bounds, bounds[1:]):
            part = events[lo:hi]
            results.append(cs.feed([e[0] for e in part], [e[1] for e in part],
                                   [e[2] for e in part], [bool(e[3]) for e in part],
                                   queries=[e[3] is None for e in part]))
        last = {t: (stack[-1][1] if stack else 0) for t, stack in cs.stacks.items()}
        results.append(cs.close(last))
    finally:
        calls_module.MIN_VECTOR_RUN = saved

    def path(node):
        out = []
        while node >= 0:
            out.append(cs.path_method[node])
            node = cs.path_parent[node]
        return tuple(reversed(out))
    closed = Counter()
    queried = [path(n) if n >= 0 else None for r in results for n in r["query_node"].tolist()]
    for r in results:
        for m, i, c, nd, t in zip(*(r[k].tolist() for k in
                                    ("method", "inclusive", "callee", "node", "thread"))):
            closed[(m, i, c, path(nd), t)] += 1
    return closed, cs.unmatched, queried


@settings(max_examples=150, deadline=None)
@given(streams())
def test_vector_pairing_equals_one_by_one(case):
    events, cuts = case
    assert run(events, cuts, vector=True) == run(events, cuts, vector=False)


def test_regular_streams_take_the_numpy_path(monkeypatch):
    seen = []
    original = calls_module.pair_thread

    def spy(*args, **kw):
        out = original(*args, **kw)
        seen.append(out is not None)
        return out
    monkeypatch.setattr(calls_module, "pair_thread", spy)
    times = list(range(200))
    methods = [i % 7 for i in range(100)] + [(99 - i) % 7 for i in range(100)]
    enters = [True] * 100 + [False] * 100
    out = CallStacks(paths=True).feed([1] * 200, times, methods, enters)
    assert seen == [True] and len(out["method"]) == 100
