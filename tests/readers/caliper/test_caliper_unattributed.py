"""Records outside every annotated region: left out as Hatchet and Thicket do (the
default ``no_path="drop"``), but their totals stay visible (metadata, ``graphframe
info``, a ``tree()`` footer above 1 % of the total)."""

import io

import pytest

import graphframe
import graphframe.thicket as th
from graphframe.cli.main import main

# a RAJAPerf CUDA run: 87.3 s of its 89.4 s are outside every region (the GPU work
# launched before the first kernel region, the suite's setup)
CUDA = ("ensemble/thicket-tutorial/lassen/clang10.0.1_nvcc10.2.89_1048576/1/"
        "Base_CUDA-block_1024.cali")
LULESH_64 = "caliper/hatchet-tutorial/lulesh-json/lulesh-annotation-profile-64cores.json"
FOOTER = ("Not in the tree: Min time/rank 87.3075 (97.6 % of the total) outside every "
          "annotated region (no_path=\"keep\" shows it as a '<no path>' root)")


@pytest.fixture(scope="module")
def cuda(shared_data):
    return graphframe.GraphFrame.from_caliperreader(str(shared_data / CUDA))


def test_the_default_leaves_them_out_and_says_how_much(cuda):
    assert [cuda.graph.frame(r)["name"] for r in cuda.graph.root_ids] == ["RAJAPerf"]
    assert cuda.graph.num_nodes == 65 and len(cuda.dataframe) == 65  # Thicket's counts
    metrics = ["Min time/rank", "Max time/rank", "Avg time/rank", "Total time"]
    assert cuda.metadata["unattributed"] == {m: 87.307466 for m in metrics}
    # the share of the profile as read: 87.307466 / (87.307466 + 2.123946 at RAJAPerf)
    share = cuda.metadata["unattributed share"]
    assert share == {m: pytest.approx(87.307466 / (87.307466 + 2.123946), rel=1e-12)
                     for m in metrics}


def test_the_tree_ends_with_a_line_about_them(cuda):
    text = cuda.tree(depth=2)
    assert text.splitlines()[-1] == FOOTER
    assert text.splitlines()[2] == "2.124 RAJAPerf"
    # a filtered tree says what its source left out (the share as read)
    part = cuda.filter(lambda row: row["name"] in ("RAJAPerf", "Apps"))
    assert part.tree().splitlines()[-1] == FOOTER


def test_no_line_below_one_percent(shared_data):
    gf = graphframe.GraphFrame.from_caliper(str(shared_data / LULESH_64))
    assert gf.metadata["unattributed"] == {"time (inc)": 221038.0, "time": 221038.0}
    assert gf.metadata["unattributed share"]["time"] < 0.01
    assert "Not in the tree" not in gf.tree()
    assert gf.graph.num_nodes == 45 and len(gf.dataframe) == 2880  # Hatchet's counts


def test_keep_puts_them_under_their_own_root(shared_data):
    gf = graphframe.GraphFrame.from_caliperreader(str(shared_data / CUDA), no_path="keep")
    assert [gf.graph.frame(r)["name"] for r in gf.graph.root_ids] == ["<no path>", "RAJAPerf"]
    assert "unattributed" not in gf.metadata and "Not in the tree" not in gf.tree()
    root = gf.dataframe[gf.dataframe["name"] == "<no path>"]
    assert root["Avg time/rank"].tolist() == [87.307466]


def test_graphframe_info_prints_them(shared_data):
    out, err = io.StringIO(), io.StringIO()
    assert main(["info", str(shared_data / CUDA)], stdout=out, stderr=err) == 0
    line = [x for x in out.getvalue().splitlines() if x.startswith("outside:")]
    assert line == ["outside:   Min time/rank 87.3075 (97.6 %); Max time/rank 87.3075 (97.6 %); "
                    "Avg time/rank 87.3075 (97.6 %); Total time 87.3075 (97.6 %): outside "
                    "every annotated region, not in the tree (no_path=keep shows them)"]


def test_thicket_keeps_its_metadata_table_and_offers_them_apart(shared_data):
    tk = th.Thicket.from_caliperreader(str(shared_data / CUDA), disable_tqdm=True)
    assert "unattributed" not in tk.metadata.columns
    assert "unattributed share" not in tk.metadata.columns
    label = tk.profile[0]   # the hash of the path, as Thicket labels it
    assert tk.unattributed.loc[label, "Avg time/rank"] == 87.307466
    assert "Not in the tree" not in tk.tree()  # Thicket's tree, as Thicket prints it
    # selections carry them along
    assert tk.filter_profile([label]).unattributed.loc[label, "Total time"] == 87.307466
