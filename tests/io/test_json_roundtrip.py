"""to_json / from_json: exact round trips (graph, dataframe, declarations, metadata)."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import GraphFrame, ReadError
from graphframe.examples import example_graphframe
from graphframe.io.json.export import JSON_VERSION
from graphframe.io.json.stream import json_pieces
from tests.corpus import SHARED_DATA
from tests.helpers import compact_literal, gf_from_edges, replaced
from tests.corpus import LITERAL_FILES, assert_same, corpus_inputs


def roundtrip(gf, tmp_path=None):
    text = gf.to_json()
    # the streamed writer (convert to .json) writes the same text, in blocks of any size
    assert "".join(json_pieces(gf, block=2)) == text
    back = GraphFrame.from_json(text)
    assert_same(gf, back)
    if tmp_path is not None:  # graphframe.read of the written file is exact too
        path = tmp_path / "gf.json"
        path.write_text(text)
        assert_same(gf, graphframe.read(path))
    return back


def test_example_round_trips_and_keeps_hatchets_layout(tmp_path):
    gf = example_graphframe()
    roundtrip(gf, tmp_path)
    doc = json.loads(gf.to_json())
    assert list(doc)[:5] == ["graph", "dataframe_indices", "dataframe", "inclusive_metrics",
                             "exclusive_metrics"]
    assert doc["dataframe_indices"] == ["node", "rank"]
    assert doc["dataframe"][0] == {"node": 0, "rank": 0, "time": 0.1, "name": "main",
                                   "time (inc)": gf.dataframe["time (inc)"].iloc[0]}
    assert doc["graph"][0]["0"]["data"] == {"name": "main", "type": "function"}
    ext = doc["graphframe"]
    assert ext["version"] == JSON_VERSION and ext["ordered"] is False
    assert [c["key"] for c in ext["columns"]] == ["time", "name", "time (inc)"]


def test_child_order_ids_and_the_ordered_flag_survive():
    # ordered source: siblings z, y, x stay in that order with their ids
    gf = gf_from_edges(["main", "z", "y", "x", "w"], [-1, 0, 0, 0, 1], ordered=True)
    back = roundtrip(gf)
    assert back.graph.ordered
    assert [n.frame["name"] for n in back.graph.traverse()] == ["main", "z", "w", "y", "x"]
    # a DAG with a cycle and a root on the cycle; child order with a reference first
    lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0, "_hatchet_nid": 0}, "children": [
        {"frame": {"name": "c"}, "metrics": {"time": 1.0, "_hatchet_nid": 1}, "children": [
            {"frame": {"name": "a"}, "metrics": {"time": 1.0, "_hatchet_nid": 0}},
            {"frame": {"name": "b"}, "metrics": {"time": 1.0, "_hatchet_nid": 2}}]}]}]
    dag = GraphFrame.from_literal(lit)
    back = roundtrip(dag)
    assert compact_literal(back.to_literal()) == lit


def test_columns_of_every_kind():
    gf = gf_from_edges(["main", "a", "b"], [-1, 0, 0])
    df = gf.dataframe.copy()
    df["calls"] = pd.Series([(1, 2), ("x", None), ()], index=df.index, dtype=object)
    df["flags"] = pd.Series([True, False, True], index=df.index, dtype=object)
    df["u64"] = np.array([0, 2**63 + 5, 7], dtype=np.uint64)
    df["i8"] = np.array([-1, 0, 1], dtype=np.int8)
    df["f32"] = np.float32([1.5, np.nan, np.inf])
    df["bool"] = [True, False, True]
    df["mixed"] = pd.Series([1, "a", None], index=df.index, dtype=object)
    df["nan_or_none"] = pd.Series([np.nan, None, 1.0], index=df.index, dtype=object)
    df["obj_str"] = pd.Series(["x", None, "z"], index=df.index, dtype=object)
    df["cat"] = pd.Categorical(["u", "v", "u"], categories=["v", "u", "w"], ordered=True)
    df["Int"] = pd.array([1, None, 2], dtype="Int64")
    df["string"] = pd.array(["p", None, "q"], dtype="string")
    df[("tuple", "name")] = [1.0, np.nan, -np.inf]
    df[7] = [-1, 0, 1]
    df["7"] = [3, 4, 5]
    meta = {"t": (1, 2), "nan": float("nan"), "d": {1: [2, 3]}, "np": np.int64(3),
            "nested": {"list": [{"x": -math.inf}]}}
    gf2 = replaced(gf, dataframe=df, metadata=meta)
    back = roundtrip(gf2)
    assert back.dataframe["calls"].tolist() == [(1, 2), ("x", None), ()]
    assert back.dataframe["u64"].dtype == np.uint64
    assert [type(v) for v in back.dataframe["flags"]] == [bool, bool, bool]
    assert back.metadata["t"] == (1, 2) and type(back.metadata["np"]) is np.int64
    doc = json.loads(gf2.to_json())
    row = doc["dataframe"][1]
    # Hatchet (and any JSON tool) still sees plain values
    assert row["calls"] == ["x", None] and row["u64"] == 2**63 + 5 and row["flags"] is False
    assert row["('tuple', 'name')"] is None and row["7"] == 0 and row["7 (1)"] == 4


def test_index_levels_rank_and_thread_and_empty_frames():
    gf = gf_from_edges(list("abcde"), [-1, 0, 0, 1, 2], extra=[(2, 3)], ranks=2, threads=3)
    roundtrip(gf)
    roundtrip(replaced(gf, dataframe=gf.dataframe.iloc[:0]))


def test_hatchet_documents_are_read_with_hatchets_meaning():
    doc = {"graph": [{"0": {"data": {"name": "a", "type": "function"}, "children": [1]},
                      "1": {"data": {"name": "b", "type": "function"}, "children": []}}],
           "dataframe_indices": ["node"],
           "dataframe": [{"node": 0, "name": "a", "time": 1.0},
                         {"node": 1, "name": "b", "time": 2.0}],
           "exclusive_metrics": ["time"], "inclusive_metrics": []}
    gf = GraphFrame.from_json(json.dumps(doc))
    assert gf.dataframe["time"].tolist() == [1.0, 2.0] and gf.exc_metrics == ["time"]


def test_a_newer_or_inconsistent_document_is_a_read_error():
    doc = json.loads(GraphFrame.from_lists(("a", "b")).to_json())
    newer = dict(doc, graphframe=dict(doc["graphframe"], version=JSON_VERSION + 1))
    with pytest.raises(ReadError, match="written with graphframe JSON version 2, but this "
                                        "graphframe reads versions up to 1"):
        GraphFrame.from_json(json.dumps(newer))
    broken = dict(doc, dataframe=[{"node": 0}])
    with pytest.raises(ReadError) as info:
        GraphFrame.from_json(json.dumps(broken))
    assert info.value.position == "graphframe"
    assert "does not agree with its 'graphframe' key" in info.value.problem
    missing = dict(doc, graph=[{"0": {"data": {"name": "a"}, "children": [5]}}])
    with pytest.raises(ReadError, match="a child id is not a listed node"):
        GraphFrame.from_json(json.dumps(missing))


def test_hand_edited_ids_are_renumbered_and_rows_follow():
    gf = GraphFrame.from_lists(("a", "b", "c"))
    doc = json.loads(gf.to_json())
    # swap ids 0 and 2: the ids are no longer a pre-order
    swap = {"0": "2", "2": "0", "1": "1"}
    doc["graph"] = [{swap[k]: {"data": v["data"],
                               "children": [int(swap[str(c)]) for c in v["children"]]}
                     for k, v in doc["graph"][0].items()}]
    for r in doc["dataframe"]:
        r["node"] = int(swap[str(r["node"])])
    back = GraphFrame.from_json(json.dumps(doc))
    assert back.graph == gf.graph
    assert back.dataframe["name"].tolist() == ["a", "b", "c"]


def test_to_dict_is_accepted_too():
    gf = example_graphframe()
    assert_same(gf, GraphFrame.from_json(gf.to_dict()))


# --------------------------------------------------------------- real data
def _files():
    if not SHARED_DATA.is_dir():
        return []
    return corpus_inputs() + [f"literal/{n}" for n in LITERAL_FILES] + [
        "json/hatchet-graph-literal.json"]


@pytest.mark.filterwarnings("ignore::graphframe_readers.hatchet.LiteralWarning")
@pytest.mark.parametrize("rel", _files())
def test_every_readers_output_round_trips_exactly(rel, tmp_path):
    """Every corpus file any reader recognises: to_json -> from_json gives an equal
    GraphFrame (graph arrays, ids, order flag, dataframe with dtypes, declarations, metadata)."""
    try:
        gf = graphframe.read(SHARED_DATA / rel)
    except ReadError as exc:  # recognised but unreadable on purpose (e.g. Python 2 pstats)
        pytest.skip(f"the reader refuses this file: {exc}")
    if gf.metadata.get("format") == "hatchet-json":
        # read from Hatchet's own JSON: written back in Hatchet's layout, key for key, so
        # what comes back is what reading a Hatchet document gives (its source is the text)
        text = gf.to_json()
        assert list(json.loads(text)) == ["graph", "dataframe_indices", "dataframe",
                                          "inclusive_metrics", "exclusive_metrics"]
        back = GraphFrame.from_json(text)
        assert back.metadata == {"source": "<json>", "format": "hatchet-json"}
        back.metadata = dict(gf.metadata)
        assert_same(gf, back)
        return
    roundtrip(gf, tmp_path)
