"""Building a GraphFrame from a large per-rank read: the block (rank-major) fast path, consuming
the RawProfile column by column, and what the dataframe looks like afterwards."""

from __future__ import annotations

import dataclasses
import gc
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import graphframe
import graphframe_readers
from graphframe_readers.testing import random_hpctoolkit_profile as random_profile
from graphframe_readers.testing import write_hpctoolkit
from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe import GraphFrame
from graphframe.io.build import parts_from_raw
from graphframe_readers.testing import sample_profile


@pytest.fixture(scope="module")
def old_db(tmp_path_factory):
    return write_hpctoolkit(random_profile(3000, 4, seed=3), tmp_path_factory.mktemp("b") / "db")


def test_block_path_equals_the_general_path(old_db):
    raw = graphframe_readers.read(old_db)
    fast = GraphFrame.from_raw(raw).dataframe
    # the same rows in a shuffled order take the general (sorting) path
    shuffled = raw.metrics.sample(frac=1.0, random_state=1).reset_index(drop=True)
    slow = GraphFrame.from_raw(dataclasses.replace(raw, metrics=shuffled)).dataframe
    pd.testing.assert_frame_equal(fast, slow)


def test_consuming_build_gives_the_same_frame_and_empties_the_raw(old_db):
    kept = GraphFrame.from_raw(graphframe_readers.read(old_db))
    raw = graphframe_readers.read(old_db)
    consumed = GraphFrame(**parts_from_raw(raw, consume=True))
    pd.testing.assert_frame_equal(consumed.dataframe, kept.dataframe)
    assert consumed.graph == kept.graph
    assert list(raw.metrics.columns) == [] and list(raw.nodes.columns) == []
    assert list(raw.node_columns.columns) == []
    # graphframe.read and the constructors own their RawProfile: same result
    pd.testing.assert_frame_equal(graphframe.read(old_db).dataframe, kept.dataframe)
    pd.testing.assert_frame_equal(GraphFrame.from_hpctoolkit(old_db).dataframe, kept.dataframe)


def test_dataframe_dtypes_stay_what_users_expect(old_db):
    df = graphframe.read(old_db).dataframe
    assert list(df.columns) == ["time (inc)", "time", "nid", "name", "type", "file", "line",
                                "module"]
    # text is a text column (read back as Python str, None where missing) on pandas 2 and
    # 3, which behaves as Hatchet's object columns (graphframe.model.text)
    for c in ("name", "type", "file", "module"):
        assert str(df[c].dtype) == "text"
    assert sorted(df["type"].unique()) == ["L", "PF", "S"]
    assert df["module"].isna().sum() > 0
    assert all(v is None for v in df["module"][df["module"].isna()])
    assert [df[c].dtype for c in ("time (inc)", "time")] == [np.float64, np.float64]
    assert [df[c].dtype for c in ("nid", "line")] == [np.int32, np.int32]
    # one object per distinct text, whatever the row
    for c in ("name", "file", "module"):
        first = {}
        assert all(first.setdefault(v, v) is v for v in df[c].to_numpy()[:2000])


def test_current_layout_per_profile_takes_the_same_path(tmp_path):
    db = write_hpctoolkit_latest(sample_profile(), tmp_path / "db")
    raw = graphframe_readers.read(db, parallel_profiles_mode=True)
    fast = GraphFrame.from_raw(raw).dataframe
    shuffled = raw.metrics.sample(frac=1.0, random_state=2).reset_index(drop=True)
    slow = GraphFrame.from_raw(dataclasses.replace(raw, metrics=shuffled)).dataframe
    pd.testing.assert_frame_equal(fast, slow)


def _peaks(db, consume: bool):
    gc.collect()
    tracemalloc.start()
    raw = graphframe_readers.read(db)
    tracemalloc.reset_peak()
    parts = parts_from_raw(raw, consume=consume)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, parts["dataframe"].memory_usage(deep=False, index=True).sum()


def test_consuming_build_lowers_the_peak(tmp_path):
    db = write_hpctoolkit(random_profile(20000, 8), tmp_path / "db")
    plain, df_bytes = _peaks(db, consume=False)
    consumed, _ = _peaks(db, consume=True)
    # without consuming, the raw metric columns live on next to their copies in the frame
    # (pandas 3: 10.7 against 15.2 MB; pandas 2: 16.6 against 21.5 MB, for a 6.0 MB frame)
    assert consumed < 0.85 * plain
    assert consumed < 3 * df_bytes


def test_gathering_in_pieces_gives_the_same_frame(old_db, monkeypatch):
    from graphframe.io import grid
    whole = GraphFrame(**parts_from_raw(graphframe_readers.read(old_db), consume=True))
    monkeypatch.setattr(grid, "CHUNK", 7)  # 3000 nodes: 429 pieces, the last one short
    pieces = GraphFrame(**parts_from_raw(graphframe_readers.read(old_db), consume=True))
    pd.testing.assert_frame_equal(whole.dataframe, pieces.dataframe, check_exact=True)
    assert list(grid._chunks(15)) == [slice(0, 7), slice(7, 14), slice(14, 15)]


def test_node_kinds_are_one_object_each(old_db):
    raw = graphframe_readers.read(old_db)
    kinds = raw.nodes["type"].to_numpy()
    assert sorted(set(kinds)) == ["function", "loop", "statement"]
    assert len({id(k) for k in kinds}) == 3
