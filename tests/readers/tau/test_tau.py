"""TAU profile directories: call paths, flat profiles, ranks/threads, metrics, errors."""

import numpy as np
import pytest

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers.testing import check_reader
from graphframe_readers import ReadError
from graphframe_readers.tau import read_tau
from graphframe_readers.tau.text import describe_timer

META = ("<metadata><attribute><name>Metric Name</name><value>{metric}</value></attribute>"
        "<attribute><name>Node Name</name><value>n&amp;1</value></attribute></metadata>")


def profile_text(timers, metric="TIME"):
    lines = [f"{len(timers)} templated_functions_MULTI_{metric}",
             "# Name Calls Subrs Excl Incl ProfileCalls # " + META.format(metric=metric)]
    for name, calls, subrs, excl, incl, group in timers:
        lines.append(f'"{name}" {calls} {subrs} {excl} {incl} 0 GROUP="{group}" ')
    lines += ["0 aggregates", "1 userevents", "# eventname numevents max min mean sumsqr",
              '"Message size" 1 4 4 4 16', ""]
    return "\n".join(lines)


def callpath_timers(scale):
    return [
        (".TAU application", 1, 2, 10 * scale, 100 * scale, "TAU_DEFAULT"),
        ("main() C [{app.c} {10,1}-{40,1}]  ", 1, 2, 20 * scale, 90 * scale, "TAU_USER"),
        (".TAU application => main() C [{app.c} {10,1}-{40,1}]  ", 1, 2, 20 * scale,
         90 * scale, "TAU_CALLPATH|TAU_USER"),
        ("MPI_Init()  ", 1, 0, 30 * scale, 30 * scale, "MPI"),
        (".TAU application => main() C [{app.c} {10,1}-{40,1}]   => MPI_Init()  ", 1, 0,
         30 * scale, 30 * scale, "TAU_CALLPATH|MPI"),
        ("solve() C [{app.c} {50,1}-{60,1}] [THROTTLED]", 4, 0, 40 * scale, 40 * scale,
         "TAU_USER"),
        (".TAU application => main() C [{app.c} {10,1}-{40,1}]   => "
         "solve() C [{app.c} {50,1}-{60,1}]  ", 4, 0, 40 * scale, 40 * scale,
         "TAU_CALLPATH|TAU_USER"),
    ]


def write_profiles(directory, files):
    directory.mkdir(parents=True, exist_ok=True)
    for (n, c, t), text in files.items():
        (directory / f"profile.{n}.{c}.{t}").write_text(text)
    return directory


def test_callpath_profile_two_ranks(tmp_path):
    d = write_profiles(tmp_path / "run", {(0, 0, 0): profile_text(callpath_timers(1)),
                                          (1, 0, 0): profile_text(callpath_timers(2)[:5])})
    assert graphframe_readers.sniff(d) == "tau"
    gf = GraphFrame.from_tau(d)
    df = gf.dataframe
    assert list(df.index.names) == ["node", "rank"]
    assert list(df.columns) == ["name", "file", "module", "line", "end_line", "Calls", "Subrs",
                                "time", "time (inc)", "group"]
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]
    assert gf.default_metric == "time (inc)"
    assert gf.graph.num_nodes == 4 and len(df) == 8
    rank0 = df.xs(0, level="rank")
    assert rank0["name"].tolist() == [".TAU application", "main()", "MPI_Init()", "solve()"]
    assert rank0["time"].tolist() == [10.0, 20.0, 30.0, 40.0]
    assert rank0["file"].isna().tolist() == [True, False, True, False]
    assert set(rank0["file"].dropna()) == {"app.c"}
    assert rank0["line"].tolist() == [0, 10, 0, 50] and rank0["end_line"].tolist() == [0, 40, 0, 60]
    rank1 = df.xs(1, level="rank")
    # solve() never ran on rank 1: 0 calls and 0 time, not a missing row
    assert rank1["time"].tolist() == [20.0, 40.0, 60.0, 0.0]
    assert rank1["Calls"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert rank1["group"].iloc[3] == "TAU_CALLPATH|TAU_USER"
    assert gf.graph.depth.tolist() == [0, 1, 2, 2]
    assert gf.metadata["attributes"] == {"Metric Name": "TIME", "Node Name": "n&1"}


def test_flat_profile_keeps_one_node_per_function(tmp_path):
    flat = [(".TAU application", 1, 2, 10, 100, "TAU_DEFAULT"),
            ("compute", 5, 0, 60, 60, "TAU_USER"), ("io", 2, 0, 30, 30, "TAU_USER")]
    d = write_profiles(tmp_path / "flat", {(0, 0, t): profile_text(flat) for t in range(4)})
    gf = GraphFrame.read(d)
    df = gf.dataframe
    assert list(df.index.names) == ["node", "thread"]
    assert gf.graph.num_nodes == 3 and len(df) == 12
    assert len(gf.graph.root_ids) == 3
    assert sorted(set(df["name"])) == [".TAU application", "compute", "io"]


def test_multi_metric_directories(tmp_path):
    timers = callpath_timers(1)
    papi = [(n, c, s, e * 1000, i * 1000, g) for n, c, s, e, i, g in timers]
    run = tmp_path / "multi"
    write_profiles(run / "MULTI__TIME", {(0, 0, 0): profile_text(timers)})
    write_profiles(run / "MULTI__PAPI_TOT_CYC",
                   {(0, 0, 0): profile_text(papi, metric="PAPI_TOT_CYC")})
    gf = GraphFrame.read(run)
    df = gf.dataframe
    assert gf.exc_metrics == ["PAPI_TOT_CYC", "time"]
    assert gf.inc_metrics == ["PAPI_TOT_CYC (inc)", "time (inc)"]
    assert list(df.index.names) == ["node"]
    assert (df["PAPI_TOT_CYC"] == df["time"] * 1000).all()
    assert df["time (inc)"].tolist() == [100.0, 90.0, 30.0, 40.0]


def test_callpath_depth_limit_creates_prefix_nodes_without_values(tmp_path):
    timers = [("main", 1, 1, 5, 50, "TAU_DEFAULT"), ("a", 1, 1, 5, 45, "TAU_USER"),
              ("main => a", 1, 1, 5, 45, "TAU_CALLPATH"), ("b", 1, 0, 40, 40, "TAU_USER"),
              ("x => b", 1, 0, 40, 40, "TAU_CALLPATH")]  # "x" has no line of its own
    d = write_profiles(tmp_path / "cut", {(0, 0, 0): profile_text(timers)})
    gf = GraphFrame.read(d)
    df = gf.dataframe
    assert df["name"].tolist() == ["main", "a", "x", "b"]
    assert np.isnan(df.set_index("name").loc["x", "time"])
    assert [df.loc[r, "name"] for r in gf.graph.root_ids] == ["main", "x"]


def test_single_profile_file(tmp_path):
    d = write_profiles(tmp_path / "one", {(3, 0, 1): profile_text(callpath_timers(1))})
    p = d / "profile.3.0.1"
    assert graphframe_readers.sniff(p) == "tau"
    assert GraphFrame.read(p).graph.num_nodes == 4


@pytest.mark.parametrize("label, expected", [
    ("MPI_Init()", ("MPI_Init()", None, None, 0, 0)),
    ("void f(int) C [{a.c} {3,1}-{9,2}]", ("void f(int)", "a.c", None, 3, 9)),
    ("[UNWIND] /x/app.c.0x40 [@] g [{b.c} {15,0}]", ("[UNWIND] g", "b.c", None, 15, 0)),
    ("[CONTEXT] .TAU application", ("[CONTEXT] .TAU application", None, None, 0, 0)),
])
def test_timer_labels(label, expected):
    assert describe_timer(label) == expected


# ------------------------------------------------------------------ errors
def test_truncated_profile_names_file_and_line(tmp_path):
    d = write_profiles(tmp_path / "cut", {(0, 0, 0): profile_text(callpath_timers(1))})
    p = d / "profile.0.0.0"
    text = p.read_text()
    p.write_text(text[: text.index("MPI_Init()  \" 1") + 5])
    with pytest.raises(ReadError) as info:
        read_tau(d)
    assert info.value.source == str(p)
    assert info.value.position == "line 6"
    assert info.value.problem == "the file ends inside timer line 4"


@pytest.mark.parametrize("text, position, problem", [
    ("hello\n", "line 1", "the first line is 'hello'"),
    ("1 templated_functions_MULTI_TIME\n# bad header\n", "line 2", "the second line is"),
    ('2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n'
     '"a" 1 0 1 1 0 GROUP="X"\n"b" one 0 1 1 0 GROUP="X"\n"c" 1 0 1 1 0 GROUP="X"\n',
     "line 4", "timer line '\"b\" one"),
    ('1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n'
     '"a" 1 0 1 1 0 GROUP="X"\n"b" 1 0 1 1 0 GROUP="X"\n', "line 4",
     "not followed by the aggregates line"),
])
def test_malformed_files(tmp_path, text, position, problem):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "profile.0.0.0").write_text(text)
    with pytest.raises(ReadError) as info:
        read_tau(d)
    assert info.value.position == position and problem in info.value.problem


def test_huge_timer_count_is_a_located_error(tmp_path):
    d = tmp_path / "huge"
    d.mkdir()
    (d / "profile.0.0.0").write_text(
        '99999999999999999999 templated_functions_MULTI_TIME\n'
        '# Name Calls Subrs Excl Incl ProfileCalls #\n"a" 1 0 1 1 0 GROUP="X"\n0 aggregates\n')
    with pytest.raises(ReadError) as info:  # was a bare OverflowError
        read_tau(d)
    assert info.value.source == str(d / "profile.0.0.0")
    assert info.value.position == "line 4"


@pytest.mark.parametrize("timers, position, problem", [
    # the same timer twice (spacing does not make it another one)
    ([("main", 1, 0, 1, 1, "X"), ("solve", 1, 0, 1, 1, "X"), ("main  ", 1, 0, 2, 2, "X")],
     "line 5", "timer 'main' appears twice (first on line 3)"),
    ([("main", 1, 1, 1, 3, "X"), ("main => solve", 1, 0, 2, 2, "X"),
      ("main  =>  solve  ", 1, 0, 2, 2, "X")],
     "line 5", "timer 'main => solve' appears twice (first on line 4)"),
])
def test_repeated_timer_names_file_and_lines(tmp_path, timers, position, problem):
    d = write_profiles(tmp_path / "dup", {(0, 0, 0): profile_text(callpath_timers(1)),
                                          (1, 0, 0): profile_text(timers)})
    with pytest.raises(ReadError) as info:
        read_tau(d)
    assert info.value.source == str(d / "profile.1.0.0")
    assert info.value.position == position
    assert info.value.problem == problem


def test_no_timers_names_file_and_line(tmp_path):
    d = write_profiles(tmp_path / "none", {(0, 0, 0): profile_text([]),
                                           (0, 0, 1): profile_text([])})
    with pytest.raises(ReadError) as info:
        read_tau(d)
    assert info.value.source == str(d / "profile.0.0.0")
    assert info.value.position == "line 1"
    assert "the profile holds no timers" in info.value.problem


def test_metric_directories_must_match(tmp_path):
    run = tmp_path / "multi"
    write_profiles(run / "MULTI__A", {(0, 0, 0): profile_text(callpath_timers(1), "A"),
                                      (1, 0, 0): profile_text(callpath_timers(1), "A")})
    write_profiles(run / "MULTI__B", {(0, 0, 0): profile_text(callpath_timers(1), "B")})
    with pytest.raises(ReadError, match="metric directories hold different profile files"):
        read_tau(run)


def test_empty_directory(tmp_path):
    with pytest.raises(ReadError, match="no profile.N.C.T file"):
        read_tau(tmp_path)


# --------------------------------------------------------------- real data
@pytest.mark.parametrize("key", ["tau/hatchet-tau-cpi-mpi", "tau/taucmdr-mm-mpi-8ranks-callpath"])
def test_matches_hatchet(shared_data, reference_facts, key, tmp_path):
    facts = reference_facts[key]
    check_reader(shared_data / key, "tau", tmp_path)
    gf = GraphFrame.from_tau(shared_data / key)
    df = gf.dataframe
    for fact in ("graph_nodes", "dataframe_rows", "num_roots", "max_depth", "index_names",
                 "exc_metrics", "inc_metrics", "default_metric"):
        ours = {"graph_nodes": gf.graph.num_nodes, "dataframe_rows": len(df),
                "num_roots": len(gf.graph.root_ids), "max_depth": int(gf.graph.depth.max()),
                "index_names": list(df.index.names), "exc_metrics": gf.exc_metrics,
                "inc_metrics": gf.inc_metrics, "default_metric": gf.default_metric}[fact]
        assert ours == facts[fact], fact
    assert list(df.columns[:9]) == facts["columns"]
    assert sorted(set(df.index.get_level_values("rank"))) == facts["ranks"]["values"]
    for col, value in facts["numeric_sums"].items():
        if col in ("file", "module"):
            # Hatchet fills missing file/module with 0 (fillna after unstack),
            # which makes these all-missing columns numeric; ours stay missing
            assert value == 0 and df[col].isna().all(), col
            continue
        if col == "end_line" and key == "tau/hatchet-tau-cpi-mpi":
            assert df[col].sum() == value == 0
            continue
        assert df[col].sum() == pytest.approx(value, rel=1e-12), col
