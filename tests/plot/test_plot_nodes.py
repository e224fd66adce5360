"""Naming a node for a plot (``--node``, ``gf.plot.box(NAME)``): names that contain ``>``
(issue 33 item 6): the exact name first, then the call path syntax, ``\\>`` as the escape."""

import io
from collections import Counter

import numpy as np
import pytest

import graphframe
from graphframe import GraphFrame
from graphframe.cli import main
from graphframe.ensemble import Ensemble
from graphframe.errors import ArgumentError
from graphframe.plot.common import call_path, names, resolve_node
from tests.plot.profiles import matplotlib_agg

matplotlib_agg()

SW4 = "caliper/hatchet/caliper-sw4-cuda-activity-cali/caliper_cuda_activity_profile.cali"


def templates():
    """main > {vector<int> > push<a> >, <no path>, a > b > c, a > b}."""
    return GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": 1.0},
                                     "children": [
        {"frame": {"name": "vector<int>"}, "metrics": {"time": 2.0}, "children": [
            {"frame": {"name": "push<a> >"}, "metrics": {"time": 3.0}}]},
        {"frame": {"name": "<no path>"}, "metrics": {"time": 4.0}},
        {"frame": {"name": "a > b"}, "metrics": {"time": 5.0}},
        {"frame": {"name": "a"}, "metrics": {"time": 6.0}, "children": [
            {"frame": {"name": "b"}, "metrics": {"time": 7.0}}]}]}])


def node_named(gf, name):
    (v,) = np.flatnonzero(names(gf) == name)
    return int(v)


def test_a_whole_name_with_gt_signs_is_taken_first():
    gf = templates()
    for name in ("vector<int>", "push<a> >", "<no path>", "a > b"):
        assert resolve_node(gf, name) == node_named(gf, name)


def test_call_paths_through_names_with_gt_signs():
    gf = templates()
    push = node_named(gf, "push<a> >")
    for spec in ("vector<int> > push<a> >", "main > vector<int> > push<a> >",
                 "main>vector<int>>push<a> >", "  main >  vector<int>   > push<a> >  "):
        assert resolve_node(gf, spec) == push
    assert resolve_node(gf, "main > <no path>") == node_named(gf, "<no path>")
    a_b, b = node_named(gf, "a > b"), node_named(gf, "b")
    # two readings of one text: both are listed, with ids; the escape picks the name
    with pytest.raises(ArgumentError, match=rf"'main > a > b' names 2 call paths: main > a > b "
                                            rf"\(node {min(a_b, b)}\), main > a > b "
                                            rf"\(node {max(a_b, b)}\); give one of them or a "
                                            "node id"):
        resolve_node(gf, "main > a > b")
    assert resolve_node(gf, "main > a \\> b") == a_b
    assert resolve_node(gf, "a>b") == b  # not the whole name: a path
    assert call_path(gf, b) == "main > a > b"


def test_ambiguous_and_missing_names_say_what_they_found():
    gf = GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": 1.0},
                                   "children": [
        {"frame": {"name": "f<x>"}, "metrics": {"time": 1.0}},
        {"frame": {"name": "g"}, "metrics": {"time": 1.0}, "children": [
            {"frame": {"name": "f<x>"}, "metrics": {"time": 1.0}}]}]}])
    with pytest.raises(ArgumentError, match=r"'f<x>' names 2 call paths: main > f<x> "
                                            r"\(node \d\), main > g > f<x> \(node \d\)"):
        resolve_node(gf, "f<x>")
    assert names(gf)[resolve_node(gf, "g > f<x>")] == "f<x>"
    with pytest.raises(ArgumentError, match=r"no call path matches 'h > f<x>' \('>' joins the "
                                            r"names of a call path; a name with '>' in it is "
                                            r"matched whole, or write it \\>\)"):
        resolve_node(gf, "h > f<x>")


def test_every_template_name_of_the_sw4_profile_can_be_named(shared_data):
    gf = graphframe.read(shared_data / SW4, no_path="keep")  # "<no path>" kept as a node
    labels = names(gf)
    counts = Counter(labels.tolist())
    paths = [call_path(gf, v, labels) for v in range(gf.graph.num_nodes)]
    same_path = Counter(paths)
    named = unique_path = 0
    for v in range(gf.graph.num_nodes):
        if ">" not in labels[v]:
            continue
        if counts[labels[v]] == 1:  # the name alone
            assert resolve_node(gf, labels[v]) == v
            named += 1
        if same_path[paths[v]] == 1:  # the whole call path
            assert resolve_node(gf, paths[v]) == v
            unique_path += 1
        else:  # the profile has this call path twice: the error lists both ids
            with pytest.raises(ArgumentError, match=rf"\(node {v}\)"):
                resolve_node(gf, paths[v])
    assert (named, unique_path) == (3, 171)
    assert resolve_node(gf, "<no path>") == node_named(gf, "<no path>")


def test_box_of_a_template_name_on_the_command_line_and_in_python(shared_data, tmp_path):
    gf = graphframe.read(shared_data / SW4, no_path="keep")  # "<no path>" kept as a node
    labels = names(gf)
    counts = Counter(labels.tolist())
    name = next(n for n in labels.tolist() if ">" in n and counts[n] == 1 and n != "<no path>")
    v = resolve_node(gf, name)
    ax = gf.plot.box(name)
    values = gf.dataframe["time"].xs(v, level="node").dropna().to_numpy()
    assert np.isclose(ax.lines[5].get_ydata()[0], np.median(values))  # the median line
    out, err = io.StringIO(), io.StringIO()
    code = main(["plot", "box", str(shared_data / SW4), "--node", name, "--node", "<no path>",
                 "--option", "no_path=keep", "-o", str(tmp_path / "box.svg")], stdout=out, stderr=err)
    assert (code, err.getvalue()) == (0, "")
    ens = Ensemble.from_graphframes([gf, gf])
    assert ens.plot.box(name).get_xticklabels()[0].get_text().startswith(name[:12])
