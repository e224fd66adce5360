"""The viztracer trace of the Python workload against the cProfile and pyinstrument profiles.

viztracer ran ``workload.py 2`` with ``--min_duration 20us --max_stack_depth 12``;
cProfile and pyinstrument ran ``workload.py 12``. So call counts and times differ;
the call structure between workload functions must agree: every caller -> callee
edge of the trace's tree is a real call (cProfile records every call), and every
edge pyinstrument sampled for at least 2% of the run is in the trace's tree.
"""

import os
import re
from collections import defaultdict

import pytest

import graphframe


def _viz_key(name):
    m = re.match(r"(.*) \((.*):(\d+)\)$", name)
    if not m or "pyworkload" not in m.group(2):
        return None
    return (os.path.basename(m.group(2)), int(m.group(3)))


def _tree_edges(gf, keys, weights=None, min_weight=0.0):
    parent = gf.graph.parent
    edges = set()
    for i in range(gf.graph.num_nodes):
        if keys[i] is None or (weights is not None and weights[i] < min_weight):
            continue
        p = parent[i]
        while p >= 0 and keys[p] is None:
            p = parent[p]
        if p >= 0 and keys[p] != keys[i]:
            edges.add((keys[p], keys[i]))
    return edges


def _cprofile_edges(gf):
    df = gf.dataframe.reset_index()

    def key(file, line):
        base = os.path.basename(str(file))
        return (base, int(line)) if base in ("workload.py", "geometry.py") else None

    label = {}
    callers = defaultdict(set)
    for _, row in df.iterrows():
        me = row["name"] if row["file"] == "~" else f"{row['file']}:{row['line']}({row['name']})"
        label[me] = key(row["file"], row["line"])
        for caller, _n in row["caller_calls"]:
            callers[me].add(caller)
    edges = set()
    for me, k in label.items():
        if k is None:
            continue
        seen, todo = set(), list(callers[me])
        while todo:  # nearest workload callers, through builtins and library code
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            ck = label.get(c)
            if ck is not None:
                edges.add((ck, k))
            else:
                todo.extend(callers.get(c, ()))
    return edges


@pytest.fixture(scope="module")
def trees(shared_data):
    tf = graphframe.read_trace(shared_data / "chrome-trace/generated/workload.viztracer.json")
    viz = tf.to_graphframe()
    names = viz.dataframe["name"].tolist()
    viz_edges = _tree_edges(viz, [_viz_key(n) for n in names])
    pyi = graphframe.read(shared_data / "pyinstrument/generated/workload.pyinstrument5.json")
    pdf = pyi.dataframe
    pkeys = [(str(f), int(ln)) if str(f) in ("workload.py", "geometry.py") and ln else None
             for f, ln in zip(pdf["file"], pdf["line"])]
    total = float(pdf["time (inc)"].max())
    pyi_edges = _tree_edges(pyi, pkeys, pdf["time (inc)"].to_numpy() / total, 0.02)
    cpr = graphframe.read(shared_data / "cprofile/generated/workload.py311.pstats")
    return viz_edges, pyi_edges, _cprofile_edges(cpr)


def test_trace_edges_are_real_calls(trees):
    viz_edges, _, cprofile_edges = trees
    assert len(viz_edges) == 24
    # pstats keeps one entry per (file, line, name): the outer comprehension of line 80
    # (called by main) and the 30 inner ones share it, and only "called by itself" survives
    collapsed = {(("workload.py", 70), ("workload.py", 80))}
    assert viz_edges - collapsed <= cprofile_edges, viz_edges - cprofile_edges


def test_sampled_edges_are_in_the_trace(trees):
    viz_edges, pyi_edges, cprofile_edges = trees
    assert pyi_edges <= cprofile_edges
    assert len(pyi_edges) >= 10
    assert pyi_edges <= viz_edges, pyi_edges - viz_edges


def test_main_phases_agree(trees):
    viz_edges, pyi_edges, _ = trees
    main = ("workload.py", 70)
    viz_main = {c for p, c in viz_edges if p == main}
    pyi_main = {c for p, c in pyi_edges if p == main}
    assert pyi_main <= viz_main
    # the phases of main(): fib, make_records, json_roundtrip, regex_scan, word_histogram,
    # the parity genexpr, primes, the matrix product, geometry
    assert {("workload.py", n) for n in (10, 22, 27, 32, 37, 60, 65, 74)} <= viz_main
