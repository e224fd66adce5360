"""Aggregation functions as Hatchet users pass them (graphframe/ops/reductions.py).

pandas 2 replaces numpy reductions and the builtins by its named aggregations and warns
(FutureWarning) that pandas 3 will call them instead; pandas 3 does. Hatchet runs on
pandas 2, so every aggregation here gives pandas 2's numbers (Hatchet's) on pandas 2 and
pandas 3 alike, with no warning: the module turns FutureWarning into an error.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from graphframe import Ensemble, GraphFrame
from graphframe.ops.reductions import pandas_agg, reduction_kind

from helpers import by_name, gf_from_edges, replaced

pytestmark = pytest.mark.filterwarnings("error::FutureWarning")

PANDAS_2 = int(pd.__version__.split(".")[0]) < 3
NAN = np.nan
# the rank values of node a (no NaN) and of node b (rank 0 has no value): means 2,
# sample variances 4 and 3, population variances 3 and 2
A, B = [1.0, 1.0, 1.0, 5.0], [NAN, 1.0, 1.0, 4.0]


def ranked() -> GraphFrame:
    gf = gf_from_edges(["a", "b"], [-1, 0], ranks=4)
    df = gf.dataframe.copy()
    df["time"] = A + B  # rows are (a, 0), (a, 1), (a, 2), (a, 3), (b, 0), ...
    return replaced(gf, dataframe=df)


SQRT2, SQRT3 = math.sqrt(2.0), math.sqrt(3.0)
# (function, a's value, b's value); a pair is (pandas 2 = Hatchet = ours on every pandas,
# what pandas 3 alone gives when it calls np.median, np.std, np.var or a builtin: ddof=0;
# NaN in, NaN out)
CASES = [
    (np.sum, 8.0, 6.0), (np.nansum, 8.0, 6.0),
    (np.mean, 2.0, 2.0), (np.nanmean, 2.0, 2.0),
    (np.prod, 5.0, 4.0), (np.nanprod, 5.0, 4.0),
    (np.max, 5.0, 4.0), (np.amax, 5.0, 4.0), (np.nanmax, 5.0, 4.0),
    (np.min, 1.0, 1.0), (np.amin, 1.0, 1.0), (np.nanmin, 1.0, 1.0),
    (np.nanmedian, 1.0, 1.0),
    (np.median, 1.0, (1.0, NAN)),
    (np.var, (4.0, 3.0), (3.0, 2.0)), (np.nanvar, (4.0, 3.0), (3.0, 2.0)),
    (np.std, (2.0, SQRT3), (SQRT3, SQRT2)), (np.nanstd, (2.0, SQRT3), (SQRT3, SQRT2)),
    (sum, 8.0, (6.0, NAN)), (max, 5.0, (4.0, NAN)), (min, 1.0, (1.0, NAN)),
    (lambda s: s.max() - s.min(), 4.0, 3.0),
]
IDS = [getattr(f, "__name__", "lambda") for f, _, _ in CASES]


def on_this_pandas(value):
    """Hatchet's value (pandas 2's) of a (pandas 2, pandas 3 alone) pair, on every pandas."""
    return value[0] if isinstance(value, tuple) else value


def same(got, expected) -> bool:
    """Equal, NaN where NaN is expected; a square root to the last bit or two."""
    return len(got) == len(expected) and all(
        (np.isnan(x) and np.isnan(y)) or x == y or
        (y in (SQRT2, SQRT3) and x == pytest.approx(y, rel=1e-15)) for x, y in zip(got, expected))


def what_pandas_gives(df: pd.DataFrame, function, level: str = "node") -> list:
    """pandas 2's own ``groupby(level).agg(function)`` (its FutureWarning silenced): on
    pandas 3, the named aggregation pandas 2 would have used."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return df.groupby(level=level, sort=True)["time"].agg(
            function if PANDAS_2 else pandas_agg(function)).tolist()


@pytest.mark.parametrize("function, a, b", CASES, ids=IDS)
def test_drop_index_levels_with_every_reduction(function, a, b):
    gf = ranked()
    expected = [on_this_pandas(a), on_this_pandas(b)]
    out = gf.drop_index_levels(function, inplace=False).dataframe
    assert out.index.names == ["node"] and out["name"].tolist() == ["a", "b"]
    assert same(out["time"].tolist(), expected), (out["time"].tolist(), expected)
    assert same(what_pandas_gives(gf.dataframe, function), expected)
    gf.drop_index_levels(function)  # in place, as in Hatchet
    assert same(gf.dataframe["time"].tolist(), expected)


@pytest.mark.parametrize("function, a, b", CASES, ids=IDS)
def test_groupby_aggregate_with_every_reduction(function, a, b):
    # one group of both nodes: per rank, a's value and b's
    gf = ranked()
    expected = what_pandas_gives(gf.dataframe, function, "rank")
    for agg in (function, {"time": function}):
        out = gf.groupby_aggregate(lambda label: "all", agg).dataframe
        assert out["name"].tolist() == ["all"] * 4
        assert same(out["time"].tolist(), expected), (out["time"].tolist(), expected)


def test_groupby_aggregate_of_all_nodes_by_rank_has_exact_values():
    # one group of both nodes, per rank: (1, NaN), (1, 1), (1, 1), (5, 4)
    gf = ranked()
    out = gf.groupby_aggregate(lambda label: "all", {"time": np.prod}).dataframe
    assert out["time"].tolist() == [1.0, 1.0, 1.0, 20.0]
    out = gf.groupby_aggregate(lambda label: "all", np.nanmax).dataframe
    assert out["time"].tolist() == [1.0, 1.0, 1.0, 5.0]
    out = gf.groupby_aggregate(lambda label: "all", np.median).dataframe
    assert same(out["time"].tolist(), [1.0, 1.0, 1.0, 4.5])


# a -> b -> c, one rank: Hatchet's tree rule, node = function(own value, children's
# results): b = function(2, 4), a = function(1, b)
@pytest.mark.parametrize("function, expected", [
    (np.mean, [2.0, 3.0, 4.0]), (np.nanmean, [2.0, 3.0, 4.0]),
    (np.median, [2.0, 3.0, 4.0]), (np.nanmedian, [2.0, 3.0, 4.0]),
    (np.prod, [8.0, 8.0, 4.0]), (np.nanprod, [8.0, 8.0, 4.0]),
    (np.nanmax, [4.0, 4.0, 4.0]), (np.nansum, [7.0, 6.0, 4.0]),
    # the sample variance, as Hatchet on pandas 2 (b = 2, a = var(1, 2)), on every pandas
    (np.var, ([0.5, 2.0, 4.0], [0.0, 1.0, 4.0])),
    (np.nanvar, ([0.5, 2.0, 4.0], [0.0, 1.0, 4.0])),
    (np.std, ([1 - 1 / math.sqrt(2.0), math.sqrt(2.0), 4.0], [0.0, 1.0, 4.0])),
])
def test_subtree_sum_tree_rule_with_numpy_reductions(function, expected):
    gf = gf_from_edges(["a", "b", "c"], [-1, 0, 1], [1.0, 2.0, 4.0])
    gf.subtree_sum(["time"], ["out"], function=function)
    got = [by_name(gf, "out")[n] for n in "abc"]
    if function is np.std:  # sqrt(2): equal to the last bit or two
        assert got == pytest.approx(on_this_pandas(expected), rel=1e-15, abs=1e-15)
    else:
        assert got == on_this_pandas(expected)


def test_subgraph_sum_on_a_call_graph_with_numpy_reductions():
    # a -> b, a -> c, b -> d, c -> d: d is counted once under a
    gf = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 0, 1], [1.0, 2.0, 3.0, 4.0],
                       extra=[(2, 3)])
    for function, expected in ((np.prod, [24.0, 8.0, 12.0, 4.0]),
                               (np.nanmax, [4.0, 4.0, 4.0, 4.0]),
                               (np.mean, [2.5, 3.0, 3.5, 4.0])):
        out = by_name(gf.subgraph_sum(["time"], ["o"], function=function, inplace=False), "o")
        assert [out[n] for n in "abcd"] == expected, function


def test_ensemble_groupby_agg_with_numpy_reductions():
    gfs = [GraphFrame.from_lists(("main", "solve")) for _ in range(3)]
    for gf, scale in zip(gfs, (1.0, 2.0, 4.0)):
        gf.dataframe["time"] = gf.dataframe["time"] * scale
    ens = Ensemble.from_graphframes(gfs, metadata={"size": [1, 1, 2]})
    # rows (main, size 1), (main, size 2), (solve, size 1), (solve, size 2)
    out = ens.groupby("size").agg(np.prod).dataframe
    assert out["time"].tolist() == [2.0, 4.0, 2.0, 4.0]
    out = ens.groupby("size").agg({"time": [np.nanmean, np.max]}).dataframe
    assert out["time_mean"].tolist() == [1.5, 4.0, 1.5, 4.0]
    assert out["time_max"].tolist() == [2.0, 4.0, 2.0, 4.0]


def test_the_table():
    assert pandas_agg([np.prod, np.nansum, "first"]) == ["prod", "sum", "first"]
    assert pandas_agg((np.amax, np.nanmin)) == ("max", "min")
    assert pandas_agg({"x": np.nanmedian}) == {"x": "median"}
    assert pandas_agg(np.std) == "std"  # by name on pandas 3 too: Hatchet's sample deviation
    named = pd.NamedAgg(column="time", aggfunc=np.sum)
    assert pandas_agg(named) is named
    assert [reduction_kind(f) for f in (np.nansum, np.amin, math.prod, min, np.median)] == \
        ["sum", "min", "prod", "min", None]
