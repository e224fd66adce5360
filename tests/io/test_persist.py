"""GraphFrame.save / graphframe.load: exact round trips, the file layout, errors."""

import json
import math
import zipfile

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import graphframe
import graphframe_readers
from graphframe import GraphFrame, ReadError, diff, load
from graphframe.examples import example_graphframe
from graphframe.io.archive import FORMAT_VERSION, is_archive, read_manifest
from graphframe.io.codec import SaveError, from_tagged, to_tagged
from tests.corpus import SHARED_DATA
from tests.corpus import assert_same, corpus_inputs, same_value
from tests.helpers import gf_from_edges, replaced

def roundtrip(gf, tmp_path, name="p.gfz"):
    path = gf.save(tmp_path / name)
    back = load(path)
    assert_same(gf, back)
    return back


def test_example_round_trip_and_file_layout(tmp_path):
    gf = example_graphframe()
    roundtrip(gf, tmp_path)
    path = tmp_path / "p.gfz"
    assert is_archive(path) and not is_archive(tmp_path) and not is_archive(tmp_path / "nope")
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist() == ["graphframe.json", "nodes.parquet", "edges.parquet",
                                 "metrics.parquet"]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in zf.infolist())
        manifest = json.loads(zf.read("graphframe.json"))
        nodes = pq.read_table(zf.open("nodes.parquet"))
        edges = pq.read_table(zf.open("edges.parquet"))
        rows = pq.read_table(zf.open("metrics.parquet"))
    assert manifest["format"] == "graphframe" and manifest["version"] == FORMAT_VERSION
    assert manifest["graph"] == {"num_nodes": 20, "num_edges": 19, "ordered": False,
                                 "forest": True}
    assert manifest["exc_metrics"] == ["time"] and manifest["default_metric"] == "time"
    assert manifest["metadata"]["mpi.world.size"] == 4
    assert nodes.column_names == ["parent", "depth", "frame.name", "frame.type"]
    assert nodes.column("frame.name").to_pylist()[:2] == ["main", "initialize"]
    assert edges.column_names == ["parent", "child", "parent_rank"]
    assert rows.column_names == ["node", "rank", "time", "name", "time (inc)"]
    assert rows.num_rows == 80
    assert read_manifest(path)["writer"] == f"graphframe {graphframe.__version__}"


def test_loaded_dataframes_are_writable(tmp_path):
    back = load(example_graphframe().save(tmp_path / "p.gfz"))
    back.dataframe.loc[0, "time"] = 5.0
    back.dataframe.iloc[1, 0] = 6.0
    assert back.dataframe["time"].iloc[:2].tolist() == [5.0, 6.0]


def test_dags_cycles_roots_levels_and_order(tmp_path):
    dag = gf_from_edges(list("abcde"), [-1, 0, 0, 1, 2], extra=[(2, 3)], ranks=2, threads=3)
    back = roundtrip(dag, tmp_path, "dag.gfz")
    assert back.dataframe.index.names == ["node", "rank", "thread"]
    cyc = gf_from_edges(list("abcd"), [-1, 0, 1, -1], extra=[(2, 1), (3, 2)])
    back = roundtrip(cyc, tmp_path, "cycle.gfz")
    assert len(back.graph.root_ids) == 2 and not back.graph.is_forest
    assert [p.frame["name"] for p in back.graph.node(int(back.graph.child_idx[0])).parents]
    roundtrip(gf_from_edges(["z", "y", "x"], [-1, 0, 0], ordered=True), tmp_path, "ord.gfz")
    forest = gf_from_edges(["r1", "a", "r2", "b"], [-1, 0, -1, 2], ranks=3)
    roundtrip(forest, tmp_path, "forest.gfz")


def test_columns_of_every_kind(tmp_path):
    gf = gf_from_edges(["main", "a", "b"], [-1, 0, 0])
    df = gf.dataframe.copy()
    df["mixed"] = pd.Series([1, "a", None], index=df.index, dtype=object)
    df["ints"] = pd.Series([1, None, 3], index=df.index, dtype=object)
    df["strs"] = pd.Series(["x", np.nan, "z"], index=df.index, dtype=object)
    df["cat"] = pd.Categorical(["u", "v", "u"], categories=["v", "u", "w"], ordered=True)
    df["Int"] = pd.array([1, None, 2], dtype="Int64")
    df["string"] = pd.array(["p", None, "q"], dtype="string")
    df["f32"] = np.float32([1, 2, 3])
    df["flag"] = [True, False, True]
    df["when"] = pd.to_datetime(["2024-01-01", "2024-01-02", None])
    df[("tuple", "name")] = [1.0, np.nan, np.inf]
    df[7] = [-1, 0, 1]
    meta = {"t": (1, 2), "nan": float("nan"), "d": {1: [2, 3]}, "arr": np.arange(3),
            "b": b"xy", "$key": None, "np": np.int64(3), "f": np.float32(0.5),
            "nested": {"list": [{"x": -math.inf}]}}
    roundtrip(replaced(gf, dataframe=df, metadata=meta), tmp_path)


def test_frames_with_missing_keys_and_numbers(tmp_path):
    lit = [{"frame": {"name": "main", "line": 3}, "metrics": {"time": 1.0}, "children": [
        {"frame": {"name": "loop", "type": "loop"}, "metrics": {"time": 2.0}},
        {"frame": {"name": "f", "file": "f.c", "line": 10}, "metrics": {"time": 3.0}}]}]
    roundtrip(GraphFrame.from_literal(lit), tmp_path)


def test_diff_results_unsquashed_filters_and_empty_frames(tmp_path):
    a = gf_from_edges(["main", "io", "solve"], [-1, 0, 0], ranks=2)
    b = gf_from_edges(["main", "solve", "mpi"], [-1, 0, 1], ranks=2)
    roundtrip(diff(a, b), tmp_path, "diff.gfz")
    kept = a.filter(a.dataframe["name"] != "io", squash=False)
    roundtrip(kept, tmp_path, "unsquashed.gfz")
    empty = replaced(a, dataframe=a.dataframe.iloc[:0])
    roundtrip(empty, tmp_path, "empty.gfz")


def test_metadata_that_cannot_be_saved(tmp_path):
    gf = example_graphframe()
    bad = replaced(gf, metadata={"runs": [1, {"when": object()}]})
    with pytest.raises(SaveError, match=r"metadata\['runs'\]\[1\]\['when'\] holds a object"):
        bad.save(tmp_path / "bad.gfz")
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_tagged_json():
    value = {"a": (1, [2.5, None]), 3: {"$x": float("inf")}, "s": np.uint8(7)}
    text = json.dumps(to_tagged(value), allow_nan=False)
    assert same_value(from_tagged(json.loads(text)), value)


def test_saving_replaces_an_existing_file(tmp_path):
    path = tmp_path / "p.gfz"
    example_graphframe().save(path)
    small = GraphFrame.from_lists(("a", "b"))
    small.save(path)
    assert load(path).graph.num_nodes == 2


# ------------------------------------------------------------------ errors
def write_archive(path, manifest=None, drop=None, replace=None):
    """Rewrite an archive of the example with a changed manifest or member."""
    src = path.parent / "src.gfz"
    example_graphframe().save(src)
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename == drop:
                continue
            if item.filename == "graphframe.json" and manifest is not None:
                data = json.dumps(manifest(json.loads(data))).encode()
            if replace and item.filename in replace:
                data = replace[item.filename]
            zout.writestr(item, data)
    return path


def test_newer_version_is_refused_clearly(tmp_path):
    path = write_archive(tmp_path / "new.gfz",
                         manifest=lambda m: {**m, "version": 2, "writer": "graphframe 9.0"})
    with pytest.raises(ReadError) as info:
        load(path)
    assert str(info.value) == (
        f"{path}: graphframe.json: written with archive format version 2 (graphframe 9.0), "
        f"but this graphframe {graphframe.__version__} reads versions up to 1 "
        "(expected upgrade graphframe to load this file)")


def test_bad_files(tmp_path):
    with pytest.raises(ReadError, match="no such file or directory"):
        load(tmp_path / "missing.gfz")
    text = tmp_path / "text.gfz"
    text.write_text("hello")
    with pytest.raises(ReadError, match="text.gfz: not a graphframe archive"):
        load(text)
    good = example_graphframe().save(tmp_path / "good.gfz")
    cut = tmp_path / "cut.gfz"
    cut.write_bytes(good.read_bytes()[:3000])
    with pytest.raises(ReadError, match="cut.gfz: the archive is truncated or damaged"):
        load(cut)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("x.txt", "x")
    with pytest.raises(ReadError, match="the archive has no graphframe.json"):
        load(other)


def test_damaged_members(tmp_path):
    path = write_archive(tmp_path / "a.gfz", drop="edges.parquet")
    with pytest.raises(ReadError, match="a.gfz: edges.parquet: the archive has no edges.parquet"):
        load(path)
    path = write_archive(tmp_path / "b.gfz", replace={"metrics.parquet": b"PAR1garbage"})
    with pytest.raises(ReadError, match="metrics.parquet: metrics.parquet is not a readable"):
        load(path)
    path = write_archive(tmp_path / "c.gfz", manifest=lambda m: {**m, "format": "other"})
    with pytest.raises(ReadError, match="not a graphframe archive"):
        load(path)
    path = write_archive(tmp_path / "d.gfz",
                         manifest=lambda m: {**m, "graph": {**m["graph"], "num_nodes": 25}})
    with pytest.raises(ReadError, match="the archive is inconsistent .*expected 25 nodes"):
        load(path)
    path = write_archive(tmp_path / "e.gfz", manifest=lambda m: {**m, "version": "one"})
    with pytest.raises(ReadError, match="invalid format version 'one'"):
        load(path)


def test_save_errors_name_the_target_not_the_temporary_file(tmp_path):
    from graphframe.io.archive import WriteError
    gf = example_graphframe()
    target = tmp_path / "no" / "dir" / "x.gfz"
    with pytest.raises(WriteError) as info:
        gf.save(target)
    assert str(info.value) == (f"{target}: cannot save the archive: the folder "
                               f"{target.parent} does not exist")
    assert isinstance(info.value, graphframe.GraphframeError)
    assert isinstance(info.value, OSError)  # code catching OSError keeps working
    assert isinstance(info.value.__cause__, FileNotFoundError)
    folder = tmp_path / "folder.gfz"
    folder.mkdir()
    with pytest.raises(WriteError) as info:
        gf.save(folder)
    assert str(info.value) == f"{folder}: cannot save the archive there: it is a directory"
    assert ".tmp" not in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.gfz"]  # nothing left over


def test_save_into_a_read_only_folder(tmp_path):
    import os
    if os.geteuid() == 0:
        pytest.skip("root can write into read-only folders")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        from graphframe.io.archive import WriteError
        with pytest.raises(WriteError, match="locked/x.gfz: cannot save the archive: "
                                             "Permission denied"):
            example_graphframe().save(locked / "x.gfz")
    finally:
        locked.chmod(0o700)


def test_archives_are_byte_reproducible(tmp_path, monkeypatch):
    import time
    gf = example_graphframe()
    first = gf.save(tmp_path / "a.gfz").read_bytes()
    later = time.time() + 3 * 86400  # another day: the zip timestamps would differ
    monkeypatch.setattr(time, "time", lambda: later)
    second = gf.save(tmp_path / "b.gfz").read_bytes()
    assert first == second
    # and a copy of the GraphFrame (new objects, same values) gives the same bytes too
    assert gf.deepcopy().save(tmp_path / "c.gfz").read_bytes() == first
    with zipfile.ZipFile(tmp_path / "a.gfz") as zf:
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert zf.namelist() == ["graphframe.json", "nodes.parquet", "edges.parquet",
                                 "metrics.parquet"]


def _set(path_in_manifest, value):
    """A manifest edit: set ``a.b[2].c`` (a list of keys) to ``value``."""
    def edit(m):
        target = m
        for key in path_in_manifest[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path_in_manifest[-1]]
        else:
            target[path_in_manifest[-1]] = value
        return m
    return edit


_DELETE = "<delete>"

#: (edit, field named in the message, expected)
BAD_MANIFESTS = [
    (["metadata"], "x", "'metadata' is str 'x'", "an object"),
    (["metadata"], {"$bytes": 5}, "'metadata' holds a malformed tagged value", "tagged JSON"),
    (["metadata"], _DELETE, "'metadata' is missing", "an object"),
    (["graph"], [], "'graph' is list []", "an object"),
    (["graph", "num_nodes"], "20", "'graph.num_nodes' is str '20'", "a whole number"),
    (["graph", "num_nodes"], -1, "'graph.num_nodes' is -1", "0 or more"),
    (["graph", "ordered"], "yes", "'graph.ordered' is str 'yes'", "true or false"),
    (["nodes", "columns"], {}, "'nodes.columns' is dict {}", "a list of column"),
    (["nodes", "columns", 0], "frame.name", "'nodes.columns[0]' is str", "an object with"),
    (["nodes", "columns", 0, "field"], 3, "'nodes.columns[0].field' is int 3",
     "the name of a Parquet column"),
    (["metrics", "index"], [], "'metrics.index' is empty", "at least the 'node' level"),
    (["metrics", "columns", 0, "codec", "dtype"], "bogus",
     "'metrics.columns[0].codec.dtype' is 'bogus', which cannot be used",
     "a numpy dtype such as '<f8'"),
    (["metrics", "columns", 0, "codec", "dtype"], "|O",
     "'metrics.columns[0].codec.dtype' is '|O'", "a numeric, boolean or datetime"),
    (["metrics", "columns", 0, "codec", "dtype"], 8,
     "'metrics.columns[0].codec.dtype' is int 8", "a numpy dtype"),
    (["metrics", "columns", 0, "codec", "kind"], "pickle",
     "'metrics.columns[0].codec.kind' is str 'pickle'", "one of numpy, extension"),
    (["metrics", "columns", 0, "codec"], None, "'metrics.columns[0].codec' is null",
     "an object"),
    (["metrics", "columns", 0, "name"], [1, 2], "'metrics.columns[0].name' is list [1, 2]",
     "a name"),
    (["metrics", "num_rows"], 1.5, "'metrics.num_rows' is float 1.5", "a whole number"),
    (["exc_metrics"], "time", "'exc_metrics' is str 'time'", "a list of metric names"),
    (["inclusive_of"], [["time"]], "'inclusive_of[0]' is not a pair", "[exclusive name"),
    (["default_metric"], {"$scalar": 1, "dtype": "zz"},
     "'default_metric' holds a malformed tagged value", "tagged JSON"),
]


@pytest.mark.parametrize("keys, value, problem, expected", BAD_MANIFESTS,
                         ids=[".".join(map(str, b[0])) + f"={b[1]!r}"[:20]
                              for b in BAD_MANIFESTS])
def test_hand_edited_manifests_are_read_errors_naming_the_field(tmp_path, keys, value, problem,
                                                                  expected):
    path = write_archive(tmp_path / "edited.gfz", manifest=_set(keys, value))
    for reader in (load, read_manifest):
        with pytest.raises(ReadError) as info:
            reader(path)
        text = str(info.value)
        assert text.startswith(f"{path}: graphframe.json: field {problem}"), text
        assert f"(expected {expected}" in text, text


def test_codecs_that_do_not_fit_their_columns(tmp_path):
    def codec(kind, **extra):
        return _set(["metrics", "columns", 1, "codec"], {"kind": kind, **extra})
    m = read_manifest(example_graphframe().save(tmp_path / "x.gfz"))
    assert m["metrics"]["columns"][1]["field"] == "name"
    cases = [
        (codec("object", type="integer", null="None"), "object"),  # names are not ints
        (codec("categorical", ordered=False, categories=["a"],
               categories_codec={"kind": "object", "type": "string", "null": "None"}),
         "categorical"),
        (codec("extension", dtype="Int64"), "extension"),
    ]
    for i, (edit, kind) in enumerate(cases):
        path = write_archive(tmp_path / f"c{i}.gfz", manifest=edit)
        with pytest.raises(ReadError, match=r"metrics.parquet: column 'name' does not match "
                                            r"its codec \{'kind': '" + kind):
            load(path)
    path = write_archive(tmp_path / "f.gfz",
                         manifest=_set(["metrics", "columns", 1, "field"], "nom"))
    with pytest.raises(ReadError, match=r"graphframe.json: field 'metrics.columns\[1\].field' "
                                        r"names the column 'nom', which metrics.parquet does "
                                        r"not have"):
        load(path)
    path = write_archive(tmp_path / "i.gfz",
                         manifest=_set(["metrics", "columns", 1, "codec"],
                                       {"kind": "object", "type": "strange", "null": "None"}))
    with pytest.raises(ReadError, match=r"'metrics.columns\[1\].codec.type' is str 'strange'"):
        load(path)


def test_unknown_manifest_fields_are_ignored(tmp_path):
    path = write_archive(tmp_path / "extra.gfz",
                         manifest=lambda m: {**m, "added_later": {"anything": [1]}})
    assert_same(example_graphframe(), load(path))


def test_loaded_text_shares_one_object_per_distinct_value(tmp_path):
    gf = example_graphframe()
    back = roundtrip(gf, tmp_path)
    names = back.dataframe["name"].to_numpy(dtype=object)
    main_rows = np.flatnonzero(names == "main")
    assert len(main_rows) == 4  # one per rank, one string object for all of them
    assert len({id(names[i]) for i in main_rows}) == 1
    frames = back.graph.attrs["name"].to_numpy(dtype=object)
    assert frames[0] == "main"


# --------------------------------------------------------------- real data
@pytest.mark.parametrize("rel", corpus_inputs())
def test_every_readable_corpus_file_round_trips(rel, tmp_path):
    """Grows as readers are merged: every corpus file some reader recognises."""
    try:
        gf = graphframe.read(SHARED_DATA / rel)
    except ReadError as exc:  # recognised but unreadable on purpose (e.g. Python 2 pstats)
        pytest.skip(f"the reader refuses this file: {exc}")
    roundtrip(gf, tmp_path)
    if gf.inc_metrics or gf.exc_metrics:
        roundtrip(gf.update_inclusive_columns(inplace=False), tmp_path, "inc.gfz")


def test_the_corpus_has_readable_files_or_says_why():
    files = corpus_inputs()
    if not files:
        pytest.skip("no reader in this checkout recognises a file of the corpus yet "
                    f"(formats: {', '.join(graphframe_readers.formats())})")
    assert all((SHARED_DATA / f).exists() for f in files)
