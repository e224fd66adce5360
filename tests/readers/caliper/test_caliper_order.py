"""Sibling order of `.cali` files: Hatchet 2026.2.0's node creation order when the file
records no node order (docs/readers/caliper.md, "Sibling order")."""

import itertools

import numpy as np
import pytest

import graphframe
from graphframe_readers.caliper import read_caliper

from test_caliper_cali import CaliText, REGION, VALUE, names, rows

LULESH = "caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali"
# files without a usable node order (and the timeseries whose raw slot restarts), each
# with a float column to print, or
# None where Hatchet's tree() cannot be compared: it raises on the duplicate root rows of
# multi-rank files, and prints nan for nodes with a snapshot that lacks the metric
# (docs/readers/caliper.md, "Differences from Hatchet")
SIDE_BY_SIDE = {
    LULESH: "time",
    "caliper/hatchet/caliper-example-cali/example-profile.cali": "Min time/rank",
    "caliper/hatchet/spotdb/0.cali": "Min time/rank",
    "caliper/thicket/mpi_scaling_cali/27_cores.cali": "Min time/rank",
    "caliper/thicket/rajaperf/lassen/clang10.0.1_nvcc10.2.89_1048576/1/Base_CUDA-block_128.cali":
        "Min time/rank",
    "caliper/hatchet/caliper-sw4-cuda-activity-profile-cali/"
    "caliper_cuda_activity_profile_summary_v2.cali": None,
    "caliper/hatchet/caliper-timeseries-cali/230711-163829_2055495_OV0UMVFsW6yp.cali": None,
    "caliper/hatchet/caliper-ordered-cali/230525-151052_1930517_eWbGeyrlBOPT.cali":
        "Min time/rank",
}


def creation_file(tmp_path):
    """Records main, main/b, main/a/x, main/z, main/a: `a` is first met as x's ancestor."""
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    time = c.attribute("sum#time.duration", alias="time")
    main = c.path(region, "main")
    b = c.path(region, "b", parent=main)
    a = c.path(region, "a", parent=main)
    x = c.path(region, "x", parent=a)
    z = c.path(region, "z", parent=main)
    for ref, t in [(main, 1.0), (b, 2.0), (x, 3.0), (z, 5.0), (a, 4.0)]:
        c.ctx([ref], {time: t})
    return c.write(tmp_path / "creation.cali")


def test_creation_order_puts_ancestors_first(tmp_path):
    path = creation_file(tmp_path)
    gf = graphframe.GraphFrame.from_caliperreader(path)
    # Hatchet numbers a node made for a record's own path and leaves -1 on an ancestor made
    # on the way (a), then sorts siblings by that number, stably: a, b, z
    assert names(gf) == ["main", "a", "x", "b", "z"] and gf.graph.ordered
    assert rows(gf, "name") == ["main", "a", "x", "b", "z"]
    assert rows(gf, "time") == [1.0, 4.0, 3.0, 2.0, 5.0]
    # Hatchet's ids, in record order: main's root entry 0, main 1, b 2, then x's missing
    # ancestor a 3 before x 4, z 5
    assert rows(gf, "nid") == [1, 3, 4, 2, 5]
    assert gf.tree(render_header=False) == (
        "1.000 main\n├─ 4.000 a\n│  └─ 3.000 x\n├─ 2.000 b\n└─ 5.000 z\n")
    unordered = graphframe.GraphFrame.from_caliperreader(path, node_ordering=False)
    assert names(unordered) == ["main", "a", "x", "b", "z"] and not unordered.graph.ordered
    raw = read_caliper(path)
    assert raw.ordered and not read_caliper(path, node_ordering=False).ordered


def test_first_seen_roots_and_frame_order_without_node_ordering(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    time = c.attribute("sum#time.duration", alias="time")
    for label in ["zeta", "alpha", "mid"]:
        c.ctx([c.path(region, label)], {time: 1.0})
    path = c.write(tmp_path / "roots.cali")
    assert names(graphframe.GraphFrame.from_caliperreader(path)) == ["zeta", "alpha", "mid"]
    assert names(graphframe.GraphFrame.from_caliperreader(path, node_ordering=False)) == \
        ["alpha", "mid", "zeta"]


def test_per_rank_files_order_as_one_stream(tmp_path):
    rank = {}
    for r, paths in [(0, [("main",), ("main", "solve")]), (1, [("main", "io", "write"),
                                                              ("main", "init")])]:
        c = CaliText()
        region = c.attribute("region", "string", REGION)
        mpi = c.attribute("mpi.rank", "int", VALUE)
        time = c.attribute("sum#time.duration", alias="time")
        for labels in paths:
            c.ctx([c.path(region, *labels)], {time: 1.0, mpi: r})
        rank[r] = c.write(tmp_path / f"r{r}.cali")
    gf = graphframe.GraphFrame.from_caliperreader([rank[0], rank[1]])
    # io is first met (in rank 1's file) as write's ancestor: before solve
    assert names(gf) == ["main", "io", "write", "solve", "init"]


def test_a_restarting_slot_is_not_a_node_order(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    slot = c.attribute("aggregate.slot", "uint", VALUE)
    time = c.attribute("sum#time.duration", alias="time")
    main = c.path(region, "main")
    init, loop = c.path(region, "init", parent=main), c.path(region, "loop", parent=main)
    # two snapshots: the slots start again at 0 in the second one
    for ref, s in [(main, 0), (init, 1), (loop, 2), (main, 0), (loop, 1)]:
        c.ctx([ref], {time: 1.0, slot: s})
    path = c.write(tmp_path / "series.cali")
    assert names(graphframe.GraphFrame.from_caliperreader(path)) == ["main", "init", "loop"]
    # a slot each node keeps is Caliper's node order
    c.lines = [line for line in c.lines if not line.startswith("__rec=ctx")]
    for ref, s in [(main, 0), (init, 2), (loop, 1)]:
        c.ctx([ref], {time: 1.0, slot: s})
    path = c.write(tmp_path / "flushed-once.cali")
    assert names(graphframe.GraphFrame.from_caliperreader(path)) == ["main", "loop", "init"]


def test_real_files_keep_hatchets_order(shared_data):
    gf = graphframe.GraphFrame.from_caliperreader(str(shared_data / LULESH))
    # what Hatchet 2026.2.0 prints
    assert names(gf)[:5] == ["main", "lulesh.cycle", "TimeIncrement", "LagrangeLeapFrog",
                             "LagrangeNodal"]
    kept = graphframe.GraphFrame.from_caliperreader(str(shared_data / LULESH), no_path="keep")
    assert names(kept)[:2] == ["<no path>", "main"]  # graphframe's extra root, first
    gf = graphframe.GraphFrame.from_caliperreader(
        str(shared_data / "caliper/thicket/mpi_scaling_cali/27_cores.cali"), no_path="drop")
    assert names(gf)[:6] == ["MPI_Comm_split", "MPI_Bcast", "MPI_Allreduce", "MPI_Comm_free",
                             "MPI_Gather", "main"]
    assert [int(n) for n in gf.dataframe.index[:3]] == [0, 1, 2]
    assert gf.dataframe["name"].tolist()[:3] == ["MPI_Comm_split", "MPI_Bcast", "MPI_Allreduce"]
    frame_order = graphframe.GraphFrame.from_caliperreader(
        str(shared_data / "caliper/thicket/mpi_scaling_cali/27_cores.cali"), no_path="drop",
        node_ordering=False)
    assert names(frame_order)[:3] == ["MPI_Allreduce", "MPI_Bcast", "MPI_Comm_dup"]


def test_query_results_follow_the_order(shared_data):
    gf = graphframe.GraphFrame.from_caliperreader(str(shared_data / LULESH), no_path="drop")
    # Hatchet 2026.2.0 gives the same three results
    assert gf.filter([{"node_id": 5}], squash=False).dataframe["name"].tolist() == \
        ["CalcForceForNodes"]
    assert gf.filter([{"name": "Calc.*"}, "*"], squash=False).dataframe["name"].tolist() == [
        "CalcForceForNodes", "CalcVolumeForceForElems", "IntegrateStressForElems",
        "CalcHourglassControlForElems", "CalcFBHourglassForceForElems", "CalcLagrangeElements",
        "CalcKinematicsForElems", "CalcQForElems", "CalcMonotonicQForElems", "CalcEnergyForElems",
        "CalcTimeConstraintsForElems"]
    squashed = gf.filter([{"name": "Lagrange.*"}], squash=True)
    assert names(squashed) == ["LagrangeLeapFrog", "LagrangeNodal", "LagrangeElements"]


# ------------------------------------------------------------ side by side
@pytest.fixture(scope="module")
def hatchet():
    return pytest.importorskip("hatchet", reason="the side-by-side checks run Hatchet "
                               "2026.2.0 (the bench extra, pandas 2)")


def _hatchet_view(gf, metric):
    row_names = [k for k, _ in itertools.groupby(gf.dataframe["name"].tolist())]
    tree = None if metric is None else gf.tree(metric_column=metric, render_header=False,
                                               precision=6)
    return [n.frame["name"] for n in gf.graph.traverse()], row_names, tree


@pytest.mark.parametrize("rel", sorted(SIDE_BY_SIDE))
def test_same_order_as_hatchet(hatchet, shared_data, rel):
    metric = SIDE_BY_SIDE[rel]
    theirs = hatchet.GraphFrame.from_caliperreader(str(shared_data / rel))
    ours = graphframe.GraphFrame.from_caliperreader(str(shared_data / rel), no_path="drop")
    h_nodes, h_rows, h_tree = _hatchet_view(theirs, metric)
    g_nodes, g_rows, g_tree = _hatchet_view(ours, metric)
    assert g_nodes == h_nodes
    # Hatchet's multi-rank files repeat the roots' rows (an all-zero duplicate per rank):
    # consecutive equal names are compared once
    assert g_rows == h_rows
    assert g_tree == h_tree


def test_hand_written_file_as_hatchet(hatchet, tmp_path):
    path = creation_file(tmp_path)
    theirs = hatchet.GraphFrame.from_caliperreader(path)
    ours = graphframe.GraphFrame.from_caliperreader(path)
    assert names(ours) == [n.frame["name"] for n in theirs.graph.traverse()]
    assert ours.tree(render_header=False) == theirs.tree(render_header=False)
    assert np.array_equal(ours.dataframe["time"].to_numpy(), theirs.dataframe["time"].to_numpy())
