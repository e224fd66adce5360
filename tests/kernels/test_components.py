"""Strongly connected components (one implementation, in readers) and condensation levels."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphframe.kernels.components import condensation, sink_levels
from graphframe.kernels.paths import nearest_marked
from tests.strategies import SETTINGS

nx = pytest.importorskip("networkx", reason="networkx is the reference for components")


@st.composite
def edge_lists(draw):
    n = draw(st.integers(1, 25))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=50))
    return n, np.array([a for a, _ in edges], dtype=np.int64), \
        np.array([b for _, b in edges], dtype=np.int64)


@SETTINGS
@given(edge_lists())
def test_condensation_matches_networkx(g):
    n, src, dst = g
    comp, k, a, b = condensation(n, src, dst)
    ref = nx.DiGraph()
    ref.add_nodes_from(range(n))
    ref.add_edges_from(zip(src.tolist(), dst.tolist()))
    groups = {frozenset(c) for c in nx.strongly_connected_components(ref)}
    assert {frozenset(np.flatnonzero(comp == c).tolist()) for c in range(k)} == groups
    # components are numbered by their first node: deterministic
    firsts = [int(np.flatnonzero(comp == c)[0]) for c in range(k)]
    assert firsts == sorted(firsts)
    expected = {(int(comp[u]), int(comp[v])) for u, v in zip(src, dst) if comp[u] != comp[v]}
    assert list(zip(a.tolist(), b.tolist())) == sorted(expected)
    # every edge of the condensation goes from a later level to an earlier one
    level = np.empty(k, dtype=np.int64)
    for i, nodes in enumerate(sink_levels(k, a, b)):
        level[nodes] = i
    assert (level[a] > level[b]).all()


def test_sink_levels_refuse_a_cycle():
    with pytest.raises(ValueError, match="cycle"):
        sink_levels(2, np.array([0, 1]), np.array([1, 0]))


def test_nearest_marked_walks_few_queries_and_jumps_for_many():
    parent = np.array([-1, 0, 1, 2, 3, 0])
    marked = np.array([False, True, False, False, False, False])
    few = nearest_marked(parent, marked, np.array([4]))
    many = nearest_marked(parent, marked, np.arange(6))
    assert few.tolist() == [1]
    assert many.tolist() == [-1, 1, 1, 1, 1, -1]
