"""The block-vectorised depth-first pre-order against a plain walk, on any graph."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from graphframe.kernels.preorder import general_preorder
from graphframe.kernels.structure import csr
from tests.strategies import SETTINGS


def walk(n, roots, ptr, idx):
    """The reference: an explicit-stack depth-first walk, one node at a time."""
    visited = [False] * n
    depth, via, order = [-1] * n, [-1] * n, []
    stack = [(r, 0, -1) for r in reversed(roots)]
    while stack:
        v, d, p = stack.pop()
        if visited[v]:
            continue
        visited[v], depth[v], via[v] = True, d, p
        order.append(v)
        for c in reversed(idx[ptr[v]:ptr[v + 1]].tolist()):
            if not visited[c]:
                stack.append((c, d + 1, v))
    return order, depth, via


@st.composite
def graphs(draw):
    """Any directed graph: random edges (repeats, self-loops, cycles), some roots."""
    n = draw(st.integers(1, 30))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60))
    roots = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
    src = np.array([a for a, _ in edges], dtype=np.int64)
    dst = np.array([b for _, b in edges], dtype=np.int64)
    ptr, idx = csr(src, dst, n)
    return n, np.array(roots, dtype=np.int64), ptr, idx


@SETTINGS
@given(graphs())
def test_matches_the_plain_walk(g):
    n, roots, ptr, idx = g
    order, depth, via = general_preorder(n, roots, ptr, idx)
    expected = walk(n, roots.tolist(), ptr, idx)
    assert order.tolist() == expected[0]
    assert depth.tolist() == expected[1]
    assert via.tolist() == expected[2]


def test_a_tree_with_one_extra_edge():
    # 0 -> {1, 4}, 1 -> {2, 3}, 4 -> {5}; extra 4 -> 2: 2 is discovered from 1 first
    src = np.array([0, 0, 1, 1, 4, 4])
    dst = np.array([1, 4, 2, 3, 5, 2])
    ptr, idx = csr(src, dst, 6)
    order, depth, via = general_preorder(6, np.array([0]), ptr, idx)
    assert (order.tolist(), depth.tolist(), via.tolist()) == (
        [0, 1, 2, 3, 4, 5], [0, 1, 2, 2, 1, 2], [-1, 0, 1, 1, 0, 4])
    # listed first under 0, the extra edge 0 -> 2 makes 0 its discoverer
    ptr, idx = csr(np.array([0, 0, 0, 1]), np.array([2, 1, 3, 2]), 4)
    order, depth, via = general_preorder(4, np.array([0]), ptr, idx)
    assert (order.tolist(), via.tolist()) == ([0, 2, 1, 3], [-1, 0, 0, 0])


def test_unreachable_nodes_are_left_out():
    ptr, idx = csr(np.array([0, 2]), np.array([1, 3]), 4)
    order, depth, via = general_preorder(4, np.array([0]), ptr, idx)
    assert (order.tolist(), depth.tolist(), via.tolist()) == ([0, 1], [0, 1, -1, -1],
                                                             [-1, 0, -1, -1])


def test_a_cycle_no_root_reaches_is_left_out():
    # 0 -> 1; 2 -> 3 -> 2 is a loop of single-parent edges nothing enters
    src, dst = np.array([0, 2, 3]), np.array([1, 3, 2])
    ptr, idx = csr(src, dst, 4)
    order, depth, via = general_preorder(4, np.array([0]), ptr, idx)
    assert (order.tolist(), depth.tolist(), via.tolist()) == (
        [0, 1], [0, 1, -1, -1], [-1, 0, -1, -1])
