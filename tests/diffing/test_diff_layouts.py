"""One program's two HPCToolkit layouts diff with something in common (issue 33 item 4):
the current layout names nodes as the old one does, metric spellings pair by themselves,
and the old layout's entry roots stand for the current layout's entry points."""

import warnings

import pytest

import graphframe
from graphframe import GraphFrame
from graphframe.cli import main

OLD = "hpctoolkit/hpcviewer-inline-xml-mdb-database"
NEW = "hpctoolkit/hpcviewer-inline-v4-database"
PAIRS = {"cycles (E)": "cycles", "instructions (E)": "instructions",
         "cycles (I)": "cycles (inc)", "instructions (I)": "instructions (inc)"}


@pytest.fixture(scope="module")
def layouts(shared_data):
    return graphframe.read(shared_data / OLD), graphframe.read(shared_data / NEW)


def test_current_layout_names_nodes_like_the_old_one(layouts, shared_data):
    old, new = layouts
    names = set(new.dataframe["name"])
    assert {"main", "f", "par_forloop.h:2", "Loop@inline_f.c:14"} <= names
    assert not any(n.startswith(("function: ", "loop ", "line ")) for n in names)
    main = new.dataframe.index[new.dataframe["name"] == "main"][0]
    assert new.graph.frame_dict(main) == {"type": "function", "name": "main"}
    # Hatchet's constructor keeps Hatchet's names (reference_facts: "function: main")
    hatchet = GraphFrame.from_hpctoolkit_latest(shared_data / NEW)
    assert {"function: main", "function: f"} <= set(hatchet.dataframe["name"])


def _diff(old, new, by):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return graphframe.diff(old, new, by=by)


def test_by_name_pairs_metrics_and_matches_functions(layouts):
    d = _diff(*layouts, "name")
    info = d.metadata["diff"]
    assert info["metric_map"] == PAIRS
    assert info["metrics"] == ["cycles", "instructions", "cycles (inc)", "instructions (inc)"]
    common = set(d.dataframe.loc[d.dataframe["status"] == "common", "name"])
    assert info["match"]["common"] == 16
    assert {"main", "f", "f._omp_fn.0", "main thread", "application thread",
            "par_forloop.h:2", "Loop@inline_f.c:14", "pthread_create"} <= common
    row = d.dataframe[d.dataframe["name"] == "main"].iloc[0]
    assert row["cycles (inc) before"] == pytest.approx(15742566884.0 / 8)  # mean of 8 threads
    assert row["cycles (inc) after"] == pytest.approx(14405833388.0)


def test_by_path_matches_across_the_entry_root_and_call_sites(layouts):
    d = _diff(*layouts, "path")
    common = d.dataframe.loc[d.dataframe["status"] == "common", "name"].tolist()
    # main thread > main > (main.c:11 >) f is the old layout's <program root> > main > 11:f;
    # below f the two measurements differ (old: 9:<inline>; new: par_forloop.h:2)
    assert sorted(common) == ["application thread", "f", "main", "main thread"]
    row = d.dataframe[d.dataframe["name"] == "f"].iloc[0]
    assert row["status"] == "common"
    assert row["cycles (inc) after"] == pytest.approx(14405833388.0)


def test_cli_diff_of_the_two_layouts(shared_data, capsys):
    import io
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", str(shared_data / OLD), str(shared_data / NEW), "--by", "name"],
                stdout=out, stderr=err)
    assert code in (0, 3), err.getvalue()
    assert "no numeric metric in common" not in err.getvalue()
    assert " main" in out.getvalue()
