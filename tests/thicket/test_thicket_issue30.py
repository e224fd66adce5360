"""Thicket code as Thicket users run it (issue 30): the facts below are what Thicket
2026.1.1 (and, where its tests say so, 2024.2) gives on the same files, measured side by
side; the tests are ours."""

import glob
import os

import numpy as np
import pandas as pd
import pytest

import graphframe.thicket as th
from graphframe import GraphFrame
from graphframe.thicket.profiles import profile_hasher

T = th.Thicket
MPI = "caliper/thicket/mpi_scaling_cali"
MPI_TUTORIAL = "ensemble/thicket-tutorial/mpi_scaling_cali"
LASSEN_1M = "ensemble/thicket-tutorial/lassen/clang10.0.1_nvcc10.2.89_1048576"
ONE_TRIAL = "caliper/thicket/rajaperf"


@pytest.fixture(scope="module")
def mpi_files(shared_data):
    return sorted(glob.glob(str(shared_data / MPI / "*.cali")))


@pytest.fixture(scope="module")
def mpi(mpi_files):
    return T.from_caliperreader(mpi_files, disable_tqdm=True)


@pytest.fixture(scope="module")
def one_trial(shared_data):
    files = sorted(glob.glob(str(shared_data / ONE_TRIAL / "**/1/*.cali"), recursive=True))
    return T.from_caliperreader(files, disable_tqdm=True)


# ------------------------------------------------------------------ labels
def test_profiles_are_labelled_by_the_hash_of_their_path(mpi, mpi_files):
    labels = [profile_hasher(f) for f in mpi_files]
    assert list(mpi.metadata.index) == sorted(labels)
    assert mpi.profile_mapping == dict(sorted(zip(labels, mpi_files)))
    # Thicket composes the files pairwise, first two to the back: 27 343 64 125 216
    names = [os.path.basename(mpi.profile_mapping[p]) for p in mpi.profile]
    assert names == ["27_cores.cali", "343_cores.cali", "64_cores.cali", "125_cores.cali",
                     "216_cores.cali"]
    with pytest.raises(th.DuplicateIndexError):
        T.from_caliperreader([mpi_files[0], mpi_files[0]], disable_tqdm=True)


# -------------------------------------------------- profiles keyed by metadata
def test_column_concatenation_pairs_profiles_by_label_position(shared_data):
    """Without metadata_key Thicket pairs the i-th profile (in label order) of each input:
    the cross-compiler correlation at the root is Thicket's -0.030."""
    quartz = shared_data / "ensemble/thicket-tutorial/quartz"
    clang = T.from_caliperreader(str(quartz / "clang14.0.6_BaseSeq_8388608"), disable_tqdm=True)
    gcc = T.from_caliperreader(
        sorted(glob.glob(str(quartz / "GCC_10.3.1_BaseSeq_08388608/O3/**/*.cali"),
                         recursive=True)), disable_tqdm=True)
    both = T.concat_thickets([clang, gcc], axis="columns", headers=["Clang", "GCC"])
    assert both.dataframe.index.names == ["node", "profile"]
    assert sorted(both.profile) == sorted((i, h) for i in range(10) for h in ("Clang", "GCC"))
    out = th.stats.correlation_nodewise(both, column1=("Clang", "time (exc)"),
                                        column2=("GCC", "time (exc)"), correlation="spearman")
    root = both.statsframe.dataframe.index[0]
    # the i-th clang run (by label) beside the i-th gcc run: Thicket's pairing (with the
    # tutorial's relative paths the labels give Thicket's -0.030 at the root)
    pairs = pd.DataFrame({
        "clang": clang.dataframe.xs(root, level="node")["time (exc)"].to_numpy(),
        "gcc": gcc.dataframe.xs(root, level="node")["time (exc)"].to_numpy()[:10]})
    want = pairs["clang"].corr(pairs["gcc"], method="spearman")
    assert float(both.statsframe.dataframe.loc[root, out[0]]) == pytest.approx(want)


def test_column_concatenation_keyed_by_metadata(one_trial):
    gb = one_trial.groupby("tuning")
    joined = T.concat_thickets(list(gb.values()), axis="columns", headers=list(gb),
                               metadata_key="ProblemSizeRunParam", disable_tqdm=True)
    # "default" holds two profiles, in label order (the hash of their path)
    default = one_trial.metadata.index[one_trial.metadata["tuning"] == "default"]
    sizes = one_trial.metadata.loc[default, "ProblemSizeRunParam"].tolist()
    assert sorted(sizes) == [1048576.0, 2097152.0]
    assert joined.profile == [(1048576.0, "block_128"), (1048576.0, "block_256")] + \
        [(size, "default") for size in sizes]
    assert joined.metadata.index.tolist() == [1048576.0, 2097152.0]
    assert (joined.dataframe.shape, joined.metadata.shape) == ((148, 40), (2, 93))
    with pytest.raises(th.DuplicateIndexError):   # a key repeated within one input
        T.concat_thickets([one_trial, one_trial], axis="columns", metadata_key="variant")


def test_from_statsframes_refuses_shared_keys(one_trial):
    gb = one_trial.groupby("tuning")
    for tk in gb.values():
        tk.statsframe.dataframe["mean"] = 1
    out = T.from_statsframes(list(gb.values()), metadata_key="tuning")
    assert out.dataframe.shape == (222, 2) and out.profile == ["block_128", "block_256",
                                                               "default"]
    first = list(gb.values())[0]
    with pytest.raises(th.DuplicateValueError):
        T.from_statsframes([first, first], metadata_key="tuning")


def test_groupby_agg_names_and_index(shared_data):
    tk = T.from_caliperreader(
        sorted(glob.glob(str(shared_data / LASSEN_1M / "**/*.cali"), recursive=True)),
        disable_tqdm=True)
    gb = tk.groupby(["variant", "tuning"])
    assert list(gb) == [("Base_CUDA", "block_1024"), ("Base_CUDA", "block_128"),
                        ("Base_CUDA", "block_256"), ("Base_CUDA", "block_512")]
    agg = gb.agg(np.mean)
    df = agg.dataframe
    assert df.index.names == ["node", "variant", "tuning"]
    assert list(df.columns[:3]) == ["nid_mean", "Min time/rank_mean", "Max time/rank_mean"]
    # Thicket's value: the mean of the two block_128 runs at the root
    assert df.loc[(0, "Base_CUDA", "block_128"), "Avg time/rank_mean"] == \
        pytest.approx(1.779628, abs=1e-6)
    one = gb.aggregate_thicket(gb[("Base_CUDA", "block_128")], np.mean)
    assert one.dataframe.index.names == ["node", "variant", "tuning"]
    both = tk.groupby("spot.format.version").agg({"Min time/rank": [np.mean, np.var],
                                                   "Total time": np.mean})
    assert list(both.dataframe.columns[:3]) == ["Min time/rank_mean", "Min time/rank_var",
                                                "Total time_mean"]


# ------------------------------------------------------------------ names
def test_reader_dispatch_and_its_errors(shared_data, mpi_files):
    read = GraphFrame.from_caliperreader
    with pytest.raises(ValueError, match="Iterable must contain at least one file"):
        T.reader_dispatch(read, False, True, True, [])
    with pytest.raises(ValueError, match="Path 'blah' not found"):
        T.reader_dispatch(read, False, True, True, "blah")
    with pytest.raises(FileNotFoundError, match="File 'blah' not found"):
        T.reader_dispatch(read, False, True, True, ["blah"])
    with pytest.raises(TypeError, match="'int' is not a valid type to be read from"):
        T.reader_dispatch(read, False, True, True, -1)
    tk = T.reader_dispatch(read, False, True, True, mpi_files[:2])
    assert tk.dataframe.shape == (90, 7)
    assert sorted(tk.profile) == sorted(profile_hasher(f) for f in mpi_files[:2])


def test_metadata_column_to_perfdata_and_tree_indices(mpi):
    tk = mpi.copy()
    tk.metadata_column_to_perfdata("jobsize")
    assert sorted(set(tk.dataframe["jobsize"].astype(int))) == [27, 64, 125, 216, 343]
    first = tk.tree("Avg time/rank", indices=tk.profile[0], render_header=False)
    assert first.splitlines()[0].split()[-1] == "MPI_Allreduce"
    tk.dataframe = tk.dataframe.reset_index().set_index(["node", "jobsize"]).sort_index()
    by_size = tk.tree("Avg time/rank", indices=[343], render_header=False)
    assert by_size == tk.tree("Avg time/rank", indices=343, render_header=False)
    with pytest.raises(KeyError, match=r"The indices, \{'jobsize': 7\}, do not exist"):
        tk.tree("Avg time/rank", indices=[7])


def test_filter_metadata_errors_and_own_graph(mpi):
    with pytest.raises(th.EmptyMetadataTable,
                       match="The provided filter function resulted in an empty MetadataTable"):
        mpi.filter_metadata(lambda row: row["jobsize"] == -1)
    kept = mpi.filter_metadata(lambda row: row["jobsize"] > 100)
    assert kept.graph is not mpi.graph and kept.graph == mpi.graph
    assert kept.statsframe.graph is kept.graph
    assert len(kept.profile) == 3


def test_utils_and_helpers_names():
    from graphframe.thicket import helpers, utils
    assert issubclass(utils.DuplicateIndexError, IndexError)
    assert issubclass(utils.DuplicateValueError, ValueError)
    assert utils.EmptyMetadataTable is th.EmptyMetadataTable
    with pytest.raises(RuntimeError, match=r"Specified column\(s\) not found: \['x'\]"):
        utils.verify_thicket_structures(pd.DataFrame({"a": [1]}), columns=["x"])
    assert helpers._powerset_from_tuple((1,)) == {(), 1}


# ------------------------------------------------------------------ statistics
def test_statistics_as_thicket(mpi):
    tk = mpi.copy()
    assert th.stats.percentiles(tk, ["Avg time/rank"], percentiles=None) == [
        "Avg time/rank_percentiles_25", "Avg time/rank_percentiles_50",
        "Avg time/rank_percentiles_75"]
    assert [f.__name__ for f in tk.statsframe_ops_cache] == ["percentiles"]
    before = tk.statsframe.dataframe.copy()
    tk.statsframe.dataframe = th.helpers._new_statsframe_df(tk.dataframe)
    tk.reapply_stats_operations()
    again = tk.statsframe.dataframe
    assert list(again.columns) == list(before.columns)
    for c in before.columns[1:]:
        np.testing.assert_allclose(again[c].to_numpy(float), before[c].to_numpy(float))
    pytest.importorskip("scipy.stats", reason="check_normality needs SciPy")
    th.stats.check_normality(tk, ["Avg time/rank"])
    assert set(tk.statsframe.dataframe["Avg time/rank_normality"].dropna()) <= {"True", "False"}


def test_distances_from_the_mean_and_std_columns(one_trial):
    gb = one_trial.groupby("tuning")
    joined = T.concat_thickets(list(gb.values()), axis="columns", headers=list(gb),
                               metadata_key="ProblemSizeRunParam", disable_tqdm=True)
    cols = [("block_128", "Min time/rank"), ("default", "Min time/rank")]
    out = th.stats.hellinger_distance(joined, columns=cols)
    sf = joined.statsframe.dataframe
    m1, m2 = sf[("block_128", "Min time/rank_mean")], sf[("default", "Min time/rank_mean")]
    s1, s2 = sf[("block_128", "Min time/rank_std")], sf[("default", "Min time/rank_std")]
    with np.errstate(all="ignore"):
        want = 1 - np.sqrt(2 * s1 * s2 / (s1 ** 2 + s2 ** 2)) * \
            np.exp(-0.25 * (m1 - m2) ** 2 / (s1 ** 2 + s2 ** 2))
    got = sf[out[0] if out[0] in sf.columns else (out[0], "")]
    np.testing.assert_allclose(got.to_numpy(float), want.to_numpy(float), rtol=1e-14)


def test_add_root_node_on_the_mpi_scaling_ensemble(mpi):
    tk = mpi.copy()
    tk.add_root_node({"name": "Root", "type": "function"})
    assert tk.graph.num_nodes == 46 and tk.dataframe.shape == (230, 7)
    assert [r.frame["name"] for r in tk.graph.roots][-2:] == ["main", "Root"]
    rows = tk.dataframe.loc[int(tk.get_node("Root"))]
    assert rows["nid"].isna().all() and set(rows["name"]) == {"Root"}


# ------------------------------------------------------------------ plots
def test_display_plots_take_thickets_arguments(mpi):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    node = mpi.dataframe.reset_index()["node"].iloc[0]
    axes = th.stats.display_histogram(mpi, node=node, column="Avg time/rank", bins=3,
                                      grid=False, edgecolor="black")
    assert axes.shape == (1, 1) and axes[0][0].get_title() == "Avg time/rank"
    with pytest.raises(ValueError, match="must be of type hatchet.node.Node"):
        th.stats.display_histogram(mpi, node=1, column="Avg time/rank")
    pytest.importorskip("seaborn")
    ax = th.stats.display_boxplot(mpi, nodes=[node], columns=["Avg time/rank"])
    assert ax.get_xlabel() == "node" and ax.get_xticklabels()[0].get_text() == "MPI_Allreduce"
    plt.close("all")


# ------------------------------------------------------------------ Extra-P
def test_extrap_constant_model_re_is_extraps_own(shared_data):
    pytest.importorskip("extrap", reason="Extra-P is the optional extrap extra")
    tk = T.from_caliperreader(str(shared_data / MPI_TUTORIAL), disable_tqdm=True)
    th.model_extrap.Modeling(tk, "jobsize", chosen_metrics=["Total time"]).produce_models()
    sf = tk.statsframe.dataframe
    constant = [n for n in sf.index if sf.loc[n, "Total time_extrap-model"] is not None
                and "p" not in str(sf.loc[n, "Total time_extrap-model"])]
    assert constant
    for node in constant:
        c = float(str(sf.loc[node, "Total time_extrap-model"]))
        rows = tk.dataframe.xs(node, level="node")["Total time"]
        # Extra-P's constant hypothesis keeps the relative error of the last point it is
        # given, and Thicket gives the points in label order (the tutorial's
        # main/MPI_Waitall: 3.622 at jobsize 125; the mean over the points is 4.545)
        last = rows.loc[tk.metadata.index[-1]]
        assert sf.loc[node, "Total time_RE_extrap-model"] == pytest.approx(abs(c - last) / last,
                                                                            rel=1e-9)
