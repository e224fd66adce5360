"""Several files read as one profile must be the ranks of one run (issue 19 item 3)."""

import glob

import numpy as np
import pytest

import graphframe
from graphframe import ReadError
from graphframe.io.runs import check_one_run
from graphframe_readers import ProfileBuilder
from graphframe_readers.testing.writers.caliper import write_cali

from tests.cli.test_cli_commands import run


def rank_file(path, rank, **globals_):
    b = ProfileBuilder("test")
    b.add_nodes([-1, 0], {"name": ["main", "solve"]})
    b.add_rows([0, 1], {"time": [1.0 + rank, 2.0]})
    raw = b.build(["time"])
    write_cali(raw, path, globals_={k.replace("_", "."): str(v) for k, v in globals_.items()})
    return path


def test_per_rank_files_of_one_run_read_as_ranks(tmp_path):
    files = [rank_file(tmp_path / f"run-rank{r}.cali", r, mpi_world_size=2, jobid=77)
             for r in (0, 1)]
    gf = graphframe.read(files)
    assert sorted(set(gf.dataframe.index.get_level_values("rank"))) == [0, 1]
    assert graphframe.read(tmp_path).dataframe.shape == gf.dataframe.shape


def test_runs_of_different_world_sizes_are_refused(tmp_path):
    files = [rank_file(tmp_path / f"{n}.cali", 0, mpi_world_size=n) for n in (27, 64)]
    expected = ("the files are not the ranks of one run: their mpi.world.size differ (27, 64)"
                " (expected the per-rank files of one run; read each file as its own profile "
                "(graphframe.read(file)), or all of them as the runs of an ensemble "
                "(graphframe.Ensemble.read(files)))")
    with pytest.raises(ReadError) as info:
        graphframe.read(files)
    assert str(info.value) == "2 files (27.cali, 64.cali): " + expected
    with pytest.raises(ReadError) as info:
        graphframe.read(tmp_path)
    assert str(info.value) == f"{tmp_path}: " + expected
    code, out, err = run("tree", tmp_path)
    assert (code, out) == (1, "") and err == f"graphframe: error: {tmp_path}: {expected}\n"
    code, out, err = run("info", tmp_path)   # info describes the runs as an ensemble
    assert code == 0 and err == ""
    assert "format:    several profiles (an ensemble)\nfound:     2 (caliper: 2)\n" in out
    assert "profiles:  2 read\n" in out


def test_files_launched_apart_are_different_runs(tmp_path):
    files = [rank_file(tmp_path / f"r{r}.cali", r, launchdate=t, mpi_world_size=2)
             for r, t in ((0, 1616614379), (1, 1616618000))]
    with pytest.raises(ReadError, match=r"their launchdate values are 3621 s apart"):
        graphframe.read(files)


def test_ranks_beyond_the_world_size_are_refused(tmp_path):
    # three files of a world of two: the third gets rank 2 from its position
    files = [rank_file(tmp_path / f"r{r}.cali", r, mpi_world_size=2) for r in range(3)]
    with pytest.raises(ReadError, match=r"rank 2 is outside the run's mpi.world.size 2 "
                                        r"\(3 ranks read: 0, 1, 2\)"):
        graphframe.read(files)


def test_a_list_for_a_single_file_format_points_to_separate_runs(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for p in (a, b):
        p.write_text('[{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]')
    with pytest.raises(ReadError, match=r"^2 files \(a.json, b.json\): this is a list of 2 inputs "
                                        r"\(literal: 2\), not one profile or trace.*"
                                        r"graphframe.Ensemble.read"):
        graphframe.read([a, b])


def test_check_one_run_ignores_files_that_do_not_say():
    check_one_run(["a", "b"], {"mpi.world.size": [4, None], "jobid": [None, "7"]},
                  np.array([0, 3]))


def test_thicket_scaling_study_is_not_one_run(shared_data):
    folder = shared_data / "ensemble/thicket-tutorial/mpi_scaling_cali"
    with pytest.raises(ReadError, match=r"mpi.world.size differ \(216, 125, 27, 64, 343\)"):
        graphframe.read(folder)
    with pytest.raises(ReadError, match=r"graphframe.Ensemble"):
        graphframe.read(sorted(glob.glob(str(folder / "*.cali"))))


def test_real_per_rank_set_still_reads(shared_data):
    gf = graphframe.read(shared_data / "caliper/generated/per-rank-3ranks")
    assert sorted(set(gf.dataframe.index.get_level_values("rank"))) == [0, 1, 2]
