"""type, file and module as sorted Categorical: the rule, every operation keeps it,
and what a pandas user sees (graphframe.model.categories)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import GraphFrame
from graphframe.model.categories import CATEGORICAL_COLUMNS, as_categorical, union_categories
from graphframe.ops.rows import stack_disjoint
from graphframe_readers.testing import sample_profile, write_hpctoolkit

def _node(name, file, module, t, children=()):
    return {"frame": {"name": name, "type": "function"}, "metrics": {"time": t},
            "attributes": {"file": file, "module": module}, "children": list(children)}


@pytest.fixture
def left():
    return GraphFrame.from_literal([_node("main", "m.c", "app", 1.0, [
        _node("solve", "s.c", "libm", 2.0), _node("io", "io.c", "app", 3.0)])])


@pytest.fixture
def right():
    return GraphFrame.from_literal([_node("main", "m.c", "app", 4.0, [
        _node("solve", "s2.c", "libz", 5.0), _node("zz", "a.c", "libz", 6.0)])])


def _is_cat(series):
    return isinstance(series.dtype, pd.CategoricalDtype) and not series.dtype.ordered


def test_the_rule_is_by_name_and_text_only():
    s = as_categorical(pd.Series(["b.c", "a.c", None, "b.c"], name="file"))
    assert _is_cat(s) and s.cat.categories.tolist() == ["a.c", "b.c"]
    assert s.cat.codes.tolist() == [1, 0, -1, 1]
    assert CATEGORICAL_COLUMNS == ("type", "file", "module")
    # name and other columns never; numbers or mixed values stay as they are
    assert not _is_cat(as_categorical(pd.Series(["a", "b"], name="name")))
    assert as_categorical(pd.Series([1, 2], name="file")).dtype == np.int64
    assert as_categorical(pd.Series(["a", 3], dtype=object, name="type")).dtype == object
    # only missing values: categorical without categories (the same dtype as text)
    empty = as_categorical(pd.Series([None, None], dtype=object, name="module"))
    assert _is_cat(empty) and len(empty.cat.categories) == 0 and empty.isna().all()


def test_hpctoolkit_frames_hold_sorted_categoricals(tmp_path):
    db = write_hpctoolkit(sample_profile(), tmp_path / "db")
    df = graphframe.read(db).dataframe
    kinds = [_is_cat(df[c]) for c in ("name", "type", "file", "module")]
    assert kinds == [False, True, True, True]
    assert df["file"].cat.categories.tolist() == ["a.c", "b.c", "c.h"]
    assert df["module"].cat.categories.tolist() == ["app"]
    assert df["module"].isna().sum() == 6 * 4  # statements and loops: no module, 4 rows each
    # sorting by a categorical column gives the order of the plain strings
    by_cat = df.sort_values(["file", "line"], kind="stable").index.tolist()
    plain = df.astype({"file": object}).sort_values(["file", "line"], kind="stable").index
    assert by_cat == plain.tolist()


def test_literal_and_example_frames_follow_the_same_rule(left):
    assert _is_cat(left.dataframe["file"]) and _is_cat(left.dataframe["module"])
    assert left.dataframe["file"].cat.categories.tolist() == ["io.c", "m.c", "s.c"]
    assert not _is_cat(left.dataframe["name"])


def test_arithmetic_unions_the_categories(left, right):
    out = left + right
    df = out.dataframe
    assert df["name"].tolist() == ["main", "io", "solve", "zz"]
    assert df["time"].fillna(-1).tolist() == [5.0, 3.0, 7.0, -1]  # as on main: right-only NaN
    assert df["file"].tolist() == ["m.c", "io.c", "s.c", "a.c"]  # the left's where it has one
    assert df["module"].tolist() == ["app", "app", "libm", "libz"]
    assert df["file"].cat.categories.tolist() == ["a.c", "io.c", "m.c", "s.c", "s2.c"]
    assert df["module"].cat.categories.tolist() == ["app", "libm", "libz"]
    diff = right - left
    assert diff.dataframe["file"].tolist() == ["m.c", "io.c", "s2.c", "a.c"]
    assert _is_cat(diff.dataframe["file"])


def test_unify_with_a_frame_lacking_the_column(left):
    bare = GraphFrame.from_literal([{"frame": {"name": "main", "type": "function"},
                                     "metrics": {"time": 1.0}, "children": [
        {"frame": {"name": "new", "type": "function"}, "metrics": {"time": 1.0},
         "children": []}]}])
    for out in (left + bare, bare + left):
        df = out.dataframe
        assert _is_cat(df["file"]), df["file"].dtype
        assert df.set_index("name")["file"].astype(object).where(
            lambda s: s.notna(), None).to_dict() == {"main": "m.c", "io": "io.c",
                                                     "solve": "s.c", "new": None}


def test_stacking_frames_unions_the_categories():
    idx = lambda nodes: pd.Index(nodes, name="node")  # noqa: E731
    a = pd.DataFrame({"file": pd.Categorical(["b.c", "a.c"])}, index=idx([0, 2]))
    b = pd.DataFrame({"file": pd.Categorical(["c.c"])}, index=idx([1]))
    out = stack_disjoint([a, b], ["file"])
    assert out["file"].tolist() == ["b.c", "c.c", "a.c"]
    assert out["file"].cat.categories.tolist() == ["a.c", "b.c", "c.c"]
    same, other = union_categories(a["file"], b["file"].astype(object))
    assert same.dtype == other.dtype and other.tolist() == ["c.c"]


def test_squash_merging_siblings_keeps_the_dtype():
    gf = GraphFrame.from_literal([_node("main", "m.c", "app", 1.0, [
        _node("p", "p.c", "app", 1.0, [_node("x", "x1.c", "app", 1.0)]),
        _node("q", "q.c", "app", 1.0, [_node("x", "x2.c", "app", 2.0)])])])
    out = gf.filter(lambda row: row["name"] in ("main", "x"), squash=True).dataframe
    assert out["name"].tolist() == ["main", "x"] and out["time"].tolist() == [1.0, 3.0]
    assert out["file"].tolist() == ["m.c", "x1.c"] and _is_cat(out["file"])


def test_json_and_archive_round_trips_keep_the_categories(left, right, tmp_path):
    gf = left + right
    back = GraphFrame.from_json(gf.to_json())
    pd.testing.assert_frame_equal(back.dataframe, gf.dataframe)
    path = tmp_path / "gf.zip"
    gf.save(path)
    pd.testing.assert_frame_equal(graphframe.load(path).dataframe, gf.dataframe)


def test_queries_and_context_column_read_categoricals(left):
    assert left.filter([{"file": "s.*"}]).dataframe["name"].tolist() == ["solve"]
    query = 'MATCH (".", p) WHERE p."module" = "libm"'
    assert left.filter(query).dataframe["name"].tolist() == ["solve"]
    text = left.tree(context_column="file", color=False)
    assert "main m.c" in text and "solve s.c" in text


def test_groupby_aggregate_has_no_unobserved_groups(left):
    only_app = left.filter(lambda row: row["module"] == "app", squash=False)
    assert only_app.dataframe["module"].cat.categories.tolist() == ["app"]  # filter drops
    # a frame that still lists an unused category (built by hand) groups the same way
    df = only_app.dataframe.copy()
    df["module"] = df["module"].cat.add_categories(["libm"])
    only_app = GraphFrame(only_app.graph, df, only_app.exc_metrics, only_app.inc_metrics)
    out = only_app.groupby_aggregate("module", "sum").dataframe
    assert out["name"].tolist() == ["app"] and out["time"].tolist() == [4.0]


def test_diff_keeps_attribute_categoricals(left, right):
    df = graphframe.diff(left, right).dataframe
    assert _is_cat(df["file"]) and not _is_cat(df["name"])
    assert df.set_index("name")["file"].to_dict() == {
        "main": "m.c", "io": "io.c", "solve": "s2.c", "zz": "a.c"}


def test_what_a_pandas_user_sees(left):
    df = left.dataframe
    assert df["name"].tolist() == ["main", "io", "solve"]
    assert (df["file"] == "s.c").tolist() == [False, False, True]
    assert df["file"].str.contains("c").all()
    assert df["module"].unique().tolist() == ["app", "libm"]
    # a value that is not a category cannot be assigned without adding it first
    with pytest.raises(TypeError, match="new category"):
        df.loc[df.index[0], "file"] = "new.c"
    df["file"] = df["file"].cat.add_categories(["new.c"])
    df.loc[df.index[0], "file"] = "new.c"
    assert df["file"].iloc[0] == "new.c"
    # pandas' own groupby lists unobserved categories on pandas 2 (observed=False default)
    filtered = df[df["module"] == "app"]
    groups = filtered.groupby("module", observed=True)["time"].sum()
    assert groups.to_dict() == {"app": 4.0}
    assert filtered["module"].value_counts().to_dict() == {"app": 2, "libm": 0}


def test_filter_drops_the_categories_of_removed_rows():
    from tests.helpers import gf_from_edges

    gf = gf_from_edges(["main", "a", "b"], [-1, 0, 0], [1.0, 2.0, 3.0])
    df = gf.dataframe.copy()
    df["file"] = pd.Categorical(["m.c", "a.c", "b.c"])
    gf = GraphFrame(gf.graph, df, gf.exc_metrics, gf.inc_metrics)
    out = gf.filter(gf.dataframe["name"] != "b", squash=False)
    assert out.dataframe["file"].cat.categories.tolist() == ["a.c", "m.c"]
    assert out.dataframe["file"].value_counts().to_dict() == {"a.c": 1, "m.c": 1}
    assert gf.dataframe["file"].cat.categories.tolist() == ["a.c", "b.c", "m.c"]  # input kept
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pandas 2: no SettingWithCopyWarning on the result
        out.dataframe.loc[out.dataframe.index[0], "time"] = 9.0
    assert gf.dataframe["time"].iloc[0] == 1.0
