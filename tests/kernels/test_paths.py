"""Matching one forest's nodes onto another's by call path, against plain walks."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from graphframe.kernels.paths import match_paths, sibling_occurrence
from graphframe.kernels.structure import forest_depth
from tests.strategies import SETTINGS


@st.composite
def forests(draw, max_nodes=30, keys=3):
    """``(parent, key)`` of a random forest whose parents come before their children."""
    n = draw(st.integers(0, max_nodes))
    parent = [draw(st.integers(-1, i - 1)) for i in range(n)]
    key = [draw(st.integers(0, keys - 1)) for _ in range(n)]
    return np.array(parent, dtype=np.int64), np.array(key, dtype=np.int64)


def occurrence_walk(parent, key):
    seen, out = {}, []
    for p, k in zip(parent.tolist(), key.tolist()):
        out.append(seen.get((p, k), 0))
        seen[(p, k)] = out[-1] + 1
    return out


def paths(parent, key):
    """Each node's call path as a tuple of (key, occurrence) pairs."""
    occ = occurrence_walk(parent, key)
    out = []
    for v in range(len(parent)):
        path, at = [], v
        while at >= 0:
            path.append((int(key[at]), occ[at]))
            at = int(parent[at])
        out.append(tuple(reversed(path)))
    return out


@SETTINGS
@given(forests())
def test_sibling_occurrence_counts_equal_keys_of_one_parent_in_id_order(forest):
    parent, key = forest
    assert sibling_occurrence(parent, key).tolist() == occurrence_walk(parent, key)


@SETTINGS
@given(forests(), forests())
def test_match_paths_finds_the_node_with_the_same_path(a, b):
    (parent_a, key_a), (parent_b, key_b) = a, b
    occ_a, occ_b = sibling_occurrence(parent_a, key_a), sibling_occurrence(parent_b, key_b)
    spread = int(max(occ_a.max(initial=0), occ_b.max(initial=0))) + 1
    got = match_paths(parent_a, key_a * spread + occ_a, parent_b, key_b * spread + occ_b,
                      forest_depth(parent_b))
    where = {p: i for i, p in enumerate(paths(parent_a, key_a))}
    assert got.tolist() == [where.get(p, -1) for p in paths(parent_b, key_b)]


def test_match_paths_with_sibling_keys_too_wide_for_one_integer_key():
    parent = np.array([-1, 0, 0], dtype=np.int64)
    key = np.array([0, 1 << 61, 5], dtype=np.int64)
    got = match_paths(parent, key, parent[:2], key[1::-1].copy(), np.array([0, 1]))
    assert got.tolist() == [-1, -1]
    got = match_paths(parent, key, np.array([-1, 0, 0]), np.array([0, 5, 1 << 61]),
                      np.array([0, 1, 1]))
    assert got.tolist() == [0, 2, 1]
