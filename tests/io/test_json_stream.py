"""The streamed JSON writer (graphframe convert X.json): same text, temp file, progress."""

import io

import numpy as np
import pytest

from graphframe import GraphFrame
from graphframe.cli import main
from graphframe.examples import example_graphframe
from graphframe.io.codec import SaveError
from graphframe.io.json.stream import write_json
from tests.helpers import replaced


def test_written_file_is_to_json_text_and_no_temporary_file_is_left(tmp_path):
    gf = example_graphframe()
    path = write_json(gf, tmp_path / "run.json", block=7)
    assert path.read_text() == gf.to_json()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "run.json"
    target.write_text("old")
    gf = example_graphframe()
    bad = replaced(gf, metadata={"x": object()})  # metadata JSON cannot hold
    with pytest.raises(SaveError):
        write_json(bad, target, block=3)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_an_unwritable_folder_is_a_save_error(tmp_path):
    with pytest.raises(SaveError, match="cannot write"):
        write_json(example_graphframe(), tmp_path / "missing" / "run.json")


def test_progress_counts_nodes_and_rows(tmp_path):
    gf = example_graphframe()
    seen = []
    write_json(gf, tmp_path / "run.json", block=16,
               progress=lambda done, total, what: seen.append((done, total, what)))
    total = gf.graph.num_nodes + len(gf.dataframe)
    assert seen[0] == (0, total, "nodes and rows of JSON") and seen[-1][0] == total
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)


def test_convert_to_json_streams_the_same_document(tmp_path):
    gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    src = gf.save(tmp_path / "in.gfz")
    out = tmp_path / "out.json"
    code = main(["convert", str(src), str(out)], stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0 and out.read_text() == gf.to_json()
    assert GraphFrame.from_json(out.read_text()).dataframe.equals(gf.dataframe)


def test_nan_and_categorical_cells(tmp_path):
    gf = example_graphframe()
    df = gf.dataframe.copy()
    df["time"] = np.where(np.arange(len(df)) % 3 == 0, np.nan, df["time"])
    df["kind"] = (["a", None, "b"] * len(df))[:len(df)]
    df["kind"] = df["kind"].astype("category")
    other = replaced(gf, dataframe=df)
    assert write_json(other, tmp_path / "x.json", block=5).read_text() == other.to_json()
