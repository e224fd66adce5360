"""The flat profile's code path (np.bincount over integer codes) gives pandas' group-by
result exactly: values, index levels and their types, column order."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphframe.traces import profile
from graphframe_readers.traces.events import KIND_NAMES


def by_groupby(events: pd.DataFrame, keys) -> pd.DataFrame:
    """The flat profile as pandas' group-by computes it (the reference)."""
    grouped = events[events["kind"] == "enter"].groupby(keys, observed=True, sort=True)
    return pd.DataFrame({
        "time (inc)": grouped["duration"].sum() / 1e9,
        "time": grouped["exclusive"].sum() / 1e9,
        "count": grouped["duration"].size().astype(np.int64),
    }).sort_index()


def table(rows, names):
    kind, name, rank, thread, dur, exc = (list(c) for c in zip(*rows)) if rows else \
        ([], [], [], [], [], [])
    return pd.DataFrame({
        "kind": pd.Categorical.from_codes(np.array(kind, dtype=np.int8),
                                          categories=list(KIND_NAMES)),
        "name": pd.Categorical.from_codes(np.array(name, dtype=np.int8), categories=names),
        "rank": np.array(rank, dtype=np.int32),
        "thread": np.array(thread, dtype=np.int16),
        "duration": np.array(dur, dtype=np.float64),
        "exclusive": np.array(exc, dtype=np.float64),
    })


NAMES = ["b", "main", "MPI_Send", "a"]
ROWS = st.lists(st.tuples(st.integers(0, 2), st.integers(-1, len(NAMES) - 1),
                          st.integers(0, 3), st.integers(0, 2),
                          st.integers(0, 10**12).map(float), st.integers(0, 10**9).map(float)),
                max_size=40)
KEYS = st.sampled_from([["name"], ["rank", "name"], ["thread", "name"],
                        ["rank", "thread", "name"], ["rank"], ["rank", "thread"]])


@settings(max_examples=150, deadline=None)
@given(ROWS, KEYS)
def test_the_code_path_is_pandas_groupby_exactly(rows, keys):
    events = table(rows, NAMES)
    fast = profile._flat_profile_by_codes(events, keys)
    assert fast is not None
    slow = by_groupby(events, keys)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True, check_index_type=True,
                                  check_column_type=True, check_categorical=True)
    assert repr(fast) == repr(slow)


def test_fractions_and_nan_go_to_pandas_which_skips_nan():
    events = table([(0, 1, 0, 0, 1.5, 1.5), (0, 1, 0, 0, float("nan"), 2.0)], NAMES)
    assert profile._flat_profile_by_codes(events, ["name"]) is None
    out = profile.flat_profile(events, per=None)
    assert out.loc["main", "time (inc)"] == pytest.approx(1.5e-9)
    assert out.loc["main", "count"] == 2


def test_a_text_key_goes_to_pandas():
    events = table([(0, 1, 0, 0, 5.0, 5.0)], NAMES)
    events["name"] = events["name"].astype(object)
    assert profile._flat_profile_by_codes(events, ["name"]) is None
    assert profile.flat_profile(events, per=None).loc["main", "count"] == 1


def test_the_flat_profile_values_on_a_small_table():
    events = table([(0, 1, 0, 0, 30.0, 10.0), (0, 0, 0, 0, 20.0, 20.0), (1, 0, 0, 0, 0.0, 0.0),
                    (1, 1, 0, 0, 0.0, 0.0), (0, 1, 1, 0, 7.0, 7.0)], NAMES)
    out = profile.flat_profile(events)
    assert list(out.index) == [(0, "b"), (0, "main"), (1, "main")]
    assert list(out["time (inc)"]) == [20e-9, 30e-9, 7e-9]
    assert list(out["time"]) == [20e-9, 10e-9, 7e-9]
    assert list(out["count"]) == [1, 1, 1]
