"""Text columns are text columns (dictionary-encoded, read back as Python str, None where
missing) on pandas 2 and 3, whatever made the frame, and Hatchet's recipes on them give Hatchet's results
(graphframe.model.text, issue 14 item 4)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import Ensemble, GraphFrame
from graphframe.model.text import as_text, is_text
from graphframe.model.textarray import TextDtype
from graphframe_readers.builder import ProfileBuilder

TEXT = ("name", "type", "file", "module")

#: (name, type, file, module, parent); module None for statements, as HPCToolkit gives it
NODES = [
    ("main", "PF", "a.c", "app", -1),
    ("solve", "PF", "b.c", "app", 0),
    ("b.c:12", "S", "b.c", None, 1),
    ("MPI_Send", "PF", "<unknown file>", "libmpi.so", 1),
    ("a.c:30", "S", "a.c", None, 0),
]


def profile(scale: float = 1.0, extra: bool = False) -> GraphFrame:
    """Five nodes on ranks 0 and 1 with ``time`` = (k + 1) * (1 + 10 * rank) * scale
    (0 for node 4 on rank 0); ``extra`` adds a node only this profile has."""
    b = ProfileBuilder("test", index_levels=("rank",))
    nodes = NODES + ([("io", "PF", "c.c", "app", 0)] if extra else [])
    ids = []
    for name, kind, file, module, parent in nodes:
        ids.append(b.add_node({"name": name, "type": kind}, ids[parent] if parent >= 0 else -1,
                              columns={"name": name, "type": kind, "file": file,
                                       "module": module}))
    for k, node in enumerate(ids):
        for rank in (0, 1):
            value = 0.0 if (k == 4 and rank == 0) else (k + 1) * (1 + 10 * rank) * scale
            b.add_row(node, {"time": value}, rank=rank)
    return GraphFrame.from_raw(b.build(exc_metrics=["time"], default_metric="time"))


def assert_text_is_text(df: pd.DataFrame) -> None:
    for col in TEXT:
        if col in df.columns:
            assert isinstance(df[col].dtype, TextDtype), (col, df[col].dtype)
            missing = df[col][df[col].isna()].tolist()
            assert all(v is None or v != v for v in missing), col


# ------------------------------------------------------------------ as_text
def test_as_text_shares_one_object_per_value_and_uses_none_for_missing():
    values = pd.Series(["".join(["b", ".c"]), "a.c", np.nan, "".join(["b.", "c"])],
                       name="file", index=[5, 6, 7, 8])
    assert values[5] is not values[8]
    out = as_text(values)
    assert str(out.dtype) == "text" and out.index.tolist() == [5, 6, 7, 8] and out.name == "file"
    assert out.tolist() == ["b.c", "a.c", None, "b.c"] and out[5] is out[8]


@pytest.mark.parametrize("values", [
    pd.Series(pd.Categorical(["x", None, "y"])),
    pd.Series(["x", None, "y"], dtype="string"),
    pd.Series(["x", None, "y"], dtype=object),
    pd.Series(["x", float("nan"), "y"], dtype="text"),
])
def test_as_text_turns_every_text_dtype_into_text(values):
    out = as_text(values)
    assert str(out.dtype) == "text" and out.tolist() == ["x", None, "y"]
    assert out.astype(object).dtype == object and out.astype(object).tolist() == ["x", None, "y"]


def test_as_text_leaves_other_columns_alone():
    numbers = pd.Series([1, 2])
    mixed = pd.Series(["a", 1], dtype=object)
    assert as_text(numbers) is numbers and as_text(mixed) is mixed
    assert not is_text(pd.Series(pd.Categorical([1, 2])))
    assert is_text(pd.Series([None, None], dtype=object))


# ------------------------------------------------ every way a frame is made
def _made(how: str, tmp_path) -> pd.DataFrame:
    gf = profile()
    if how == "read":
        return gf.dataframe
    if how == "filter":
        return gf.filter(lambda row: row["time"] > 0, squash=True).dataframe
    if how == "drop_index_levels":
        return gf.drop_index_levels(inplace=False).dataframe
    if how == "unify":
        a, b = profile(), profile(2.0, extra=True)
        a.unify(b)
        assert len(a.dataframe) == 12 and a.dataframe["name"].tolist().count("io") == 2
        return a.dataframe
    if how == "subtract":
        return (profile(2.0, extra=True) - gf).dataframe
    if how == "diff":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return graphframe.diff(gf, profile(2.0, extra=True)).dataframe
    if how == "archive":
        gf.save(tmp_path / "p.gfz")
        return graphframe.load(tmp_path / "p.gfz").dataframe
    if how == "json":
        return GraphFrame.from_json(gf.to_json()).dataframe
    if how == "groupby_aggregate":
        return gf.groupby_aggregate("name", "sum").dataframe
    if how == "from_lists":
        return GraphFrame.from_lists(("main", ("solve", "mpi"))).dataframe
    if how == "rank_stats":
        return gf.rank_stats().dataframe if hasattr(gf.rank_stats(), "dataframe") \
            else gf.rank_stats()
    if how == "ensemble":
        return Ensemble.from_graphframes([gf, profile(2.0, extra=True)]).dataframe
    if how == "ensemble archive":
        Ensemble.from_graphframes([gf, profile(2.0)]).save(tmp_path / "e.gfe")
        return Ensemble.load(tmp_path / "e.gfe").dataframe
    raise AssertionError(how)


@pytest.mark.parametrize("how", ["read", "filter", "drop_index_levels", "unify", "subtract",
                                 "diff", "archive", "json", "ensemble", "ensemble archive",
                                 "groupby_aggregate", "from_lists", "rank_stats"])
def test_text_columns_are_text_however_the_frame_was_made(how, tmp_path):
    df = _made(how, tmp_path)
    assert "name" in df.columns
    assert_text_is_text(df)
    if "module" in df.columns and how not in ("diff", "rank_stats"):
        assert df["module"].isna().any()
        assert any(v is None for v in df["module"])


# ---------------------------------------------------- Hatchet's recipes
@pytest.fixture
def df() -> pd.DataFrame:
    return profile().dataframe


def test_groupby_name_sum_concatenates_text_and_sums_metrics(df):
    grouped = df.groupby("name").sum()
    assert grouped.columns.tolist() == ["time", "type", "file", "module"]
    assert grouped.loc["main"].tolist() == [12.0, "PFPF", "a.ca.c", "appapp"]
    assert grouped["time"].to_dict() == {"MPI_Send": 48.0, "a.c:30": 55.0, "b.c:12": 36.0,
                                         "main": 12.0, "solve": 24.0}
    # a column of only missing values sums to 0, as pandas does for object columns
    assert grouped.loc["b.c:12", "module"] == 0


def test_groupby_module_and_file_sum(df):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no FutureWarning about observed= (pandas 2)
        by_module = df.groupby("module").sum()
        by_file = df.groupby("file").sum()
    assert by_module["time"].to_dict() == {"app": 36.0, "libmpi.so": 48.0}
    assert by_file["time"].to_dict() == {"<unknown file>": 48.0, "a.c": 67.0, "b.c": 60.0}


def test_groupby_mean_of_the_whole_frame_raises_as_for_object_text(df):
    with pytest.raises(TypeError):
        df.groupby("name").mean()
    assert df.groupby("name")["time"].mean().to_dict() == {
        "MPI_Send": 24.0, "a.c:30": 27.5, "b.c:12": 18.0, "main": 6.0, "solve": 12.0}
    assert df.groupby("type")["time"].sum().to_dict() == {"PF": 84.0, "S": 91.0}


def test_fillna_with_text_a_dict_and_zero(df):
    # rows in node order: main, a.c:30, solve, MPI_Send, b.c:12 (two ranks each)
    assert df["module"].fillna("<none>").tolist()[::2] == ["app", "<none>", "app", "libmpi.so",
                                                            "<none>"]
    assert df.fillna({"module": "<none>"})["module"].value_counts().to_dict() == {
        "app": 4, "<none>": 4, "libmpi.so": 2}
    assert df.fillna(0)["module"].tolist()[::2] == ["app", 0, "app", "libmpi.so", 0]


def test_assigning_new_text_and_string_arithmetic(df):
    d = df.copy()
    d.loc[d["type"] == "S", "type"] = "statement"
    d.loc[d["name"] == "main", "module"] = "cpi (main)"
    assert sorted(set(d["type"])) == ["PF", "statement"]
    assert d.loc[d["name"] == "main", "module"].tolist() == ["cpi (main)", "cpi (main)"]
    assert (df["file"] + "!").tolist()[:2] == ["a.c!", "a.c!"]
    assert df["file"].max() == "b.c" and df["name"].min() == "MPI_Send"
    assert df["file"].str.replace(".c", ".cpp", regex=False).tolist()[:2] == ["a.cpp", "a.cpp"]


def test_copying_name_and_setting_none_keeps_none(df):
    d = df.copy()
    d["caller"] = d["name"]
    d.loc[d["time"] == 0, "caller"] = None
    assert [v is None for v in d["caller"]].count(True) == 1
    assert d["caller"].isna().sum() == 1
    assert str(d["caller"].dtype) == "text" and str(d["name"].dtype) == "text"
    assert [v is None for v in d["name"]].count(True) == 0


def test_missing_module_is_none_and_value_counts_after_filter(df):
    assert [v for v in df["module"] if not isinstance(v, str)] == [None] * 4
    kept = profile().filter(lambda row: row["type"] == "S", squash=False).dataframe
    assert kept["type"].value_counts().to_dict() == {"S": 4}
    assert kept["module"].dropna().unique().tolist() == []
