"""Benchmark tooling: the profile generator, the literal writer, the case registry.

Nothing here measures speed (benchmarks are never timed unit tests); the
runner is exercised on a tiny size to prove the plumbing works.
"""

import doctest
import importlib
import json
import math

import numpy as np
import pandas as pd
import pytest

import graphframe
from benchmarks import cases, generate as gen_mod, measure, run, shape
from benchmarks.generate import generate, writer, writer_formats
from benchmarks.hatchet_adapter import hatchet_available
from benchmarks.inputs import Inputs
from graphframe_readers.testing import write_literal
from graphframe_readers import ProfileBuilder


def _paths(raw):
    """Call path (tuple of names) of every node, keyed by node id."""
    name = dict(zip(raw.nodes["node"], raw.nodes["name"]))
    parent = dict(zip(raw.nodes["node"], raw.nodes["parent"]))
    out = {}
    for node in raw.nodes["node"]:
        path, cur = [], node
        while cur != -1:
            path.append(name[cur])
            cur = parent[cur]
        out[node] = tuple(reversed(path))
    return out


def _positions(raw):
    ids = raw.nodes["node"].to_numpy()
    order = np.argsort(ids)
    par = raw.nodes["parent"].to_numpy()
    pos = order[np.searchsorted(ids, par, sorter=order).clip(0, len(ids) - 1)]
    return np.where(par < 0, -1, pos)


# ----------------------------------------------------------------- generator
def test_shape_of_a_generated_profile():
    raw = generate(2000, ranks=4, seed=5)
    assert raw.num_nodes == 2000
    assert raw.index_levels == ("rank",)
    assert list(raw.nodes.columns) == ["node", "parent", "name", "type"]
    assert list(raw.node_columns.columns) == ["name", "file", "line"]
    assert raw.exc_metrics == ("time",) and raw.inc_metrics == ()
    assert set(raw.nodes["type"]) == {"function", "loop"}
    # one root, called main
    roots = raw.nodes[raw.nodes["parent"] == -1]
    assert roots["name"].tolist() == ["main"]
    # every node has exactly one row per rank: no rank missing
    m = raw.metrics
    assert len(m) == 8000
    assert m.groupby("node").size().eq(4).all()
    assert m.groupby("rank").size().to_dict() == {0: 2000, 1: 2000, 2: 2000, 3: 2000}
    assert (m["time"] > 0).all()


def test_tree_has_deep_chains_shallow_leaves_and_unique_sibling_names():
    raw = generate(3000, ranks=2, seed=1, depth=40)
    parent = _positions(raw)
    depth = shape.depth_of(parent)
    assert depth.max() == 40
    kids = np.bincount(parent[parent >= 0], minlength=len(parent))
    assert 0.5 < (kids == 0).mean() < 0.8          # many leaves
    assert np.median(depth) < 15                     # most of the tree is shallow
    siblings = pd.DataFrame({"parent": parent, "name": raw.nodes["name"]})
    assert not siblings.duplicated().any()           # names unique among siblings
    # ... but repeated across call paths: MPI_Allreduce under many parents
    per_name = siblings.groupby("name")["parent"].nunique()
    assert per_name.max() >= 50
    assert (per_name >= 5).sum() >= 20


def test_times_are_skewed_and_ranks_imbalanced():
    raw = generate(5000, ranks=8, seed=2)
    per_node = raw.metrics.groupby("node")["time"].sum().sort_values(ascending=False)
    assert per_node.head(50).sum() > 0.4 * per_node.sum()   # 1 % of nodes: > 40 % of time
    per_rank = raw.metrics.groupby("rank")["time"].sum()
    assert per_rank.max() / per_rank.min() > 1.1


def test_threads_and_no_ranks():
    raw = generate(300, ranks=2, threads=3, seed=0)
    assert raw.index_levels == ("rank", "thread")
    assert len(raw.metrics) == 1800
    assert raw.metrics.groupby(["rank", "thread"]).size().eq(300).all()
    single = generate(300, ranks=None)
    assert single.index_levels == () and len(single.metrics) == 300


def test_generator_is_deterministic():
    a, b = generate(1500, ranks=3, seed=7), generate(1500, ranks=3, seed=7)
    assert a.nodes.equals(b.nodes) and a.node_columns.equals(b.node_columns)
    assert a.metrics.equals(b.metrics)
    c = generate(1500, ranks=3, seed=8)
    assert not a.nodes["name"].equals(c.nodes["name"])
    va, vb = generate(1500, 3, seed=7, variant=0.1), generate(1500, 3, seed=7, variant=0.1)
    assert va.nodes.equals(vb.nodes) and va.metrics.equals(vb.metrics)


@pytest.mark.parametrize("fraction", [0.1, 0.2])
def test_variant_differs_by_about_the_fraction(fraction):
    base = generate(4000, ranks=2, seed=3)
    var = generate(4000, ranks=2, seed=3, variant=fraction)
    pa, pb = set(_paths(base).values()), set(_paths(var).values())
    changed = len(pa ^ pb) / base.num_nodes
    assert 0.6 * fraction < changed < 1.3 * fraction
    assert len(pb - pa) > 0 and len(pa - pb) > 0     # paths both added and removed
    # kept nodes keep their ids and their path; added ids follow the base's
    base_paths, var_paths = _paths(base), _paths(var)
    kept = [i for i in var_paths if i < base.num_nodes]
    assert all(var_paths[i] == base_paths[i] for i in kept)
    assert var.metrics.groupby("rank").size().eq(var.num_nodes).all()
    # times changed, but stay close for most kept nodes
    tb = base.metrics.set_index(["node", "rank"])["time"]
    tv = var.metrics.set_index(["node", "rank"])["time"]
    common = tb.index.intersection(tv.index)
    rel = (tv[common] / tb[common]).to_numpy()
    assert not np.allclose(rel, 1.0)
    assert np.median(np.abs(np.log(rel))) < 0.2


def test_generate_rejects_an_empty_profile():
    with pytest.raises(ValueError, match="at least one node"):
        generate(0)


@pytest.mark.parametrize("nodes", [1, 2, 5, 30])
def test_tiny_profiles_are_valid(nodes):
    raw = generate(nodes, ranks=2)
    assert raw.num_nodes == nodes
    assert graphframe.GraphFrame.from_raw(raw).graph.num_nodes == nodes


# ------------------------------------------------------------ literal writer
def test_literal_round_trip_through_read(tmp_path):
    raw = generate(400, ranks=3, seed=4)
    path = write_literal(raw, tmp_path / "p.json")
    back = graphframe.read(path)
    ours = graphframe.GraphFrame.from_raw(raw)
    assert back.graph == ours.graph
    assert list(back.dataframe.index.names) == ["node"]
    rank0 = ours.dataframe.xs(0, level="rank")
    for col in ("time", "name", "file", "line"):
        assert back.dataframe[col].tolist() == rank0[col].tolist(), col
    assert back.exc_metrics == ["time"]
    # another rank on request
    back2 = graphframe.read(write_literal(raw, tmp_path / "r2.json", rank=2))
    assert back2.dataframe["time"].tolist() == ours.dataframe.xs(2, level="rank")["time"].tolist()


def test_literal_writer_escapes_names_keeps_nan_and_forests(tmp_path):
    b = ProfileBuilder("t", index_levels=("rank",))
    a = b.add_node({"name": 'say "hi" \\ ü', "type": "function"})
    c = b.add_node({"name": "child", "line": 3}, parent=a)
    d = b.add_node({"name": "second root"})
    for node, value in ((a, 1.5), (c, math.nan), (d, 2.0)):
        b.add_row(node, {"time": value}, rank=0)
    raw = b.build(exc_metrics=["time"])
    path = write_literal(raw, tmp_path / "x.json")
    text = json.loads(path.read_text())
    assert [r["frame"]["name"] for r in text] == ['say "hi" \\ ü', "second root"]
    assert text[0]["children"][0] == {"frame": {"name": "child", "line": 3},
                                      "metrics": {"time": None}}
    back = graphframe.read(path)
    values = dict(zip(back.dataframe["name"], back.dataframe["time"]))
    assert values['say "hi" \\ ü'] == 1.5 and math.isnan(values["child"])


def test_literal_writer_refuses_shared_nodes(tmp_path):
    b = ProfileBuilder("t")
    a = b.add_node({"name": "a"})
    x = b.add_node({"name": "x"}, parent=a)
    y = b.add_node({"name": "y"}, parent=a)
    b.add_edge(y, x)
    for n in (a, x, y):
        b.add_row(n, {"time": 1.0})
    with pytest.raises(ValueError, match="shared nodes"):
        write_literal(b.build(exc_metrics=["time"]), tmp_path / "dag.json")


def test_writers_are_found_by_module_name(tmp_path):
    assert "literal" in writer_formats()
    assert writer("literal") is write_literal
    with pytest.raises(ValueError, match="no writer for format 'nope'; known: .*literal"):
        writer("nope")


def test_generate_command_writes_base_and_variant(tmp_path, capsys):
    assert gen_mod.main(["--nodes", "300", "--ranks", "2", "--format", "literal",
                         "--variant", "0.1", "--out", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    assert [p.rsplit("/", 1)[1] for p in written] == [
        "gen-n300-r2-s0.literal.json", "gen-n300-r2-s0-v0.1.literal.json"]
    base, variant = (graphframe.read(p) for p in written)
    assert base.graph.num_nodes == 300
    assert not base.graph == variant.graph


# -------------------------------------------------------------- the runner
def test_case_registry_has_the_initial_cases():
    initial = {"build", "read-literal", "tree", "inclusive", "to-literal", "copy"}
    assert initial <= set(cases.CASES)
    for name, c in cases.CASES.items():
        assert callable(c.ours.run)
        # every case has a Hatchet side except options Hatchet does not have
        assert (c.hatchet_side is None) == (name == "sub-fill")
    assert cases.CASES["read-literal"].single_process


def test_adding_a_case_is_one_function():
    @cases.case("test-only-squash", "a stand-in", needs=["gf_inc"])
    def squash(inp):
        return inp.gf_inc.graph.num_nodes

    try:
        assert cases.CASES["test-only-squash"].hatchet_side is None
        with pytest.raises(ValueError, match="registered twice"):
            cases.case("test-only-squash", "again")(lambda inp: None)
        result = measure.measure({"case": "test-only-squash", "side": "ours", "nodes": 120,
                                  "ranks": 2, "repeat": 2})
        assert len(result["times"]) == 2 and result["peak_kb"] > 0
    finally:
        del cases.CASES["test-only-squash"]


@pytest.mark.parametrize("name", ["build", "read-literal", "tree", "inclusive",
                                  "to-literal", "copy"])
def test_every_case_runs_on_a_tiny_input(name, tmp_path):
    result = measure.measure({"case": name, "side": "ours", "nodes": 150, "ranks": 2,
                              "repeat": 1, "cache_dir": str(tmp_path)})
    assert len(result["times"]) == 1 and not result["timed_out"]
    assert result["delta_kb"] >= 0


def test_inputs_cache_written_files(tmp_path):
    inp = Inputs(100, ranks=2, cache_dir=tmp_path)
    first = inp.path("literal")
    stamp = first.stat().st_mtime_ns
    again = Inputs(100, ranks=2, cache_dir=tmp_path).path("literal")
    assert again == first and again.stat().st_mtime_ns == stamp
    assert graphframe.read(first).graph.num_nodes == 100
    with pytest.raises(AttributeError, match="no benchmark input named 'nope'"):
        inp.nope


def test_run_command_end_to_end_without_hatchet(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert run.main(["--nodes", "100", "--ranks", "2", "--cases", "copy", "--repeat", "2",
                     "--no-hatchet", "--quiet", "--json", str(out),
                     "--cache", str(tmp_path)]) == 0
    table = capsys.readouterr().out
    assert "| 100 x 2 | copy |" in table
    report = json.loads(out.read_text())
    (rec,) = report["results"]
    assert rec["case"] == "copy" and len(rec["ours"]["times"]) == 2
    assert rec["hatchet"] == {"skipped": "--no-hatchet"}


def test_planner_skips_sizes_predicted_over_budget():
    p = run.Planner(budget=100)
    p.record("tree", 10_000, {"times": [5.0, 6.0]})
    assert p.skip_reason("tree", 30_000, 2.0) is None          # ~45 s
    assert p.skip_reason("tree", 100_000, 2.0) == ("skipped: ~500 s predicted > 100 s budget")
    p.record("slow", 10_000, {"timed_out": True})
    assert p.skip_reason("slow", 20_000, 1.0) == "skipped: over 100 s budget at 10,000 nodes"


@pytest.mark.skipif(not hatchet_available(), reason="hatchet not installed (bench extra)")
def test_hatchet_adapter_builds_the_same_profile():
    from benchmarks.hatchet_adapter import to_hatchet

    raw = generate(300, ranks=2, seed=6)
    hgf = to_hatchet(raw)
    ours = graphframe.GraphFrame.from_raw(raw)
    assert len(hgf.graph) == 300
    assert list(hgf.dataframe.index.names) == ["node", "rank"]
    assert len(hgf.dataframe) == 600
    names = [n.frame["name"] for n in hgf.graph.traverse()]
    assert names == ours.graph.attrs["name"].tolist()     # same pre-order
    assert hgf.dataframe["time"].sum() == pytest.approx(ours.dataframe["time"].sum())


@pytest.mark.parametrize("module", ["benchmarks.vocabulary", "benchmarks.shape",
                                    "benchmarks.generate", "graphframe_readers.testing.writers.literal",
                                    "benchmarks.inputs", "benchmarks.cases",
                                    "benchmarks.report", "benchmarks.run"])
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(module),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
