"""subtree_sum / subgraph_sum with Hatchet's aggregation functions (issue 14 item 3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from graphframe.errors import OperationError

from helpers import by_name, gf_from_edges, replaced

TREE = (["a", "b", "c", "d", "e", "f"], [-1, 0, 1, 1, 0, 4], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
DIAMOND = (["a", "b", "c", "d"], [-1, 0, 0, 1])


def tree():
    return gf_from_edges(*TREE)


def diamond(ranks: int = 0):
    return gf_from_edges(*DIAMOND, [1.0, 2.0, 3.0, 4.0], extra=[(2, 3)], ranks=ranks)


@pytest.mark.parametrize("function, expected", [
    (np.prod, [720.0, 24.0, 3.0, 4.0, 30.0, 6.0]),
    ("prod", [720.0, 24.0, 3.0, 4.0, 30.0, 6.0]),
    (np.max, [6.0, 4.0, 3.0, 4.0, 6.0, 6.0]),
    (max, [6.0, 4.0, 3.0, 4.0, 6.0, 6.0]),
    (np.min, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    (np.sum, [21.0, 9.0, 3.0, 4.0, 11.0, 6.0]),
    # Hatchet's tree rule: own value and the children's results, leaves unchanged
    (lambda s: s.count(), [3.0, 3.0, 3.0, 4.0, 2.0, 6.0]),
    (lambda s: s.sum(), [21.0, 9.0, 3.0, 4.0, 11.0, 6.0]),
])
def test_subtree_sum_functions_on_a_tree(function, expected):
    gf = tree()
    gf.subtree_sum(["time"], ["out"], function=function)
    assert [by_name(gf, "out")[n] for n in "abcdef"] == expected


def test_reductions_skip_nan_and_a_subtree_without_values_stays_nan():
    gf = tree()
    df = gf.dataframe.copy()
    df.loc[df["name"].isin(["b", "c", "d"]), "time"] = np.nan
    gf = replaced(gf, dataframe=df)
    for function, root in ((np.max, 6.0), (np.min, 1.0), (np.prod, 30.0)):
        out = by_name(gf.subtree_sum(["time"], ["o"], function=function, inplace=False), "o")
        assert out["a"] == root and np.isnan(out["b"]) and np.isnan(out["c"])


def test_per_rank_values_are_aggregated_within_each_rank():
    gf = gf_from_edges(["a", "b", "c"], [-1, 0, 1], [1.0, 2.0, 4.0], ranks=2)
    gf.subtree_sum(["time"], ["prod"], function=np.prod)
    gf.subtree_sum(["time"], ["count"], function=lambda s: s.count())
    df = gf.dataframe
    assert df.xs(1, level="rank")["prod"].tolist() == [11.0 * 12.0 * 14.0, 12.0 * 14.0, 14.0]
    assert df.xs(0, level="rank")["count"].tolist() == [2.0, 2.0, 4.0]


def test_subgraph_sum_counts_each_distinct_descendant_once_with_any_function():
    for function, expected in ((np.max, [4.0, 4.0, 4.0, 4.0]), ("min", [1.0, 2.0, 4.0, 3.0]),
                               (np.prod, [24.0, 8.0, 4.0, 12.0]),
                               (lambda df: df.max() - df.min(), [3.0, 2.0, 0.0, 1.0]),
                               (lambda df: df.count(), [4.0, 2.0, 1.0, 2.0])):
        gf = diamond()
        gf.subgraph_sum(["time"], ["out"], function=function)
        assert gf.dataframe["out"].tolist() == expected, function


def test_subgraph_sum_per_rank_gives_a_series_per_column_and_rank():
    gf = diamond(ranks=2)
    gf.subgraph_sum(["time"], ["top"], function=lambda s: s.max())
    assert gf.dataframe.xs(1, level="rank")["top"].tolist() == [14.0, 14.0, 14.0, 14.0]
    assert gf.dataframe.xs(0, level="rank")["top"].tolist() == [4.0, 4.0, 4.0, 4.0]


def test_a_callable_uses_the_tree_rule_in_subtree_sum_and_descendants_on_a_forest():
    forest = gf_from_edges(["x", "y", "z"], [-1, 0, -1], [5.0, 7.0, 9.0])
    count = lambda s: s.count()  # noqa: E731
    tree_rule = forest.subtree_sum(["time"], ["n"], function=count, inplace=False)
    assert by_name(tree_rule, "n") == {"x": 2.0, "y": 7.0, "z": 9.0}
    subgraph = forest.subgraph_sum(["time"], ["n"], function=count, inplace=False)
    assert by_name(subgraph, "n") == {"x": 2.0, "y": 1.0, "z": 1.0}


def test_function_errors_are_operation_errors_naming_the_function():
    gf = tree()
    with pytest.raises(OperationError, match="subtree_sum: function .* failed") as info:
        gf.subtree_sum(["time"], function=lambda s: s.nosuch())
    assert isinstance(info.value.__cause__, AttributeError)
    with pytest.raises(OperationError, match="one number per (node|column)"):
        diamond().subgraph_sum(["time"], function=lambda df: "text")
    assert by_name(gf) == dict(zip(TREE[0], TREE[2]))


# ------------------------------------------------------------------ properties
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.strategies import SETTINGS, forests, shared_graphs  # noqa: E402

_BRUTE = {"max": np.nanmax, "min": np.nanmin, "prod": np.nanprod}


def brute_force(gf, how):
    """Per row: the reduction over the distinct reachable nodes' rows of the same rank."""
    g, df = gf.graph, gf.dataframe
    ranked = "rank" in df.index.names
    values = {}
    for key, value in df["time"].items():
        values[key] = value
    out = []
    for key in df.index:
        node, rest = (key[0], key[1:]) if ranked else (key, ())
        seen, stack = {node}, [node]
        while stack:
            for c in g.children_of(stack.pop()).tolist():
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        cells = [values[(v, *rest) if ranked else v] for v in seen
                 if ((v, *rest) if ranked else v) in values]
        present = [c for c in cells if not np.isnan(c)]
        out.append(_BRUTE[how](present) if present else np.nan)
    return out


@SETTINGS
@given(st.one_of(forests(), shared_graphs(max_nodes=15, max_extra=5)),
       st.sampled_from(["max", "min", "prod"]))
def test_reductions_equal_the_distinct_descendants_brute_force(gf, how):
    fresh = gf.dataframe.copy()
    gf.subgraph_sum(["time"], ["out"], function=how)
    assert gf.dataframe["out"].tolist() == pytest.approx(brute_force(gf, how), nan_ok=True)
    assert gf.dataframe["time"].equals(fresh["time"])


@SETTINGS
@given(st.one_of(forests(), shared_graphs(max_nodes=20, max_extra=5)),
       st.sampled_from(["update_inclusive_columns", "drop_index_levels", "subgraph_sum"]))
def test_in_place_equals_the_value_form_and_never_writes_the_old_frame(gf, method):
    args = (["time"], ["t"]) if method == "subgraph_sum" else ()
    old = gf.dataframe
    snapshot = old.copy()
    expected = getattr(gf, method)(*args, inplace=False)
    assert getattr(gf, method)(*args) is None
    pd.testing.assert_frame_equal(gf.dataframe, expected.dataframe)
    assert gf.graph is expected.graph and gf.inc_metrics == expected.inc_metrics
    pd.testing.assert_frame_equal(old, snapshot)


def test_a_function_giving_the_wrong_shape_is_an_operation_error():
    with pytest.raises(OperationError, match=r"one number per column \(1\), not None"):
        diamond().subgraph_sum(["time"], function=lambda df: None)
    with pytest.raises(OperationError, match=r"one number per column \(1\)"):
        diamond().subgraph_sum(["time"], function=lambda df: [1.0, 2.0])
