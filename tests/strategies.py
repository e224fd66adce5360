"""Hypothesis strategies shared by the property tests: random forests, call graphs and
pairs of operands indexed alike."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.helpers import gf_from_edges, replaced

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def forests(draw, max_nodes=25, names="abc", unique_siblings=False, dag=False, ranks=None):
    n = draw(st.integers(1, max_nodes))
    parent = [-1] + [draw(st.integers(-1 if i < 3 else 0, i - 1)) for i in range(1, n)]
    if unique_siblings:
        names_out = [f"n{i}" for i in range(n)]
    else:
        names_out = [draw(st.sampled_from(names)) for _ in range(n)]
    times = [float(draw(st.integers(0, 50))) for _ in range(n)]
    extra = []
    if dag and n > 2:
        for _ in range(draw(st.integers(0, 3))):
            child = draw(st.integers(1, n - 1))
            src = draw(st.integers(0, child - 1))
            if src != parent[child]:
                extra.append((src, child))
    ranks = draw(st.sampled_from([0, 2])) if ranks is None else ranks
    return gf_from_edges(names_out, parent, times, extra=extra, ranks=ranks)


@st.composite
def pairs(draw, make=None, **options):
    """Two operands indexed by the same levels (both with or both without ranks), as
    unify and arithmetic require: drawn from ``make`` (default :func:`forests`)."""
    ranks = draw(st.sampled_from([0, 2]))
    make = forests if make is None else make
    return draw(make(ranks=ranks, **options)), draw(make(ranks=ranks, **options))


@st.composite
def shared_graphs(draw, max_nodes=40, max_extra=15, cycles=False, ranks=None):
    """Random trees plus extra edges (forward only, or anywhere with ``cycles``), with
    NaN values and missing rows sprinkled in."""
    n = draw(st.integers(2, max_nodes))
    parent = [-1] + [draw(st.integers(-1 if i < 2 else 0, i - 1)) for i in range(1, n)]
    extra = set()
    for _ in range(draw(st.integers(0, max_extra))):
        child = draw(st.integers(0 if cycles else 1, n - 1))
        src = draw(st.integers(0, n - 1 if cycles else child - 1))
        if src != parent[child]:
            extra.add((src, child))
    times = [draw(st.sampled_from([0.0, 1.0, 2.5, 7.0, 100.0, float("nan")])) for _ in range(n)]
    gf = gf_from_edges([f"n{i}" for i in range(n)], parent, times, extra=sorted(extra),
                       ranks=draw(st.sampled_from([0, 2])) if ranks is None else ranks)
    drop = np.array(draw(st.lists(st.booleans(), min_size=len(gf.dataframe),
                                  max_size=len(gf.dataframe))))
    drop[0] = False
    return replaced(gf, dataframe=gf.dataframe[~drop])
