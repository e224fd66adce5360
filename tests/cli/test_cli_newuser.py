"""Command-line defects a new user hit (issue 33, items 5 and 19): output paths, --depth 0,
``stats --by`` headers."""

import io

import numpy as np
import pytest

from graphframe import Ensemble, GraphFrame
from graphframe.cli import main
from graphframe.cli.ensemble_stats import scaling_text
from graphframe.examples import example_graphframe


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    return example_graphframe().save(tmp_path_factory.mktemp("in") / "run.gfz")


def writers(saved, out):
    """Every command that writes a file, writing ``out`` (its suffix added)."""
    return {"report": ["report", saved, "-o", f"{out}.html"],
            "plot": ["plot", "bar", saved, "-o", f"{out}.png"],
            "convert": ["convert", saved, f"{out}.folded"],
            "convert-json": ["convert", saved, f"{out}.json"],
            "convert-archive": ["convert", saved, f"{out}.gfz"]}


@pytest.mark.parametrize("command", ["report", "plot", "convert", "convert-json",
                                     "convert-archive"])
def test_a_missing_folder_is_one_line_and_exit_1_for_every_writer(saved, tmp_path, command):
    out = tmp_path / "no-such-folder" / "out"
    argv = writers(saved, out)[command]
    code, stdout, stderr = run(*argv)
    assert (code, stdout) == (1, "")
    assert stderr == (f"graphframe: error: {argv[-1]}: cannot write: the folder "
                      f"{tmp_path / 'no-such-folder'} does not exist\n")


@pytest.mark.parametrize("command", ["report", "plot", "convert", "convert-json",
                                     "convert-archive"])
def test_a_directory_as_output_is_one_line_and_exit_1(saved, tmp_path, command):
    argv = writers(saved, tmp_path / "out")[command]
    (tmp_path / argv[-1]).mkdir()  # a folder with the very name asked for
    code, stdout, stderr = run(*argv)
    assert (code, stdout) == (1, "")
    assert stderr == (f"graphframe: error: {argv[-1]}: cannot write: it is a directory; "
                      "give a file name in it\n")


def test_a_file_in_place_of_the_folder_is_said_too(saved, tmp_path):
    (tmp_path / "file").write_text("x")
    code, _, stderr = run("report", saved, "-o", tmp_path / "file" / "r.html")
    assert code == 1
    assert stderr == (f"graphframe: error: {tmp_path / 'file' / 'r.html'}: cannot write: "
                      f"{tmp_path / 'file'} is not a folder\n")


def test_an_error_while_writing_is_said_the_same_way(saved, tmp_path, monkeypatch):
    import graphframe.cli.plot as plot_cli

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plot_cli, "write_report", full)
    code, _, stderr = run("report", saved, "-o", tmp_path / "r.html")
    assert (code, stderr) == (1, f"graphframe: error: {tmp_path / 'r.html'}: cannot write: "
                                 "No space left on device\n")


def test_nothing_is_read_before_the_output_is_checked(tmp_path):
    # the profile does not exist either: the output is what is said first
    code, _, stderr = run("plot", "bar", tmp_path / "missing.json", "-o",
                          tmp_path / "nowhere" / "x.svg")
    assert code == 1 and "cannot write: the folder" in stderr


@pytest.mark.parametrize("command", ["tree", "diff"])
def test_depth_0_is_rejected_like_a_negative_depth(saved, command, capsys):
    inputs = [saved] if command == "tree" else [saved, saved]
    for bad in ("0", "-1"):
        code, stdout, _ = run(command, *inputs, "--depth", bad)
        stderr = capsys.readouterr().err  # argparse writes usage errors to sys.stderr
        assert (code, stdout) == (2, "")
        assert (f"argument --depth/-d: {bad!r} is not a whole number >= 1 (1 = the roots "
                "only)") in stderr
    code, stdout, _ = run(command, *inputs, "--depth", "1")
    assert code == 0 and stdout.startswith("graphframe diff:" if command == "diff"
                                           else "graphframe")


def scaling_ensemble(keys):
    gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": t},
                                     "children": []}]) for t in (8.0, 5.0, 4.0)]
    return Ensemble.from_graphframes(gfs, metadata={"ranks": keys})


def test_stats_by_headers_print_whole_key_values_without_a_decimal_point():
    ens = scaling_ensemble([27.0, 64.0, 125.0])
    text = scaling_text(ens, "ranks", "time", title="demo")
    assert text.splitlines()[2] == "        27         64        125  call path"
    speedup = scaling_text(ens, "ranks", "time", mode="speedup", base="64")
    assert speedup.splitlines()[0].endswith("base ranks = 64")
    assert speedup.splitlines()[2] == "        27         64        125  call path"
    assert np.allclose([float(x) for x in speedup.splitlines()[3].split()[:3]],
                       [5.0 / 8.0, 1.0, 5.0 / 4.0])
    halves = scaling_text(scaling_ensemble([0.5, 1.0, 2.0]), "ranks", "time")
    assert halves.splitlines()[2] == "       0.5          1          2  call path"


def test_diff_of_spot_profiles_says_why_there_is_no_exclusive_table(shared_data):
    """Item 7 on the command line: the exclusive table is not silently left out."""
    folder = shared_data / "caliper" / "thicket" / "mpi_scaling_cali"
    code, out, err = run("diff", folder / "27_cores.cali", folder / "64_cores.cali",
                         "--no-tree", "--top", "1")
    assert (code, err) == (0, "")
    assert "Largest changes, inclusive (Min time/rank):" in out
    assert ("Largest changes, exclusive: not shown; metric 'Min time/rank' has no exclusive "
            "form in this diff: the profiles declare it inclusive only") in out
