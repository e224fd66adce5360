"""Every door takes every kind of input, or says exactly which door does (real data).

* ``graphframe.read`` of a trace is its calling-context tree, the same GraphFrame as
  ``read_trace(path).to_graphframe()``; ``graphframe tree|info`` therefore work on traces;
* ``read_trace`` of a profile says it is a profile and names ``graphframe.read``;
* a folder of several profiles: ``Ensemble.read`` reads them (Caliper runs, TAU
  directories, HPCToolkit databases), ``graphframe info`` describes it as an ensemble,
  ``graphframe tree`` and ``graphframe.read`` name ``Ensemble.read`` with the count found;
* a Thicket ``to_json`` document: ``Ensemble.read`` reads it, ``graphframe.read`` names
  ``Thicket.from_json``.
"""

from __future__ import annotations

import io
import warnings

import pandas as pd
import pytest

import graphframe
from graphframe import Ensemble, ReadError
from graphframe.cli import main
from graphframe.io.resolve import resolve

#: One real trace of each trace format (format, path under ../shared/data).
TRACES = [
    ("chrome", "chrome-trace/generated/workload.viztracer.json"),
    ("otf2", "otf2/pipit-ping-pong-otf2"),
    ("projections", "traces/projections/hello-1darray-projections"),
    ("hpctoolkit-trace", "hpctoolkit/pipit-ping-pong-v4-database"),
    ("dumpi", "traces/dumpi/sst-dumpi-testtrace-4ranks"),
    ("recorder", "traces/recorder/recorder-simple"),
    ("nsight", "traces/nsight/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite"),
    ("nsight-nvtx-csv", "traces/nsight/nbody-nvtx/trace.csv"),
]


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("fmt,rel", TRACES, ids=[f for f, _ in TRACES])
def test_read_of_a_trace_is_its_calling_context_tree(shared_data, fmt, rel):
    if fmt == "otf2":
        pytest.importorskip("otf2", reason="reading OTF2 needs the optional otf2 package")
    path = shared_data / rel
    # an HPCToolkit database is a profile first (read) and a trace for read_trace
    named = {"format": fmt} if fmt == "hpctoolkit-trace" else {}
    assert resolve(path, prefer="trace").format == fmt
    gf = quiet(graphframe.read, path, **named)
    expected = quiet(graphframe.read_trace, path).to_graphframe()
    assert gf.graph == expected.graph
    pd.testing.assert_frame_equal(gf.dataframe, expected.dataframe)
    assert gf.default_metric == "time" and gf.metadata["source"] == "trace"


@pytest.mark.parametrize("fmt,rel", TRACES, ids=[f for f, _ in TRACES])
def test_tree_and_info_print_a_trace(shared_data, fmt, rel):
    if fmt == "otf2":
        pytest.importorskip("otf2", reason="reading OTF2 needs the optional otf2 package")
    path = shared_data / rel
    named = ["--format", fmt] if fmt == "hpctoolkit-trace" else []
    code, out, err = run("tree", path, "--no-color", "--depth", "2", "--expand-name", *named)
    assert code == 0, err
    expected = quiet(graphframe.read_trace, path).to_graphframe()
    root = expected.dataframe["name"].iloc[0]
    assert out.startswith("graphframe v") and str(root) in out
    code, out, err = run("info", path, *named)
    assert code == 0, err
    assert f"format:    {fmt} (" in out and "a trace, shown as its calling-context tree" in out
    assert f"graph:     {expected.graph.num_nodes} nodes" in out


def test_read_trace_of_a_profile_names_the_read_door(shared_data):
    path = shared_data / "tau/hatchet-tau-cpi-mpi"
    with pytest.raises(ReadError) as info:
        graphframe.read_trace(path)
    assert str(info.value) == (f"{path}: this is a profile (tau), not a trace: it holds no "
                               "events (expected one trace; read it with graphframe.read(path) "
                               "(a GraphFrame))")


def test_a_folder_of_tau_directories(shared_data):
    folder = shared_data / "tau"
    ens = Ensemble.read(folder)
    assert [p.rsplit("/", 1)[-1] for p in ens.profiles["path"]] == [
        "hatchet-tau-cpi-mpi", "taucmdr-mm-mpi-8ranks-callpath"]
    assert set(ens.profiles["format"]) == {"tau"}
    code, out, err = run("info", folder)
    assert code == 0, err
    assert "found:     2 (tau: 2)\nprofiles:  2 read\n" in out
    assert f"graph:     {ens.graph.num_nodes} nodes in the union" in out
    code, out, err = run("tree", folder)
    assert code == 1 and out == ""
    assert err == (f"graphframe: error: {folder}: this is a folder of 2 inputs (tau: 2), not "
                   "one profile or trace (expected one profile or trace; read them as an "
                   "ensemble with graphframe.Ensemble.read(path) (the CLI: `graphframe stats "
                   "--by KEY`, `graphframe plot`, `graphframe info`), or one at a time)\n")
    with pytest.raises(ReadError, match="a folder of 2 inputs .*Ensemble.read"):
        graphframe.read(folder)


def test_a_folder_of_caliper_runs(shared_data):
    folder = shared_data / "ensemble/thicket-tutorial/mpi_scaling_cali"
    ens = Ensemble.read(folder)
    assert len(ens.profiles) == 5 and set(ens.profiles["format"]) == {"caliper"}
    assert sorted(ens.metadata["mpi.world.size"].astype(int)) == [27, 64, 125, 216, 343]
    code, out, err = run("info", folder)
    assert code == 0, err
    assert "format:    several profiles (an ensemble)\nfound:     5 (caliper: 5)\n" in out
    assert "mpi.world.size" in out
    code, out, err = run("tree", folder)
    assert code == 1 and "not the ranks of one run" in err and "Ensemble.read" in err


def test_a_folder_of_hpctoolkit_databases(shared_data, tmp_path):
    # three databases of both layouts side by side in one folder
    names = ["hatchet-cpi-database", "hpcviewer-inline-v4-database",
             "hpcviewer-inline-xml-mdb-database"]
    for name in names:
        (tmp_path / name).symlink_to(shared_data / "hpctoolkit" / name)
    found = resolve(tmp_path)
    assert found.kind == "ensemble" and [m.rsplit("/", 1)[-1] for m in found.members] == names
    ens = Ensemble.read(tmp_path)
    assert list(ens.profiles["format"]) == ["hpctoolkit", "hpctoolkit-latest", "hpctoolkit"]
    code, out, err = run("info", tmp_path)
    assert code == 0, err
    assert "found:     3 (hpctoolkit: 2, hpctoolkit-latest: 1)\nprofiles:  3 read\n" in out


def test_the_trace_folders_of_the_shared_data_are_found(shared_data):
    found = resolve(shared_data / "traces/dumpi")
    assert found.kind == "ensemble"
    assert [m.split("traces/dumpi/")[1] for m in found.members] == [
        "rma-fence/traces/np2", "rma-fence/traces/np3", "sst-dumpi-testtrace-4ranks"]


def test_a_thicket_json_document(shared_data, tmp_path):
    from graphframe.thicket import Thicket

    tk = Thicket.from_caliperreader(str(shared_data / "ensemble/thicket-tutorial/"
                                        "mpi_scaling_cali"), disable_tqdm=True)
    path = tmp_path / "thicket.json"
    path.write_text(tk.to_json())
    assert resolve(path).format == "thicket-json"
    back = Ensemble.read(path)
    assert back.graph == tk.graph and len(back.profiles) == 5
    pd.testing.assert_frame_equal(back.dataframe, Thicket.from_json(path.read_text()).dataframe)
    with pytest.raises(ReadError) as info:
        graphframe.read(path)
    assert str(info.value) == (f"{path}: this is a Thicket to_json document, several profiles "
                               "and not one (expected one profile or trace; read it with "
                               "graphframe.Ensemble.read(path), or graphframe.thicket.Thicket."
                               "from_json(text) with the file's text)")
    code, out, err = run("info", path)
    assert code == 0 and "format:    thicket-json (Thicket to_json document" in out
    assert "profiles:  5 read\n" in out


def test_an_ensemble_archive(tmp_path):
    from graphframe import GraphFrame

    ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a")),
                                     GraphFrame.from_lists(("main", "b"))])
    path = ens.save(tmp_path / "runs.gfe")
    back = Ensemble.read(path)
    assert back.graph == ens.graph and back.dataframe.equals(ens.dataframe)
    with pytest.raises(ReadError, match="this is an Ensemble archive .*Ensemble.load"):
        graphframe.read(path)
    with pytest.raises(ReadError, match="this is an Ensemble archive .*expected one trace"):
        graphframe.read_trace(path)
