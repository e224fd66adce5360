"""Row alignment for unify and arithmetic: the direct (scatter) path against the
re-key-then-combine path it replaces, on random forests and on hand-made cases."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given

from graphframe.ops import align, arithmetic, union
from graphframe.model.nodeindex import with_node_values
from graphframe.ops.rows import remap_rows
from tests.helpers import gf_from_edges, replaced
from tests.strategies import SETTINGS, pairs


def reference_unify_left(a, b):
    """The left result of a.unify(b) built the old way: both frames re-keyed, then appended."""
    graph, map_l, map_r = union.union_graphs(a.graph, b.graph)
    m_l = a.exc_metrics + a.inc_metrics
    df_l = remap_rows(a.dataframe, map_l, m_l)
    df_r = remap_rows(b.dataframe, map_r, b.exc_metrics + b.inc_metrics)
    side = union.node_sides(df_l, df_r, graph.num_nodes)
    present = side[side > 0]
    if (present != 3).any():
        df_l = union._append_right_only(df_l, df_r, side, m_l)
    return with_node_values(df_l, graph)


def forced_fallback(op, a, b, **kw):
    """``a <op> b`` with the direct alignment disabled (rows re-keyed and merged first)."""
    real = align.align_frames
    calls = []

    def first_refuses(*args):
        calls.append(1)
        return None if len(calls) == 1 else real(*args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(arithmetic, "align_frames", first_refuses)
        return getattr(a, op)(b, **kw)


@SETTINGS
@given(pairs())
def test_unify_left_matches_the_rekey_then_append_reference(operands):
    a, b = operands
    assume(a.graph != b.graph)  # one graph: unify only copies
    got, _ = a.unify(b, inplace=False)
    pd.testing.assert_frame_equal(got.dataframe, reference_unify_left(a, b))


@SETTINGS
@given(pairs())
def test_arithmetic_matches_the_rekey_first_path(operands):
    a, b = operands
    for op, kw in (("sub", {}), ("add", {"fill_value": 0}), ("div", {})):
        direct = getattr(a, op)(b, **kw)
        slow = forced_fallback(op, a, b, **kw)
        assert direct.graph == slow.graph
        pd.testing.assert_frame_equal(direct.dataframe, slow.dataframe)


def test_unify_keeps_equal_sibling_paths_apart_and_appends_right_only_rows():
    # left: main has two children both called "a"; union matches paths with their
    # occurrence, so both stay nodes of their own
    left = gf_from_edges(["main", "a", "a"], [-1, 0, 0], [1.0, 2.0, 3.0])
    right = gf_from_edges(["main", "b"], [-1, 0], [10.0, 20.0])
    ul, ur = left.unify(right, inplace=False)
    df = ul.dataframe
    names = [ul.graph.node(int(n)).frame["name"] for n in df.index]
    assert names == ["main", "a", "a", "b"]
    assert df["time"].tolist()[:3] == [1.0, 2.0, 3.0]
    assert np.isnan(df["time"].iloc[3])
    assert df["_missing_node"].tolist() == [0, 1, 1, 2]
    assert df["name"].tolist() == ["main", "a", "a", "b"]
    assert ur.dataframe["time"].tolist() == [10.0, 20.0]


def test_sub_with_rank_rows_missing_on_one_side():
    a = gf_from_edges(["main", "x"], [-1, 0], [1.0, 2.0], ranks=2)
    b = gf_from_edges(["main", "y"], [-1, 0], [4.0, 8.0], ranks=2)
    d = b.sub(a, fill_value=0)
    df = d.dataframe
    got = {(d.graph.node(int(n)).frame["name"], int(r)): t
           for (n, r), t in df["time"].items()}
    assert got == {("main", 0): 3.0, ("main", 1): 3.0, ("y", 0): 8.0, ("y", 1): 18.0,
                   ("x", 0): -2.0, ("x", 1): -12.0}
    assert list(df.index.names) == ["node", "rank"]
    assert df.index.is_monotonic_increasing


def test_align_frames_refuses_two_rows_with_one_new_key():
    df = pd.DataFrame({"t": [1.0, 2.0]}, index=pd.Index([0, 1], name="node"))
    assert align.align_frames(df, np.array([0, 0]), df, None) is None
    al = align.align_frames(df, None, df, None)
    assert al.pos_l == slice(None) and al.index().tolist() == [0, 1]


def _attribute(left, right, pos_l, pos_r, n_rows):
    df_l = pd.DataFrame({"c": pd.Series(left, dtype=left.dtype)})  # object stays object
    df_r = pd.DataFrame({"c": pd.Series(right, dtype=right.dtype)})
    return align.attribute_values(df_l, df_r, "c", np.array(pos_l), np.array(pos_r), n_rows)


def test_attribute_values_left_first_then_right_keeping_the_dtype():
    got = _attribute(np.array(["a", "b"], dtype=object), np.array(["x", "y"], dtype=object),
                     [0, 2], [1, 2], 3)
    assert got.dtype == object and got.tolist() == ["a", "x", "b"]
    got = _attribute(np.array([1, 2]), np.array([10, 20]), [2, 0], [1, 0], 3)
    assert got.dtype == np.int64 and got.tolist() == [2, 10, 1]
    when = pd.to_datetime(["2026-01-01", "2026-01-02"]).to_numpy()
    got = _attribute(when[:1], when[1:], [1], [0], 2)
    assert got.dtype == when.dtype and np.array_equal(got, when[::-1])
    # different dtypes on the two sides: numpy's common type, as a concatenation gives
    got = _attribute(np.array([1, 2]), np.array([0.5]), [0, 1], [2], 3)
    assert got.dtype == np.float64 and got.tolist() == [1.0, 2.0, 0.5]


def test_attribute_values_rows_of_the_side_without_the_column_are_missing():
    def one_side(values, left_has_it):
        has = pd.DataFrame({"c": pd.Series(values, dtype=values.dtype)})
        lacks = pd.DataFrame({"d": np.zeros(1)})
        df_l, df_r = (has, lacks) if left_has_it else (lacks, has)
        return align.attribute_values(df_l, df_r, "c", np.array([0]), np.array([1]), 2)

    for left_has_it in (True, False):
        at = 0 if left_has_it else 1
        got = one_side(np.array(["a"], dtype=object), left_has_it)
        assert got.dtype == object and got[at] == "a" and got[1 - at] is None
        for values in (np.array([1.5]), np.array([1]), np.array([True])):  # NaN: float64
            got = one_side(values, left_has_it)
            assert got.dtype == np.float64 and got[at] == values[0] and np.isnan(got[1 - at])


def without_grid(fn):
    """``fn()`` with the grid alignment turned off (every frame takes the row-key path)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(align, "grid_alignment", lambda *args: None)
        return fn()


@SETTINGS
@given(pairs())
def test_grid_alignment_equals_the_row_key_path(operands):
    a, b = operands
    assume(a.dataframe.index.nlevels == 2)  # (node, rank): every node on both ranks
    assert align.grid_alignment(a.dataframe.index, None, b.dataframe.index, None) is not None
    part = replaced(b, dataframe=b.dataframe.iloc[1:])  # one row missing: no grid
    for left, right in ((a, b), (b, a), (a, a.copy()), (a, part), (part, a)):
        for op, kw in (("sub", {}), ("add", {"fill_value": 0}), ("div", {})):
            grid = getattr(left, op)(right, **kw)
            keys = without_grid(lambda: getattr(left, op)(right, **kw))
            pd.testing.assert_frame_equal(grid.dataframe, keys.dataframe, check_exact=True)
        got = left.unify(right, inplace=False)
        want = without_grid(lambda: left.unify(right, inplace=False))
        for g, w in zip(got, want):
            pd.testing.assert_frame_equal(g.dataframe, w.dataframe, check_exact=True)


def test_grid_alignment_with_two_levels_after_node():
    idx = pd.MultiIndex.from_product([[0, 1, 2], [0, 1], [5, 7]], names=["node", "rank", "thread"])
    n_rows, pos_l, pos_r, make_index = align.grid_alignment(idx, np.array([0, 2, 3]),
                                                            idx[4:], None)
    assert n_rows == 16 and pos_r.tolist() == list(range(4, 12))
    assert pos_l.tolist() == [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15]
    assert make_index().tolist() == [(n, r, t) for n in range(4) for r in (0, 1) for t in (5, 7)]
    assert align.grid_alignment(idx, np.array([0, 0, 1]), idx, None) is None  # nodes merge
    assert align.grid_alignment(idx[:-1], None, idx, None) is None  # a row missing


def test_row_keys_of_three_levels_with_many_values_do_not_overflow_small_codes():
    # 64 ranks x 8 threads: a rank's code (int8) times the thread count passes 127
    idx = pd.MultiIndex.from_product([[0, 1], range(64), range(8)],
                                     names=["node", "rank", "thread"])
    full = pd.DataFrame({"t": np.arange(len(idx), dtype=float)}, index=idx)
    al = align.align_frames(full, None, full.iloc[1:], None)  # a row missing: row keys
    assert al.n_rows == len(idx) and al.index().equals(idx)
    assert al.pos_l.tolist() == list(range(len(idx))) and al.pos_r.tolist()[:2] == [1, 2]
