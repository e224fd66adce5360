"""``graphframe stats PATH``: the most imbalanced call paths, options and errors."""

import io

import pytest

from graphframe import GraphFrame
from graphframe.cli import main
from graphframe.examples import example_graphframe


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def example_file(tmp_path):
    return example_graphframe().save(tmp_path / "solver.gfz")


def test_stats_ranks_the_imbalanced_call_paths(example_file):
    code, out, err = run("stats", example_file, "--top", "2")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "solver.gfz: 20 nodes, 4 ranks; time (inc) across ranks, imbalance = max / mean",
        "18 of 20 nodes have a max of at least 1% of the largest value (30.62)",
        "",
        "imbalance        max       mean        min  max rank  call path",
        "    1.429       1.75      1.225        0.7         3  "
        "main > timestep_loop > cg_solve > dot_product > MPI_Allreduce",
        "    1.333        1.8       1.35        0.9         3  "
        "main > timestep_loop > exchange_halos > MPI_Waitall",
    ]


def test_stats_metric_and_threshold(example_file):
    code, out, _ = run("stats", example_file, "-m", "time", "--threshold", "20", "--top", "5")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("time across ranks, imbalance = max / mean")
    assert lines[1] == "3 of 20 nodes have a max of at least 20% of the largest value (9.5)"
    assert [line.split()[-1] for line in lines[4:]] == ["spmv", "compute_fluxes", "write_hdf5"]


def test_stats_errors(example_file, tmp_path, capsys):
    code, out, err = run("stats", example_file, "--over", "thread")
    assert code == 1 and out == ""
    assert err == ("graphframe: error: no 'thread' level to compute statistics over: the "
                   "profile's index levels are node, rank\n")
    code, _, err = run("stats", example_file, "-m", "cycles")
    assert code == 1 and "no metric 'cycles'" in err
    code, _, _ = run("stats", example_file, "--top", "0")   # argparse writes to sys.stderr
    assert code == 2 and "argument --top: 0 rows: give 1 or more" in capsys.readouterr().err
    code, _, _ = run("stats", example_file, "--over", ",")
    assert code == 2 and "',' names no level" in capsys.readouterr().err
    serial = GraphFrame.from_lists(("main", "solve")).save(tmp_path / "serial.gfz")
    code, _, err = run("stats", serial)
    assert code == 1 and err == ("graphframe: error: the profile has one process and one "
                                 "thread (index levels node): there is nothing to compare "
                                 "across\n")


def _tau_thread(path, main_excl, work_excl):
    lines = ["3 templated_functions_MULTI_TIME",
             "# Name Calls Subrs Excl Incl ProfileCalls #",
             f'"main" 1 1 {main_excl} {main_excl + work_excl} 0 GROUP="TAU_DEFAULT"',
             f'"work" 1 0 {work_excl} {work_excl} 0 GROUP="TAU_USER"',
             f'"main => work" 1 0 {work_excl} {work_excl} 0 GROUP="TAU_CALLPATH"',
             "0 aggregates", ""]
    path.write_text("\n".join(lines))


def test_stats_on_a_profile_with_threads_and_no_ranks(tmp_path):
    """Issue 33 item 13: TAU pthreads (profile.0.0.<thread>) have a thread level only."""
    folder = tmp_path / "pthreads"
    folder.mkdir()
    _tau_thread(folder / "profile.0.0.0", 10, 30)
    _tau_thread(folder / "profile.0.0.1", 10, 90)
    code, out, err = run("stats", folder)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "pthreads: 2 nodes, 2 threads; time (inc) across threads, imbalance = max / mean",
        "2 of 2 nodes have a max of at least 1% of the largest value (100)",
        "",
        "imbalance        max       mean        min  max thread  call path",
        "    1.500         90         60         30           1  main > work",
        "    1.429        100         70         40           1  main",
    ]
    code, _, err = run("stats", folder, "--over", "rank")
    assert code == 1 and "no 'rank' level" in err and "node, thread" in err


def test_stats_on_hpctoolkit_threads(shared_data):
    path = shared_data / "hpctoolkit" / "hatchet-osu-allgather-database"
    code, out, err = run("stats", path, "--over", "rank,thread", "-m", "time", "--top", "3")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("hatchet-osu-allgather-database: 1474 nodes, 10 ranks x 2 threads; "
                        "time across ranks and threads, imbalance = max / mean")
    assert lines[3].split()[:6] == ["imbalance", "max", "mean", "min", "max", "rank,thread"]
    assert len(lines) == 7 and lines[4].split()[0] == "20.000"   # only one of 20 has time


def test_stats_long_paths_keep_their_end(shared_data):
    path = shared_data / "ensemble" / "hatchet-tutorial" / "lulesh-scaling" / \
        "lulesh-annotation-profile-343cores.json"
    code, out, _ = run("stats", path, "--top", "1")
    assert code == 0
    last = out.splitlines()[-1]
    assert last.split()[:2] == ["7.933", "8.221e+05"]
    assert last.endswith("... > LagrangeLeapFrog > LagrangeElements > CalcQForElems > MPI_Wait")


# ------------------------------------------------------ ensembles: --by KEY
MPI_SCALING = "ensemble/thicket-tutorial/mpi_scaling_cali"


def _expected_main(shared_data, column="Min time/rank"):
    from graphframe import Ensemble
    ens = Ensemble.read(str(shared_data / MPI_SCALING))
    return ens.pivot("mpi.world.size", column)["main"]


def test_stats_by_key_tabulates_call_paths(shared_data):
    code, out, err = run("stats", shared_data / MPI_SCALING, "--by", "mpi.world.size",
                         "--top", "2")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("mpi_scaling_cali: 5 profiles, 45 nodes; Min time/rank by "
                        "mpi.world.size (mean over profiles)")
    assert lines[2].split() == ["27", "64", "125", "216", "343", "call", "path"]
    assert len(lines) == 5 and lines[3].endswith("  main")
    assert lines[4].endswith("  main > lulesh.cycle")
    expected = _expected_main(shared_data)
    assert lines[3].split()[:5] == [format(v, ".4g") for v in expected.tolist()]


def test_stats_by_key_speedup_and_base_from_a_glob(shared_data):
    pattern = str(shared_data / MPI_SCALING / "*.cali")
    code, out, _ = run("stats", pattern, "--by", "mpi.world.size", "--top", "1",
                       "--speedup", "--base", "64", "-m", "Avg time/rank")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("strong scaling speedup, base mpi.world.size = 64")
    main = _expected_main(shared_data, "Avg time/rank")
    assert lines[3].split()[:5] == [format(v, ".4g") for v in (main.loc[64] / main).tolist()]


def test_stats_by_key_errors(shared_data):
    code, _, err = run("stats", shared_data / MPI_SCALING, "--by", "nope")
    assert code != 0 and "no metadata column 'nope'" in err
    code, _, err = run("stats", shared_data / MPI_SCALING, "--by", "mpi.world.size",
                       "--base", "7")
    assert code != 0 and "--base 7: mpi.world.size has the values 27, 64" in err
    code, _, err = run("stats", shared_data / MPI_SCALING, "--efficiency")
    assert code != 0 and "need --by KEY" in err


def test_stats_by_key_reader_options(shared_data):
    # 45 nodes by default (as Thicket); caliper's no_path=keep adds the <no path> root
    for option in ("no_path=keep", "caliper:no_path=keep"):
        code, out, err = run("stats", shared_data / MPI_SCALING, "--by", "mpi.world.size",
                             "--top", "1", "-o", option)
        assert (code, err) == (0, "")
        assert out.splitlines()[0].startswith("mpi_scaling_cali: 5 profiles, 46 nodes;")
    code, _, err = run("stats", shared_data / MPI_SCALING, "--by", "mpi.world.size",
                       "-o", "ranks=0")
    assert code == 1 and ("option 'ranks' applies to none of the formats read (caliper); it "
                          "is an option of the formats: hpctoolkit") in err
    code, _, err = run("stats", shared_data / MPI_SCALING, "--by", "mpi.world.size",
                       "-o", "hpctoolkit:no_path=drop")
    assert code == 1 and "the hpctoolkit reader has no option 'no_path'" in err


def test_format_keyed_options_are_for_ensembles(example_file):
    code, _, err = run("stats", example_file, "-o", "caliper:no_path=drop")
    assert code == 2 and "FORMAT:KEY=VALUE is for several profiles (an ensemble)" in err


LULESH = "ensemble/hatchet-tutorial/lulesh-scaling"
LULESH_MAIN = ["2.734e+07", "4.363e+07", "5.091e+07", "5.12e+07", "5.258e+07", "5.183e+07",
               "5.379e+07", "5.355e+07", "main"]


def test_stats_on_a_folder_defaults_to_the_rank_count(shared_data):
    """Issue 33 item 10: json-split scaling runs carry no key; --by defaults to the rank
    count, as plot scaling does (a folder, a glob, or a bare --by)."""
    folder = shared_data / LULESH
    for argv in ([folder], [folder, "--by"], [f"{folder}/*.json", "--by", "ranks"]):
        code, out, err = run("stats", *argv, "--top", "1")
        assert (code, err) == (0, ""), argv
        lines = out.splitlines()
        assert lines[0].endswith("8 profiles, 45 nodes; time (inc) by ranks (mean over "
                                 "profiles)")
        assert lines[2].split() == ["1", "8", "27", "64", "125", "216", "343", "512", "call",
                                    "path"]
        assert lines[3].split() == LULESH_MAIN
