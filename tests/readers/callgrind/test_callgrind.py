"""Callgrind/cachegrind profiles: decoding, the call graph, errors, real files against
the DOT gprof2dot made from the same run."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers import ReadError
from graphframe_readers.callgrind import parse_callgrind, read_callgrind
from graphframe_readers.callgrind.reader import sniff_callgrind
from graphframe_readers.dot import read_dot
from graphframe_readers.testing import check_reader
from graphframe_readers.testing.writers.callgrind import generate_callgrind

# a hand-made profile using what callgrind writes: name compression, fi/fe, cob/cfi
# for a callee elsewhere, relative subpositions, a recursive call, trailing zeros left out
SMALL = b"""# callgrind format
version: 1
creator: callgrind-3.19.0
cmd: ./app 3
part: 1

positions: line
events: Ir Dr
summary: 130 23

ob=(1) /opt/app
fl=(1) app.c
fn=(1) main
10 5 1
+1 3
fi=(2) inline.h
-5 2 2
fe=(1)
+6 1
cob=(2) /lib/libm.so
cfi=(3) libm.c
cfn=(2) work
calls=2 30
* 100 20
cfn=(3) helper
calls=1 40
+1 30 2
+1 4

fn=(3)
40 10
cfn=(3)
calls=3 40
* 7 1
+1 5

ob=(2)
fl=(3)
fn=(2)
30 60 20
+2 40
"""


def small():
    return parse_callgrind(SMALL, source="small.out")


def rows(raw):
    return raw.metrics.set_index("name")


def test_self_and_inclusive_costs_calls_and_callers():
    raw = small()
    m = rows(raw)
    assert list(m.index) == ["main", "work", "helper"]
    assert m.loc["main", ["Ir", "Dr"]].tolist() == [15, 3]   # 5 + 3 + 2 + 1 + 4; 1 + 2
    assert m.loc["work", ["Ir", "Dr"]].tolist() == [100, 20]
    assert m.loc["helper", ["Ir", "Dr"]].tolist() == [15, 0]  # the recursive call is not self
    # inclusive: self + calls to other functions (helper's call to itself is inside it)
    assert m.loc["main", ["Ir (inc)", "Dr (inc)"]].tolist() == [145, 25]
    assert m.loc["helper", ["Ir (inc)", "Dr (inc)"]].tolist() == [15, 0]
    assert m["calls"].tolist() == [0, 2, 4]
    assert m.loc["helper", "caller_calls"] == (("main", 1), ("helper", 3))
    assert m.loc["helper", "caller_costs"] == (("main", (30, 2)), ("helper", (7, 1)))
    assert m.loc["work", ["module", "file"]].tolist() == ["libm.so", "libm.c"]
    assert m.loc["helper", ["module", "file"]].tolist() == ["app", "app.c"]
    assert raw.exc_metrics == ("Ir", "Dr") and raw.inc_metrics == ("Ir (inc)", "Dr (inc)")
    assert raw.inclusive_of == {"Ir": "Ir (inc)", "Dr": "Dr (inc)"}
    assert raw.default_metric == "Ir"
    assert raw.metadata["cmd"] == "./app 3" and raw.metadata["creator"] == "callgrind-3.19.0"


def test_callee_file_is_the_current_file_when_cfi_is_absent():
    # helper is called right after "fe=(1)": it is in app.c, the file in force
    m = rows(small())
    assert m.loc["helper", "file"] == "app.c"


def test_graph_has_one_node_per_function_and_the_recursion_as_a_cycle():
    gf = GraphFrame.from_raw(small())
    g, df = gf.graph, gf.dataframe
    names = df["name"]
    children = {names.loc[v]: sorted(names.loc[c] for c in
                                     g.child_idx[g.child_ptr[v]:g.child_ptr[v + 1]])
                for v in range(g.num_nodes)}
    assert children == {"main": ["helper", "work"], "work": [], "helper": ["helper"]}
    assert gf.default_metric == "Ir"


def test_functions_of_one_name_in_two_objects_stay_apart_unless_merged():
    text = (b"events: Ir\nob=/a.so\nfl=a.c\nfn=main\n1 1\ncob=/b.so\ncfi=b.c\ncfn=strcmp\n"
            b"calls=1 5\n* 4\ncfn=strcmp\ncalls=2 9\n* 6\nfn=strcmp\n9 6\n"
            b"ob=/b.so\nfl=b.c\nfn=strcmp\n5 4\n")
    apart = rows(parse_callgrind(text))
    assert apart.index.tolist() == ["main", "strcmp", "strcmp"]
    assert apart["module"].tolist() == ["a.so", "b.so", "a.so"]
    assert apart["Ir"].tolist() == [1, 4, 6]
    assert apart.iloc[0]["Ir (inc)"] == 11
    assert apart.iloc[1]["caller_calls"] == (("main", 1),)
    merged = rows(parse_callgrind(text, merge_by_name=True))
    assert merged.index.tolist() == ["main", "strcmp"]
    assert merged["Ir"].tolist() == [1, 10] and merged["calls"].tolist() == [0, 3]
    assert merged.loc["strcmp", "module"] == "b.so"  # the first seen, as gprof2dot


def test_instr_line_positions_and_jumps():
    text = (b"positions: instr line\nevents: Ir\nfn=(1) f\n0x1000 10 3\n+4 * 2\n"
            b"jump=2 +8 *\n* *\n+8 +1 1\njcnd=1/2 -4 -1\n* *\n-4 -1 5\n")
    m = rows(parse_callgrind(text))
    assert m.loc["f", "Ir"] == 11  # jump source lines carry no cost


def test_cycles_get_the_cost_measured_into_them():
    # main -> a, a <-> b (mutual recursion): a is entered from outside with the whole cycle
    text = (b"events: Ir\nfn=main\n1 1\ncfn=a\ncalls=1 1\n2 50\n"
            b"fn=a\n1 10\ncfn=b\ncalls=5 1\n2 40\n"
            b"fn=b\n1 30\ncfn=a\ncalls=4 1\n2 35\n")
    m = rows(parse_callgrind(text))
    assert m["Ir"].tolist() == [1, 10, 30]
    # main: 1 + 50; a: the call from main (50), not 10 + 40 + ...; b: self (30) > entered (0)
    assert m["Ir (inc)"].tolist() == [51, 50, 30]


def test_parts_are_summed_and_threads_become_an_index_level():
    part = (b"part: %d\n%bpositions: line\nevents: Ir\nsummary: %d\n"
            b"fn=(1)%b\n1 %d\ncfn=(2)%b\ncalls=1 1\n* %d\nfn=(2)\n1 %d\ntotals: %d\n")
    one = part % (1, b"", 10, b" main", 4, b" work", 6, 6, 10)
    two = part % (2, b"", 7, b"", 3, b"", 4, 4, 7)
    summed = parse_callgrind(b"# callgrind format\n" + one + two)
    assert summed.index_levels == () and summed.metadata["parts"] == 2
    assert rows(summed)["Ir"].tolist() == [7, 10] and rows(summed)["calls"].tolist() == [0, 2]
    one_t = part % (1, b"thread: 1\n", 10, b" main", 4, b" work", 6, 6, 10)
    two_t = part % (1, b"thread: 2\n", 7, b"", 3, b"", 4, 4, 7)
    threads = parse_callgrind(one_t + two_t)
    assert threads.index_levels == ("thread",)
    m = threads.metrics
    assert m[["name", "thread", "Ir", "Ir (inc)", "calls"]].values.tolist() == [
        ["main", 1, 4, 10, 0], ["main", 2, 3, 7, 0], ["work", 1, 6, 6, 1],
        ["work", 2, 4, 4, 1]]


def test_cachegrind_output():
    text = (b"desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./app\n"
            b"events: Ir I1mr Dr\nfl=app.c\nfn=main\n3 2 1 1\n4 3\nfn=leaf\n9 10 0 4\n"
            b"fl=lib.c\nfn=leaf\n2 1\nsummary: 16 1 5\n")
    raw = parse_callgrind(text, source="cachegrind.out.1")
    m = raw.metrics
    assert m[["name", "file", "Ir", "I1mr", "Dr", "calls"]].values.tolist() == [
        ["main", "app.c", 5, 1, 1, 0], ["leaf", "app.c", 10, 0, 4, 0],
        ["leaf", "lib.c", 1, 0, 0, 0]]
    assert raw.edges is None or len(raw.edges) == 0
    assert (m["Ir (inc)"] == m["Ir"]).all()
    assert raw.metadata["desc"] == ["I1 cache: 32768 B, 64 B, 8-way associative"]
    assert raw.metadata["tool"] == "cachegrind" and small().metadata["tool"] == "callgrind"


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("text, message", [
    (b"events: Ir\nfn=main\n3 x\n",
     "t.out: line 3: the cost 'x' is not a whole number (expected one count per event of "
     "'events: Ir')"),
    (b"events: Ir\nfn=main\n3 1 2\n",
     "t.out: line 3: the cost line has 3 values for 1 subpositions and 1 events (expected at "
     "most 2 values ('positions: line', 'events: Ir'))"),
    (b"positions: instr line\nevents: Ir\nfn=main\n0x10\n",
     "t.out: line 4: the cost line has 1 values, fewer than the 2 subpositions (expected "
     "'positions: instr line' then one count per event)"),
    (b"events: Ir\nfn=main\n+x 1\n",
     "t.out: line 3: the subposition '+x' cannot be read (expected a number, 0xHEX, +N, -N "
     "or *)"),
    (b"events: Ir\nfn=(4)\n3 1\n",
     "t.out: line 2: fn=(4) refers to a name that was never defined (expected '(4) NAME' on "
     "an earlier fn-type line)"),
    (b"events: Ir\nfn=main\ncfn=f\ncalls=1 2\nfn=f\n1 1\n",
     "t.out: line 4: a calls= line is not followed by the cost line of its call (expected "
     "'calls=COUNT TARGET' then the call site's cost line)"),
    (b"events: Ir\nfn=main\ncalls=1 2\n1 1\n",
     "t.out: line 3: a calls= line without a cfn= line before it (expected 'cfn=NAME' "
     "naming the called function)"),
    (b"events: Ir\nfn=main\nxyz=1\n",
     "t.out: line 3: unknown specification xyz= (expected a callgrind line: 'key: value' "
     "(header), 'ob=', 'fl=', 'fi=', 'fe=', 'fn=', 'cob=', 'cfi=', 'cfl=', 'cfn=', 'calls=', "
     "'jump=', 'jcnd=', a cost line or a '#' comment)"),
    (b"events: Ir\n3 1\n",
     "t.out: line 2: a cost line comes before any fn= line (expected 'fn=NAME' first)"),
    (b"fn=main\n3 1\n",
     "t.out: line 2: a cost line comes before any events: line (expected 'events: NAME...' "
     "in the header)"),
    (b"events: Ir\nsummary: 10\nfn=main\n3 4\n",
     "t.out: line 4 (end of the file): the costs of event Ir add up to 4 but the summary: "
     "line (line 2) says 10: the file is truncated or damaged (expected a complete callgrind "
     "profile)"),
    (b"events: Ir\nfn=main\n3 99999999999999999999\n",
     "t.out: line 3: the cost '99999999999999999999' is a number too large for 64 bits "
     "(expected one count per event of 'events: Ir')"),
    (b"events: Ir\nfn=main\ncfn=f\ncalls=x 2\n1 1\n",
     "t.out: line 4: the calls= count 'x' is not a whole number (expected "
     "'calls=COUNT TARGET-POSITION')"),
    (b"positions: bytes\nevents: Ir\n",
     "t.out: line 1: unknown positions: 'bytes' (expected 'positions: line', 'instr', or "
     "'instr line')"),
    (b"\n\n", "t.out: line 1: the file is empty (expected a callgrind profile ('events:' and "
     "cost lines))"),
    (b"events: Ir\nfn=main\n  oops\n",
     "t.out: line 3: cannot read the line '  oops' (expected a callgrind line: 'key: value' "
     "(header), 'ob=', 'fl=', 'fi=', 'fe=', 'fn=', 'cob=', 'cfi=', 'cfl=', 'cfn=', 'calls=', "
     "'jump=', 'jcnd=', a cost line or a '#' comment)"),
])
def test_located_errors(text, message):
    with pytest.raises(ReadError) as info:
        parse_callgrind(text, source="t.out")
    assert str(info.value) == message


def test_truncated_file_is_an_error_at_every_cut(tmp_path):
    p = tmp_path / "callgrind.out.1"
    generate_callgrind(p, functions=12, seed=5)
    data = p.read_bytes()
    for cut in range(len(data) // 10, len(data) - 10, len(data) // 10):
        with pytest.raises(ReadError, match="truncated or damaged|line"):
            parse_callgrind(data[:cut], source="cut")


# ------------------------------------------------------------------ writer round trip
@settings(max_examples=25, deadline=None)
@given(functions=st.integers(1, 30), calls=st.integers(1, 4), lines=st.integers(1, 6),
       seed=st.integers(0, 10**6), instr=st.booleans())
def test_written_profiles_read_back_exactly(tmp_path_factory, functions, calls, lines, seed,
                                            instr):
    p = tmp_path_factory.mktemp("cg") / "callgrind.out.7"
    truth = generate_callgrind(p, functions=functions, calls_per_function=calls,
                            lines_per_function=lines, seed=seed, instr=instr)
    m = read_callgrind(p).metrics.set_index("name").loc[truth.names]
    assert (m[["Ir", "Dr"]].to_numpy() == truth.self_cost).all()
    assert (m[["Ir (inc)", "Dr (inc)"]].to_numpy() == truth.inclusive).all()
    assert (m["calls"].to_numpy() == truth.calls).all()
    assert m["module"].tolist() == [Path(o).name for o in truth.objects]
    assert m["file"].tolist() == truth.files


def test_conformance_on_a_written_profile(tmp_path):
    p = tmp_path / "callgrind.out.42"
    generate_callgrind(p, functions=30, seed=2)
    raw = check_reader(p, "callgrind", tmp_path)
    assert raw.num_nodes == 30


@pytest.mark.parametrize("name, head, expected", [
    ("callgrind.out.123", b"# callgrind format\nversion: 1\n", True),
    ("profile.txt", b"version: 1\ncreator: callgrind-3.19.0\n", True),
    ("cachegrind.out.9", b"desc: I1 cache: 1\ncmd: ./a\nevents: Ir\n", True),
    ("out.txt", b"desc: x\ncmd: ./a\nevents: Ir\n", True),
    ("callgrind.out.1", b"\x00\x01binary", False),
    ("g.dot", b"digraph {\n", False),
])
def test_sniff(tmp_path, name, head, expected):
    p = tmp_path / name
    p.write_bytes(head + b"fn=main\n")
    assert sniff_callgrind(p, head) is expected
    if expected:
        assert graphframe_readers.sniff(p) == "callgrind"


# ------------------------------------------------------------------ real files
def _by_name(raw):
    df = raw.metrics.copy()
    return df.set_index("name")


def _dot_table(path):
    dot = read_dot(path)
    return dot.metrics.assign(name=dot.node_columns["name"].to_numpy()).set_index("name")


def test_real_callgrind_against_the_dot_gprof2dot_made_from_it(shared_data, tmp_path):
    folder = shared_data / "gprof2dot" / "generated-callgrind"
    path = folder / "callgrind.out.workload"
    raw = check_reader(path, "callgrind", tmp_path, merge_by_name=True)
    ours = _by_name(raw)
    dot = _dot_table(folder / "workload.callgrind.full.dot")
    assert sorted(ours.index) == sorted(dot.index) and len(ours) == 310
    dot = dot.loc[ours.index]
    total = ours["Ir"].sum()
    assert total == 516737610  # the file's summary: line
    # gprof2dot's labels: percentages of the total with two decimals
    assert (abs((ours["Ir"] / total * 100).round(2) - dot["time"]) < 0.006).all()
    assert (abs(ours["Ir (inc)"] / total * 100 - dot["time (inc)"]) < 0.006).all()
    assert (ours["calls"].to_numpy() == dot["calls"].to_numpy()).all()
    assert (ours["module"] == dot["module"]).all()
    edges = {(caller, callee): calls for callee, cc in zip(ours.index, ours["caller_calls"])
             for caller, calls in cc}
    dot_edges = {(caller, callee): calls for callee, cc in zip(dot.index, dot["caller_calls"])
                 if isinstance(cc, tuple) for caller, calls in cc}
    assert edges == dot_edges and len(edges) == 435
    # the filtered DOT (gprof2dot's default thresholds) shows a subset of the same values
    small = _dot_table(folder / "workload.callgrind.dot")
    assert set(small.index) <= set(ours.index)
    assert (abs(ours.loc[small.index, "Ir (inc)"] / total * 100 - small["time (inc)"])
            < 0.006).all()


def test_real_callgrind_functions_by_object_and_file(shared_data):
    path = shared_data / "gprof2dot" / "generated-callgrind" / "callgrind.out.workload"
    raw = read_callgrind(path)
    m = raw.metrics
    assert len(m) == 327  # 310 names: strcmp of ld.so and of libc.so.6 are two functions
    merged = m.groupby("name")[["Ir", "calls"]].sum()
    by_name = _by_name(read_callgrind(path, merge_by_name=True))
    assert (merged.loc[by_name.index, "Ir"] == by_name["Ir"]).all()
    assert (merged.loc[by_name.index, "calls"] == by_name["calls"]).all()
    gf = GraphFrame.from_raw(raw)
    assert gf.graph.num_nodes == 327
    main = gf.dataframe[gf.dataframe["name"] == "main"].iloc[0]
    assert main["Ir (inc)"] == 516590270 and main["calls"] == 1


def test_blocks_of_any_size_give_the_same_profile(tmp_path, monkeypatch):
    # cost lines are decoded a block at a time: a block may end between a calls= line's
    # cost line and the next, or inside a part
    import graphframe_readers.callgrind.costs as reader
    p = tmp_path / "callgrind.out.3"
    truth = generate_callgrind(p, functions=40, seed=11, instr=True)
    data = p.read_bytes()
    for size in (64, 1000, 1 << 24):
        monkeypatch.setattr(reader, "BLOCK_BYTES", size)
        m = parse_callgrind(data).metrics.set_index("name").loc[truth.names]
        assert (m[["Ir", "Dr"]].to_numpy() == truth.self_cost).all()
        assert (m[["Ir (inc)", "Dr (inc)"]].to_numpy() == truth.inclusive).all()
        assert (m["calls"].to_numpy() == truth.calls).all()
    monkeypatch.setattr(reader, "BLOCK_BYTES", 16)
    assert rows(small())["Ir (inc)"].tolist() == [145, 100, 15]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 25).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60),
    st.integers(0, 6))))
def test_cycle_components_partition_as_tarjan(case):
    from graphframe_readers.callgrind.callgraph import cycle_components
    from graphframe_readers.common.callgraph import strongly_connected
    n, edges, rounds = case
    src = np.array([a for a, _ in edges], dtype=np.int64)
    dst = np.array([b for _, b in edges], dtype=np.int64)
    ours = cycle_components(n, src, dst, rounds=rounds).tolist()
    theirs = strongly_connected(n, src, dst).tolist()
    pairs = set(zip(ours, theirs))
    assert len(pairs) == len(set(ours)) == len(set(theirs))


def test_names_in_parentheses_are_names():
    # cachegrind writes names uncompressed, and "(below main)" starts with "("
    text = (b"events: Ir\nfl=(1) a.c\nfn=(below main)\n1 3\nfn=(2) main\n2 4\ncfn=(below main)\n"
            b"calls=1 1\n* 3\nfn=(2)\n3 1\n")
    m = rows(parse_callgrind(text))
    assert m.index.tolist() == ["(below main)", "main"]
    assert m["Ir"].tolist() == [3, 5] and m["calls"].tolist() == [1, 0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                          st.binary(min_size=1, max_size=5)), min_size=1, max_size=4))
def test_damaged_input_is_a_read_error_or_a_profile(edits):
    from tests.helpers import EDIT_BYTES, damaged
    chunks = [(p, k, bytes(EDIT_BYTES[b % len(EDIT_BYTES)] for b in c)) for p, k, c in edits]
    data = damaged(SMALL, chunks)
    try:
        parse_callgrind(data, source="damaged")
    except ReadError:
        pass


def test_one_file_per_thread_read_together(tmp_path):
    # --separate-threads=yes writes callgrind.out.PID-01, -02...; compressed ids are per
    # file: (2) is "work" in one file and "helper" in the other
    one = (b"# callgrind format\nthread: 1\nevents: Ir\nsummary: 10\nfn=(1) main\n1 4\n"
           b"cfn=(2) work\ncalls=3 1\n* 6\nfn=(2)\n1 6\n")
    two = (b"# callgrind format\nthread: 2\nevents: Ir\nsummary: 9\nfn=(2) start_thread\n1 1\n"
           b"cfn=(3) work\ncalls=1 1\n* 8\nfn=(3)\n1 8\n")
    a, b = tmp_path / "callgrind.out.7-01", tmp_path / "callgrind.out.7-02"
    a.write_bytes(one)
    b.write_bytes(two)
    raw = graphframe_readers.read([a, b])
    assert raw.index_levels == ("thread",)
    got = raw.metrics[["name", "thread", "Ir", "Ir (inc)", "calls"]].values.tolist()
    assert got == [["main", 1, 4, 10, 0], ["main", 2, 0, 0, 0],
                   ["work", 1, 6, 6, 3], ["work", 2, 8, 8, 1],
                   ["start_thread", 1, 0, 0, 0], ["start_thread", 2, 1, 9, 0]]
    assert raw.metadata["sources"] == [str(a), str(b)] and raw.metadata["parts"] == 2
    assert rows(raw).loc["work", "caller_calls"].tolist() == [(("main", 3),), (("start_thread", 1),)]
    with pytest.raises(ReadError, match="callgrind.out.7-02: line 11 \\(end of the file\\)"):
        b.write_bytes(two.replace(b"1 8\n", b"1 7\n"))
        read_callgrind([a, b])
