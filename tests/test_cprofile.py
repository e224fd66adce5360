"""cProfile / pstats reader: real dumps of small functions, recursion, bad input."""

import cProfile
import marshal
import profile
import pstats

import numpy as np
import pytest

import readers
from graphframe import GraphFrame
from readers.conformance import check_reader
from readers.cprofile import parse_pstats_bytes, read_cprofile
from readers.errors import ReadError


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def work():
    fib(8)
    is_even(7)
    return sorted(range(50), key=lambda x: -x)


@pytest.fixture
def dump(tmp_path):
    prof = cProfile.Profile()
    prof.runcall(work)
    path = tmp_path / "work.pstats"
    prof.dump_stats(str(path))
    return path


def rows_by_function(gf):
    df = gf.dataframe
    return {name: row for name, row in zip(df["name"], df.to_dict("records"))}


def test_every_function_with_counts_and_times(dump):
    gf = GraphFrame.from_cprofile(dump)
    stats = pstats.Stats(str(dump)).stats
    df = gf.dataframe
    assert list(df.columns) == ["file", "line", "name", "numcalls", "nativecalls",
                                "time (inc)", "time", "caller_calls"]
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]
    assert gf.graph.num_nodes == len(df) == len(stats)
    got = {(r["file"], r["line"], r["name"]): r for r in df.to_dict("records")}
    assert set(got) == set(stats)
    for key, (cc, nc, tt, ct, _) in stats.items():
        row = got[key]
        assert (row["numcalls"], row["nativecalls"]) == (cc, nc)
        assert (row["time"], row["time (inc)"]) == (tt, ct)
    fib_row = rows_by_function(gf)["fib"]
    assert (fib_row["numcalls"], fib_row["nativecalls"]) == (1, 67)


def test_recursion_is_a_cycle_not_a_chain(dump):
    gf = GraphFrame.from_cprofile(dump)
    df = gf.dataframe
    names = df["name"]
    assert (names == "fib").sum() == 1 and (names == "is_even").sum() == 1
    g = gf.graph

    def parents(name):
        v = int(np.flatnonzero(names.to_numpy() == name)[0])
        return sorted(names.loc[p] for p in g.parent_idx[g.parent_ptr[v]:g.parent_ptr[v + 1]])

    assert parents("fib") == ["fib", "work"]
    assert parents("is_even") == ["is_odd", "work"]
    assert parents("is_odd") == ["is_even"]
    by_name = rows_by_function(gf)
    callers = dict(by_name["fib"]["caller_calls"])
    assert callers[f"{__file__}:{fib.__code__.co_firstlineno}(fib)"] == 66
    assert callers[f"{__file__}:{work.__code__.co_firstlineno}(work)"] == 1
    assert sorted(names.loc[r] for r in g.root_ids) == [
        "<method 'disable' of '_lsprof.Profiler' objects>", "work"]
    rendered = gf.tree(render_header=False, color=False)
    assert rendered.count("fib") == 2  # once as a node, once as its own child


def test_pure_python_profile_module(tmp_path):
    prof = profile.Profile()
    prof.runcall(work)
    path = tmp_path / "work.prof"
    prof.dump_stats(str(path))
    gf = GraphFrame.read(path)
    fib_row = rows_by_function(gf)["fib"]
    assert (fib_row["numcalls"], fib_row["nativecalls"]) == (1, 67)
    assert dict(fib_row["caller_calls"])[
        f"{__file__}:{work.__code__.co_firstlineno}(work)"] == 1


def test_sniffing(dump):
    assert readers.sniff(dump) == "cprofile"


# ------------------------------------------------------------------ errors
def test_corrupted_marshal_data(tmp_path):
    data = bytearray(marshal.dumps({("a.py", 1, "f"): (1, 1, 0.5, 0.5, {})}))
    assert data[1] & 0x7F == ord(")")  # the key's tuple type code
    data[1] = 0x07  # no such type code
    bad = tmp_path / "bad.pstats"
    bad.write_bytes(bytes(data))
    with pytest.raises(ReadError) as info:
        read_cprofile(bad)
    assert str(bad) in str(info.value)
    assert info.value.position == f"marshal stream of {len(data)} bytes"
    assert "bad marshal data" in info.value.problem


def test_truncated_dump(dump, tmp_path):
    data = dump.read_bytes()
    bad = tmp_path / "cut.pstats"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ReadError) as info:
        read_cprofile(bad)
    assert info.value.position == f"marshal stream of {len(data) // 2} bytes"
    assert "cannot be decoded" in info.value.problem


@pytest.mark.parametrize("obj, position, problem", [
    ([1, 2], "top level", "holds a list"),
    ({("a.py", 1, "f"): (1, 1, 0.1, 0.1)}, "record 0 (a.py:1(f))", "the statistics are"),
    ({("a.py", "1", "f"): (1, 1, 0.1, 0.1, {})}, "record 0", "a function key is"),
    ({("a.py", 1, "f"): (1, 1, 0.1, 0.1, {("b.py", 2, "g"): "x"})},
     "record 0 (a.py:1(f)) callers", "a caller record is"),
    ({}, "top level", "the statistics are empty"),
])
def test_wrong_shape(tmp_path, obj, position, problem):
    with pytest.raises(ReadError) as info:
        parse_pstats_bytes(marshal.dumps(obj), source="x.pstats")
    assert info.value.position == position
    assert problem in info.value.problem


def test_caller_without_own_record_becomes_a_node():
    data = marshal.dumps({("a.py", 1, "f"): (2, 2, 0.5, 0.5, {("b.py", 9, "g"): (2, 2, 0.5, 0.5)})})
    gf = GraphFrame.from_raw(parse_pstats_bytes(data, "x.pstats"))
    df = gf.dataframe.set_index("name")
    assert np.isnan(df.loc["g", "time"]) and df.loc["f", "time"] == 0.5


def test_python2_pstats_are_refused_clearly(tmp_path):
    # Python 2 marshal: '{', a plain tuple of 3, 's' byte strings, 'R' string references
    data = (b"{(\x03\x00\x00\x00s\x04\x00\x00\x00a.pyi\x01\x00\x00\x00t\x01\x00\x00\x00f"
            b"(\x05\x00\x00\x00i\x01\x00\x00\x00i\x01\x00\x00\x00g\x00\x00\x00\x00\x00\x00"
            b"\x00\x00g\x00\x00\x00\x00\x00\x00\x00\x00{0R\x00\x00\x00\x000")
    p = tmp_path / "py2.pstats"
    p.write_bytes(data)
    with pytest.raises(ReadError) as info:
        read_cprofile(p)
    assert "written by Python 2" in info.value.problem
    assert info.value.position == "byte 0"


# --------------------------------------------------------------- real data
def test_real_python2_file(shared_data):
    p = shared_data / "cprofile/hatchet/cprofile-cycle-py2.pstats"
    with pytest.raises(ReadError, match="written by Python 2"):
        GraphFrame.from_cprofile(p)


@pytest.mark.parametrize("key", ["cprofile/hatchet/cprofile-cycle.pstats",
                                 "cprofile/gprof2dot-repo-tests/print1.pstats"])
def test_matches_hatchet(shared_data, reference_facts, key, tmp_path):
    facts = reference_facts[key]
    check_reader(shared_data / key, "cprofile", tmp_path)
    gf = GraphFrame.from_cprofile(shared_data / key)
    df = gf.dataframe
    assert gf.graph.num_nodes == facts["graph_nodes"] == len(df)
    assert sorted(df.loc[r, "name"] for r in gf.graph.root_ids) == sorted(facts["root_names"])
    assert int(gf.graph.depth.max()) == facts["max_depth"]
    assert int((np.diff(gf.graph.parent_ptr) > 1).sum()) == facts["multi_parent_nodes"]
    assert list(df.columns[:-1]) == facts["columns"]
    for col, value in facts["numeric_sums"].items():
        assert df[col].sum() == pytest.approx(value, rel=1e-12), col


def test_python_m_cprofile_dump(shared_data, reference_facts, tmp_path):
    key = "cprofile/generated/workload.py311.pstats"
    facts = reference_facts[key]
    check_reader(shared_data / key, "cprofile", tmp_path)
    gf = GraphFrame.from_cprofile(shared_data / key)
    df = gf.dataframe
    # Hatchet: 1 graph node (only `disable` has no caller) against 247 rows.
    # builtins.exec and the import machinery call each other, so that group
    # gets an entry (exec, the largest cumulative time) and all 247 are reachable.
    assert facts["graph_nodes"] == 1
    assert gf.graph.num_nodes == len(df) == facts["dataframe_rows"] == 247
    assert len(set(gf.graph.traverse())) == 247
    roots = [df.loc[r, "name"] for r in gf.graph.root_ids]
    assert roots[0] == "<built-in method builtins.exec>"
    assert "<method 'disable' of '_lsprof.Profiler' objects>" in roots
    for col, value in facts["numeric_sums"].items():
        assert df[col].sum() == pytest.approx(value, rel=1e-12), col
