"""Caliper files from the shared corpus, against what Hatchet 2026.2.0 read from them."""

import math
import os
import random
import stat
from collections import defaultdict

import caliperreader
import numpy as np
import pandas as pd
import pytest

import graphframe
import graphframe_readers
from graphframe_readers import ReadError
from graphframe_readers.caliper import read_caliper
from graphframe_readers.testing import check_reader

from reference import describe as _describe

CALIPER = "caliper"
DIRECTORIES = ["caliper/generated/per-rank-3ranks", "caliper/generated/event-trace-2ranks"]
SPOT_TIMES = ["Min time/rank", "Max time/rank", "Avg time/rank", "Total time"]
RAJAPERF_CONSTANTS = ["BlockSize", "Bytes/Rep", "Flops/Rep", "Iterations/Rep", "Kernels/Rep",
                      "ProblemSize", "Reps"]


def corpus_files(root, suffix):
    out = []
    for dirpath, _, files in os.walk(root / CALIPER):
        out.extend(os.path.join(dirpath, f) for f in files if f.endswith(suffix))
    return sorted(os.path.relpath(p, root) for p in out)


def describe(gf):
    """tests/reference.describe, with text columns made plain objects (pandas 3's
    ``str`` dtype is not a numpy dtype and trips its numeric-column test)."""
    df = gf.dataframe.copy()
    for c in df.columns:
        if not pd.api.types.is_numeric_dtype(df[c]):
            df[c] = df[c].astype(object)
    view = type("View", (), {})()
    for name in ("graph", "exc_metrics", "inc_metrics", "default_metric"):
        setattr(view, name, getattr(gf, name))
    view.dataframe = df
    return _describe(view)


def read_like_hatchet(path):
    """Read as Hatchet does: records without a call path are left out."""
    if path.endswith(".json"):
        return graphframe.GraphFrame.from_caliper(path)  # the default: no_path="drop"
    return graphframe.GraphFrame.from_caliperreader(path)


# ------------------------------------------------------------ conformance
@pytest.fixture(scope="module")
def corpus(shared_data):
    # cali-query's other JSON renderings beside the profiles (golden outputs: json(object),
    # the globals) are not json-split profiles
    split = [rel for rel in corpus_files(shared_data, ".json") if is_json_split(shared_data / rel)]
    return corpus_files(shared_data, ".cali") + split + DIRECTORIES


def is_json_split(path) -> bool:
    try:
        return graphframe_readers.sniff(path) == "caliper-json"
    except graphframe_readers.UnknownFormatError:
        return False


def test_corpus_is_complete(corpus):
    assert len(corpus) == CORPUS_SIZE  # 35 .cali, 8 json-split, 2 per-rank directories
    assert sum(rel.endswith(".json") for rel in corpus) == 8


#: inputs in the corpus (see test_corpus_is_complete)
CORPUS_SIZE = 45


@pytest.mark.parametrize("index", range(CORPUS_SIZE))
def test_every_corpus_input_passes_the_reader_conformance_checks(shared_data, corpus, index,
                                                                 tmp_path):
    rel = corpus[index]
    fmt = "caliper-json" if rel.endswith(".json") else "caliper"
    raw = check_reader(shared_data / rel, fmt, tmp_path)
    gf = graphframe.GraphFrame.from_raw(raw)
    assert gf.tree(color=False)  # Hatchet's tree() crashes on its own sw4 result
    rows = len(gf.dataframe)
    ranks = gf.dataframe.index.get_level_values("rank").nunique() \
        if "rank" in gf.dataframe.index.names else 1
    assert rows == gf.graph.num_nodes * ranks  # exactly one row per (node, rank)


# ------------------------------------------------------- Hatchet's facts
def expected_facts(key, facts):
    """Hatchet's facts with its known errors corrected (each correction explained)."""
    want = dict(facts)
    sums = dict(want["numeric_sums"])
    if key.endswith(".json") or ".json#" in key:
        # Hatchet leaves the "Node order" column in exc_metrics after dropping it
        want["exc_metrics"] = [m for m in want["exc_metrics"] if m != "Node order"]
    else:
        # (the .cali "nid" sums are Hatchet's: the reader numbers nodes as Hatchet does)
        # min#/max#/avg#/sum# of inclusive#sum#time.duration are inclusive metrics; Hatchet
        # only looks at the alias ("Min time/rank") and calls them exclusive
        moved = [m for m in want["exc_metrics"] if m in SPOT_TIMES]
        want["exc_metrics"] = [m for m in want["exc_metrics"] if m not in SPOT_TIMES]
        want["inc_metrics"] = want["inc_metrics"] + moved
        # any#any#max#X are per-region constants ("any value of"), not additive metrics
        want["exc_metrics"] = [m for m in want["exc_metrics"] if m not in RAJAPERF_CONSTANTS]
    if "ranks" in want:
        # Hatchet adds an all-zero duplicate row per rank for each root (rp-4ranks: 56,
        # sw4: 2200); we have exactly one row per (node, rank)
        want["dataframe_rows"] = want["graph_nodes"] * want["ranks"]["count"]
    if key.endswith("lulesh-annotation-profile.cali"):
        # Hatchet picks "time" only when a "time (inc)" column exists; "time" is there
        want["default_metric"] = "time"
    want["numeric_sums"] = sums
    return want


FACT_KEYS = ("graph_nodes", "dataframe_rows", "df_unique_nodes", "index_names", "num_roots",
             "max_depth", "multi_parent_nodes", "exc_metrics", "inc_metrics", "default_metric",
             "ranks")


def hatchet_entries(reference_facts):
    return sorted(k for k, v in reference_facts.items()
                  if k.startswith("caliper/") and v.get("ok") and "timeseries" not in k)


def test_every_file_hatchet_reads_is_compared(reference_facts):
    assert len(hatchet_entries(reference_facts)) == 30  # and two timeseries files below


@pytest.mark.parametrize("index", range(30))
def test_counts_and_totals_match_hatchet(shared_data, reference_facts, index):
    key = hatchet_entries(reference_facts)[index]
    facts = reference_facts[key]
    gf = read_like_hatchet(str(shared_data / key.split("#")[0]))
    ours = describe(gf)
    want = expected_facts(key, facts)
    for fact in FACT_KEYS:
        if fact in want:
            assert ours[fact] == want[fact], f"{key}: {fact}"
    for column, total in want["numeric_sums"].items():
        assert math.isclose(ours["numeric_sums"][column], total, rel_tol=1e-9, abs_tol=1e-9), \
            f"{key}: sum of {column}"
    assert set(ours["numeric_sums"]) <= set(facts["numeric_sums"]), key
    assert set(gf.dataframe.columns) == set(facts["columns"]) - {"Node order"}, key
    assert set(facts["metadata_keys"]) <= set(gf.metadata), key


def test_hatchet_fails_on_json_without_node_order_but_we_read_it(shared_data, reference_facts):
    key = "caliper/hatchet/caliper-cpi-json/cpi-callpath-profile.json"
    assert "Node order" in reference_facts[key]["error"]
    gf = graphframe.GraphFrame.from_caliper(str(shared_data / key))  # node_ordering=True
    assert describe(gf)["graph_nodes"] == 127


# ------------------------------------------------------------- ordering
def children(gf, name):
    node = next(n for n in gf.graph.traverse() if n.frame["name"] == name)
    return [c.frame["name"] for c in sorted(node.children)]


@pytest.mark.parametrize("rel", [
    "caliper/hatchet/caliper-ordered-json/caliper-region-node-order.json",
    "caliper/hatchet/caliper-ordered-cali/230525-151052_1930517_eWbGeyrlBOPT.cali",
])
def test_caliper_node_order_is_kept(shared_data, rel):
    gf = read_like_hatchet(str(shared_data / rel))
    assert children(gf, "lulesh.cycle") == ["TimeIncrement", "LagrangeLeapFrog"]
    assert children(gf, "LagrangeLeapFrog") == ["LagrangeNodal", "LagrangeElements",
                                                "CalcTimeConstraintsForElems"]


# ---------------------------------------------- independent oracles (caliperreader)
def oracle(path, keep=lambda record: True, no_path=True):
    """Records of ``path`` as read by Caliper's own Python reader, keyed by
    (call path, rank), with the region-profile channel only; records without a
    call path under ``("<no path>",)`` (in these files each holds a metric value),
    or left out with ``no_path=False``."""
    reader = caliperreader.CaliperReader()
    reader.read(path)
    out = defaultdict(list)
    for record in reader.records:
        if record.get("spot.channel", "regionprofile") != "regionprofile":
            continue
        if "path" not in record and not no_path:
            continue
        path_ = record.get("path", ["<no path>"])
        path_ = path_ if isinstance(path_, list) else [path_]
        if keep(record):
            out[(tuple(path_), int(record.get("mpi.rank", 0)))].append(record)
    return out


def by_path(gf, column):
    """{(call path, rank): value} of one dataframe column."""
    df = gf.dataframe
    out = {}
    ranks = df.index.get_level_values("rank") if "rank" in df.index.names else [0] * len(df)
    for node, rank, value in zip(df.index.get_level_values("node"), ranks, df[column]):
        path = tuple(n.frame["name"] for n in graphframe.Node(int(node), gf.graph).path())
        out[(path, rank)] = value
    return out


def test_event_traces_aggregate_to_a_profile(shared_data):
    directory = shared_data / DIRECTORIES[1]
    gf = graphframe.GraphFrame.from_caliperreader(str(directory), no_path="keep")
    ours = by_path(gf, "time.duration.ns")
    expected = defaultdict(int)
    for f in sorted(directory.iterdir()):
        for key, records in oracle(str(f)).items():
            expected[key] += sum(int(r["time.duration.ns"]) for r in records)
    # 12 regions and the time outside them (one record per rank, under "<no path>")
    assert gf.graph.num_nodes == 13 + 1 and len(ours) == 26 + 2
    assert ours[(("<no path>",), 0)] > 0 and ours[(("<no path>",), 1)] > 0
    for key, value in ours.items():
        assert value == expected.get(key, 0), key  # write_header ran on rank 0 only
    assert gf.exc_metrics == ["time.duration.ns", "region.count"]
    dropped = graphframe.GraphFrame.from_caliperreader(str(directory))  # as Hatchet
    assert by_path(dropped, "time.duration.ns") == \
        {k: v for k, v in ours.items() if k[0] != ("<no path>",)}
    outside = ours[(("<no path>",), 0)] + ours[(("<no path>",), 1)]
    assert dropped.metadata["unattributed"] == {"time.duration.ns": outside}


def test_per_rank_files_read_as_one_profile(shared_data):
    directory = shared_data / DIRECTORIES[0]
    gf = graphframe.GraphFrame.from_caliperreader(str(directory))
    assert (gf.graph.num_nodes, len(gf.dataframe)) == (13, 39)  # as Hatchet
    kept = graphframe.GraphFrame.from_caliperreader(str(directory), no_path="keep")
    assert (kept.graph.num_nodes, len(kept.dataframe)) == (13 + 1, 39 + 3)  # with <no path>
    ours = by_path(gf, "time")
    for rank in range(3):
        single = by_path(graphframe.GraphFrame.from_caliperreader(
            str(directory / f"rp-permpi-3ranks-rank{rank}.cali")), "time")
        for (path, _), value in single.items():
            assert ours[(path, rank)] == value
    assert ours[(("main", "timestep", "checkpoint", "write_header"), 1)] == 0.0
    assert gf.metadata["mpi.world.size"] == 3
    assert len(gf.metadata["starttime.nsec"]) == 3  # differs per file: one value per file


def test_per_rank_sets_refuse_a_rank_in_two_files(shared_data, tmp_path):
    trace0 = shared_data / DIRECTORIES[1] / "trace-2ranks-rank0.cali"
    with pytest.raises(ReadError, match="the file is listed twice"):
        graphframe.GraphFrame.from_caliperreader([str(trace0), str(trace0)])
    copy = tmp_path / "copy.cali"
    copy.write_bytes(trace0.read_bytes())
    with pytest.raises(ReadError, match=r"copy\.cali: rank 0 is also the rank of "
                                        r".*trace-2ranks-rank0\.cali"):
        graphframe.GraphFrame.from_caliperreader([str(trace0), str(copy)])
    # rp-4ranks holds ranks 0-3 in its records; the per-rank file is rank 0 again
    four = shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali"
    single = shared_data / DIRECTORIES[0] / "rp-permpi-3ranks-rank0.cali"
    with pytest.raises(ReadError, match=r"rank0\.cali: rank 0 is also the rank of "
                                        r".*rp-4ranks\.cali"):
        graphframe.GraphFrame.from_caliperreader([str(four), str(single)])


def test_timeseries_snapshots_merge_by_operator(shared_data):
    # Hatchet sums every column over the snapshots, min# and max# included, and a
    # record lacking a value turns the node's total into NaN; here sums add, min#
    # keeps the minimum, max# the maximum, and absent entries count as no value
    path = str(shared_data / "caliper/hatchet/caliper-timeseries-cali/timeseries.cali")
    gf = graphframe.GraphFrame.from_caliperreader(path)
    records = oracle(path, no_path=False)
    for column, combine in [("sum#time.duration.ns", sum), ("min#time.duration.ns", min),
                            ("max#time.duration.ns", max), ("count", sum)]:
        ours = by_path(gf, column)
        for key, recs in records.items():
            values = [float(r[column]) for r in recs if column in r]
            assert ours[key] == (combine(values) if values else 0), (column, key)
    assert "timeseries.starttime" not in gf.exc_metrics  # a timestamp, never summed
    assert gf.default_metric == "loop.iterations"


TIMESERIES = ["caliper/hatchet/caliper-timeseries-cali/timeseries.cali",
              "caliper/hatchet/caliper-timeseries-cali/230711-163829_2055495_OV0UMVFsW6yp.cali"]


@pytest.mark.parametrize("rel", TIMESERIES)
def test_timeseries_averages_are_weighted_by_their_counts(shared_data, rel):
    # avg#X of a snapshot is sum#X / (its number of X values); the average over all
    # snapshots of a region is the sum of their sums over the sum of their counts, not
    # the mean of their averages (timeseries.cali: lulesh.cycle 56103.025, the mean of
    # averages is 61505.6; 6 of its 19 nodes differ)
    path = str(shared_data / rel)
    gf = graphframe.GraphFrame.from_caliperreader(path)
    ours = by_path(gf, "avg#time.duration.ns")
    regions = by_path(gf, "avg#region.count")
    checked = 0
    for key, recs in oracle(path, no_path=False).items():
        timed = [r for r in recs if "avg#time.duration.ns" in r]
        if timed:
            total = sum(float(r["sum#time.duration.ns"]) for r in timed)
            count = sum(int(r["count"]) for r in timed)
            assert ours[key] == pytest.approx(total / count, rel=1e-12), key
            checked += 1
        # every snapshot's region.count average is 1 (one per region entry), so the
        # merged average is 1 too, whatever the weights
        if any("avg#region.count" in r for r in recs):
            assert regions[key] == 1.0, key
    assert checked == len(ours)  # every node has timed snapshots
    if rel.endswith("timeseries.cali"):
        cycle = ours[(("main", "lulesh.cycle"), 0)]
        assert round(cycle, 3) == 56103.025


def test_small_timeseries_file_against_hatchet(shared_data, reference_facts):
    """230711-...OV0UMVFsW6yp.cali (22 snapshots of 4 regions) against Hatchet's facts,
    each difference explained and checked against Caliper's own reader."""
    rel = TIMESERIES[1]
    facts = reference_facts[rel]
    gf = graphframe.GraphFrame.from_caliperreader(str(shared_data / rel), no_path="drop")
    ours = describe(gf)
    for fact in ("graph_nodes", "dataframe_rows", "df_unique_nodes", "index_names", "num_roots",
                 "max_depth", "multi_parent_nodes", "inc_metrics", "default_metric"):
        assert ours[fact] == facts[fact], fact
    # "iterations" is a global attribute (one value for the run: the loop count the
    # program was given): run metadata, where every other Caliper global goes; Hatchet
    # repeats it in every row as a column
    assert set(facts["columns"]) - set(ours["columns"]) == {"iterations"}
    assert set(ours["columns"]) <= set(facts["columns"])
    assert gf.metadata["iterations"] == 100 and "iterations" in facts["metadata_keys"]
    # timestamps, snapshot numbers and the iteration number are attributes, never summed
    attributes = ["timeseries.starttime", "timeseries.snapshot", "iteration#mainloop"]
    assert ours["exc_metrics"] == [m for m in facts["exc_metrics"] if m not in attributes]
    # totals: Hatchet sums every column over a region's snapshots, and a snapshot
    # lacking the column makes the region's total NaN, which then drops out of the
    # column's total (count: 101 of the 403 snapshots counted). Ours, like Caliper's
    # reader: sums add over every snapshot, min#/max# keep the extreme, avg# is
    # weighted by the snapshots' counts, attributes keep the first value
    records = oracle(str(shared_data / rel), no_path=False)

    def column(name):
        return {key: [float(r[name]) if name in r else math.nan for r in recs]
                for key, recs in records.items()}

    def hatchet_total(name):
        totals = [sum(values) for values in column(name).values()]
        return sum(t for t in totals if not math.isnan(t))

    def present(values):
        return [v for v in values if not math.isnan(v)]

    weights = column("count")  # every avg#region.count is 1: any weights give 1

    def average(key, values):
        pairs = [(a, w) for a, w in zip(values, weights[key]) if not math.isnan(a)]
        return sum(a * w for a, w in pairs) / sum(w for _, w in pairs) if pairs else 0.0

    combine = {
        "sum": lambda key, v: sum(present(v)),
        "min": lambda key, v: min(present(v), default=0.0),
        "max": lambda key, v: max(present(v), default=0.0),
        "avg": average,
        "first": lambda key, v: (present(v) or [math.nan])[0],
    }
    kinds = {"count": "sum", "loop.iterations": "sum", "timeseries.duration": "sum",
             "timeseries.starttime": "first", "timeseries.snapshot": "first",
             "loop.start_iteration": "first", "iteration#mainloop": "first"}
    differ = set()
    for name, hatchet in facts["numeric_sums"].items():
        if name == "nid":
            continue  # Hatchet numbers nodes around its double registration of roots
        assert hatchet_total(name) == pytest.approx(hatchet, rel=1e-12), name
        kind = kinds.get(name, name.split("#")[0])
        expected = {key: combine[kind](key, v) for key, v in column(name).items()}
        got = by_path(gf, name)
        for key, value in expected.items():
            if math.isnan(value):
                assert math.isnan(got[key]), (name, key)
            else:
                # (avg# x count is the sum up to the 6 decimals the averages are written with)
                assert got[key] == pytest.approx(value, rel=1e-9), (name, key)
        if ours["numeric_sums"][name] != pytest.approx(hatchet, rel=1e-12):
            differ.add(name)
    assert ours["numeric_sums"]["count"] == 403 and facts["numeric_sums"]["count"] == 101
    assert differ == {"count", "sum#time.duration.ns", "min#time.duration.ns",
                      "max#time.duration.ns", "avg#time.duration.ns", "sum#region.count",
                      "min#region.count", "max#region.count", "avg#region.count",
                      "timeseries.duration", "timeseries.starttime", "timeseries.snapshot",
                      "loop.start_iteration", "iteration#mainloop"}


def test_sw4_cuda_activity_profile(shared_data):
    path = "caliper/hatchet/caliper-sw4-cuda-activity-cali/caliper_cuda_activity_profile.cali"
    gf = graphframe.GraphFrame.from_caliperreader(str(shared_data / path), no_path="keep")
    kinds = pd.Series([n.frame["type"] for n in gf.graph.traverse()]).value_counts().to_dict()
    activities = {(key[0], r.get("cupti.kernel.name", r.get("cupti.activity.kind")))
                  for key, recs in oracle(str(shared_data / path)).items() for r in recs
                  if "cupti.activity.kind" in r}
    # 14 kernels ran outside every region: children of "<no path>" (Hatchet drops them)
    assert kinds["kernel"] + kinds["memcpy"] == len(activities) == 156 + 14
    assert kinds == {"function": 393 + 1, "kernel": 155 + 14, "memcpy": 1}
    df = gf.dataframe
    assert not df.index.duplicated().any() and len(df) == (549 + 15) * 4
    dropped = graphframe.GraphFrame.from_caliperreader(str(shared_data / path))  # the default
    assert (dropped.graph.num_nodes, len(dropped.dataframe)) == (549, 549 * 4)


def test_our_decoder_and_caliper_reader_agree(shared_data):
    for rel in corpus_files(shared_data, ".cali"):
        if "doc-examples" in rel:
            continue  # Caliper 1.x: no nested attributes, so caliper-reader gives no "path"
        reader = caliperreader.CaliperReader()
        reader.read(str(shared_data / rel))
        a, b = read_caliper(str(shared_data / rel)), read_caliper(reader)
        for name in ("nodes", "metrics", "node_columns"):
            pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_dtype=False,
                                          obj=f"{rel} {name}")
        assert (a.exc_metrics, a.inc_metrics, a.default_metric, a.ordered) == \
            (b.exc_metrics, b.inc_metrics, b.default_metric, b.ordered), rel
        assert {k: v for k, v in a.metadata.items() if k != "source"} == \
            {k: v for k, v in b.metadata.items() if k != "source"}, rel


def test_caliper_1_snapshot_trace(shared_data, reference_facts):
    rel = "caliper/caliper-repo/doc-examples/160809-094411_72298_fuu1NeAHT2US.cali"
    assert reference_facts[rel]["error"] == "KeyError: 'nid'"  # Hatchet cannot read it
    gf = graphframe.GraphFrame.from_caliperreader(str(shared_data / rel))
    # its phases ("main", "iteration", "factorial") are context attributes without the
    # nested property, which Caliper 1.x did not have: they form the call path
    assert [n.frame["name"] for n in gf.graph.roots] == ["init", "body"]  # first seen first
    assert gf.inc_metrics == ["time.inclusive.duration"]
    reader = caliperreader.CaliperReader()
    reader.read(str(shared_data / rel))
    total = sum(int(r["time.inclusive.duration"]) for r in reader.records
                if "time.inclusive.duration" in r)
    assert gf.dataframe["time.inclusive.duration"].sum() == total == 4968


def test_metadata_values(shared_data):
    gf = graphframe.GraphFrame.from_caliperreader(
        str(shared_data / "caliper/hatchet/caliper-example-cali/example-profile.cali"))
    assert gf.metadata["mpi.world.size"] == 1 and isinstance(gf.metadata["libraries"], list)
    assert gf.metadata["cali.caliper.version"].startswith("2.")


# ------------------------------------------------------------- cali-query
def test_query_needs_cali_query(shared_data, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    path = str(shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali")
    with pytest.raises(ReadError, match="needs Caliper's cali-query program, which is not "
                                        "installed") as info:
        graphframe.GraphFrame.from_caliper(path, query="select * format json-split")
    assert path in str(info.value)
    # without a query the .cali file is decoded directly (52 rows, and with
    # no_path="keep" 4 for the time outside every region, one per rank)
    assert len(graphframe.GraphFrame.from_caliper(path).dataframe) == 52
    assert len(graphframe.GraphFrame.from_caliper(path, no_path="keep").dataframe) == 52 + 4


def test_query_runs_cali_query(shared_data, monkeypatch, tmp_path):
    split = shared_data / "caliper/generated/runtime-profile/rp-json-split-4ranks.json"
    tool = tmp_path / "cali-query"
    tool.write_text(f"#!/bin/sh\n[ \"$1\" = -q ] || exit 3\nexec /bin/cat '{split}'\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path))
    path = str(shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali")
    gf = graphframe.GraphFrame.from_caliper(path, query="format json-split")
    assert len(gf.dataframe) == 52 and gf.metadata["format"] == "caliper-json"
    tool.write_text("#!/bin/sh\necho 'unknown keyword' >&2\nexit 2\n")
    with pytest.raises(ReadError, match=r"cali-query failed \(exit status 2\): unknown keyword"):
        graphframe.GraphFrame.from_caliper(path, query="bogus")
    assert np.isfinite(gf.dataframe["time"]).all()


# ------------------------------------------------------------- damaged files
@pytest.mark.parametrize("seed", range(4))
def test_damaged_files_read_or_fail_with_read_error(shared_data, tmp_path, seed):
    """Random damage (cuts, flipped bytes, lost, doubled or garbage lines) gives a
    valid profile or a ReadError naming the file: never another exception."""
    rng = random.Random(seed)
    files = ["caliper/hatchet/caliper-ordered-cali-mpi/230525-151723_1930647_FSY8b8cKSEEi.cali",
             "caliper/generated/runtime-profile/rp-4ranks.cali",
             "caliper/hatchet/caliper-cpi-json/cpi-callpath-profile.json",
             "caliper/generated/runtime-profile/rp-json-split-4ranks.json"]
    outcomes = defaultdict(int)
    for trial in range(40):
        rel = rng.choice(files)
        data = bytearray((shared_data / rel).read_bytes())
        kind = rng.choice(["cut", "flip", "lines"])
        if kind == "cut":
            data = data[:rng.randrange(len(data))]
        elif kind == "flip":
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.choice(b'0123456789=,[]{}":-\\x\xff')
        else:
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            action = rng.randrange(3)
            if action == 0:
                del lines[i]
            elif action == 1:
                lines.insert(i, lines[rng.randrange(len(lines))])
            else:
                lines.insert(i, bytes(rng.randrange(256) for _ in range(rng.randint(1, 30))))
            data = bytearray(b"\n".join(lines))
        path = tmp_path / f"damaged{trial}{os.path.splitext(rel)[1]}"
        path.write_bytes(bytes(data))
        try:
            graphframe.GraphFrame.from_raw(
                graphframe_readers.read(path, format="caliper-json" if rel.endswith(".json") else "caliper"))
            outcomes["read"] += 1
        except ReadError as exc:
            assert str(path) in str(exc)
            outcomes["ReadError"] += 1
    assert outcomes["ReadError"] > 0

