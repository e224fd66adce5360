"""Diffs of real profile pairs from ../shared/data (skipped until their readers are merged).

Every delta is checked against an independent computation: each profile's
values keyed by call path (the frames from the root along first parents), so
the union, the matching and the statuses are all verified.
"""

import io
import shutil

import numpy as np
import pytest

import graphframe
from graphframe import diff
from graphframe.cli import main
from graphframe.diffing import ranked_changes, regressions
from graphframe.errors import PoorMatchWarning
from graphframe.model.nodevalues import node_values

CALIPER = "caliper/thicket"
LULESH_27 = f"{CALIPER}/mpi_scaling_cali/27_cores.cali"
LULESH_64 = f"{CALIPER}/mpi_scaling_cali/64_cores.cali"
LULESH_JSON_8 = "caliper/hatchet/caliper-lulesh-json/lulesh-annotation-profile.json"
LULESH_JSON_64 = "caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json"
RAJA_1M = f"{CALIPER}/rajaperf/quartz/gcc10.3.1_1048576/O3/1/Base_Seq-default.cali"
RAJA_2M = f"{CALIPER}/rajaperf/quartz/gcc10.3.1_2097152/O3/1/Base_Seq-default.cali"
RAJA_128 = f"{CALIPER}/rajaperf/lassen/clang10.0.1_nvcc10.2.89_1048576/1/Base_CUDA-block_128.cali"
RAJA_256 = f"{CALIPER}/rajaperf/lassen/clang10.0.1_nvcc10.2.89_1048576/1/Base_CUDA-block_256.cali"
CPI = "hpctoolkit/hatchet-cpi-database"


def need(fmt):
    if fmt not in graphframe.formats():
        pytest.skip(f"the {fmt} reader is not merged yet")


def by_path(gf, metric, **select):
    """{call path of frames: value}, computed without Graph.union."""
    values = node_values(gf, metric, **select)
    g = gf.graph
    frames = [g.frame(v) for v in range(g.num_nodes)]
    paths, out = [], {}
    for v in range(g.num_nodes):
        p = int(g.parent[v])
        paths.append((frames[v],) if p < 0 else paths[p] + (frames[v],))
        out[paths[v]] = 0.0 if np.isnan(values[v]) else float(values[v])
    return out


def check_against_paths(d, before, after, metric, **select):
    b, a = by_path(before, metric, **select), by_path(after, metric, **select)
    got = by_path(d, f"{metric} delta")
    status = dict(zip(by_path(d, f"{metric} delta"), d.dataframe["status"]))
    assert set(got) == set(b) | set(a)
    for path, delta in got.items():
        assert delta == pytest.approx(a.get(path, 0.0) - b.get(path, 0.0), rel=1e-12, abs=1e-12)
        expected = "common" if path in a and path in b else ("added" if path in a else "removed")
        assert status[path] == expected, path


def test_lulesh_at_27_and_64_cores(shared_data):
    need("caliper")
    before = graphframe.read(shared_data / LULESH_27)
    after = graphframe.read(shared_data / LULESH_64)
    d = diff(before, after)
    for metric in d.metadata["diff"]["metrics"]:
        check_against_paths(d, before, after, metric)
    # 45 regions, in both runs
    assert (d.dataframe["status"] == "common").all() and d.graph.num_nodes == 45
    # weak scaling from 27 to 64 ranks: the whole run got slower, led by main and the cycle
    top = ranked_changes(d, top=3)
    assert top["path"].tolist()[:2] == ["main", "main > lulesh.cycle"]
    assert (top["delta"] > 0).all()
    main_row = d.dataframe[d.dataframe["name"] == "main"].iloc[0]
    assert main_row[f"{d.metadata['diff']['primary']} ratio"] > 1.0


def test_lulesh_json_8_and_64_ranks(shared_data):
    need("caliper-json")
    before = graphframe.read(shared_data / LULESH_JSON_8)
    after = graphframe.read(shared_data / LULESH_JSON_64)
    # two different builds: the 64-rank run has an MPI layer and a lulesh.cycle level, so
    # only main matches by call path, and the diff says so
    for aggregate in ("mean", "max"):
        with pytest.warns(PoorMatchWarning, match="share 1 of 68 nodes"):
            d = diff(before, after, "time", aggregate=aggregate)
        check_against_paths(d, before, after, "time", aggregate=aggregate)
    counts = d.dataframe["status"].value_counts().to_dict()
    assert counts["added"] > 0 and sum(counts.values()) == d.graph.num_nodes


def test_rajaperf_problem_sizes(shared_data):
    need("caliper")
    # with the time outside every region kept, under a '<no path>' root
    before = graphframe.read(shared_data / RAJA_1M, no_path="keep")
    after = graphframe.read(shared_data / RAJA_2M, no_path="keep")
    d = diff(before, after)
    for metric in d.metadata["diff"]["metrics"]:
        check_against_paths(d, before, after, metric)
    # twice the problem size: the whole suite takes about twice as long
    names = [d.graph.frame(r)["name"] for r in d.graph.root_ids]
    assert names == ["<no path>", "RAJAPerf"]
    root = d.dataframe.loc[d.graph.root_ids[1]]
    assert 1.5 < root[f"{d.metadata['diff']['primary']} ratio"] < 3.0
    # the time outside every region (RAJAPerf sets up its data there) grew the most
    assert ranked_changes(d, top=2)["name"].tolist() == ["<no path>", "RAJAPerf"]
    flat = diff(before, after, by="name")
    assert set(flat.dataframe["name"]) == set(before.dataframe["name"]) | set(
        after.dataframe["name"])


def test_rajaperf_block_sizes(shared_data):
    need("caliper")
    before = graphframe.read(shared_data / RAJA_128)
    after = graphframe.read(shared_data / RAJA_256)
    d = diff(before, after)
    check_against_paths(d, before, after, d.metadata["diff"]["primary"])
    assert (d.dataframe["status"] == "added").sum() == 3  # 64 nodes, then 67


def test_two_hpctoolkit_databases_of_one_run(shared_data, tmp_path):
    """cpi: the database, and a copy whose rank files are rotated (rank r holds r + 1's data).

    The corpus has no second database of the same program in the same layout, so the
    second one is made from real bytes: with the mean over ranks nothing changes, and
    rank 0 of the copy is rank 1 of the original.
    """
    need("hpctoolkit")
    src = shared_data / CPI
    rotated = tmp_path / "cpi-rotated"
    shutil.copytree(src, rotated)
    files = sorted(p.name for p in src.glob("*.metric-db"))
    for i, name in enumerate(files):
        (rotated / name).chmod(0o644)
        (rotated / name).write_bytes((src / files[(i + 1) % len(files)]).read_bytes())
    before = graphframe.read(src)
    after = graphframe.read(rotated)
    d = diff(before, after)
    assert (d.dataframe["status"] == "common").all()
    np.testing.assert_allclose(d.dataframe["time (inc) delta"], 0.0, atol=1e-9)
    d0 = diff(before, after, rank=0)
    expected = node_values(before, "time", rank=1) - node_values(before, "time", rank=0)
    np.testing.assert_allclose(d0.dataframe["time delta"], np.nan_to_num(expected), atol=1e-12)
    check_against_paths(d0, before, after, "time (inc)", rank=0)
    grew = int((d0.dataframe["time (inc) delta"] > 0).sum())
    assert grew > 0 and len(regressions(d0, 0.0)) == grew


def test_cli_on_a_real_pair(shared_data):
    need("caliper")
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", str(shared_data / LULESH_27), str(shared_data / LULESH_64),
                 "--top", "3", "--no-color"], stdout=out, stderr=err)
    assert code == 0 and err.getvalue() == ""
    lines = out.getvalue().splitlines()
    assert lines[3].startswith("Largest changes, inclusive")
    assert lines[5].endswith("  main")
    code = main(["diff", str(shared_data / LULESH_27), str(shared_data / LULESH_64),
                 "--fail-above", "5", "--no-tree"], stdout=io.StringIO(), stderr=err)
    assert code == 3 and "regressed by more than 5%" in err.getvalue()


RUNTIME = "caliper/generated/runtime-profile"


def test_exclusive_only_caliper_json_pair_is_diffed_inclusively(shared_data):
    """json-split profiles carry exclusive times only: the inclusive view is summed."""
    need("caliper-json")
    before = graphframe.read(shared_data / RUNTIME / "rp-json-split-1rank.json")
    after = graphframe.read(shared_data / RUNTIME / "rp-json-split-4ranks.json")
    assert before.inc_metrics == [] and after.inc_metrics == []
    d = diff(before, after)
    assert d.metadata["diff"]["computed_inclusive"] == ["time (inc)"]
    full = diff(before.update_inclusive_columns(inplace=False), after.update_inclusive_columns(inplace=False))
    np.testing.assert_allclose(d.dataframe["time (inc) delta"], full.dataframe["time (inc) delta"])
    table = ranked_changes(d, top=3)
    assert table.attrs["metric"] == "time (inc)"
    # main's own time barely moved; its subtree (halo exchange, reductions) grew a lot
    main_row = d.dataframe[d.dataframe["name"] == "main"].iloc[0]
    assert abs(main_row["time delta"]) < 0.05 and main_row["time (inc) delta"] > 0.5
    assert table["path"].tolist()[0] == "main"
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", str(shared_data / RUNTIME / "rp-json-split-1rank.json"),
                 str(shared_data / RUNTIME / "rp-json-split-4ranks.json"), "--no-color",
                 "--top", "2"], stdout=out, stderr=err)
    text = out.getvalue()
    assert code == 0 and "Largest changes, inclusive (time (inc)):" in text
    assert "Largest changes, exclusive (time):" in text
    assert "\n+0.7" in text  # the tree's first line: main's inclusive growth


CALLGRIND = "gprof2dot/generated-callgrind"


def test_call_graph_pair_never_adds_and_removes_one_function_under_one_caller(shared_data):
    """The same program's call graph at two levels of detail (the full one adds libc and
    the loader). A function called from the same caller in both must be matched, not
    reported once as removed and once as added."""
    need("gprof-dot")
    before = graphframe.read(shared_data / CALLGRIND / "workload.callgrind.dot")
    after = graphframe.read(shared_data / CALLGRIND / "workload.callgrind.full.dot")
    with pytest.warns(PoorMatchWarning, match="share 33 of 310 nodes"):
        d = diff(before, after)
    g, status = d.graph, d.dataframe["status"].to_numpy()
    seen = {}
    for v in range(g.num_nodes):
        callers = [p.frame for p in g.node(v).parents] or [None]
        for caller in callers:
            seen.setdefault((g.frame(v), caller), set()).add(status[v])
    both = sorted(str(frame["name"]) for (frame, _), s in seen.items()
                  if {"added", "removed"} <= s)
    assert both == []


RP = "caliper/generated/runtime-profile"


def test_one_program_in_cali_and_json_split_matches_every_node(shared_data):
    """Issue 19 item 2: the .cali and json-split encodings of one run label frames alike."""
    need("caliper")
    need("caliper-json")
    cali = graphframe.read(shared_data / RP / "rp-4ranks.cali")
    split = graphframe.read(shared_data / RP / "rp-json-split-4ranks.json")
    frames = sorted(map(str, (cali.graph.frame(v) for v in range(cali.graph.num_nodes))))
    assert frames == sorted(map(str, (split.graph.frame(v) for v in range(split.graph.num_nodes))))
    d = diff(cali, split)
    # 13 regions
    assert d.metadata["diff"]["match"] == {"common": 13, "nodes": 13, "fraction": 1.0}
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", str(shared_data / RP / "rp-4ranks.cali"),
                 str(shared_data / RP / "rp-json-split-4ranks.json"), "--no-tree"],
                stdout=out, stderr=err)
    assert code == 0 and "Note:" not in out.getvalue() and "added" not in out.getvalue()
