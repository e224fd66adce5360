"""Options of the HPCToolkit readers: rank selection (validated), per-profile mode, Hatchet's
max_depth / min_percentage_of_application_time cuts, summary_only."""

from __future__ import annotations

import pytest

from graphframe_readers.testing import write_hpctoolkit
from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe import GraphFrame
from graphframe_readers import ProfileBuilder, ReadError
from graphframe_readers.hpctoolkit import read_hpctoolkit
from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
from tests.readers.hpctoolkit.hpctoolkit_helpers import TREE, expected_inclusive, sample_profile

PROFILES = [(r, t) for r in (0, 1) for t in (0, 1)]


@pytest.fixture(scope="module")
def old_db(tmp_path_factory):
    return write_hpctoolkit(sample_profile(), tmp_path_factory.mktemp("old") / "db")


@pytest.fixture(scope="module")
def new_db(tmp_path_factory):
    return write_hpctoolkit_latest(sample_profile(), tmp_path_factory.mktemp("v4") / "db")


def _error(reader, path, **options) -> str:
    with pytest.raises(ReadError) as info:
        reader(path, **options)
    return str(info.value)


BAD_RANKS = [
    ([1.5], "rank 1.5 in the ranks option is not an integer"),
    ("12", "the ranks option is a string ('12'), not a list of ranks"),
    ([True], "rank True in the ranks option is not an integer"),
    (1.0, "the ranks option is a float, not a list of ranks"),
]


@pytest.mark.parametrize("ranks, problem", BAD_RANKS)
def test_rank_values_are_checked(old_db, new_db, ranks, problem):
    expected = " (expected an int or a list of ints, e.g. [0, 3])"
    assert _error(read_hpctoolkit, old_db, ranks=ranks) == (
        f"{old_db}: ranks option: {problem}{expected}")
    latest = problem.replace("ranks option", "profile_ranks option")
    assert _error(read_hpctoolkit_latest, new_db, parallel_profiles_mode=True,
                  profile_ranks=ranks) == f"{new_db}: profile_ranks option: {latest}{expected}"


def test_empty_and_unknown_rank_selections(old_db, new_db):
    assert _error(read_hpctoolkit, old_db, ranks=[]) == (
        f"{old_db}: ranks option: the ranks option selects no rank (expected at least one rank)")
    assert _error(read_hpctoolkit, old_db, ranks=[0, 7]) == (
        f"{old_db}: ranks option: rank(s) [7] not in the database (expected ranks among [0, 1])")
    # numpy integers are integers
    import numpy as np
    raw = read_hpctoolkit(old_db, ranks=np.array([1]))
    assert sorted(set(raw.metrics["rank"])) == [1]


def test_profile_ranks_need_parallel_profiles_mode(new_db):
    # Hatchet silently returns the summary; here the user is told what to add
    with pytest.raises(ReadError) as info:
        GraphFrame.from_hpctoolkit_latest(new_db, profile_ranks=[3])
    assert str(info.value) == (
        f"{new_db}: profile_ranks option: ranks [3] were selected but the summary profile (sums "
        f"over every rank) was asked for (expected parallel_profiles_mode=True with profile_ranks)")
    gf = GraphFrame.from_hpctoolkit_latest(new_db, profile_ranks=[1], parallel_profiles_mode=True)
    assert sorted(set(gf.dataframe.index.get_level_values("rank"))) == [1]


def test_summary_only_excludes_ranks(old_db):
    assert _error(read_hpctoolkit, old_db, summary_only=True, ranks=[0]) == (
        f"{old_db}: ranks option: summary_only=True reads values summed over every rank, so the "
        f"ranks option cannot apply (expected either summary_only=True or ranks=[...], not both)")


def test_summary_only_reads_experiment_xml_values(old_db):
    summary = GraphFrame.from_hpctoolkit(old_db, summary_only=True).dataframe
    full = GraphFrame.from_hpctoolkit(old_db).dataframe
    assert list(summary.index.names) == ["node"]
    per_node = full.groupby(level="node")[["time (inc)", "time"]].sum()
    assert summary["time (inc)"].tolist() == per_node["time (inc)"].tolist()
    assert summary["time"].tolist() == per_node["time"].tolist()


# ----------------------------------------------------------------- max_depth / min_percentage
def _by_name(gf):
    df = gf.dataframe
    return {(name, ctx): (inc, exc) for name, ctx, inc, exc in
            zip(df["name"], df["ctx_id"], df["time (inc)"], df["time"])}


def test_max_depth_cuts_and_keeps_the_cost_in_the_kept_ancestor(new_db):
    gf = GraphFrame.from_hpctoolkit_latest(new_db, max_depth=2)
    # depth 0: the entry point; 1: main; 2: main's children (loop, helper, a.c:9)
    assert sorted(gf.dataframe["name"]) == ["function: helper", "function: main", "line a.c:9",
                                             "loop a.c:5", "main thread"]
    total = {node: sum(expected_inclusive(node, *p) for p in PROFILES) for node in range(len(TREE))}
    rows = _by_name(gf)
    assert rows[("loop a.c:5", 2)] == (total[1], total[1])  # its whole subtree is its own cost now
    assert rows[("function: main", 1)] == (total[0], total[0] - total[1] - total[7] - total[9])
    assert gf.dataframe["time"].sum() == total[0]
    zero = GraphFrame.from_hpctoolkit_latest(new_db, max_depth=0)
    assert zero.dataframe["name"].tolist() == ["main thread"]


def test_min_percentage_keeps_nodes_above_the_threshold(new_db):
    # inclusive shares of main's time (own value (node + 1) x the profile factor): loop 27/55,
    # solve 22/55 and 13/55, helper 17/55 are kept at 20 %; the statements (at most 10/55) are not
    gf = GraphFrame.from_hpctoolkit_latest(new_db, min_percentage_of_application_time=20)
    assert sorted(gf.dataframe["name"]) == ["function: helper", "function: main",
                                             "function: solve", "function: solve", "loop a.c:5",
                                             "main thread"]
    total = sum(expected_inclusive(0, *p) for p in PROFILES)
    assert gf.dataframe["time"].sum() == total
    everything = GraphFrame.from_hpctoolkit_latest(new_db, min_percentage_of_application_time=101)
    assert everything.dataframe["name"].tolist() == ["main thread"]


@pytest.mark.parametrize("options, problem", [
    (dict(max_depth=-1), "max_depth option: max_depth=-1 (expected a non-negative int (entry "
                         "points are depth 0))"),
    (dict(max_depth=1.5), "max_depth option: max_depth=1.5 (expected a non-negative int (entry "
                          "points are depth 0))"),
    (dict(min_percentage_of_application_time="5"),
     "min_percentage_of_application_time option: min_percentage_of_application_time='5' "
     "(expected a finite number)"),
    (dict(min_percentage_of_application_time=float("nan")),
     "min_percentage_of_application_time option: min_percentage_of_application_time=nan "
     "(expected a finite number)"),
    (dict(min_percentage_of_parent_time=True),
     "min_percentage_of_parent_time option: min_percentage_of_parent_time=True "
     "(expected a finite number)"),
])
def test_cut_options_are_checked(new_db, options, problem):
    assert _error(read_hpctoolkit_latest, new_db, **options) == f"{new_db}: {problem}"


def test_min_percentage_of_parent_time_cuts_against_each_parent(new_db):
    # inclusive times: main 12320; below it helper 3808 (31 %), a.c:9 2240 (18 %, cut),
    # loop 6048 (49 %); below the loop solve 4928 (81 %) and a.c:6 672 (11 %, cut); below
    # solve b.c:21 1120 (23 %); c.h:3 and b.c:22 hold half of their parents' time
    gf = GraphFrame.from_hpctoolkit_latest(new_db, min_percentage_of_parent_time=20)
    assert sorted(gf.dataframe["name"]) == [
        "function: helper", "function: main", "function: solve", "function: solve",
        "line b.c:21", "line b.c:22", "line c.h:3", "loop a.c:5", "main thread"]
    assert gf.dataframe["time"].sum() == sum(expected_inclusive(0, *p) for p in PROFILES)
    assert GraphFrame.from_hpctoolkit_latest(new_db, min_percentage_of_parent_time=101
                                             ).dataframe["name"].tolist() == ["main thread"]


def test_min_percentage_needs_a_time_metric(tmp_path):
    b = ProfileBuilder("x", index_levels=("rank",))
    main = b.add_node({"type": "function", "name": "main"})
    b.add_row(main, {"cycles": 10.0}, rank=0)
    db = write_hpctoolkit_latest(b.build(exc_metrics=["cycles"]), tmp_path / "db")
    assert _error(read_hpctoolkit_latest, db, min_percentage_of_application_time=1) == (
        f"{db / 'meta.db'}: metrics section: min_percentage_of_application_time needs a CPU or "
        f"real time metric summed over the execution scope; the database has 'cycles' "
        f"(expected CPUTIME (sec) or "
        f"CPUTIME (usec) or REALTIME (sec) or REALTIME (usec) with an execution-scope sum)")


# Hatchet 2026.2.0 on the same databases (its graph holds the main thread's subtree only):
# node count and the sum of "time (inc)" over its dataframe
HATCHET_CUTS = [
    ("hatchet-gamess-v4-database", dict(max_depth=3), 9, 6433.969864),
    ("hatchet-gamess-v4-database", dict(max_depth=6), 49, 11259.335266),
    ("hatchet-gamess-v4-database", dict(min_percentage_of_application_time=1), 164, 54265.655822),
    ("hpcviewer-issue-328-v4-database", dict(max_depth=3), 28, 6.136192),
    ("hpcviewer-issue-328-v4-database", dict(max_depth=6), 57, 8.688723),
    ("hpcviewer-issue-328-v4-database", dict(min_percentage_of_application_time=1), 121,
     17.570733),
    ("hpcviewer-issue-328-v4-database",
     dict(min_percentage_of_application_time=5, max_depth=8), 27, 8.8898),
]


# Hatchet 2024.1.3's min_percentage_of_parent_time (2026.2.0 no longer has it), same measure
HATCHET_CUTS += [
    ("hatchet-gamess-v4-database", dict(min_percentage_of_parent_time=5), 147, 53908.306519),
    ("hatchet-gamess-v4-database", dict(min_percentage_of_parent_time=20), 113, 52090.845643),
    ("hpcviewer-issue-328-v4-database", dict(min_percentage_of_parent_time=5), 210, 17.177299),
    ("hpcviewer-issue-328-v4-database", dict(min_percentage_of_parent_time=20), 5, 3.994558),
]


@pytest.mark.parametrize("name, options, nodes, inclusive_sum", HATCHET_CUTS)
def test_cuts_match_hatchet_on_real_databases(shared_data, name, options, nodes, inclusive_sum):
    gf = GraphFrame.from_hpctoolkit_latest(shared_data / "hpctoolkit" / name, **options)
    g = gf.graph
    main = next(r for r in g.root_ids if g.frame(r)["name"] == "main thread")
    later = [r for r in g.root_ids if r > main]
    end = min(later) if later else g.num_nodes
    subtree = gf.dataframe.loc[main:end - 1]
    assert end - main == nodes
    assert subtree["time (inc)"].sum() == pytest.approx(inclusive_sum, abs=1e-6)


def test_database_without_metric_files_declared_reads_its_summary_values(tmp_path):
    # hpcprof without --metric-db: a MetricTable and <M> values, no MetricDBTable, no files
    db = write_hpctoolkit(sample_profile(), tmp_path / "db")
    xml = db / "experiment.xml"
    text = xml.read_text()
    start, end = text.index("<MetricDBTable>"), text.index("</MetricDBTable>")
    xml.write_text(text[:start] + text[end + len("</MetricDBTable>"):])
    for path in db.glob("*.metric-db"):
        path.unlink()
    gf = GraphFrame.from_hpctoolkit(db)
    assert list(gf.dataframe.index.names) == ["node"]
    assert gf.metadata["metric_files"] == "summary values in experiment.xml"
    full = GraphFrame.from_hpctoolkit(write_hpctoolkit(sample_profile(), tmp_path / "full"))
    per_node = full.dataframe.groupby(level="node")["time (inc)"].sum()
    assert gf.dataframe["time (inc)"].tolist() == per_node.tolist()
