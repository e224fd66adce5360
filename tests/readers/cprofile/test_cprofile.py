"""cProfile / pstats reader: real dumps of small functions, recursion, bad input."""

import cProfile
import marshal
import profile
import pstats
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers.testing import check_reader
from graphframe_readers.cprofile import parse_cprofile, read_cprofile
from graphframe_readers import ReadError

REPO = Path(__file__).resolve().parent.parent


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


def test_python_m_cprofile_on_a_script(tmp_path):
    # the real command line: python -m cProfile -o FILE script.py
    script = tmp_path / "tiny.py"
    script.write_text("def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\n\n"
                      "def main():\n    for _ in range(3):\n        fib(10)\n\n\nmain()\n")
    out = tmp_path / "tiny.pstats"
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), str(script)],
                   check=True, cwd=tmp_path, timeout=120, capture_output=True)
    assert graphframe_readers.sniff(out) == "cprofile"
    gf = GraphFrame.read(out)
    df = gf.dataframe
    stats = pstats.Stats(str(out)).stats
    assert gf.graph.num_nodes == len(df) == len(stats)
    assert len(set(gf.graph.traverse())) == len(df)  # every function reachable
    rows = {(r["file"], r["line"], r["name"]): r for r in df.to_dict("records")}
    fib, main = rows[(str(script), 1, "fib")], rows[(str(script), 5, "main")]
    assert (fib["numcalls"], fib["nativecalls"]) == (3, 3 * 177)
    assert (main["numcalls"], main["nativecalls"]) == (1, 1)
    assert dict(fib["caller_calls"]) == {f"{script}:5(main)": 3, f"{script}:1(fib)": 3 * 176}
    assert main["time (inc)"] >= fib["time (inc)"] > 0
    assert gf.metadata["format"] == "cprofile"


def test_sniffing(dump):
    assert graphframe_readers.sniff(dump) == "cprofile"


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
    assert info.value.position == f"byte 1 of {len(data)}"
    assert info.value.problem == ("the marshal data is corrupt: type code 0x07 (unknown object) "
                                  "cannot occur in pstats data")


def test_truncated_dump(tmp_path):
    data = marshal.dumps({("a.py", 1, "f"): (1, 1, 0.5, 0.5, {})})
    # '{' ')' 3 then 'z'/'Z' + size 4 + "a.py": cut inside the file name
    cut = data[:6]
    with pytest.raises(ReadError) as info:
        parse_cprofile(cut, source="cut.pstats")
    assert info.value.position == "byte 3 of 6"
    assert info.value.problem == "the marshal data is corrupt: the data ends inside a string"
    with pytest.raises(ReadError) as info:
        parse_cprofile(data[:-1], source="cut.pstats")  # the closing '0' of the dict
    assert info.value.position == f"byte {len(data) - 1} of {len(data) - 1}"
    assert "the data ends where an object was expected" in info.value.problem


@pytest.mark.parametrize("data, position, problem", [
    # a list / tuple / set of 2**31 - 1 items in 5 bytes: marshal would allocate it
    (b"[\xff\xff\xff\x7f", "byte 0 of 5",
     "a list declares 2147483647 items but only 0 bytes follow"),
    (b"{(\xff\xff\xff\x7f", "byte 1 of 6",
     "a tuple declares 2147483647 items but only 0 bytes follow"),
    (b"{l\x00\x00\x00\x7f", "byte 1 of 6", "an integer declares 2130706432 digits but"),
    (b"{r\x05\x00\x00\x000", "byte 1 of 7", "a back-reference points at object 5 of 0"),
    (b"{[\x00\x00\x00\x00i\x01\x00\x00\x000", "byte 1 of 12",
     "a dict key or set item holds a list (not hashable)"),
    (b"{c\x00\x00\x00\x00", "byte 1 of 6", "type code 0x63 (code object) cannot occur"),
])
def test_corrupted_sizes_are_located_before_marshal_runs(data, position, problem):
    with pytest.raises(ReadError) as info:
        parse_cprofile(data, source="bad.pstats")
    assert info.value.position == position
    assert problem in info.value.problem


def test_huge_declared_sizes_under_a_memory_limit(tmp_path):
    # the audit's case: under `ulimit -v 3000000` marshal raised a bare MemoryError
    resource = pytest.importorskip("resource")
    bad = tmp_path / "five.pstats"
    bad.write_bytes(b"[\xff\xff\xff\x7f")
    script = ("import sys; from graphframe_readers.cprofile import read_cprofile\n"
              "try:\n    read_cprofile(sys.argv[1])\n"
              "except Exception as e:\n    print(type(e).__name__, e.position)\n")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (3_000_000 * 1024, 3_000_000 * 1024))

    out = subprocess.run([sys.executable, "-c", script, str(bad)], capture_output=True,
                         text=True, preexec_fn=limit, cwd=REPO, timeout=120)
    assert out.stdout.strip() == "ReadError byte 0 of 5", out.stderr


@pytest.mark.parametrize("stats, position, problem", [
    ({("a.py", 1, "f"): (10**30, 1, 0.1, 0.1, {})}, "record 0 (a.py:1(f))",
     "the primitive call count is 1000000000000000000000000000000"),
    ({("a.py", 1, "f"): (1, 2**63, 0.1, 0.1, {})}, "record 0 (a.py:1(f))",
     "the call count is 9223372036854775808"),
    ({("a.py", 1, "f"): (1, 1.5, 0.1, 0.1, {})}, "record 0 (a.py:1(f))",
     "the call count is 1.5"),
    ({("a.py", 1, "f"): (1, 1, 10**400, 0.1, {})}, "record 0 (a.py:1(f))",
     "the self time (1000000000"),
    ({("a.py", 10**30, "f"): (1, 1, 0.1, 0.1, {})}, "record 0",
     "the line number 1000000000000000000000000000000 of 'f' is out of range"),
    ({("a.py", 1, "f"): (1, 1, 0.1, 0.1, {("b.py", 2, "g"): (10**30, 1, 0.1, 0.1)})},
     "record 0 (a.py:1(f)) callers", "a caller's call count is 1000000000000000000000000000000"),
])
def test_counts_beyond_64_bits_are_errors_not_wrapped(stats, position, problem):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning from a silent wrap either
        with pytest.raises(ReadError) as info:
            parse_cprofile(marshal.dumps(stats), source="x.pstats")
    assert info.value.position == position
    assert problem in info.value.problem


def test_largest_counts_are_kept_exactly():
    big = 2**63 - 1
    data = marshal.dumps({("a.py", 1, "f"): (big, big, 0.1, 0.1, {}),
                          ("a.py", 2, "g"): (1, 1, 0.1, 0.1, {("a.py", 1, "f"): (big, 1, 0.1, 0.1)})})
    raw = parse_cprofile(data, source="x.pstats")
    assert raw.metrics["numcalls"].tolist() == [big, 1]
    assert raw.metrics["caller_calls"].iloc[1] == (("a.py:1(f)", big),)


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
        parse_cprofile(marshal.dumps(obj), source="x.pstats")
    assert info.value.position == position
    assert problem in info.value.problem


def test_caller_without_own_record_becomes_a_node():
    data = marshal.dumps({("a.py", 1, "f"): (2, 2, 0.5, 0.5, {("b.py", 9, "g"): (2, 2, 0.5, 0.5)})})
    gf = GraphFrame.from_raw(parse_cprofile(data, "x.pstats"))
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
