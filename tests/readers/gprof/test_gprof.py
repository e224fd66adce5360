"""gprof's text output: flat profile + call graph, cycles, <spontaneous>, errors, the real
file against the DOT gprof2dot made from it."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers import ReadError
from graphframe_readers.dot import read_dot
from graphframe_readers.gprof import parse_gprof, read_gprof
from graphframe_readers.gprof.reader import sniff_gprof
from graphframe_readers.testing import check_reader, generate_gprof

SEP = "-----------------------------------------------\n"
FLAT = """Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              self     total           
 time   seconds   seconds    calls  ms/call  ms/call  name    
 40.00      0.04     0.04        2    20.00    20.00  std::vector<int>::at(unsigned long) const
 30.00      0.07     0.03     1000     0.03     0.03  is_odd
 20.00      0.09     0.02     1001     0.02     0.05  is_even
 10.00      0.10     0.01                             sampled_only
  0.00      0.10     0.00        1     0.00    90.00  work
\f
"""
GRAPH = ("\t\t     Call graph\n\n\ngranularity: each sample hit covers 2 byte(s) for 10.00% "
         "of 0.10 seconds\n\n"
         "index % time    self  children    called     name\n"
         "                                                 <spontaneous>\n"
         "[1]     90.0    0.00    0.09                 main [1]\n"
         "                0.00    0.09       1/1           work [2]\n" + SEP +
         "                0.00    0.09       1/1           main [1]\n"
         "[2]     90.0    0.00    0.09       1+3       work [2]\n"
         "                0.04    0.00       2/2           std::vector<int>::at(unsigned long) const [3]\n"
         "                0.02    0.03       1/1           is_even <cycle 1> [5]\n"
         "                                   3             work [2]\n"
         "                0.00    0.00       1/1           helper (6)\n" + SEP +
         "                0.04    0.00       2/2           work [2]\n"
         "[3]     40.0    0.04    0.00       2         std::vector<int>::at(unsigned long) const [3]\n"
         + SEP +
         "[4]     50.0    0.05    0.00       1+2000    <cycle 1 as a whole> [4]\n"
         "                0.02    0.00    1001             is_even <cycle 1> [5]\n"
         "                0.03    0.00    1000             is_odd <cycle 1> [7]\n" + SEP +
         "                                1000             is_odd <cycle 1> [7]\n"
         "                0.02    0.03       1/1           work [2]\n"
         "[5]     20.0    0.02    0.00    1001         is_even <cycle 1> [5]\n"
         "                                1000             is_odd <cycle 1> [7]\n" + SEP +
         "                                1000             is_even <cycle 1> [5]\n"
         "[7]     30.0    0.03    0.00    1000         is_odd <cycle 1> [7]\n"
         "                                1000             is_even <cycle 1> [5]\n" + SEP +
         "\f\nIndex by function name\n\n"
         "   [3] std::vector<int>::at(unsigned long) const (vec.h) [5] is_even (a.c)"
         "   [2] work (a.c)\n   [7] is_odd (a.c)            [4] <cycle 1>\n")
TEXT = FLAT + GRAPH


def table(raw):
    return raw.metrics.set_index("name")


def test_functions_times_calls_and_cycles():
    raw = parse_gprof(TEXT, source="g.txt")
    m = table(raw)
    assert list(m.index) == ["main", "work", "std::vector<int>::at(unsigned long) const",
                             "is_even", "is_odd", "helper", "sampled_only"]
    assert m.loc["work", ["time", "time (inc)", "calls", "recursive_calls"]].tolist() == \
        [0.0, 0.09, 4.0, 3.0]
    assert math.isnan(m.loc["main", "calls"]) and m.loc["main", "time (inc)"] == 0.09
    # the cycle's entry gets the whole cycle (gprof propagates 0.02 + 0.03 to work),
    # the other member its own time
    assert m.loc["is_even", ["time", "time (inc)", "cycle"]].tolist() == [0.02, 0.05, 1]
    assert m.loc["is_odd", ["time", "time (inc)", "cycle"]].tolist() == [0.03, 0.03, 1]
    assert m.loc["std::vector<int>::at(unsigned long) const", "file"] == "vec.h"
    assert m.loc["is_even", "file"] == "a.c" and m.loc["work", "index"] == 2
    # "(6)": a function called but without an entry; sampled_only: only in the flat profile
    assert math.isnan(m.loc["helper", "time"]) and m.loc["helper", "index"] == 6
    assert m.loc["sampled_only", ["time", "time (inc)"]].tolist() == [0.01, 0.01]
    assert math.isnan(m.loc["sampled_only", "calls"])
    assert m.loc["work", "caller_calls"] == (("main", 1), ("work", 3))
    assert m.loc["is_even", "caller_calls"] == (("work", 1), ("is_odd", 1000))
    assert m.loc["is_even", "caller_time"] == (("work", 0.05),) + (("is_odd", m.loc[
        "is_even", "caller_time"][1][1]),)
    assert math.isnan(m.loc["is_even", "caller_time"][1][1])
    assert raw.metadata["cycles"] == {1: ["is_even", "is_odd"]}
    assert raw.metadata["sample_period"] == 0.01 and raw.metadata["total_seconds"] == 0.1
    assert raw.exc_metrics == ("time",) and raw.inclusive_of == {"time": "time (inc)"}


def test_graph_roots_recursion_and_cycles():
    gf = GraphFrame.from_raw(parse_gprof(TEXT))
    g, names = gf.graph, gf.dataframe["name"]
    children = {names.loc[v]: sorted(names.loc[c] for c in
                                     g.child_idx[g.child_ptr[v]:g.child_ptr[v + 1]])
                for v in range(g.num_nodes)}
    assert children["work"] == sorted(["std::vector<int>::at(unsigned long) const", "is_even",
                                       "work", "helper"])
    assert children["is_even"] == ["is_odd"] and children["is_odd"] == ["is_even"]
    roots = sorted(names.loc[r] for r in g.roots)
    assert roots == ["main", "sampled_only"]


def test_flat_profile_alone():
    raw = parse_gprof(FLAT)
    m = table(raw)
    assert m.loc["is_even", ["time", "time (inc)", "calls"]].tolist() == pytest.approx([0.02, 0.05005, 1001.0])
    assert raw.edges is None or len(raw.edges) == 0


def test_no_time_accumulated():
    text = ("Flat profile:\n\nEach sample counts as 0.01 seconds.\n no time accumulated\n\n"
            "  %   cumulative   self              self     total           \n"
            " time   seconds   seconds    calls  Ts/call  Ts/call  name    \n"
            "  0.00      0.00     0.00        4     0.00     0.00  leaf\n")
    m = table(parse_gprof(text))
    assert m.loc["leaf", ["time", "calls"]].tolist() == [0.0, 4.0]


@pytest.mark.parametrize("text, message", [
    ("index % time    self  children    called     name\n"
     "[1]    100.0    0.10    0.30                 main [1]\n"
     "                0.30    0.00       2/2           work [2]\n" + SEP,
     "g.txt: line 3: the call graph lists a call to work [2], which has no entry: the file "
     "is truncated or damaged (expected an entry '[2] ... work [2]')"),
    ("index % time    self  children    called     name\n"
     "[1]    100.0    0.10    0.30                 main [1]\n" + SEP +
     "[2]    100.0    0.10    0.30        1        work [2]\n",
     "g.txt: line 4: the call graph ends inside an entry: the file is truncated or damaged "
     "(expected a line of dashes after every entry)"),
    ("index % time    self  children    called     name\n"
     "[1]    100.0    0.10    0.30                 main [1]\n"
     "                0.30    garbage\n" + SEP,
     "g.txt: line 3: cannot read the line '0.30    garbage' (expected a call graph line as "
     "gprof prints it: '[index] %time self children called name [index]', '[self children] "
     "called[/total] name [index]', '<spontaneous>' or a line of dashes)"),
    ("index % time    self  children    called     name\n"
     "[1]    100.0    0.10    0.30                 main [1]\n"
     "[2]    100.0    0.10    0.30                 work [2]\n" + SEP,
     "g.txt: line 3: a call graph entry has two primary lines (expected a line of dashes "
     "between entries)"),
    ("Flat profile:\n\nEach sample counts as 0.01 seconds.\n"
     " time   seconds   seconds    calls  ms/call  ms/call  name\n"
     " 40.00      0.04     x        2    20.00    20.00  f\n",
     "g.txt: line 5: cannot read the line '40.00      0.04     x        2    20.00    20.00  f' "
     "(expected a flat profile row: '% time, cumulative seconds, self seconds[, calls, "
     "self/call, total/call], name')"),
    ("hello\n", "g.txt: line 1: neither a flat profile nor a call graph was found (expected "
     "gprof's text output ('Flat profile:', 'Call graph' with its 'index % time self children "
     "called name' header))"),
])
def test_located_errors(text, message):
    with pytest.raises(ReadError) as info:
        parse_gprof(text, source="g.txt")
    assert str(info.value) == message


def test_every_cut_of_the_call_graph_is_an_error_or_a_complete_prefix(tmp_path):
    # a cut inside the call graph either leaves a call to a missing entry, a partial entry,
    # or a partial line: never a silently smaller profile with dangling calls
    start = TEXT.index("index % time")
    end = TEXT.index("\f\nIndex by")
    for cut in range(start + 60, end - 5, 7):
        try:
            raw = parse_gprof(TEXT[:cut])
        except ReadError:
            continue
        # read without error: then every call it lists has its entry
        names = set(raw.metrics["name"])
        for cc in raw.metrics["caller_calls"]:
            assert {c for c, _ in cc} <= names


@pytest.mark.parametrize("head, expected", [
    (b"Flat profile:\n\nEach sample counts as 0.01 seconds.\n", True),
    (b"\t\t     Call graph (explanation follows)\n\n", True),
    (b"\f\n\t\t\tCall graph\n", True),
    (b"index % time    self  children    called     name\n", True),
    (b"# callgrind format\n", False),
])
def test_sniff(tmp_path, head, expected):
    assert sniff_gprof(tmp_path / "x.txt", head) is expected


# ------------------------------------------------------------------ real files
def _dot_by_index(path):
    dot = read_dot(path)
    return dot.metrics.assign(name=dot.node_columns["name"].to_numpy()).set_index("dot_id")


def test_real_gprof_output_against_the_dot_gprof2dot_made_from_it(shared_data, tmp_path):
    folder = shared_data / "gprof2dot" / "generated-gprof"
    raw = check_reader(folder / "workload.gprof.txt", "gprof", tmp_path)
    ours = raw.metrics.set_index(raw.metrics["index"].astype(str))
    dot = _dot_by_index(folder / "workload.gprof.full.dot")
    assert sorted(ours.index) == sorted(dot.index) and len(ours) == 24
    dot = dot.loc[ours.index]
    assert (ours["name"] == dot["name"]).all()
    total = ours["time"].sum()
    assert total == pytest.approx(0.90)
    assert (abs((ours["time"] / total * 100).round(2) - dot["time"]) < 0.006).all()
    assert (abs(ours["time (inc)"] / total * 100 - dot["time (inc)"]) < 0.006).all()
    assert np.array_equal(ours["calls"].fillna(-1).to_numpy(), dot["calls"].fillna(-1).to_numpy())
    names = dict(zip(ours.index, ours["name"]))
    edges = {(c, n): k for n, cc in zip(ours["name"], ours["caller_calls"]) for c, k in cc}
    dot_edges = {(names[c], n): k for n, cc in zip(dot["name"], dot["caller_calls"])
                 if isinstance(cc, tuple) for c, k in cc}
    assert edges == dot_edges and len(edges) == 29
    small = _dot_by_index(folder / "workload.gprof.dot")
    assert set(small.index) <= set(ours.index)
    m = ours.set_index("name")
    assert m.loc["is_even", ["time", "time (inc)", "calls", "cycle"]].tolist() == \
        [0.10, 0.15, 11259000.0, 1]
    assert m.loc["quicksort", ["calls", "recursive_calls"]].tolist() == [402817.0, 402816.0]
    assert m.loc["compute_forces", "file"] == "workload.c"


def test_real_gprof_graph(shared_data):
    path = shared_data / "gprof2dot" / "generated-gprof" / "workload.gprof.txt"
    assert graphframe_readers.sniff(path) == "gprof"
    gf = GraphFrame.from_raw(read_gprof(path))
    df = gf.dataframe
    roots = [df.loc[r, "name"] for r in gf.graph.roots]
    assert roots == ["main"]
    assert gf.graph.num_nodes == 24


@settings(max_examples=20, deadline=None)
@given(functions=st.integers(1, 40), calls=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_generated_profiles_read_back(tmp_path_factory, functions, calls, seed):
    p = tmp_path_factory.mktemp("gp") / "prof.txt"
    truth = generate_gprof(p, functions=functions, calls_per_function=calls, seed=seed)
    m = read_gprof(p).metrics.set_index("name").loc[truth.names]
    assert np.array_equal(m["calls"].to_numpy(), truth.calls, equal_nan=True)
    assert np.allclose(m["time"].to_numpy(), np.round(truth.self_time, 2))
    assert np.allclose(m["time (inc)"].to_numpy(), truth.inclusive)
    edges = {(c, n): k for n, cc in zip(m.index, m["caller_calls"]) for c, k in cc}
    expected = {(truth.names[a], truth.names[b]): int(k) for a, b, k in truth.edges}
    expected.update({(f, f): int(r) for f, r in zip(truth.names, truth.recursive) if r})
    assert edges == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                          st.binary(min_size=1, max_size=5)), min_size=1, max_size=4))
def test_damaged_input_is_a_read_error_or_a_profile(edits):
    from tests.helpers import EDIT_BYTES, damaged
    chunks = [(p, k, bytes(EDIT_BYTES[b % len(EDIT_BYTES)] for b in c)) for p, k, c in edits]
    data = damaged(TEXT.encode(), chunks)
    try:
        parse_gprof(data, source="damaged")
    except ReadError:
        pass
