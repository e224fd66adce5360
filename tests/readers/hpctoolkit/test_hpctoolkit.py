"""HPCToolkit old layout (experiment.xml + *.metric-db / *.mdb): unit tests on written databases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import graphframe_readers
from graphframe_readers.testing import write_example_database, write_hpctoolkit
from graphframe import GraphFrame
from graphframe_readers import ReadError
from graphframe_readers.hpctoolkit import read_hpctoolkit
from tests.readers.hpctoolkit.hpctoolkit_helpers import TREE, expected_inclusive, own_value, sample_profile

SPEC_TREE = """\
1.000 10.000 main ./src/app.c
├─ 0.000 3.000 Loop@app.c:15 ./src/app.c
│  └─ 3.000 3.000 app.c:16 ./src/app.c
└─ 1.000 6.000 12:foo ./src/app.c
   └─ 5.000 5.000 app.c:31 ./src/app.c
"""


def test_spec_example_reads_like_hatchet(tmp_path):
    gf = GraphFrame.from_hpctoolkit(write_example_database(tmp_path / "db"))
    text = gf.tree(metric_column=["time", "time (inc)"], name_column="name",
                   render_header=False, color=False)
    assert text.rstrip("\n") == SPEC_TREE.rstrip("\n")
    df = gf.dataframe
    assert list(df.columns) == ["time (inc)", "time", "nid", "name", "type", "file", "line", "module"]
    assert list(df.index.names) == ["node", "rank"]
    assert len(df) == 10 and gf.graph.num_nodes == 5
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]
    assert gf.default_metric == "time"
    rank1 = df.xs(1, level="rank")
    assert rank1["time"].tolist() == [2.0, 0.0, 6.0, 2.0, 10.0]
    assert rank1["nid"].tolist() == [1, 5, 6, 3, 4]
    assert rank1["type"].tolist() == ["PF", "L", "S", "PF", "S"]
    assert rank1["module"].tolist()[:1] == ["app"] and rank1["module"].isna().tolist()[1:3] == [True, True]
    # int32 when the values fit (Hatchet: int64); 64 MB less per column at 1M x 16
    assert [df[c].dtype for c in ("nid", "line")] == [np.int32, np.int32]
    assert gf.graph.frame_dict(1) == {"type": "loop", "file": "./src/app.c", "line": 15}
    assert gf.graph.frame_dict(3) == {"type": "function", "name": "12:foo"}


def _read(path, **options):
    return GraphFrame.from_raw(read_hpctoolkit(path, **options))


def test_round_trip_ranks_threads_recursion_loops_files(tmp_path):
    gf = _read(write_hpctoolkit(sample_profile(), tmp_path / "db"))
    df = gf.dataframe
    assert list(df.index.names) == ["node", "rank", "thread"]
    assert gf.graph.num_nodes == len(TREE) and len(df) == len(TREE) * 4
    # XML ids are written in document order (call sites take an id before their callee)
    by_nid = df.reset_index().set_index(["nid", "rank", "thread"])
    doc_nid = [1, 2, 3, 5, 6, 8, 9, 11, 12, 13]
    for node, nid in enumerate(doc_nid):
        for r in (0, 1):
            for t in (0, 1):
                row = by_nid.loc[(nid, r, t)]
                assert row["time"] == own_value(node, r, t)
                assert row["time (inc)"] == expected_inclusive(node, r, t)
    names = df.xs((0, 0), level=("rank", "thread"))["name"].tolist()
    assert names == ["main", "Loop@a.c:5", "a.c:6", "solve", "b.c:21", "solve", "b.c:22",
                     "a.c:9", "helper", "c.h:3"]
    # recursion: solve below solve
    solve = [n for n in range(gf.graph.num_nodes) if gf.graph.frame(n).get("name") == "solve"]
    assert gf.graph.parent[solve[1]] == solve[0]


def test_statement_file_is_the_enclosing_scope_not_the_last_seen(tmp_path):
    # a.c:9 follows the procedure helper (file c.h) in document order. Hatchet 2026.2.0
    # keeps one global "current file" updated in document order and reports this
    # statement as c.h:9 with file c.h (checked by running it on this database); the
    # statement belongs to main, in a.c.
    gf = _read(write_hpctoolkit(sample_profile(ranks=(0,), threads=(0,)), tmp_path / "db"))
    df = gf.dataframe.xs(0, level="rank")
    row = df[df["nid"] == 13].iloc[0]
    assert (row["name"], row["file"], row["line"]) == ("a.c:9", "a.c", 9)
    node = int(df.index[df["nid"] == 13][0])
    assert gf.graph.frame_dict(node) == {"type": "statement", "file": "a.c", "line": 9}


def test_exclusive_time_does_not_count_loop_bodies_twice(tmp_path):
    # hpcprof writes a procedure's exclusive value as the sum of all statements
    # lexically inside it, loops included (main: 1 own + loop 2 + a.c:6 3 + a.c:9 10 = 16).
    # Hatchet subtracts only direct statement children and reports main.time = 6
    # (the loop and its statement counted twice); the node's own cost is 1.
    db = write_hpctoolkit(sample_profile(ranks=(0,), threads=(0,)), tmp_path / "db")
    from graphframe_readers.hpctoolkit.experiment.metricdb import metricdb_values
    values = metricdb_values(next(db.glob("*.metric-db")))
    assert values[0].tolist() == [55.0, 16.0]  # XML id 1 = main: (I), (E) as hpcprof writes
    gf = _read(db)
    main = gf.dataframe[gf.dataframe["name"] == "main"].iloc[0]
    assert main["time"] == 1.0
    recomputed = gf.update_inclusive_columns(inplace=False).dataframe["time (inc)"]
    pd.testing.assert_series_equal(recomputed, gf.dataframe["time (inc)"])
    assert gf.dataframe["time"].sum() == gf.dataframe["time (inc)"].iloc[0]


def test_packed_mdb_layout_reads_like_metric_db_files(tmp_path):
    raw = sample_profile()
    a = _read(write_hpctoolkit(raw, tmp_path / "files"))
    b = _read(write_hpctoolkit(raw, tmp_path / "packed", packed=True))
    assert not list((tmp_path / "packed").glob("*.metric-db"))
    pd.testing.assert_frame_equal(a.dataframe, b.dataframe)
    assert b.metadata["metric_files"] == "mdb" and a.metadata["metric_files"] == "metric-db"


def test_other_metrics_keep_their_names_and_metric_option(tmp_path):
    db = write_hpctoolkit(sample_profile(metrics=("time", "cycles")), tmp_path / "db")
    gf = _read(db)
    assert list(gf.dataframe.columns[:4]) == ["time (inc)", "time", "cycles (I)", "cycles (E)"]
    assert gf.exc_metrics == ["time", "cycles (E)"]
    assert gf.inc_metrics == ["time (inc)", "cycles (I)"]
    assert gf.inclusive_of == {"time": "time (inc)", "cycles (E)": "cycles (I)"}
    assert (gf.dataframe["cycles (E)"] == 2 * gf.dataframe["time"]).all()
    only = _read(db, metrics=["cycles (E)", "CPUTIME (usec) (I)"])
    assert list(only.dataframe.columns[:2]) == ["time (inc)", "cycles (E)"]
    pd.testing.assert_series_equal(only.dataframe["cycles (E)"], gf.dataframe["cycles (E)"])
    with pytest.raises(ReadError, match=r"no metric named 'bogus' \(expected one of 'time \(inc\)', "
                                        r"'time', 'cycles \(I\)', 'cycles \(E\)'\)"):
        read_hpctoolkit(db, metrics=["bogus"])


def test_ranks_option_and_progress(tmp_path):
    db = write_hpctoolkit(sample_profile(ranks=(0, 1, 2)), tmp_path / "db")
    seen = []
    gf = _read(db, ranks=[2, 0], progress=lambda d, t, w: seen.append((d, t, w)))
    assert sorted(set(gf.dataframe.index.get_level_values("rank"))) == [0, 2]
    size = (db / "experiment.xml").stat().st_size
    assert seen == [(size, size, "bytes of experiment.xml"), (1, 4, "metric files"),
                    (2, 4, "metric files"), (3, 4, "metric files"), (4, 4, "metric files")]
    with pytest.raises(ReadError, match=r"rank\(s\) \[7\] not in the database .*ranks among \[0, 1, 2\]"):
        read_hpctoolkit(db, ranks=[7])
    with pytest.raises(ReadError, match=r"ranks option: the ranks option selects no rank"):
        read_hpctoolkit(db, ranks=[])


def test_progress_bar_on_stderr(tmp_path, capsys, text_progress_bar):
    read_hpctoolkit(write_example_database(tmp_path / "db"), progress=True)
    err = capsys.readouterr().err
    assert err.endswith("\r[##############################] 2/2 metric files\n")


def test_single_thread_per_rank_drops_thread_level_and_little_endian(tmp_path):
    db = write_example_database(tmp_path / "db", ranks=(0,))
    path = next(db.glob("*.metric-db"))
    data = bytearray(path.read_bytes())
    data[23:24] = b"l"
    head = np.frombuffer(bytes(data[24:32]), ">i4").astype("<i4").tobytes()
    body = np.frombuffer(bytes(data[32:]), ">f8").astype("<f8").tobytes()
    path.write_bytes(bytes(data[:24]) + head + body)
    gf = _read(db)
    assert list(gf.dataframe.index.names) == ["node", "rank"]
    assert gf.dataframe["time (inc)"].tolist() == [10.0, 3.0, 3.0, 6.0, 5.0]


def test_structure_only_database(tmp_path):
    db = tmp_path / "db"
    db.mkdir()
    xml = (write_example_database(tmp_path / "src") / "experiment.xml").read_text()
    start, end = xml.index("<MetricDBTable>"), xml.index("</MetricDBTable>")
    (db / "experiment.xml").write_text(xml[:start] + xml[end + len("</MetricDBTable>"):])
    gf = _read(db)
    assert list(gf.dataframe.index.names) == ["node"]
    assert list(gf.dataframe.columns) == ["nid", "name", "type", "file", "line", "module"]
    assert gf.dataframe["name"].tolist() == ["main", "Loop@app.c:15", "app.c:16", "12:foo", "app.c:31"]
    assert gf.exc_metrics == [] and gf.default_metric is None


def test_sniffing_and_registry(tmp_path):
    db = write_example_database(tmp_path / "db")
    assert graphframe_readers.sniff(db) == "hpctoolkit"
    assert graphframe_readers.read(db).num_nodes == 5
    gf = GraphFrame.read(db)
    assert gf.graph.num_nodes == 5


@pytest.mark.parametrize("layout", ["old", "latest"])
def test_deep_call_chain(tmp_path, layout):
    from graphframe_readers.testing import write_hpctoolkit_latest
    from graphframe_readers import ProfileBuilder
    from graphframe_readers.hpctoolkit import read_hpctoolkit_latest

    depth = 3000
    b = ProfileBuilder("deep", index_levels=("rank",))
    parent = -1
    for k in range(depth):
        parent = b.add_node({"type": "function", "name": f"f{k % 7}"}, parent)
        b.add_row(parent, {"time": 1.0}, rank=0)
    raw = b.build(exc_metrics=["time"])
    if layout == "old":
        gf = GraphFrame.from_raw(read_hpctoolkit(write_hpctoolkit(raw, tmp_path / "db")))
    else:
        gf = GraphFrame.from_raw(read_hpctoolkit_latest(write_hpctoolkit_latest(raw, tmp_path / "db"),
                                                        parallel_profiles_mode=True))
    df = gf.dataframe
    assert int(gf.graph.depth.max()) == depth - (layout == "old")
    top = df.loc[list(gf.graph.root_ids), "time (inc)"]
    assert top.tolist() == [float(depth)]
    assert df["time"].sum() == float(depth)
