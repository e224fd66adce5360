"""The flame graph layout: positions, fitting, merging (pure numpy)."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from graphframe.plot import flame_boxes


def test_children_sit_left_to_right_from_the_parent_edge():
    #      0
    #   1     4
    #  2 3
    parent = np.array([-1, 0, 1, 1, 0])
    depth = np.array([0, 1, 2, 2, 1])
    lay = flame_boxes(parent, depth, np.array([10.0, 6.0, 2.0, 3.0, 4.0]), min_fraction=0)
    assert lay.node.tolist() == [0, 1, 4, 2, 3]
    assert lay.depth.tolist() == [0, 1, 1, 2, 2]
    assert lay.x.tolist() == [0.0, 0.0, 6.0, 0.0, 2.0]
    assert lay.width.tolist() == [10.0, 6.0, 4.0, 2.0, 3.0]
    assert lay.parent.tolist() == [-1, 0, 0, 1, 1]
    assert lay.merged.tolist() == [0] * 5
    assert lay.total == 10.0 and lay.max_depth == 2


def test_roots_side_by_side_and_missing_or_negative_values_give_no_box():
    parent = np.array([-1, 0, -1, 2, 2])
    depth = np.array([0, 1, 0, 1, 1])
    lay = flame_boxes(parent, depth, np.array([3.0, np.nan, 5.0, -1.0, 5.0]), min_fraction=0)
    assert lay.node.tolist() == [0, 2, 4]
    assert lay.x.tolist() == [0.0, 3.0, 3.0]
    assert lay.total == 8.0


def test_children_wider_than_their_parent_are_scaled_down_with_their_subtrees():
    # a call graph's inclusive values can exceed the parent's: 1 and 2 share descendants
    parent = np.array([-1, 0, 0, 1])
    depth = np.array([0, 1, 1, 2])
    lay = flame_boxes(parent, depth, np.array([6.0, 4.0, 4.0, 4.0]), min_fraction=0)
    assert lay.node.tolist() == [0, 1, 2, 3]
    assert np.allclose(lay.width, [6.0, 3.0, 3.0, 3.0])
    assert np.allclose(lay.x, [0.0, 0.0, 3.0, 0.0])


def test_small_children_become_one_grey_box_after_the_others():
    parent = np.array([-1, 0, 0, 0, 0, 3])
    depth = np.array([0, 1, 1, 1, 1, 2])
    width = np.array([100.0, 0.5, 60.0, 0.7, 30.0, 0.7])
    lay = flame_boxes(parent, depth, width, min_fraction=0.01)
    assert lay.node.tolist() == [0, 2, 4, -1]
    assert lay.x.tolist() == [0.0, 0.0, 60.0, 90.0]
    assert np.allclose(lay.width, [100.0, 60.0, 30.0, 1.2])
    assert lay.merged.tolist() == [0, 0, 0, 2]
    assert lay.parent.tolist() == [-1, 0, 0, 0]  # the merged box's parent, and no node 5


def test_small_roots_are_merged_too_and_nothing_left_is_empty():
    lay = flame_boxes(np.array([-1, -1, -1]), np.zeros(3, dtype=int),
                      np.array([100.0, 0.1, 0.2]), min_fraction=0.01)
    assert lay.node.tolist() == [0, -1] and lay.merged.tolist() == [0, 2]
    assert np.allclose(lay.x, [0.0, 100.0])
    empty = flame_boxes(np.array([-1]), np.zeros(1, dtype=int), np.array([0.0]))
    assert len(empty) == 0 and empty.total == 0.0 and empty.max_depth == -1


@st.composite
def forests(draw):
    n = draw(st.integers(1, 60))
    parent = [-1]
    for i in range(1, n):
        parent.append(draw(st.integers(-1, i - 1)))
    parent = np.array(parent)
    depth = np.zeros(n, dtype=int)
    for i in range(n):
        depth[i] = 0 if parent[i] < 0 else depth[parent[i]] + 1
    width = np.array(draw(st.lists(st.floats(0, 100), min_size=n, max_size=n)))
    return parent, depth, width


@settings(max_examples=150, deadline=None)
@given(forests(), st.sampled_from([0.0, 0.01, 0.1]))
def test_every_box_lies_inside_its_parent_and_siblings_never_overlap(forest, fraction):
    parent, depth, width = forest
    assume(width[parent < 0].sum() > 0)
    lay = flame_boxes(parent, depth, width, min_fraction=fraction)
    eps = 1e-9 * lay.total
    assert np.isclose(lay.total, width[parent < 0].sum())
    own = lay.node >= 0
    assert (lay.width[own] >= fraction * lay.total - eps).all()
    where = {int(v): i for i, v in enumerate(lay.node) if v >= 0}
    for i in range(len(lay)):
        if lay.depth[i] == 0:
            continue
        p = where[int(lay.parent[i])]
        assert lay.depth[p] == lay.depth[i] - 1
        assert lay.x[i] >= lay.x[p] - eps
        assert lay.x[i] + lay.width[i] <= lay.x[p] + lay.width[p] + eps
    for d in range(lay.max_depth + 1):
        row = np.flatnonzero(lay.depth == d)
        ends = lay.x[row] + lay.width[row]
        assert (lay.x[row][1:] >= ends[:-1] - eps).all()  # sorted, no overlap
    # a node's own box is its inclusive width when nothing had to be scaled
    fits = all(width[parent == v].sum() <= width[v] + 1e-9 for v in range(len(parent)))
    if fits:
        assert np.allclose(lay.width[own], width[lay.node[own]])
