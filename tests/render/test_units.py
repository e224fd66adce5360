"""Units carried from the readers into exports, tree headers and plot axes (issue 33
item 1): speedscope used to label every metric "seconds"."""

import json
import warnings

import pytest

import graphframe
from graphframe_readers import ProfileBuilder
from graphframe_readers.testing import write_cali

LULESH = "ensemble/hatchet-tutorial/lulesh-scaling/lulesh-annotation-profile-8cores.json"


def _speedscope_unit(gf):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return json.loads(gf.to_speedscope())["profiles"][0]["unit"]


@pytest.mark.parametrize("rel,units", [
    # Caliper's sum#time.duration is in microseconds (no unit in the file)
    (LULESH, {"time": "microseconds", "time (inc)": "microseconds"}),
    # HPCToolkit's CPUTIME (usec), renamed time
    ("hpctoolkit/hatchet-cpi-database", {"time": "microseconds",
                                         "time (inc)": "microseconds"}),
    ("hpctoolkit/pipit-ping-pong-v4-database", {"time": "seconds", "time (inc)": "seconds"}),
    # Caliper's attribute.unit = sec
    ("caliper/thicket/mpi_scaling_cali/27_cores.cali", {
        "Min time/rank": "seconds", "Max time/rank": "seconds", "Avg time/rank": "seconds",
        "Total time": "seconds"}),
    ("caliper/generated/runtime-profile/rp-json-split-4ranks.json", {"time": "seconds"}),
    ("tau/hatchet-tau-cpi-mpi", {"time": "microseconds", "time (inc)": "microseconds"}),
    ("hpctoolkit/hpcviewer-inline-v4-database", {}),   # cycles, instructions: no unit
])
def test_readers_record_units(shared_data, rel, units):
    gf = graphframe.read(shared_data / rel)
    assert gf.metadata["units"] == units


def test_speedscope_tree_and_plot_state_the_unit(shared_data):
    gf = graphframe.read(shared_data / LULESH)
    assert _speedscope_unit(gf) == "microseconds"     # was "seconds": a 3-minute run as years
    assert gf.tree(depth=1).splitlines()[0] == "graphframe v0.1.0 \u2014 time [\u00b5s] (rank 0)"
    pytest.importorskip("matplotlib")
    ax = gf.plot.bar()
    assert ax.get_xlabel() == "time [\u00b5s], mean over ranks"
    cpi = graphframe.read(shared_data / "hpctoolkit/hatchet-cpi-database")
    assert _speedscope_unit(cpi) == "microseconds"
    gpu = graphframe.read(shared_data / "hpctoolkit/hpcviewer-derived-metrics-v4-database")
    assert gpu.metadata["units"]["GXCOPY:D2H (B) (inc)"] == "bytes"
    assert _speedscope_unit(gpu) == "seconds"          # GPUOP (sec)
    assert gpu.tree(depth=1).splitlines()[0] == "graphframe v0.1.0 \u2014 GPUOP (sec) (inc)"


def test_units_survive_operations_and_the_archive(shared_data, tmp_path):
    gf = graphframe.read(shared_data / "hpctoolkit/hatchet-cpi-database")
    units = {"time": "microseconds", "time (inc)": "microseconds"}
    assert gf.drop_index_levels(inplace=False).metadata["units"] == units
    assert graphframe.read(gf.save(tmp_path / "cpi.gfz")).metadata["units"] == units


def test_caliper_units_from_attribute_unit_and_timer_names(tmp_path):
    doc = {"data": [[0, 1.5, 2.0, 7.0], [1, 0.5, 1.0, 3.0]],
           "columns": ["path", "t", "sum#time.duration.ns", "count"],
           "column_metadata": [{"is_value": False},
                               {"is_value": True, "attribute.unit": "usec"},
                               {"is_value": True}, {"is_value": True}],
           "nodes": [{"label": "main", "column": "path"},
                     {"label": "solve", "column": "path", "parent": 0}]}
    path = tmp_path / "units.json"
    path.write_text(json.dumps(doc))
    gf = graphframe.read(path)
    assert gf.metadata["units"] == {"t": "microseconds", "sum#time.duration.ns": "nanoseconds"}
    assert gf.default_metric == "t" and _speedscope_unit(gf) == "microseconds"
    b = ProfileBuilder("demo")
    b.add_nodes([-1, 0], {"name": ["main", "solve"]})
    b.add_rows([0, 1], {"time": [1.0, 2.0]})
    write_cali(b.build(["time"]), tmp_path / "demo.cali")    # sum#time.duration
    assert graphframe.read(tmp_path / "demo.cali").metadata["units"] == {"time": "microseconds"}


def test_a_profile_without_units_keeps_plain_labels():
    gf = graphframe.GraphFrame.from_lists(("main", "solve"))
    assert gf.tree().splitlines()[0] == "graphframe v0.1.0 \u2014 time"
    assert _speedscope_unit(gf) == "none"


def test_ensemble_plots_state_the_unit(shared_data):
    pytest.importorskip("matplotlib")
    ens = graphframe.Ensemble.read(shared_data / "ensemble/hatchet-tutorial/lulesh-scaling")
    assert "units" not in ens.metadata.columns        # a label, not a metadata column
    ax = ens.plot.bar()
    assert ax.get_xlabel() == "time [\u00b5s], mean over ranks, stacked by profile"
    fig = ens.plot.scaling(by="ranks")
    assert fig.axes[0].get_ylabel() == "time [\u00b5s]"
