"""Every format family's public pair: ``read_<format>(path or stream)`` and ``parse_<format>(data)``.

For each single-file format the same input read from a path, from a binary
stream, from a text stream (where the format is text) and parsed from bytes
gives equal tables; errors from streams name the stream.
"""

import io
import json
import marshal
import os

import pandas as pd
import pytest

import graphframe_readers
from graphframe_readers import ReadError
from graphframe_readers.caliper import parse_caliper, parse_caliper_json, read_caliper, read_caliper_json
from graphframe_readers.cprofile import parse_cprofile, read_cprofile
from graphframe_readers.dot import parse_dot, read_dot
from graphframe_readers.hatchet import parse_hatchet_json, parse_literal, read_hatchet_json, read_literal
from graphframe_readers.pyinstrument import parse_pyinstrument, read_pyinstrument
from graphframe_readers.tau import parse_tau, read_tau
from graphframe_readers.testing import write_cali, write_caliper_json, write_literal
from graphframe_readers.testing import random_tree_profile
from graphframe_readers.timemory import parse_timemory, read_timemory

TAU_TEXT = ('2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n'
            '"main" 1 1 2 5 0 GROUP="TAU_DEFAULT"\n'
            '"main => solve" 1 0 3 3 0 GROUP="TAU_CALLPATH"\n0 aggregates\n')
DOT_TEXT = ('digraph {\n 1 [label="main\\n100.00%\\n(40.00%)\\n1\u00d7"];\n'
            ' 1 -> 2 [label="60.00%\\n3\u00d7"];\n 2 [label="work\\n60.00%\\n(60.00%)\\n3\u00d7"];\n}\n')
PYINSTRUMENT = {"root_frame": {"function": "main", "file_path_short": "app.py", "line_no": 1,
                               "time": 1.0, "children": [
                                   {"function": "work", "file_path_short": "app.py",
                                    "line_no": 7, "time": 0.75}]}}


def _timemory_doc():
    def node(prefix, total, kids):
        return {"node": {"hash": 1, "prefix": prefix, "tid": [0], "pid": [7],
                         "inclusive": {"entry": {"laps": 1}, "stats": {"sum": total}},
                         "exclusive": {"entry": {"laps": 1}, "stats": {"sum": total / 2}}},
                "children": kids}
    return {"timemory": {"wall_clock": {"graph": [[node("main", 2.0, [node("io", 1.0, [])])]]}}}


def _hatchet_doc():
    return {"graph": [{"0": {"data": {"name": "a", "type": "function"}, "children": [1]},
                       "1": {"data": {"name": "b", "type": "function"}, "children": []}}],
            "dataframe_indices": ["node"],
            "dataframe": [{"node": 0, "name": "a", "time": 1.0},
                          {"node": 1, "name": "b", "time": 2.0}],
            "exclusive_metrics": ["time"], "inclusive_metrics": []}


def _two_rank_raw():
    return random_tree_profile(30, 2, seed=4)


def _files(tmp_path):
    """(name, path, read, parse, text?) for every single-file format."""
    out = []
    p = write_literal(_two_rank_raw(), tmp_path / "lit.json")
    out.append(("literal", p, read_literal, parse_literal, True))
    p = tmp_path / "hatchet.json"
    p.write_text(json.dumps(_hatchet_doc()))
    out.append(("hatchet-json", p, read_hatchet_json, parse_hatchet_json, True))
    p = tmp_path / "split.json"
    write_caliper_json(_two_rank_raw(), p)
    out.append(("caliper-json", p, read_caliper_json, parse_caliper_json, True))
    p = tmp_path / "run.cali"
    write_cali(_two_rank_raw(), p)
    out.append(("caliper", p, read_caliper, parse_caliper, True))
    p = tmp_path / "g.dot"
    p.write_text(DOT_TEXT, encoding="utf-8")
    out.append(("gprof-dot", p, read_dot, parse_dot, True))
    p = tmp_path / "prof.pstats"
    p.write_bytes(marshal.dumps({("app.py", 3, "work"): (2, 5, 0.5, 0.75, {}),
                                 ("app.py", 1, "main"): (1, 1, 0.25, 1.0, {})}))
    out.append(("cprofile", p, read_cprofile, parse_cprofile, False))
    p = tmp_path / "pyi.json"
    p.write_text(json.dumps(PYINSTRUMENT))
    out.append(("pyinstrument", p, read_pyinstrument, parse_pyinstrument, True))
    p = tmp_path / "wall.tree.json"
    p.write_text(json.dumps(_timemory_doc()))
    out.append(("timemory", p, read_timemory, parse_timemory, True))
    return out


def assert_same_tables(a, b, what):
    for name in ("nodes", "metrics", "node_columns", "edges"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), (what, name)
        if x is not None:
            pd.testing.assert_frame_equal(x, y, obj=f"{what}: {name}")
    assert (a.exc_metrics, a.inc_metrics, a.index_levels) == \
        (b.exc_metrics, b.inc_metrics, b.index_levels), what


def test_every_single_file_format_reads_paths_streams_and_bytes_alike(tmp_path):
    for name, path, read, parse, is_text in _files(tmp_path):
        assert graphframe_readers.sniff(path) == name
        from_path = read(path)
        data = path.read_bytes()
        assert_same_tables(from_path, read(io.BytesIO(data)), f"{name} binary stream")
        assert_same_tables(from_path, parse(data), f"{name} bytes")
        if is_text:
            text = data.decode("utf-8")
            assert_same_tables(from_path, read(io.StringIO(text)), f"{name} text stream")
            assert_same_tables(from_path, parse(text), f"{name} text")
        assert_same_tables(from_path, graphframe_readers.read(path, format=name), f"{name} registry")


def test_json_parsers_take_loaded_documents_too():
    assert parse_hatchet_json(_hatchet_doc()).num_nodes == 2
    assert parse_timemory(_timemory_doc()).nodes["name"].tolist() == ["main", "io"]
    assert parse_pyinstrument(PYINSTRUMENT).nodes["name"].tolist() == ["main", "work"]
    assert parse_literal([{"frame": {"name": "a"}, "metrics": {"t": 1.0}}]).num_nodes == 1


@pytest.mark.parametrize("read, text", [
    (read_literal, "[{"), (read_hatchet_json, '{"graph": '), (read_pyinstrument, "{"),
    (read_timemory, "[1,"), (read_caliper_json, '{"data": ['),
])
def test_errors_from_a_stream_name_it(read, text):
    stream = io.StringIO(text)
    with pytest.raises(ReadError) as info:
        read(stream)
    assert str(info.value).startswith("<stream>: ")
    named = io.BytesIO(text.encode())
    named.name = "upload.json"
    with pytest.raises(ReadError) as info:
        read(named)
    assert str(info.value).startswith("upload.json: ")


def test_a_dot_stream_that_is_not_utf8_is_located():
    with pytest.raises(ReadError, match=r"^<stream>: byte 20: the file is not UTF-8 text"):
        read_dot(io.BytesIO(b'digraph { a [label="\xff"]; }'))


def test_pstats_need_a_binary_stream():
    with pytest.raises(ReadError, match="the stream gives text; pstats files are binary"):
        read_cprofile(io.StringIO("not marshal"))


def test_parse_tau_reads_what_read_tau_reads(tmp_path):
    for rank in (0, 1):
        (tmp_path / f"profile.{rank}.0.0").write_text(TAU_TEXT.replace(" 2 5 0", f" 2 {5 + rank} 0"))
    from_dir = read_tau(tmp_path)
    texts = {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir())}
    assert_same_tables(from_dir, parse_tau(texts, source=str(tmp_path)), "tau")
    assert from_dir.metrics["time (inc)"].tolist() == [5.0, 3.0, 6.0, 3.0]
    single = parse_tau(TAU_TEXT)
    assert single.index_levels == () and single.metrics["time"].tolist() == [2.0, 3.0]


def test_parse_tau_with_several_metrics(tmp_path):
    wall = TAU_TEXT
    papi = TAU_TEXT.replace("MULTI_TIME", "MULTI_PAPI_TOT_CYC").replace(" 2 5 0", " 20 50 0") \
        .replace(" 3 3 0", " 30 30 0")
    files = {"MULTI__TIME/profile.0.0.0": wall, "MULTI__PAPI_TOT_CYC/profile.0.0.0": papi}
    for name, text in files.items():
        os.makedirs(tmp_path / os.path.dirname(name), exist_ok=True)
        (tmp_path / name).write_text(text)
    assert_same_tables(read_tau(tmp_path), parse_tau(files), "tau multi")
    raw = parse_tau(files)
    assert raw.metrics[["time", "PAPI_TOT_CYC"]].values.tolist() == [[2.0, 20.0], [3.0, 30.0]]


@pytest.mark.parametrize("files, problem", [
    ({"notes.txt": TAU_TEXT}, "file name 'notes.txt' is not a TAU profile name"),
    ({"profile.0.0.0": TAU_TEXT, "MULTI__TIME/profile.0.0.0": TAU_TEXT},
     "profile files both at the top and in MULTI__ folders"),
    ({"MULTI__A/profile.0.0.0": TAU_TEXT, "MULTI__B/profile.1.0.0": TAU_TEXT},
     "metric folders hold different profile files (profile.0.0.0)"),
    ({}, "the TAU files are a dict without entries"),
    ([TAU_TEXT], "the TAU files are a list"),
])
def test_parse_tau_refuses_what_is_not_a_profile(files, problem):
    with pytest.raises(ReadError) as info:
        parse_tau(files, source="run")
    assert info.value.problem == problem and info.value.source == "run"


def test_parse_tau_errors_name_the_file():
    with pytest.raises(ReadError) as info:
        parse_tau({"profile.0.0.0": "garbage\n"}, source="run")
    assert info.value.source == "run/profile.0.0.0" and info.value.position == "line 1"
