"""The Thicket tutorial notebook (01_thicket_tutorial, without its stats/plot cells) with
``import graphframe.thicket as tt`` instead of ``import thicket as tt``."""

import re

import pandas as pd
import pytest

import graphframe.thicket as tt

SIZES = ["1048576", "2097152", "4194304", "8388608"]


@pytest.fixture(scope="module")
def lassen(shared_data):
    return shared_data / "ensemble" / "thicket-tutorial" / "lassen"


def files(lassen, block, sizes=SIZES):
    return [str(lassen / f"clang10.0.1_nvcc10.2.89_{x}" / "1" / f"Base_CUDA-{block}.cali")
            for x in sizes]


def test_notebook_cells(lassen):
    th_lassen = tt.Thicket.from_caliperreader(files(lassen, "block_128"), disable_tqdm=True)
    th_obj = tt.Thicket.from_caliperreader(files(lassen, "block_128") +
                                           files(lassen, "block_256", SIZES[:1]),
                                           disable_tqdm=True)
    assert th_lassen.dataframe.shape == (256, 14)
    assert th_lassen.tree(metric_column="Avg time/rank", render_header=False) \
        .splitlines()[0].endswith("RAJAPerf")
    th_example = th_obj.filter_metadata(lambda x: x["ProblemSizeRunParam"] == 1048576.0)
    assert th_example.metadata.shape[0] == 2
    groups = th_lassen.groupby(["launchdate", "ProblemSizeRunParam"])
    assert len(groups) == 4 and all(t.metadata.shape[0] == 1 for t in groups.values())
    stats_nodes = ["RAJAPerf", "Algorithm", "Stream_MUL"]
    th_stats_name = th_obj.filter_stats(lambda x: x["name"] in stats_nodes)
    assert th_stats_name.statsframe.dataframe["name"].tolist() == stats_nodes
    q1 = (tt.QueryMatcher().match("*").rel(
        ".", lambda row: row["name"].apply(lambda x: re.match(r"Algorithm.*", x) is not None)
        .all()))
    ex1 = th_lassen.query(q1)
    names = [ex1.graph.frame(i)["name"] for i in range(ex1.graph.num_nodes)]
    assert names == ["RAJAPerf", "Algorithm", "Algorithm_MEMCPY", "Algorithm_MEMSET",
                     "Algorithm_REDUCE_SUM"]
    q2 = (tt.QueryMatcher().match(
        ".", lambda row: row["name"].apply(lambda x: re.match(r"Algorithm.*", x) is not None)
        .all()).rel("*"))
    ex2 = th_lassen.query(q2)
    assert ex2.graph.num_nodes == 4
    assert pd.unique(ex1.dataframe.reset_index()["node"])[0] == 0


def test_concatenating_notebook_cells(lassen):
    blocks = ["block_128", "block_256", "block_512", "block_1024"]
    tks = [tt.Thicket.from_caliperreader(files(lassen, b), disable_tqdm=True) for b in blocks]
    tk = tt.Thicket.concat_thickets(axis="index", thickets=tks, disable_tqdm=True)
    assert len(tk.profile) == 16 and tk.dataframe.shape == (16 * 67, 14)
    ctk = tt.Thicket.concat_thickets(axis="columns", thickets=tks,
                                     headers=["Block 128", "Block 256", "Block 512", "Block 1024"],
                                     metadata_key="ProblemSizeRunParam", disable_tqdm=True)
    assert ctk.dataframe.shape == (268, 53)  # 4 x 13 columns + one name (as Thicket)
    assert ctk.dataframe.loc[(0, 1048576.0), ("Block 128", "Min time/rank")] == \
        pytest.approx(1.780923, rel=1e-6)
    every = tt.Thicket.from_caliperreader(str(lassen / "**" / "1" / "*.cali"), disable_tqdm=True)
    gb = every.groupby("tuning")
    ctk2 = tt.Thicket.concat_thickets(axis="columns", thickets=list(gb.values()),
                                      headers=list(gb.keys()), metadata_key="ProblemSizeRunParam",
                                      disable_tqdm=True)
    assert ctk2.dataframe.shape == (268, 53)
