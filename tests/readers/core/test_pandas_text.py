"""Text built without pyarrow's pandas layer equals what pandas infers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphframe_readers.pandas_text import categorical, frame, string_index

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=100, deadline=None)
@given(st.lists(TEXT, unique=True, max_size=20))
def test_string_index_is_the_index_pandas_infers(names):
    got, want = string_index(names), pd.Index(names, dtype=pd.Index(["x"]).dtype)
    pd.testing.assert_index_equal(got, want, exact=True)
    assert list(got) == names


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXT, unique=True, min_size=1, max_size=10), st.data())
def test_categorical_is_from_codes(names, data):
    codes = np.array(data.draw(st.lists(st.integers(-1, len(names) - 1), max_size=30)),
                     dtype=np.int16)
    got = categorical(codes, names)
    want = pd.Categorical.from_codes(codes, categories=names)
    pd.testing.assert_extension_array_equal(got, want)
    pd.testing.assert_index_equal(got.categories, want.categories, exact=True)
    assert got.dtype == want.dtype and list(got.codes) == list(want.codes)


def test_a_lone_surrogate_is_refused_as_pandas_refuses_it():
    with pytest.raises(UnicodeEncodeError):
        pd.Index(["\ud800"])
    with pytest.raises(UnicodeEncodeError):
        string_index(["\ud800"])


def test_frame_labels_are_the_ones_pandas_gives():
    cols = {"time": np.array([3, 1]), "name": np.array(["a", None], dtype=object)}
    got, want = frame(cols), pd.DataFrame(cols)
    pd.testing.assert_frame_equal(got, want)
    pd.testing.assert_index_equal(got.columns, want.columns, exact=True)
