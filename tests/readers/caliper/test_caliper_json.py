"""Caliper json-split: inputs written by the tests themselves."""

import io
import json
import time

import numpy as np
import pytest

import graphframe
import graphframe_readers
from graphframe_readers.testing import random_tree_profile as random_profile
from graphframe_readers.testing import write_caliper_json
from graphframe_readers import ReadError
from graphframe_readers.caliper import read_caliper_json
from graphframe_readers.caliper.jsonsplit import fast
from graphframe_readers.caliper.jsonsplit.reader import parse_caliper_json
from graphframe_readers.common.jsonfile import MAX_DEPTH, loads_json

VALUE, LABEL = {"is_value": True}, {"is_value": False}


def doc(data, columns, meta, nodes, **globals_):
    out = {"data": data, "columns": columns, "column_metadata": meta, "nodes": nodes}
    out.update(globals_)
    return out


def write(tmp_path, document, name="prof.json", data_last=False):
    """Write ``document`` as Caliper does (data first) or with data last."""
    if data_last:
        document = {k: v for k, v in document.items() if k != "data"} | {"data": document["data"]}
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def main_foo_bar(**globals_):
    """Spec §4.3's writer check: main on ranks 0 and 1, foo on 0, bar on 1."""
    return doc(
        [[0, 0, 1.0, 6.0], [0, 1, 2.0, 8.0], [1, 0, 3.0, 3.0], [2, 1, 4.0, 4.0]],
        ["path", "mpi.rank", "sum#time.duration", "inclusive#sum#time.duration"],
        [LABEL, VALUE, VALUE, VALUE],
        [{"label": "main", "column": "path"},
         {"label": "foo", "column": "path", "parent": 0},
         {"label": "bar", "column": "path", "parent": 0}], **globals_)


@pytest.mark.parametrize("data_last", [False, True], ids=["fast-path", "general-decoder"])
def test_missing_rows_are_filled_once_per_node_and_rank(tmp_path, data_last):
    gf = graphframe.read(write(tmp_path, main_foo_bar(cluster="test"), data_last=data_last))
    df = gf.dataframe
    assert list(df.index.names) == ["node", "rank"]
    assert df.index.tolist() == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert df["name"].tolist() == ["main", "main", "bar", "bar", "foo", "foo"]
    # (bar, 0) and (foo, 1) have no record: their metrics are 0, as in Hatchet
    assert df["time"].tolist() == [1.0, 2.0, 0.0, 4.0, 3.0, 0.0]
    assert df["time (inc)"].tolist() == [6.0, 8.0, 0.0, 4.0, 3.0, 0.0]
    assert df["nid"].tolist() == [0, 0, 2, 2, 1, 1]  # the node's index in "nodes"
    assert (gf.exc_metrics, gf.inc_metrics, gf.default_metric) == (["time"], ["time (inc)"], "time")
    assert gf.inclusive_of == {"time": "time (inc)"}
    assert gf.metadata["cluster"] == "test" and gf.metadata["format"] == "caliper-json"
    # "function", as .cali files label the same regions (Hatchet's from_caliper says "region")
    assert [n.frame["type"] for n in gf.graph.traverse()] == ["function"] * 3


def test_fast_path_and_general_decoder_give_the_same_tables(tmp_path):
    document = main_foo_bar(cluster="x")
    document["data"][1][2] = None  # a null metric
    a = graphframe_readers.read(write(tmp_path, document, "a.json"))
    b = graphframe_readers.read(write(tmp_path, document, "b.json", data_last=True))
    for name in ("nodes", "metrics", "node_columns"):
        assert getattr(a, name).equals(getattr(b, name)), name
    assert a.metrics["time"].tolist() == [1.0, 0.0, 3.0, 0.0, 0.0, 4.0]  # null -> no value -> 0


def test_fast_path_converts_numbers_exactly_as_python_float(tmp_path):
    # random doubles over 16 orders of magnitude, written with repr and laid out with and
    # without spaces: pandas 2's default C parser gets about a third of these a unit in
    # the last place wrong; the fast path must give Python's float() for every cell
    rng = np.random.default_rng(7)
    values = rng.lognormal(size=3000) * 10.0 ** rng.integers(-8, 8, 3000)
    nodes = [{"label": f"f{i}", "column": "path"} for i in range(3000)]
    rows = [[i, float(v)] for i, v in enumerate(values)]
    document = doc(rows, ["path", "sum#time.duration"], [LABEL, VALUE], nodes)
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(document, separators=(",", ":")))
    spaced = write(tmp_path, document, "spaced.json")
    general = write(tmp_path, document, "general.json", data_last=True)
    by_node = {}
    for path in (compact, spaced, general):
        raw = graphframe_readers.read(path)
        by_node[path.name] = dict(zip(raw.metrics["node"].tolist(), raw.metrics["time"].tolist()))
    expected = dict(enumerate(values.tolist()))
    labels = {int(k): int(v[1:]) for k, v in enumerate(graphframe_readers.read(compact).nodes["name"])}
    for name, got in by_node.items():
        assert {labels[k]: v for k, v in got.items()} == expected, name


TAIL = (', "columns": ["path", "mpi.rank", "time"], "column_metadata": [{"is_value": false}, '
        '{"is_value": true}, {"is_value": true}], "nodes": [{"label": "main", "column": "path"}, '
        '{"label": "foo", "column": "path", "parent": 0}]}')


@pytest.mark.parametrize("data", [
    "[[0,0,1.5],[1,0,2.5],[0,1,null]]",                          # compact
    "[\n    [ 0, 0, 1.5 ],\n    [ 1, 0, 2.5 ],\n    [ 0, 1, null ]\n  ]",  # cali-query's layout
    "[\t[0,\t0,\r\n1.5]\t,\r\n[1,0,2.5] , [ 0 , 1 , null ] ]",     # any JSON whitespace
], ids=["compact", "caliper", "tabs"])
def test_fast_path_reads_every_layout_of_the_rows(tmp_path, data):
    path = tmp_path / "rows.json"
    path.write_text('{"data": ' + data + TAIL)
    if not fast.PANDAS_EXACT:  # pyarrow's path deletes the whitespace first
        assert fast.decode_fast(path.read_bytes()).cells.tolist()[:2] == [[0, 0, 1.5], [1, 0, 2.5]]
    raw = graphframe_readers.read(path)
    general = parse_caliper_json(json.loads(path.read_text()))
    assert raw.metrics.equals(general.metrics)
    assert raw.metrics["time"].tolist() == [1.5, 0.0, 2.5, 0.0]


@pytest.mark.parametrize("data, error", [
    ("[[0, 0, 1.5], 5, [1, 0, 2.5]]", "data\\[1\\]: the row does not have one cell per column"),
    ("[[0, 0, 1.5] [1, 0, 2.5]]", "column 23: invalid JSON: Expecting ','"),
    ("[[0, 0, 1.5],, [1, 0, 2.5]]", "column 23: invalid JSON: Expecting value"),
    ("[[0, 0, 1.5], [1, 0]]", "data\\[1\\]: the row does not have one cell per column"),
    ("[[0, 0, 1.5], [1, 0], [1, 1, 2, 3]]", "data\\[1\\]: the row does not have one cell"),
    ("[[0, 0, 1.5], [1, , 2.5]]", "column 28: invalid JSON: Expecting value"),
    ("[[0, 0, 1.5], [], [1, 0, 2.5]]", "data\\[1\\]: the row does not have one cell per column"),
    ("[[0, 0, [1.5]], [1, 0, 2.5]]", "data\\[0\\]: column 'time' holds a list"),
    ("[[0, 0, nul], [1, 0, 2.5]]", "column 18: invalid JSON: Expecting value"),
], ids=["between-rows", "no-comma", "two-commas", "short-row", "short-and-long-rows",
        "empty-cell", "empty-row", "nested", "bad-null"])
def test_fast_path_leaves_malformed_rows_to_the_located_error(tmp_path, data, error):
    path = tmp_path / "rows.json"
    path.write_text('{"data": ' + data + TAIL)
    assert fast.decode_fast(path.read_bytes()) is None
    expect_error(path, error)


def test_streams_text_and_binary(tmp_path):
    text = json.dumps(main_foo_bar())
    for stream in (io.StringIO(text), io.BytesIO(text.encode())):
        gf = graphframe.GraphFrame.from_caliper(stream)
        assert len(gf.dataframe) == 6


def ordered_doc():
    # main -> (b: order 3, a: order 1 -> (c: order 2)); "z" has no record of its own:
    # its position is its first-seen descendant's, order 0.
    return doc(
        [[3, 2, 1.0], [1, 1, 2.0], [2, 3, 3.0], [4, 0, 4.0], [0, 5, 5.0]],
        ["Node order", "path", "time"], [VALUE, LABEL, VALUE],
        [{"label": "main", "column": "path"},
         {"label": "a", "column": "path", "parent": 0},
         {"label": "b", "column": "path", "parent": 0},
         {"label": "c", "column": "path", "parent": 1},
         {"label": "z", "column": "path", "parent": 0},
         {"label": "y", "column": "path", "parent": 4}])


def names_in_order(gf):
    return [n.frame["name"] for n in gf.graph.traverse()]


def test_node_order_orders_siblings(tmp_path):
    path = write(tmp_path, ordered_doc())
    gf = graphframe.GraphFrame.from_caliper(str(path))
    assert names_in_order(gf) == ["main", "z", "y", "a", "c", "b"]
    assert "Node order" not in gf.dataframe.columns and "Node order" not in gf.exc_metrics
    # node_ordering=False (and files without the column) order siblings by frame
    gf = graphframe.GraphFrame.from_caliper(str(path), node_ordering=False)
    assert names_in_order(gf) == ["main", "a", "c", "b", "z", "y"]


@pytest.mark.parametrize("data_last", [False, True], ids=["fast-path", "general-decoder"])
def test_duplicate_rows_merge_averages_by_weight(tmp_path, data_last):
    # two records of "main" (they differ in a secondary text key): avg# merges as
    # sum of sums / sum of numbers of values, not as a mean of the two averages
    document = doc([[0, 1, 2.0, 6.0, 3], [0, 2, 4.0, 4.0, 1], [3, 1, 7.0, 7.0, 1]],
                   ["path", "phase", "avg#time.duration", "sum#time.duration", "count"],
                   [LABEL, LABEL, VALUE, VALUE, VALUE],
                   [{"label": "main", "column": "path"}, {"label": "a", "column": "phase"},
                    {"label": "b", "column": "phase"}])
    document["nodes"].append({"label": "solve", "column": "path", "parent": 0})
    gf = graphframe.read(write(tmp_path, document, data_last=data_last))
    df = gf.dataframe
    assert df["avg#time.duration"].tolist() == [2.5, 7.0]  # (6 + 4) / (3 + 1)
    assert df["time"].tolist() == [10.0, 7.0] and df["count"].tolist() == [4.0, 1.0]
    assert df["phase"].tolist() == [("a", "b"), "a"]


def test_inclusive_columns_come_from_metadata_not_suffixes(tmp_path):
    document = doc(
        [[0, 1.0, 2.0, 3.0, 1]],
        ["path", "min#inclusive#sum#time.duration", "count", "bytes (inc)", "kind (inc)"],
        [LABEL, {"is_value": True, "attribute.alias": "Min time/rank"}, VALUE, VALUE, LABEL],
        [{"label": "main", "column": "path"}, {"label": "x", "column": "kind (inc)"}])
    gf = graphframe.read(write(tmp_path, document))
    # the alias "Min time/rank" hides the inclusive operator; Caliper's name shows it
    assert gf.inc_metrics == ["Min time/rank", "bytes (inc)"]
    assert gf.exc_metrics == ["count"]
    # a text column is never a metric, whatever its name says
    assert gf.dataframe["kind (inc)"].tolist() == ["x"]
    assert gf.default_metric == "Min time/rank"


def test_string_attributes_are_kept_and_never_summed(tmp_path):
    document = doc(
        [[0, 0, "init", 1.0], [0, 0, "solve", 2.0], [1, 0, "solve", 4.0], [1, 1, "solve", 8.0]],
        ["path", "mpi.rank", "phase", "time"], [LABEL, VALUE, VALUE, VALUE],
        [{"label": "main", "column": "path"}, {"label": "f", "column": "path", "parent": 0}])
    gf = graphframe.read(write(tmp_path, document))
    df = gf.dataframe
    # two records of (main, 0) merge: numbers add, distinct texts are kept together
    assert df["time"].tolist() == [3.0, 0.0, 4.0, 8.0]
    assert df["phase"].tolist() == [("init", "solve"), None, "solve", "solve"]
    assert gf.exc_metrics == ["time"]


def test_callpath_hierarchy_with_source_lines(tmp_path):
    document = doc(
        [[0, 0, 3, 10.0], [0, 0, 4, 20.0], [1, 0, 3, 5.0], [2, 1, 5, 1.0]],
        ["source.function#callpath.address", "mpi.rank", "sourceloc#cali.sampler.pc",
         "sum#time.duration"], [LABEL, VALUE, LABEL, VALUE],
        [{"label": "main", "column": "source.function#callpath.address"},
         {"label": "solve", "column": "source.function#callpath.address", "parent": 0},
         {"label": "", "column": "source.function#callpath.address", "parent": 0},
         {"label": "/src/a.c:10", "column": "sourceloc#cali.sampler.pc"},
         {"label": "/src/a.c:12", "column": "sourceloc#cali.sampler.pc"},
         {"label": "??", "column": "sourceloc#cali.sampler.pc"}])
    gf = graphframe.read(write(tmp_path, document))
    nodes = list(gf.graph.traverse())
    frames = [dict(n.frame) for n in nodes]
    # main was sampled at two lines: one statement child per line gets the samples
    assert frames == [
        {"name": "main", "type": "function"},
        {"file": "/src/a.c", "line": "10", "type": "statement"},
        {"file": "/src/a.c", "line": "12", "type": "statement"},
        {"name": "UNKNOWN 2", "type": "function"},  # an empty label, named by its index
        {"name": "solve", "type": "function"}]
    df = gf.dataframe
    assert df["name"].tolist()[::2] == ["main", "a.c:10", "a.c:12", "UNKNOWN 2", "solve"]
    assert df["time"].tolist() == [0, 0, 10, 0, 20, 0, 0, 1, 5, 0]
    files = df.xs(1, level="rank")["file"].tolist()
    assert [f if isinstance(f, str) else None for f in files] == [None, None, None, "??", None]
    assert df["nid"].tolist()[::2] == [0, 3, 4, 2, 1]  # statements: after the largest nid


def test_rows_outside_every_region(tmp_path):
    # rows 0 and 3 have no path: row 0 holds a time, row 3 only a timestamp (not a
    # metric): no_path="keep" puts row 0 under a "<no path>" root (nid: one past the
    # file's nodes) and leaves row 3 out; the default ("drop") leaves out both, as
    # Hatchet, and keeps row 0's time in the metadata
    document = doc([[None, 9.0, 5], [0, 1.0, 6], [0, 2.0, 7], [None, None, 8]],
                   ["path", "time", "time.offset"], [LABEL, VALUE, VALUE],
                   [{"label": "main", "column": "path"}])
    path = write(tmp_path, document)
    for raw in (graphframe_readers.read(path, no_path="keep"),
                parse_caliper_json(document, no_path="keep")):  # fast and general paths
        assert raw.nodes["name"].tolist() == ["main", "<no path>"]
        assert raw.node_columns["nid"].tolist() == [0, 1]
        assert raw.metrics["time"].tolist() == [3.0, 9.0]
        assert raw.metrics["time.offset"].tolist() == [6, 5]
    for raw in (graphframe_readers.read(path), parse_caliper_json(document)):
        assert raw.nodes["name"].tolist() == ["main"] and raw.metrics["time"].tolist() == [3.0]
        assert raw.metadata["unattributed"] == {"time": 9.0}
    with pytest.raises(graphframe_readers.ArgumentError, match=r"no_path='skip': use 'keep'"):
        graphframe_readers.read(path, no_path="skip")
    assert "no_path" in graphframe_readers.format_info("caliper-json").options


def test_metadata_values_are_converted(tmp_path):
    gf = graphframe.read(write(tmp_path, main_foo_bar(**{"mpi.world.size": "2",
                                                          "libraries": "[a,b]"})))
    assert gf.metadata["mpi.world.size"] == 2 and gf.metadata["libraries"] == ["a", "b"]


def test_writer_round_trip(tmp_path):
    raw = random_profile(500, 3, seed=7)
    path = tmp_path / "big.json"
    write_caliper_json(raw, path)
    assert graphframe_readers.sniff(path) == "caliper-json"
    back = graphframe_readers.read(path)
    assert back.num_nodes == 500 and len(back.metrics) == 1500
    assert back.ordered and back.exc_metrics == ("time",) and back.inc_metrics == ("time (inc)",)
    np.testing.assert_array_equal(back.metrics["time"].to_numpy(), raw.metrics["time"].to_numpy())
    # the writer records each node's position as its Node order
    gf_a = graphframe.GraphFrame.from_raw(raw.with_changes(ordered=True))
    gf_b = graphframe.GraphFrame.from_raw(back)
    assert names_in_order(gf_a) == names_in_order(gf_b)


# ------------------------------------------------------------------ bad input
def expect_error(path, match):
    with pytest.raises(ReadError, match=match) as info:
        read_caliper_json(path)
    assert str(path) in str(info.value)
    return info.value


@pytest.mark.parametrize("data_last", [False, True], ids=["fast-path", "general-decoder"])
def test_truncated_file(tmp_path, data_last):
    path = write(tmp_path, main_foo_bar(), data_last=data_last)
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    expect_error(path, r"line 1, column \d+: invalid JSON")


def test_bad_json_is_located(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"data": [[0, 1.0]],\n "columns": ["path" "time"]}')
    expect_error(path, r"line 2, column 21: invalid JSON: Expecting ',' delimiter")


def test_nesting_bomb_is_a_read_error(tmp_path):
    path = tmp_path / "bomb.json"
    path.write_text('{"data": [' + "[" * 100000 + "]" * 100000 + '], "columns": []}')
    err = expect_error(path, "the 'column_metadata' section is missing")
    assert err.position == "top level"
    path.write_text('{"data": [' + "[" * 100000)
    expect_error(path, "invalid JSON")
    # deep nesting inside the node and column sections (which the fast path hands
    # to the json module) is read by the iterative decoder
    deep = "[" * 100000 + "]" * 100000
    for section in ("nodes", "column_metadata"):
        document = main_foo_bar()
        document[section][0]["extra"] = 0
        text = json.dumps(document).replace('"extra": 0', '"extra": ' + deep)
        path.write_text(text)
        assert graphframe_readers.read(path).num_nodes == 3
    # and deep nesting in a data cell is a located error, not a RecursionError
    document = main_foo_bar()
    document["data"][1][2] = "DEEP"
    path.write_text(json.dumps(document).replace('"DEEP"', deep))
    err = expect_error(path, "column 'sum#time.duration' holds a list")
    assert err.position == "data[1]"
    document["data"][1][2] = 1.0
    document["data"][3][0] = "DEEP"
    path.write_text(json.dumps(document).replace('"DEEP"', deep))
    err = expect_error(path, "column 'path' holds a list")
    assert err.position == "data[3]"


@pytest.mark.parametrize("opener", ["[", '{"a": '])
def test_a_50_mb_nesting_bomb_stops_at_the_depth_limit(tmp_path, opener):
    # the decoder stops at the first level past MAX_DEPTH: the error's column proves it
    # never looked at the rest of the file (building it whole took 5 s and 855 MB for
    # 10 MB)
    path = tmp_path / "bomb.json"
    path.write_text('{"data": ' + opener * (50_000_000 // len(opener)))
    started = time.perf_counter()
    err = expect_error(path, f"invalid JSON: nested more than {MAX_DEPTH:,} levels deep")
    assert time.perf_counter() - started < 60  # a hang guard (about 0.5 s alone); the column below is the proof
    column = int(err.position.split("column ")[1])
    assert err.position.startswith("line 1, ") and column == 10 + (MAX_DEPTH - 1) * len(opener)


def test_the_depth_limit_and_deep_trees(tmp_path):
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(ReadError, match=r"x: line 1, column 500001: invalid JSON: nested more "):
        loads_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "x")
    # a 100,000-deep call tree written as a literal (two levels per node) still reads
    depth = 100_000
    path = tmp_path / "chain.json"
    path.write_text("[" + '{"frame": {"name": "f"}, "metrics": {"time": 1.0}, "children": ['
                    * depth + "]}" * depth + "]")
    raw = graphframe_readers.read(path)
    assert raw.num_nodes == depth and raw.nodes["parent"].tolist()[-3:] == [depth - 4, depth - 3,
                                                                            depth - 2]


@pytest.mark.parametrize("data_last", [False, True], ids=["fast-path", "general-decoder"])
def test_data_referring_to_a_missing_node(tmp_path, data_last):
    document = main_foo_bar()
    document["data"][2][0] = 7
    err = expect_error(write(tmp_path, document, data_last=data_last),
                       "column 'path' refers to node 7")
    assert err.position == "data[2]"


def test_data_referring_to_a_node_of_another_column(tmp_path):
    document = main_foo_bar()
    document["nodes"][1]["column"] = "function"
    err = expect_error(write(tmp_path, document), "column 'path' refers to node 1")
    assert err.position == "data[2]"


@pytest.mark.parametrize("parent, position, match", [
    (5, "nodes[1]", "parent 5 is not a node of the 'path' hierarchy"),
    (1, "nodes[1]", "chain of parents forms a cycle"),
])
def test_bad_parents(tmp_path, parent, position, match):
    document = main_foo_bar()
    document["nodes"][1]["parent"] = parent
    err = expect_error(write(tmp_path, document), match)
    assert err.position == position


def test_parent_cycle_between_two_nodes(tmp_path):
    document = main_foo_bar()
    document["nodes"][1]["parent"] = 2
    document["nodes"][2]["parent"] = 1
    err = expect_error(write(tmp_path, document), "forms a cycle")
    assert err.position in ("nodes[1]", "nodes[2]")


@pytest.mark.parametrize("mutate, position, match", [
    (lambda d: d["data"][1].append(1.0), "data[1]", "does not have one cell per column"),
    (lambda d: d["data"][3].__setitem__(2, [1]), "data[3]", "column 'sum#time.duration' holds a "
                                                            "list"),
    (lambda d: d["data"][2].__setitem__(0, {}), "data[2]", "column 'path' holds an object"),
    (lambda d: d["data"][0].__setitem__(1, "zero"), "data[0]",
     r"column 'mpi.rank' holds 'zero', but data\[1\] holds a number"),
    (lambda d: d["data"][1].__setitem__(1, 0.5), "data[1]", "holds 0.5, not a rank"),
    (lambda d: d["nodes"][2].pop("label"), "nodes[2]", "malformed node entry"),
    (lambda d: d["nodes"][2].__setitem__("parent", "0"), "nodes[2]", "malformed node entry"),
    (lambda d: d.pop("nodes"), "top level", "the 'nodes' section is missing"),
    (lambda d: d["column_metadata"].pop(), "column_metadata", "does not describe every column"),
    (lambda d: d["columns"].__setitem__(3, "sum#time.duration"), "columns", "appears twice"),
    (lambda d: d["columns"].__setitem__(0, "region"), "columns", "no hierarchy column"),
])
def test_malformed_documents(tmp_path, mutate, position, match):
    document = main_foo_bar()
    mutate(document)
    err = expect_error(write(tmp_path, document), match)
    assert err.position == position


def test_not_an_object(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    expect_error(path, "the document is not a JSON object")


BOTH = pytest.mark.parametrize("data_last", [False, True], ids=["fast-path", "general-decoder"])


def cell_error(tmp_path, document, data_last, match):
    return expect_error(write(tmp_path, document, data_last=data_last), match)


@BOTH
def test_node_order_that_is_not_a_number(tmp_path, data_last):
    document = doc([[0, "first", 1.0], [1, "second", 2.0]], ["path", "Node order", "time"],
                   [LABEL, VALUE, VALUE], main_foo_bar()["nodes"][:2])
    err = cell_error(tmp_path, document, data_last,
                     r"column 'Node order' holds 'first' \(expected a number \(Caliper's node "
                     r"order\) or null\)")
    assert err.position == "data[0]"


@BOTH
def test_out_of_range_numbers_follow_python_float(tmp_path, data_last):
    # 1e400 is infinity for Python's float(); an integer literal beyond the double
    # range has no float (float(10**400) raises): a located error on both paths
    document = main_foo_bar()
    document["data"][1][2] = "HUGE"
    text = json.dumps(document if not data_last else
                      {k: v for k, v in document.items() if k != "data"} | {"data": document["data"]})
    path = tmp_path / "range.json"
    path.write_text(text.replace('"HUGE"', "1e400").replace("6.0", "-1e400"))
    raw = read_caliper_json(path)
    assert raw.metrics["time"].tolist() == [1.0, np.inf, 3.0, 0.0, 0.0, 4.0]
    assert raw.metrics["time (inc)"].tolist()[0] == -np.inf
    path.write_text(text.replace('"HUGE"', "1" + "0" * 400))
    err = expect_error(path, "column 'sum#time.duration' holds an integer with 401 digits, too "
                             "large for a floating-point number")
    assert err.position == "data[1]"
    path.write_text(text.replace('"HUGE"', "2.0").replace("[2, 1,", "[1" + "0" * 400 + ", 1,"))
    err = expect_error(path, "column 'path' refers to node 1000000000")
    assert err.position == "data[3]"


@BOTH
def test_numbers_mixed_with_text_in_a_value_column(tmp_path, data_last):
    document = main_foo_bar()
    document["data"][2][2] = "n/a"
    err = cell_error(tmp_path, document, data_last, "column 'sum#time.duration' holds 'n/a', "
                                                    r"but data\[0\] holds a number")
    assert err.position == "data[2]"


@BOTH
@pytest.mark.parametrize("column, value, position, match", [
    (1, -1, "data[0]", r"column 'mpi.rank' holds -1, not a rank \(expected an MPI rank: an "
                       r"integer from 0 to 2147483647\)"),
    (1, 2 ** 40, "data[0]", "column 'mpi.rank' holds 1099511627776, not a rank"),
    (1, True, "data[0]", "column 'mpi.rank' holds true"),
    (2, False, "data[0]", r"column 'sum#time.duration' holds false \(expected a number"),
])
def test_invalid_ranks_and_booleans(tmp_path, data_last, column, value, position, match):
    document = main_foo_bar()
    document["data"][0][column] = value
    err = cell_error(tmp_path, document, data_last, match)
    assert err.position == position


@BOTH
@pytest.mark.parametrize("parent", [-1, -7])
def test_a_negative_parent_is_not_a_root(tmp_path, data_last, parent):
    # Caliper marks a root by leaving "parent" out; Hatchet would index nodes[-1]
    document = main_foo_bar()
    document["nodes"][2]["parent"] = parent
    err = cell_error(tmp_path, document, data_last, f"the node's parent {parent} is not a node "
                                                    r"\(expected the index of another node, or "
                                                    r"no 'parent' for a root\)")
    assert err.position == "nodes[2]"


@BOTH
@pytest.mark.filterwarnings("error")
def test_node_index_far_out_of_range_warns_nothing(tmp_path, data_last):
    document = main_foo_bar()
    document["data"][1][0] = 1e300
    err = cell_error(tmp_path, document, data_last, "column 'path' refers to node 1e[+]300")
    assert err.position == "data[1]"


def large_document():
    """json-split with 400 nodes (nodes and data both far longer than the sniffed head)."""
    nodes = [{"label": "main", "column": "path"}] + \
        [{"label": f"f{i}", "column": "path", "parent": 0} for i in range(1, 400)]
    return doc([[i, float(i)] for i in range(400)], ["path", "sum#time.duration"],
               [LABEL, VALUE], nodes, **{"cali.caliper.version": "2.15.0"})


@pytest.mark.parametrize("order", [
    ["data", "columns", "column_metadata", "nodes", "cali.caliper.version"],  # Caliper's
    ["nodes", "data", "columns", "column_metadata", "cali.caliper.version"],
    ["columns", "data", "nodes", "column_metadata", "cali.caliper.version"],
    ["cali.caliper.version", "data", "columns", "nodes", "column_metadata"],
    ["cali.caliper.version", "long", "nodes", "data", "columns", "column_metadata"],  # tail
    "sorted",
])
def test_sniffing_does_not_depend_on_key_order(tmp_path, order):
    document = large_document()
    document["long"] = "x" * 5000  # a global longer than the sniffed head
    if order == "sorted":
        text = json.dumps(document, sort_keys=True)
    else:
        text = json.dumps({k: document[k] for k in order})
    path = tmp_path / "any-order.json"
    path.write_text(text)
    assert graphframe_readers.registry.sniff(path) == "caliper-json"
    assert graphframe_readers.read(path).num_nodes == 400


@pytest.mark.parametrize("text", [
    '{"columns": ["a"], "index": [0, 1], "data": [[1], [2]]}',  # pandas' split orientation
    '{"start_time": 1.0, "root_frame": {"function": "main", "children": []}}',
    '{"nodes": 3, "data": {"x": 1}}',
    '{"graph": [], "dataframe": []}',
])
def test_other_json_is_not_json_split(tmp_path, text):
    path = tmp_path / "other.json"
    path.write_text(text)
    assert not graphframe_readers.registry.format_info("caliper-json").sniff(path, path.read_bytes())
