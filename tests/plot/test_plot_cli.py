"""``graphframe plot`` and ``graphframe report`` from the command line."""

import io
import shutil
import struct

import numpy as np
import pytest

from graphframe.cli import main
from tests.plot.profiles import SOLVER, build, matplotlib_agg, solver

matplotlib_agg()


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("profiles")
    before = solver()
    after = build(SOLVER, np.array([0.5, 1.0, 6.0, 2.5, 2.0, 0.25])[:, None] * np.ones(4))
    paths = {"before": d / "before.gfz", "after": d / "after.gfz"}
    before.save(paths["before"])
    after.save(paths["after"])
    for k in (1, 2, 4):
        gf = build(SOLVER, np.array([0.5, 1.0, 8.0, 0.5, 2.0, 0.25]) / k,
                   metadata={"nprocs": k})
        paths[f"r{k}"] = d / f"run{k}.gfz"
        gf.save(paths[f"r{k}"])
    return paths


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("argv, size", [
    (["flamegraph", "{before}"], (1200, 600)),
    (["icicle", "{before}", "{after}", "--size", "8", "4", "--dpi", "50"], (400, 200)),
    (["heatmap", "{before}", "--imbalance", "--by", "std", "--top", "3"], (1000, 700)),
    (["bar", "{before}", "--stacked", "rank", "--top", "4"], (900, 500)),
    (["hist", "{before}", "--node", "spmv", "--metric", "time"], (800, 450)),
    (["box", "{before}", "--node", "spmv", "--node", "solve > MPI_Allreduce"], (800, 450)),
    (["violin", "{before}", "--inclusive", "--top", "2"], (800, 450)),
    (["scaling", "{r1}", "{r2}", "{r4}", "--by", "nprocs", "--mode", "strong"], (1500, 480)),
])
def test_each_kind_writes_a_png_of_the_expected_size(files, tmp_path, argv, size):
    out = tmp_path / "out.png"
    args = [a.format(**{str(k): v for k, v in files.items()}) for a in argv]
    code, stdout, stderr = run("plot", *args, "-o", out)
    assert (code, stdout, stderr) == (0, "", "")
    assert png_size(out) == size


@pytest.mark.parametrize("argv, size", [
    (["heatmap", "{r1}", "{r2}", "{r4}", "--top", "4", "--stat", "sum"], (1000, 700)),
    (["heatmap", "{r1}", "{r4}", "{r2}", "--by", "nprocs"], (1000, 700)),
    (["bar", "{folder}", "--top", "3"], (900, 500)),
    (["hist", "{folder}", "--node", "spmv"], (800, 450)),
    (["box", "{r1}", "{r2}", "{r4}", "--node", "spmv", "--by", "nprocs"], (800, 450)),
    (["violin", "{folder}", "--top", "2", "--aggregate", "max"], (800, 450)),
    (["scaling", "{runs}", "--top", "2", "--by", "nprocs"], (1500, 480)),
])
def test_several_profiles_or_a_folder_are_drawn_as_an_ensemble(files, tmp_path, argv, size):
    out = tmp_path / "out.png"
    names = {str(k): v for k, v in files.items()}
    names["folder"] = files["r1"].parent
    names["runs"] = tmp_path / "runs"
    names["runs"].mkdir()
    for k in (1, 2, 4):
        shutil.copy(files[f"r{k}"], names["runs"])
    args = [a.format(**names) for a in argv]
    code, stdout, stderr = run("plot", *args, "-o", out)
    assert (code, stdout, stderr) == (0, "", "")
    assert png_size(out) == size


def test_ensemble_plot_file_draws_the_ensemble_numbers(files, tmp_path):
    from graphframe.cli.plot_ensemble import ensemble_title, profile_paths, read_ensemble
    from graphframe.plot.registry import PlotRequest, plot_kind
    from graphframe.plot.svg import new_figure
    pytest.importorskip("matplotlib", reason="the plot tests need matplotlib")
    paths = [str(files["r1"]), str(files["r2"])]
    request = PlotRequest(paths, dict(metric="time", top=1, by="nprocs"),
                          read_ensemble=read_ensemble, expand=profile_paths, figure=new_figure)
    fig = plot_kind("heatmap").cli(request)
    assert fig.axes[0].images[0].get_array().tolist() == [[8.0, 4.0]]   # spmv: 8 / nprocs
    assert fig.get_suptitle() == f"heatmap: 2 profiles in {files['r1'].parent.name} by nprocs"
    assert ensemble_title("heatmap", paths, 2, "nprocs") == fig.get_suptitle()


def test_svg_and_pdf_outputs(files, tmp_path):
    svg, pdf = tmp_path / "f.svg", tmp_path / "f.pdf"
    assert run("plot", "flamegraph", files["before"], files["after"], "-o", svg)[0] == 0
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    assert run("plot", "heatmap", files["before"], "-o", pdf, "--title", "ranks")[0] == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("argv, code, message", [
    (["plot", "pie", "{before}", "-o", "x.png"], 2, "invalid choice: 'pie' (choose from "
                                                   "'flamegraph', 'icicle', 'heatmap'"),
    (["plot", "bar", "{before}", "-o", "x.gif"], 2, "must end in .png, .svg or .pdf"),
    (["plot", "bar", "{before}", "-o", "x.png", "--metric", "nope"], 1,
     "graphframe: error: metric='nope' does not exist in the dataframe; available metrics: "
     "time, time (inc)\n"),
    (["plot", "bar", "{before}", "-o", "x.png", "--rank", "9"], 1,
     "graphframe: error: rank=9 does not exist; the ranks are 0, 1, 2, 3\n"),
    (["plot", "heatmap", "{before}", "-o", "x.png", "--by", "p99"], 1, "choose one of max"),
    (["plot", "scaling", "{before}", "-o", "x.png"], 1, "scaling needs 2 or more profiles; got 1"),
    (["plot", "bar", "{before}", "{after}", "-o", "x.png", "--stacked", "rank"], 1,
     "--stacked: not for several profiles (an ensemble); use it with one profile"),
    (["plot", "heatmap", "{r1}", "{r2}", "-o", "x.png", "--by", "size"], 1,
     "by='size' is not a metadata column; choose one of "),
    (["plot", "box", "{r1}", "{r2}", "-o", "x.png", "--by", "nprocs", "--node", "spmv",
      "--node", "io"], 1, "give one node, not 2"),
    (["plot", "hist", "{before}", "-o", "x.png", "--node", "MPI_Allreduce"], 1,
     "'MPI_Allreduce' names 2 call paths"),
    (["plot", "scaling", "{r1}", "{r2}", "-o", "x.png", "--by", "size"], 1,
     "by='size' is not in a profile's metadata; its keys: nprocs, source"),
    (["plot", "bar", "missing.json", "-o", "x.png"], 1, "missing.json: no such file"),
])
def test_errors_exit_non_zero_with_one_message_and_write_nothing(files, tmp_path, argv, code,
                                                                 message, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    args = [a.format(**{str(k): v for k, v in files.items()}) for a in argv]
    got, stdout, stderr = run(*args)
    usage = capsys.readouterr().err  # argparse writes usage errors to sys.stderr itself
    assert got == code and stdout == ""
    assert message in (stderr if code == 1 else usage)
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "x.gif").exists()


def test_report_of_one_and_of_two_profiles(files, tmp_path):
    one, two = tmp_path / "one.html", tmp_path / "two.html"
    assert run("report", files["before"], "-o", one) == (0, "", "")
    assert '<section id="hotspots">' in one.read_text(encoding="utf-8")
    assert run("report", files["before"], files["after"], "-o", two, "--top", "3",
               "--title", "nightly") == (0, "", "")
    page = two.read_text(encoding="utf-8")
    assert "<title>nightly</title>" in page and '<section id="changes">' in page
    code, _, err = run("report", files["before"], "-o", tmp_path / "r.html", "--metric", "x")
    assert code == 1 and "metric='x' does not exist in the dataframe" in err
    assert not (tmp_path / "r.html").exists()
