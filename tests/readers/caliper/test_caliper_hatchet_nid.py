"""The ``nid`` column of ``.cali`` reads holds the ids Hatchet's reader gives (its node
creation counter), checked against values Hatchet 2024.1.3 and 2026.2.0 print for the
same files (Thicket shows them in every dataframe)."""

import numpy as np
import pytest

import graphframe

pytestmark = pytest.mark.filterwarnings("ignore")


def nids(gf):
    df = gf.dataframe.reset_index()
    if "rank" in df:
        df = df[df["rank"] == df["rank"].min()]
    return {(str(n), int(i)) for n, i in zip(df["name"], df["nid"])}


# (file under ../shared/data, a few (name, nid) pairs Hatchet gives, Hatchet's largest nid)
CASES = [
    ("ensemble/thicket-tutorial/lassen/clang10.0.1_nvcc10.2.89_1048576/1/Base_CUDA-block_128.cali",
     {("RAJAPerf", 1), ("Algorithm", 10), ("Algorithm_REDUCE_SUM", 11),
      ("Algorithm_MEMSET", 12), ("Algorithm_MEMCPY", 13), ("Apps", 4)}),
    ("ensemble/thicket-tutorial/lassen/clang10.0.1_nvcc10.2.89_1048576/1/Base_CUDA-block_1024.cali",
     {("RAJAPerf", 1), ("Algorithm", 11), ("Algorithm_REDUCE_SUM", 12),
      ("Algorithm_MEMSET", 13), ("Algorithm_MEMCPY", 14), ("Apps", 4)}),
    ("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali",
     {("ApplyMaterialPropertiesForElems", 16), ("CalcEnergyForElems", 18),
      ("CalcFBHourglassForceForElems", 10), ("CalcForceForNodes", 6)}),
    ("caliper/thicket/mpi_scaling_cali/27_cores.cali",
     {("ApplyMaterialPropertiesForElems", 42), ("CalcEnergyForElems", 44),
      ("CalcFBHourglassForceForElems", 26), ("CalcForceForNodes", 21)}),
    ("caliper/hatchet/caliper-sw4-cuda-activity-profile-cali/"
     "caliper_cuda_activity_profile_summary_v2.cali",
     {("CLEAN_TIME", 10), ("COMM_ACTUAL", 57), ("COMM_ACTUAL", 66), ("COMM_WINDOW", 56)}),
]


@pytest.mark.parametrize("rel, expected", CASES, ids=[c[0].split("/")[-1] for c in CASES])
def test_nid_is_hatchets(shared_data, rel, expected):
    path = shared_data / rel
    if not path.exists():
        pytest.skip(f"{rel} is not in the shared data")
    got = nids(graphframe.GraphFrame.from_caliperreader(str(path)))
    assert expected <= got


def test_rajaperf_root_is_one_and_ids_unique(shared_data):
    path = shared_data / CASES[0][0]
    if not path.exists():
        pytest.skip("the lassen tutorial ensemble is not in the shared data")
    gf = graphframe.GraphFrame.from_caliperreader(str(path))
    ids = gf.dataframe["nid"].to_numpy()
    # Hatchet spends id 0 on the root's entry in its list of roots, so RAJAPerf is 1
    assert ids[0] == 1 and len(np.unique(ids)) == len(ids) == 64
