"""TextArray columns give what object columns of the same values give (pandas 2 and 3):
each recipe runs on a frame with object text columns and on the same frame with text
columns, and the results (or the exception types) must agree."""

from __future__ import annotations

import math
import pickle
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphframe.model.textarray import Dictionary, TextArray, TextDtype

NAMES = ["main", "solve", None, "main", "MPI_Send", "solve"]
FILES = ["a.c", "b.c", "c.c", None, "a.c", float("nan")]


def frame(text: bool) -> pd.DataFrame:
    def column(values):
        return pd.Series(TextArray.from_values(values)) if text else pd.Series(values, dtype=object)
    return pd.DataFrame({"name": column(NAMES), "t": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                         "f": column(FILES), "k": [0, 0, 1, 1, 2, 2]})


def canon(value):
    """A comparable form: text columns as objects, NaN as a marker, types kept."""
    if isinstance(value, pd.DataFrame):
        value = value.astype({c: object for c in value.columns
                              if isinstance(value[c].dtype, TextDtype)})
        return ("frame", canon(value.index), list(value.columns),
                [canon(value[c]) for c in value.columns])
    if isinstance(value, pd.Index):
        return ("index", [canon(v) for v in value.tolist()])
    if isinstance(value, pd.Series):
        return ("series", canon(value.index), value.name, [canon(v) for v in value.tolist()])
    if isinstance(value, (np.ndarray, TextArray)) or hasattr(value, "tolist") and not np.isscalar(value):
        return [canon(v) for v in list(value)]
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    if isinstance(value, dict):
        return {canon(k): canon(v) for k, v in value.items()}
    if isinstance(value, float) and math.isnan(value):
        return "<nan>"
    if isinstance(value, np.generic):
        return value.item()
    return value


def outcome(recipe, text: bool):
    try:
        return canon(recipe(frame(text)))
    except Exception as exc:  # noqa: BLE001 - the exception type is the result compared
        return ("raises", "TypeError" if isinstance(exc, (TypeError, NotImplementedError))
                else type(exc).__name__)


def _set(df, key, value):
    df.loc[key] = value
    return df


RECIPES = {
    "groupby name sum": lambda df: df.groupby("name").sum(),
    "groupby file sum": lambda df: df.groupby("f").sum(),
    "groupby name first": lambda df: df.groupby("name").first(),
    "groupby name last": lambda df: df.groupby("name").last(),
    "groupby k first": lambda df: df.groupby("k").first(),
    "groupby k max": lambda df: df.groupby("k")[["name", "t"]].max(),
    "groupby k min": lambda df: df.groupby("k")[["f"]].min(),
    "groupby name mean": lambda df: df.groupby("name").mean(),
    "groupby name count": lambda df: df.groupby("name").count(),
    "groupby name nunique": lambda df: df.groupby("name").nunique(),
    "groupby name agg": lambda df: df.groupby("name").agg({"t": "sum", "f": "first"}),
    "groupby name size dropna": lambda df: df.groupby("name", dropna=False).size(),
    "groupby k sum min_count": lambda df: df.groupby("k")["f"].sum(min_count=2),
    "groupby k transform": lambda df: df.groupby("k")["name"].transform("first"),
    "groupby two keys": lambda df: df.groupby(["name", "f"]).sum(),
    "pivot": lambda df: df.pivot_table(index="name", values="t", aggfunc="sum"),
    "fillna text": lambda df: df["f"].fillna("<none>"),
    "fillna dict": lambda df: df.fillna({"f": "<none>"}),
    "fillna zero": lambda df: df.fillna(0),
    "ffill": lambda df: df["name"].ffill(),
    "shift": lambda df: df["name"].shift(2),
    "assign by mask": lambda df: _set(df, (df["name"] == "main", "f"), "new.c"),
    "assign None": lambda df: _set(df, (df["t"] > 3, "name"), None),
    "assign number": lambda df: _set(df, (df["t"] > 3, "name"), 7),
    "is None after copy": lambda df: [v is None for v in _set(df.assign(c=df["name"]),
                                                                (df["t"] < 2, "c"), None)["c"]],
    "add": lambda df: df["name"] + "!",
    "radd": lambda df: "<" + df["f"],
    "mul": lambda df: df["name"] * 2,
    "add columns": lambda df: df["name"] + df["f"],
    "eq": lambda df: df["name"] == "main",
    "ne": lambda df: df["name"] != "main",
    "lt": lambda df: df["f"] < "b",
    "eq columns": lambda df: df["name"] == df["f"],
    "isin": lambda df: df["name"].isin(["main", None]),
    "max": lambda df: df["name"].dropna().max(),
    "min": lambda df: df["f"].dropna().min(),
    "max with missing": lambda df: df["name"].max(),
    "sum": lambda df: df["name"].dropna().sum(),
    "frame sum": lambda df: df.sum(),
    "frame max numeric": lambda df: df.max(numeric_only=True),
    "cumsum": lambda df: df["f"].cumsum(),
    "str upper": lambda df: df["name"].str.upper(),
    "str contains": lambda df: df["name"].str.contains("ai"),
    "str startswith na": lambda df: df["f"].str.startswith("a", na=False),
    "str replace": lambda df: df["f"].str.replace(".c", ".cpp", regex=False),
    "str len": lambda df: df["name"].str.len(),
    "str split": lambda df: df["name"].str.split("a"),
    "str cat": lambda df: df["name"].str.cat(sep="|"),
    "str extract": lambda df: df["name"].str.extract(r"(m)(a)"),
    "map dict": lambda df: df["name"].map({"main": 1, "solve": 2}),
    "map len ignore": lambda df: df["name"].map(len, na_action="ignore"),
    "apply": lambda df: df["name"].apply(lambda v: f"<{v}>"),
    "apply raises on missing": lambda df: df["name"].apply(lambda v: re.match("m", v)),
    "apply on a present subset": lambda df: df["name"].dropna().apply(lambda v: v[:2]),
    "value_counts": lambda df: df["name"].value_counts(),
    "value_counts dropna": lambda df: df["f"].value_counts(dropna=False),
    "value_counts after filter": lambda df: df[df["t"] > 4]["name"].value_counts(),
    "unique": lambda df: df["name"].unique(),
    "nunique": lambda df: df["name"].nunique(),
    "sort": lambda df: df.sort_values("name"),
    "sort descending": lambda df: df.sort_values(["f", "t"], ascending=False),
    "drop_duplicates": lambda df: df.drop_duplicates("name"),
    "duplicated": lambda df: df["name"].duplicated(),
    "merge": lambda df: df.merge(df[["name", "t"]], on="name"),
    "set_index loc": lambda df: df.set_index("name").loc["main"],
    "reindex": lambda df: df.reindex([0, 9])["name"],
    "where": lambda df: df["name"].where(df["t"] > 2),
    "replace": lambda df: df["name"].replace("main", "MAIN"),
    "dropna": lambda df: df["f"].dropna(),
    "astype str": lambda df: df["name"].astype(str),
    "to_dict": lambda df: df.to_dict("records"),
    "to_csv": lambda df: df.to_csv(),
    "to_string": lambda df: df.to_string(),
    "concat": lambda df: pd.concat([df, df.iloc[::-1]]),
    "iteration types": lambda df: [type(v).__name__ for v in df["name"]],
    "np.where": lambda df: np.where(df["name"] == "main")[0],
    "hash": lambda df: pd.util.hash_pandas_object(df["name"], index=False),
    "describe": lambda df: df[["name", "f"]].describe(),
    "query": lambda df: df.query("name == 'main'")["t"],
    "rank": lambda df: df["name"].rank(),
    "mode": lambda df: df["name"].mode(),
}


@pytest.mark.parametrize("recipe", list(RECIPES), ids=list(RECIPES))
def test_text_column_gives_what_the_object_column_gives(recipe):
    assert outcome(RECIPES[recipe], True) == outcome(RECIPES[recipe], False)


def test_values_are_the_shared_python_objects_and_none_stays_none():
    s = pd.Series(TextArray.from_values(["".join(["a", "b"]), None, "".join(["a", "b"])]))
    assert s[0] is s[2] and s[1] is None
    assert s.astype(object).dtype == object and s.astype(object)[1] is None
    nan = pd.Series(TextArray.from_values(["a", float("nan")]))
    assert isinstance(nan[1], float) and math.isnan(nan[1])


def test_assignment_never_reaches_an_array_that_shares_the_dictionary():
    a = TextArray.from_values(["x", "y", "x"])
    b = a.take(np.array([2, 1, 0]))
    b[0] = "new"
    assert a.tolist() == ["x", "y", "x"] and b.tolist() == ["new", "y", "x"]
    assert "new" not in a.dictionary.tolist() and not a.dictionary.flags.writeable


def test_codes_are_four_bytes_a_row():
    a = TextArray.from_values(["p%d" % (i % 10) for i in range(1000)])
    assert a.codes.dtype == np.int32 and len(a.dictionary) == 10
    assert a.nbytes == 4000 + 10 * 8
    with pytest.raises(ValueError):
        a.codes[0] = 3  # read-only view


def test_concat_of_different_dictionaries_keeps_values_distinct_once():
    a = TextArray.from_values(["x", None, "y"])
    b = TextArray.from_values(["y", "z", float("nan")])
    c = TextArray._concat_same_type([a, b])
    assert c.tolist()[:5] == ["x", None, "y", "y", "z"] and math.isnan(c.tolist()[5])
    values = [v for v in c.dictionary.tolist() if isinstance(v, str)]
    assert sorted(values) == ["x", "y", "z"]
    labels, uniques = c.factorize()
    assert labels.tolist() == [0, -1, 1, 1, 2, -1] and uniques.tolist() == ["x", "y", "z"]


def test_pickle_round_trip_keeps_values_and_dtype():
    s = pd.Series(TextArray.from_values(["a", None, "b"]), name="n")
    back = pickle.loads(pickle.dumps(s))
    assert isinstance(back.dtype, TextDtype) and back.tolist() == ["a", None, "b"]


def test_dtype_name_constructs_and_unknown_codes_are_refused():
    s = pd.Series(["a", None], dtype="text")
    assert str(s.dtype) == "text" and s.tolist() == ["a", None]
    with pytest.raises(IndexError):
        s.array.with_codes(np.array([0, 5]))


def test_dictionary_encode_appends_only_what_it_lacks():
    d = Dictionary(np.array(["a", "b"], dtype=object))
    codes, grown = d.encode(np.array(["b", "a"], dtype=object))
    assert codes.tolist() == [1, 0] and grown is d
    codes, grown = d.encode(np.array([["list"], "a"], dtype=object))  # unhashable: appended
    assert codes.tolist() == [2, 0] and grown.values[2] == ["list"]


VALUE = st.one_of(st.sampled_from(["a", "b", "c", "ab"]), st.none(), st.just(float("nan")))


@settings(max_examples=60, deadline=None)
@given(st.lists(VALUE, max_size=12), st.lists(VALUE, max_size=6),
       st.lists(st.integers(min_value=-1, max_value=11), max_size=8))
def test_operations_agree_with_object_arrays(left, right, positions):
    a, b = TextArray.from_values(left), TextArray.from_values(right)
    both = TextArray._concat_same_type([a, b])
    expect = left + right
    assert canon(both.tolist()) == canon(expect)
    valid = [p for p in positions if p < len(expect)]
    taken = both.take(np.array(valid, dtype=np.intp), allow_fill=True)
    assert canon(taken.tolist()) == canon([expect[p] if p >= 0 else float("nan") for p in valid])
    objects = pd.Series(expect, dtype=object)
    assert both.isna().tolist() == objects.isna().tolist()
    assert canon(pd.Series(both).unique()) == canon(objects.unique())
    labels, uniques = both.factorize()
    olabels, ouniques = pd.factorize(objects)
    assert labels.tolist() == olabels.tolist() and uniques.tolist() == list(ouniques)
    assert canon(pd.Series(both).value_counts().to_dict()) == canon(objects.value_counts().to_dict())


@settings(max_examples=60, deadline=None)
@given(st.lists(VALUE, max_size=12), st.lists(VALUE, max_size=12))
def test_recoding_a_dictionary_is_encoding_its_values(left, right):
    a, b = TextArray.from_values(left)._dict, TextArray.from_values(right)._dict
    codes, merged = a.recode(b)
    expect_codes, expect = a.encode(b.values)
    assert codes.tolist() == expect_codes.tolist() and codes.dtype == expect_codes.dtype
    assert canon(merged.values.tolist()) == canon(expect.values.tolist())
    assert (merged is a) == (expect is a)


def test_parquet_round_trip_gives_the_values(tmp_path):
    pytest.importorskip("pyarrow", reason="to_parquet needs pyarrow")
    df = frame(True)
    df.to_parquet(tmp_path / "t.parquet")
    back = pd.read_parquet(tmp_path / "t.parquet")
    assert back["name"].tolist()[:2] == ["main", "solve"] and pd.isna(back["name"][2])
    assert back["t"].tolist() == df["t"].tolist()
