"""Self weights and scales of the stacking exports (issue 19 items 1, 8 and 11's speedscope)."""

import json
import warnings

import numpy as np
import pytest

import graphframe
from graphframe import GraphFrame
from graphframe.model.nodevalues import node_values
from graphframe.render.flamegraph import choose_scale
from graphframe.render.units import metric_unit, scaled_unit
from graphframe.render.weights import ExportNote, derived_exclusive, self_weights
from tests.helpers import gf_from_edges

SPOT = "caliper/thicket/mpi_scaling_cali/27_cores.cali"
GAMESS = "hpctoolkit/hatchet-gamess-v4-database"
SW4 = "caliper/hatchet/caliper-sw4-cuda-activity-cali/caliper_cuda_activity_profile.cali"


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, [str(n.message) for n in notes]


def _folded_total(text):
    return sum(int(line.rsplit(" ", 1)[1]) for line in text.splitlines())


def _inclusive_only():
    """main(4) -> solve(2) -> mpi(1), main -> io(1): an inclusive 'cycles' column only."""
    gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    df = gf.dataframe.rename(columns={"time (inc)": "cycles"})[["name", "cycles"]]
    return GraphFrame(gf.graph, df, [], ["cycles"], default_metric="cycles")


def test_inclusive_metric_without_partner_is_made_exclusive():
    gf = _inclusive_only()
    text, notes = _quiet(gf.to_flamegraph)
    assert text == "main 1\nmain; io 1\nmain; solve 1\nmain; solve; mpi 1\n"
    assert notes == ["folded stacks: 'cycles' is inclusive and has no exclusive partner; wrote "
                     "exclusive values derived from it (a node's value minus its children's, "
                     "as generate_exclusive_columns does)"]
    doc, notes = _quiet(gf.to_speedscope)
    profile = json.loads(doc)["profiles"][0]
    assert profile["weights"] == [1.0, 1.0, 1.0, 1.0] and profile["endValue"] == 4.0
    assert profile["name"] == "cycles, made exclusive"
    assert notes[0].startswith("speedscope: 'cycles' is inclusive and has no exclusive partner")


def test_derived_exclusive_matches_generate_exclusive_columns_per_row():
    # 2 ranks, a shared node (c under b and d) and a missing row
    gf = gf_from_edges(list("abcde"), [-1, 0, 1, 2, 0], times=[1.0, 2.0, 4.0, 8.0, 3.0],
                       extra=[(4, 2)], ranks=2)
    inc = gf.inc_metrics[0]
    only_inc = GraphFrame(gf.graph, gf.dataframe[[inc]], [], [inc])
    expected = only_inc.generate_exclusive_columns(inplace=False).dataframe.iloc[:, -1].to_numpy()
    np.testing.assert_array_equal(derived_exclusive(only_inc, inc), expected)


def test_exclusive_metric_is_written_as_it_is_without_a_note():
    gf = gf_from_edges(["main", "solve"], [-1, 0], times=[1.0, 2.0])
    weights, notes = _quiet(self_weights, gf, "time")
    assert weights.note is None and weights.label == "time" and notes == []
    assert weights.values().tolist() == [1.0, 2.0]


def test_min_max_metrics_are_made_exclusive_too():
    # Caliper's "Min time/rank" is combined by min: generate_exclusive_columns skips it,
    # the export still needs self weights
    gf = _inclusive_only()
    gf = GraphFrame(gf.graph, gf.dataframe, [], ["cycles"], default_metric="cycles",
                    aggregations={"cycles": "min"})
    weights, notes = _quiet(self_weights, gf, "cycles", what="folded stacks")
    assert weights.values().tolist() == [1.0, 1.0, 1.0, 1.0] and len(notes) == 1


@pytest.mark.parametrize("scale_in, values, expected", [
    ("integers", [3.0, 14.0, np.nan], 1.0),
    ("seconds", [47.2, 0.003], 1e6),
    ("thousands of seconds", [2500.5, 1508.0], 1e3),
    ("tiny", [1e-9, 2e-9], 1e9),
    ("none", [np.nan], 1.0),
])
def test_choose_scale(scale_in, values, expected):
    assert choose_scale(np.array(values)) == expected


def test_units_from_names_and_formats():
    # the reader's units first (an inclusive column has its exclusive partner's unit)
    assert metric_unit("time (inc)", "hpctoolkit-latest", {"time": "seconds"}) == "seconds"
    assert metric_unit("time (inc)", "hpctoolkit", {"time (inc)": "microseconds"}) == \
        "microseconds"
    assert metric_unit("time", "hpctoolkit") == "none"   # no units recorded: no guess
    assert metric_unit("sum.wall_clock", "timemory") == "seconds"
    assert metric_unit("time", "tau") == "microseconds"
    assert metric_unit("GXCOPY:D2H (B) (inc)", "hpctoolkit-latest") == "bytes"
    assert metric_unit("time", "gprof-dot") == "none"       # percentages
    assert metric_unit("loop.iterations", "caliper") == "none"
    assert metric_unit("time", None) == "none"
    assert scaled_unit("seconds", 1e3) == "milliseconds" and scaled_unit("bytes", 1e3) == ""


# -- real data (issue 19's reproductions) ----------------------------------------------

def test_spot_profile_folded_total_is_the_run_time(shared_data):
    """27_cores.cali: an inclusive Min time/rank only; the folded total was 231 for 47 s."""
    gf = graphframe.read(shared_data / SPOT)
    assert gf.default_metric == "Min time/rank" and not gf.exc_metrics
    text, notes = _quiet(gf.to_flamegraph)
    roots = gf.dataframe.loc[gf.graph.root_ids.tolist(), "Min time/rank"].sum()
    assert roots == pytest.approx(float(gf.metadata["elapsed_time"]), abs=0.01)   # 47.23 s
    # derived self weights add up to the roots' inclusive time, in microseconds
    assert _folded_total(text) == pytest.approx(roots * 1e6, abs=len(text.splitlines()))
    assert notes == [
        "folded stacks: 'Min time/rank' is inclusive and has no exclusive partner; wrote "
        "exclusive values derived from it (a node's value minus its children's, as "
        "generate_exclusive_columns does)",
        "folded stacks: weights are Min time/rank, made exclusive x 1,000,000 (seconds to "
        "microseconds) so that a millionth of the total still weighs 1; give --scale "
        "(scale=) to choose another"]
    doc, _ = _quiet(gf.to_speedscope)
    profile = json.loads(doc)["profiles"][0]
    assert profile["unit"] == "seconds"
    assert profile["endValue"] == pytest.approx(roots, rel=1e-9)


def test_gamess_folded_total_is_the_exclusive_total(shared_data):
    """HPCToolkit current layout: default 'time (inc)' gave 59,704 for a true 4,008 s."""
    gf = graphframe.read(shared_data / GAMESS)
    text, notes = _quiet(gf.to_flamegraph)
    true_total = gf.dataframe["time"].sum()
    assert true_total == pytest.approx(4008.42, abs=0.01)
    assert _folded_total(text) == pytest.approx(true_total * 1e3, abs=len(text.splitlines()))
    assert notes[0] == ("folded stacks: 'time (inc)' is inclusive; wrote its exclusive "
                        "partner 'time' (flame graphs add up nested frames)")
    assert "x 1,000 (seconds to milliseconds)" in notes[1]
    doc, _ = _quiet(gf.to_speedscope)
    doc = json.loads(doc)
    assert doc["profiles"][0]["unit"] == "seconds"
    assert doc["profiles"][0]["endValue"] == pytest.approx(true_total, rel=1e-12)
    frames = doc["shared"]["frames"]
    # file and line come from the dataframe (HPCToolkit keeps them out of the frame)
    assert frames[1] == {"name": "gamess_", "file": "[gamess.00.x]"}
    with_line = [f for f in frames if "line" in f]
    assert len(with_line) == 192 and min(f["line"] for f in with_line) >= 1


def test_seconds_do_not_round_to_zero(shared_data):
    """sw4 CUDA profile: 517 of 549 stacks had weight 0 at scale 1."""
    gf = graphframe.read(shared_data / SW4)
    at_one, _ = _quiet(gf.to_flamegraph, scale=1)
    assert sum(line.endswith(" 0") for line in at_one.splitlines()) >= 517
    text, _ = _quiet(gf.to_flamegraph)
    values = node_values(gf, "time", rank=0)
    values = values[np.isfinite(values)]          # one folded line per node with a value
    weights = [int(line.rsplit(" ", 1)[1]) for line in text.splitlines()]
    assert len(weights) == len(values)
    # every node holding at least a millionth of the total keeps a weight
    big = values >= values.sum() * 1e-6
    assert all(w > 0 for w, b in zip(weights, big) if b) and big.sum() >= 364
    assert _folded_total(text) == pytest.approx(values.sum() * 1e6, abs=len(weights))


def test_cli_convert_prints_the_choices_as_notes(shared_data, tmp_path):
    import io

    from graphframe.cli import main
    out, err = io.StringIO(), io.StringIO()
    assert main(["convert", str(shared_data / SPOT), "-", "--to", "folded"],
                stdout=out, stderr=err) == 0
    assert err.getvalue().count("graphframe: note: folded stacks:") == 2
    out, err = io.StringIO(), io.StringIO()
    assert main(["convert", str(shared_data / SPOT), "-", "--to", "folded", "--scale", "1"],
                stdout=out, stderr=err) == 0
    assert err.getvalue().count("graphframe: note:") == 1   # the scale was given
    assert _folded_total(out.getvalue()) == 46   # 47.2 s, each line rounded to seconds
