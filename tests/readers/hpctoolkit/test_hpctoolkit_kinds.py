"""The ``type`` column of the current HPCToolkit layout: the kind of each context (call sites,
inlined functions, GPU kernels/operations/instructions, OpenMP regions), while frames keep
Hatchet's lexical types."""

from __future__ import annotations

import pytest

from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe import GraphFrame
from graphframe_readers.hpctoolkit.latest.kinds import KINDS
from tests.readers.hpctoolkit.hpctoolkit_helpers import KINDS_EXPECTED, KINDS_TREE, kinds_profile


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return write_hpctoolkit_latest(kinds_profile(), tmp_path_factory.mktemp("kinds") / "db")


def test_every_kind_on_a_written_database(db):
    gf = GraphFrame.from_hpctoolkit_latest(db)
    df = gf.dataframe
    by_ctx = dict(zip(df["ctx_id"].tolist(), df["type"].tolist()))
    # the writer numbers contexts 1..n in node order; the entry point comes last
    assert [by_ctx[k + 1] for k in range(len(KINDS_TREE))] == KINDS_EXPECTED
    assert by_ctx[len(KINDS_TREE) + 1] == "entry"
    assert set(KINDS_EXPECTED) | {"entry"} == set(KINDS)
    # frames keep Hatchet's lexical types: the kinds are a dataframe column only
    frame_types = {gf.graph.frame_dict(n)["type"] for n in range(gf.graph.num_nodes)}
    assert frame_types == {"entry", "function", "line", "loop", "instruction"}
    swap = df.index[df["name"] == "function: swap"][0]
    assert gf.graph.frame_dict(swap) == {"type": "function", "name": "function: swap"}


def test_per_profile_rows_carry_the_kind(db):
    df = GraphFrame.from_hpctoolkit_latest(db, parallel_profiles_mode=True).dataframe
    kernel = df[df["name"] == "function: <gpu kernel>"]
    assert kernel["type"].tolist() == ["gpu kernel"]
    assert list(df.index.names) == ["node", "rank"]


# kinds counted on the real databases (the GPU ones have kernels, copies and GPU binaries; gamess
# and the inline database have OpenMP regions; every current database has call sites)
REAL = {
    "hatchet-gamess-v4-database": {
        "call site": 3573, "entry": 2, "function": 3881, "gpu kernel": 12, "gpu operation": 21,
        "inlined function": 68, "instruction": 29, "line": 1297, "loop": 2415,
        "openmp region": 3, "openmp runtime": 1},
    "hpcviewer-derived-metrics-v4-database": {
        "call site": 119, "entry": 3, "function": 49, "gpu instruction": 4, "gpu kernel": 6,
        "gpu operation": 19, "inlined function": 1, "line": 17, "loop": 5, "openmp region": 2},
    "hpcviewer-issue-328-v4-database": {
        "call site": 158, "entry": 1, "function": 98, "gpu function": 2, "gpu kernel": 2,
        "gpu operation": 4, "inlined function": 2, "instruction": 8, "line": 29, "loop": 21},
    "hpcviewer-inline-v4-database": {
        "call site": 21, "entry": 3, "function": 16, "inlined function": 8, "line": 15,
        "loop": 13, "openmp region": 2},
    "hpcviewer-multithread-v4-database": {"call site": 8, "function": 207, "line": 5},
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_kinds_on_real_databases(shared_data, name):
    gf = GraphFrame.from_hpctoolkit_latest(shared_data / "hpctoolkit" / name)
    df = gf.dataframe
    assert df["type"].value_counts().sort_index().to_dict() == REAL[name]
    # a call site is a line or instruction frame with a called function (or instruction) below
    sites = df.index[df["type"] == "call site"]
    assert {gf.graph.frame_dict(n)["type"] for n in sites} <= {"line", "instruction"}


def test_gpu_and_openmp_nodes_on_real_databases(shared_data):
    root = shared_data / "hpctoolkit"
    df = GraphFrame.from_hpctoolkit_latest(root / "hpcviewer-derived-metrics-v4-database").dataframe
    kernels = df[df["type"] == "gpu kernel"]
    assert set(kernels["name"]) == {"function: <gpu kernel>"}
    ops = set(df.loc[df["type"] == "gpu operation", "name"])
    assert ops == {f"function: <gpu {op}>" for op in
                   ("alloc", "copy", "copyin", "copyout", "delete", "memset", "sync")}
    gpu_ins = df[df["type"] == "gpu instruction"]
    assert gpu_ins["module"].str.endswith(".gpubin").all()
    assert set(df.loc[df["type"] == "openmp region", "name"]) == {"function: main._omp_fn.0"}
    gamess = GraphFrame.from_hpctoolkit_latest(root / "hatchet-gamess-v4-database").dataframe
    assert sorted(gamess.loc[gamess["type"] == "openmp region", "name"]) == [
        "function: kin_ovl_ints$omp_int1__cray$mt$p0003",
        "function: nuc_ints$omp_int1__cray$mt$p0004",
        "function: ompmod_exchng$ompmod__cray$mt$p0004"]
    assert gamess.loc[gamess["type"] == "openmp runtime", "name"].tolist() == [
        "function: <omp idle>"]
    amd = GraphFrame.from_hpctoolkit_latest(root / "hpcviewer-issue-328-v4-database").dataframe
    assert set(amd.loc[amd["type"] == "gpu function", "module"]) == {"<logical gpu-kernel>"}
