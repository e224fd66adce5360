"""Ensemble acceptance facts on the Thicket and Hatchet tutorial data (../shared/data/ensemble)."""

import os
import shutil

import numpy as np
import pytest

from graphframe import Ensemble
from graphframe.errors import ReadError

TUT = "ensemble/thicket-tutorial"


@pytest.fixture(scope="module")
def lassen(shared_data):
    return Ensemble.read(shared_data / TUT / "lassen")


def test_lassen_union_and_intersection(lassen, shared_data):
    # Thicket's facts (67 nodes, 1,340 dense rows; intersection 64): the records
    # without a call path are left out by default, as Thicket does; with
    # no_path="keep" each file's time outside every region is under one more root
    assert lassen.num_profiles == 20
    assert lassen.graph.num_nodes == 67 and lassen.dense().dataframe.shape[0] == 1340
    inter = Ensemble.read(shared_data / TUT / "lassen", intersection=True)
    assert (inter.graph.num_nodes, len(inter.dataframe)) == (64, 64 * 20)
    assert lassen.intersection().graph == inter.graph
    # what was left out, per profile and metric (87.3 s of 89.4 in the first file)
    left_out = dict(lassen.metadata["unattributed"].iloc[0])
    assert left_out["Avg time/rank"] == pytest.approx(87.307466)
    kept = Ensemble.read(shared_data / TUT / "lassen", no_path="keep")
    assert kept.graph.num_nodes == 67 + 1
    assert kept.graph.roots[0].frame["name"] == "<no path>"
    assert kept.dense().dataframe.shape[0] == (67 + 1) * 20
    kept = Ensemble.read(shared_data / TUT / "lassen", no_path="keep", intersection=True)
    assert (kept.graph.num_nodes, len(kept.dataframe)) == (64 + 1, (64 + 1) * 20)
    assert "unattributed" not in kept.metadata.columns


def test_lassen_metadata_and_groups(lassen):
    meta = lassen.metadata
    assert meta.shape[0] == 20 and meta.index.name == "profile"
    for column in ("variant", "tuning", "ProblemSizeRunParam", "compiler", "launchdate"):
        assert column in meta.columns
    assert isinstance(meta["libraries"].iloc[0], tuple)
    groups = lassen.groupby(["ProblemSizeRunParam"])
    assert list(groups) == [1048576.0, 2097152.0, 4194304.0, 8388608.0]
    assert [groups[k].num_profiles for k in groups] == [8, 4, 4, 4]
    assert sorted(lassen.get_unique_metadata()["tuning"]) == \
        ["block_1024", "block_128", "block_256", "block_512"]


def test_lassen_columns_never_sum_attributes(lassen):
    assert lassen.inc_metrics == ["Min time/rank", "Max time/rank", "Avg time/rank", "Total time"]
    assert "BlockSize" not in lassen.exc_metrics + lassen.inc_metrics
    assert not any("(inc)" in str(c) for c in lassen.dataframe.columns)
    out = lassen.intersection()
    assert not any("(inc)" in str(c) for c in out.dataframe.columns)


def test_quartz_gcc_and_mpi_scaling(shared_data):
    gcc = Ensemble.read(shared_data / TUT / "quartz" / "GCC_10.3.1_BaseSeq_08388608",
                        no_path="keep")
    assert (gcc.num_profiles, gcc.graph.num_nodes, len(gcc.dataframe)) == (40, 75, 3000)
    mpi = Ensemble.read(shared_data / TUT / "mpi_scaling_cali", no_path="keep")
    assert (mpi.num_profiles, mpi.graph.num_nodes, len(mpi.dataframe)) == (5, 46, 230)
    # Thicket's facts, the default: 74 nodes, 2,960 rows; 45 nodes, 225 rows
    gcc = Ensemble.read(shared_data / TUT / "quartz" / "GCC_10.3.1_BaseSeq_08388608")
    assert (gcc.num_profiles, gcc.graph.num_nodes, len(gcc.dataframe)) == (40, 74, 2960)
    mpi = Ensemble.read(shared_data / TUT / "mpi_scaling_cali", no_path="drop")
    assert (mpi.num_profiles, mpi.graph.num_nodes, len(mpi.dataframe)) == (5, 45, 225)


def test_workers_give_the_same_ensemble(shared_data):
    path = shared_data / TUT / "quartz" / "GCC_10.3.1_BaseSeq_08388608"
    one = Ensemble.read(path)
    two = Ensemble.read(path, jobs=2)
    assert one.graph == two.graph
    assert one.dataframe.equals(two.dataframe)
    assert one.profiles.equals(two.profiles)


def test_lulesh_scaling_has_a_rank_level(shared_data):
    ens = Ensemble.read(shared_data / "ensemble/hatchet-tutorial/lulesh-scaling")
    assert ens.num_profiles == 8 and ens.index_levels == ["rank"]
    rows = dict(zip(ens.profiles["path"].map(os.path.basename), ens.profiles["rows"]))
    assert rows["lulesh-annotation-profile-343cores.json"] == 15435  # as Hatchet
    assert ens.dataframe.index.names == ["node", "profile", "rank"]
    ranks = ens.dataframe.xs(ens.profiles.index[ens.profiles["path"].str.contains("-512cores")][0],
                             level="profile").index.get_level_values("rank")
    assert ranks.nunique() == 512


def test_content_hash_is_the_identity(tmp_path, shared_data):
    src = sorted((shared_data / TUT / "mpi_scaling_cali").glob("*.cali"))[0]
    shutil.copy(src, tmp_path / "a.cali")
    shutil.copy(src, tmp_path / "b.cali")
    ens = Ensemble.read(tmp_path)
    assert ens.profiles["hash"].nunique() == 1 and len(ens.profiles) == 2


def test_bad_files_among_good_ones(tmp_path, shared_data):
    good = sorted((shared_data / TUT / "mpi_scaling_cali").glob("*.cali"))
    for f in good:
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "truncated.cali").write_bytes(good[0].read_bytes()[:700])
    (tmp_path / "foreign.json").write_text('{"not": "a profile"}')
    (tmp_path / "empty.cali").write_bytes(b"")
    with pytest.raises(ReadError) as info:
        Ensemble.read(tmp_path)
    assert "empty.cali" in str(info.value)
    ens = Ensemble.read(tmp_path, on_error="skip")
    assert ens.num_profiles == 5 and ens.graph.num_nodes == 45
    assert sorted(ens.errors["path"].map(os.path.basename)) == \
        ["empty.cali", "foreign.json", "truncated.cali"]
    assert "3 skipped" in ens.summary()
    with pytest.warns(UserWarning) as record:
        Ensemble.read(tmp_path, on_error="warn", jobs=2)
    assert sorted(name for name in ("empty.cali", "foreign.json", "truncated.cali")
                  if any(name in str(w.message) for w in record)) == \
        ["empty.cali", "foreign.json", "truncated.cali"]


def test_highwatermark_merges_as_a_maximum(shared_data):
    import graphframe
    gf = graphframe.read(shared_data / "caliper/hatchet/caliper-timeseries-cali/timeseries.cali")
    assert gf.aggregations["alloc.region.highwatermark"] == "max"
    assert gf.dataframe["alloc.region.highwatermark"].max() == 63732320.0
    assert np.isclose(gf.dataframe["alloc.region.highwatermark"].max(), 6.373232e7)


def test_per_rank_caliper_and_hpctoolkit_databases_are_ordinary_members(shared_data):
    cal = Ensemble.read([shared_data / "caliper/generated/per-rank-3ranks",
                         shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali"])
    assert cal.index_levels == ["rank"] and cal.graph.num_nodes == 13
    ranks = cal.dataframe.groupby(level="profile").apply(
        lambda rows: rows.index.get_level_values("rank").nunique()).tolist()
    assert ranks == [3, 4]
    db = shared_data / "hpctoolkit/hatchet-cpi-database"
    one = Ensemble.read(db)
    assert one.num_profiles == 1 and one.profiles["format"].tolist() == ["hpctoolkit"]
    two = Ensemble.read([db, shared_data / "hpctoolkit/hatchet-osu-allgather-database"])
    assert two.index_levels == ["rank", "thread"] and two.profiles["nodes"].tolist() == [34, 1474]


def test_non_additive_caliper_columns_get_no_inclusive_sums(shared_data):
    # min#/max#/avg# merge by their operator and alloc.region.highwatermark is a maximum:
    # recomputing inclusive columns leaves them alone; the additive ones get "(inc)"
    import graphframe
    gf = graphframe.read(shared_data / "caliper/hatchet/caliper-timeseries-cali/timeseries.cali")
    inc = gf.update_inclusive_columns(inplace=False).inc_metrics
    assert inc == ["loop.iterations (inc)", "timeseries.duration (inc)",
                   "sum#time.duration.ns (inc)", "count (inc)", "sum#region.count (inc)"]
    ens = Ensemble.read([shared_data / "caliper/hatchet/caliper-timeseries-cali/timeseries.cali"])
    lulesh = ens.dataframe.xs(0, level="profile")
    assert lulesh["alloc.region.highwatermark"].max() == 63732320.0
    assert ens.aggregations["alloc.region.highwatermark"] == "max"


def test_records_without_a_path_are_one_root_per_rank(shared_data):
    cali = shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali"
    kept = Ensemble.read([cali], no_path="keep")
    root = [i for i in range(kept.graph.num_nodes) if kept.graph.frame(i)["name"] == "<no path>"]
    assert root == [0] and kept.graph.parent[0] == -1
    rows = kept.dataframe.xs(0, level="node")
    assert rows.index.get_level_values("rank").tolist() == [0, 1, 2, 3]
    assert (rows["time"] > 0).all()
    dropped = Ensemble.read([cali])  # the default, as Hatchet
    assert dropped.graph.num_nodes == kept.graph.num_nodes - 1
    assert len(dropped.dataframe) == len(kept.dataframe) - 4
