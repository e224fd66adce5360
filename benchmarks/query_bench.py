"""Benchmark: a 3-step call-path query, graphframe vs Hatchet, on the same data.

Builds a random calling-context tree (nodes x ranks) with
``graphframe_readers.ProfileBuilder``'s bulk path, runs

    [{"name": "solve_.*"}, "*", {"name": "MPI_.*", "time (inc)": ">= T"}]

(a name regex, a wildcard, then a name regex and a metric threshold, with
``multi_index_mode="any"`` when there are ranks) with graphframe in both
dialects, then the same query with Hatchet (a separate interpreter with
``llnl-hatchet``, which needs pandas < 3: ``--hatchet-python``) on a Hatchet
GraphFrame holding the same tree and rows, checks which nodes each matched,
prints the times and writes them as JSON (``--json``).

Usage::

    python -m benchmarks.query_bench                       # 10,000 x 16 and 1,000,000 x 1
    python -m benchmarks.query_bench --sizes 10000x16 --hatchet-python ../benchvenv/bin/python
    python -m benchmarks.query_bench --sizes 1000000x1 --repeat 2 --no-hatchet \\
        --json benchmarks/results/query-ours-pandas3.json

Hatchet runs only up to ``--hatchet-max-nodes`` (default 20,000) nodes: it
needs about a minute there and hours at a million nodes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from graphframe import GraphFrame
from graphframe.query import ObjectQuery, StringQuery, matched_nodes
from graphframe.query.matcher import match_path
from graphframe.query.session import Session
from graphframe_readers import ProfileBuilder

from .measure import memory_kb, release_free_memory, reset_peak
from .report import REPO, environment

HATCHET_PYTHON = str(REPO.parent / "benchvenv" / "bin" / "python")
THRESHOLD = 40.0


def generate(nodes: int, ranks: int, seed: int = 7) -> Dict[str, np.ndarray]:
    """Random recursive tree (parent of i uniform in 0..i-1) with names and times."""
    rng = np.random.default_rng(seed)
    parent = np.empty(nodes, dtype=np.int64)
    parent[0] = -1
    if nodes > 1:
        parent[1:] = (rng.random(nodes - 1) * np.arange(1, nodes)).astype(np.int64)
    vocab = np.array(["main"] + [f"solve_{i}" for i in range(40)] + [f"MPI_{op}" for op in (
        "Send", "Recv", "Allreduce", "Bcast", "Wait", "Barrier", "Isend", "Irecv")] +
        [f"compute_{i}" for i in range(400)] + [f"io_{i}" for i in range(50)], dtype=object)
    name_idx = rng.integers(1, len(vocab), size=nodes)
    name_idx[0] = 0
    names = vocab[name_idx]
    times = rng.gamma(2.0, 5.0, size=(nodes, ranks)).round(3)
    return {"parent": parent, "names": names.astype(str), "times": times}


def build_graphframe(data: Dict[str, np.ndarray]) -> GraphFrame:
    """The profile through ProfileBuilder's bulk path, with inclusive times."""
    parent, names, times = data["parent"], data["names"], data["times"]
    nodes, ranks = times.shape
    levels = ("rank",) if ranks > 1 else ()
    b = ProfileBuilder("query-bench", index_levels=levels)
    ids = b.add_nodes(parent, {"name": names, "type": np.full(nodes, "function", dtype=object)})
    row_nodes = np.repeat(ids, ranks)
    cols = {"time": times.reshape(-1), "uid": row_nodes.copy()}
    if ranks > 1:
        b.add_rows(row_nodes, cols, rank=np.tile(np.arange(ranks), nodes))
    else:
        b.add_rows(row_nodes, cols)
    raw = b.build(exc_metrics=["time"], default_metric="time")
    return GraphFrame.from_raw(raw).update_inclusive_columns(inplace=False)


def object_query() -> List[Any]:
    return [{"name": "solve_.*"}, "*", {"name": "MPI_.*", "time (inc)": f">= {THRESHOLD}"}]


def string_query() -> str:
    return ('MATCH (p)->("*")->(q) WHERE p."name" =~ "solve_.*" AND q."name" =~ "MPI_.*" '
            f'AND q."time (inc)" >= {THRESHOLD}')


def time_ours(gf: GraphFrame, mode: str, repeat: int) -> Dict[str, Any]:
    """Times of both dialects (``repeat`` each), a phase breakdown and the peak memory."""
    obj_times: List[float] = []
    str_times: List[float] = []
    ids = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        ids = matched_nodes(gf, ObjectQuery(object_query(), multi_index_mode=mode))
        obj_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        ids_s = matched_nodes(gf, StringQuery(string_query(), multi_index_mode=mode))
        str_times.append(time.perf_counter() - t0)
        if not np.array_equal(ids, ids_s):
            raise AssertionError("the two dialects disagree")
    phases = _phases(gf, mode, repeat)
    release_free_memory()
    before = memory_kb()["rss"]
    peak_kb = None
    if reset_peak():
        matched_nodes(gf, ObjectQuery(object_query(), multi_index_mode=mode))
        peak_kb = memory_kb()["hwm"] - before
    return {"object_times": obj_times, "string_times": str_times,
            "object_best_s": min(obj_times), "string_best_s": min(str_times),
            "predicates_s": phases[0], "matching_s": phases[1], "peak_delta_kb": peak_kb,
            "matched": int(len(ids)), "ids": ids}


def _phases(gf: GraphFrame, mode: str, repeat: int) -> Tuple[float, float]:
    """Best-of-``repeat`` seconds evaluating the predicates, then matching (object dialect)."""
    query = ObjectQuery(object_query(), multi_index_mode=mode)
    stars = [q == "*" for q, _ in query.query_pattern]
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        t0 = time.perf_counter()
        session = Session(gf.graph, gf.dataframe)
        masks = [session.context.node_mask(pred) for _, pred in query.query_pattern]
        t1 = time.perf_counter()
        match_path(session.structure, masks, stars)
        best = [min(best[0], t1 - t0), min(best[1], time.perf_counter() - t1)]
    return best[0], best[1]


HATCHET_SCRIPT = textwrap.dedent("""
    import json, sys, time, warnings
    warnings.simplefilter("ignore")
    import numpy as np, pandas as pd
    from hatchet import GraphFrame
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node
    from hatchet.query import ObjectQuery, QueryEngine
    d = np.load(sys.argv[1], allow_pickle=False)
    parent, names, times, inc = d["parent"], d["names"], d["times"], d["inc"]
    n, ranks = times.shape
    nodes = []
    for i in range(n):
        p = nodes[parent[i]] if parent[i] >= 0 else None
        node = Node(Frame({"name": str(names[i]), "type": "function"}), p, hnid=i)
        if p is not None:
            p.add_child(node)
        nodes.append(node)
    graph = Graph([nodes[0]])
    graph.enumerate_traverse()
    obj = np.empty(n, dtype=object)
    obj[:] = nodes
    cols = {"name": np.repeat(names, ranks), "time": times.reshape(-1),
            "time (inc)": inc.reshape(-1), "uid": np.repeat(np.arange(n), ranks)}
    if ranks > 1:
        index = pd.MultiIndex.from_arrays([np.repeat(obj, ranks), np.tile(np.arange(ranks), n)],
                                          names=["node", "rank"])
    else:
        index = pd.Index(obj, name="node")
    df = pd.DataFrame(cols, index=index)
    gf = GraphFrame(graph, df, ["time"], ["time (inc)"])
    query = json.loads(sys.argv[2])
    mode = sys.argv[3]
    t0 = time.perf_counter()
    matched = QueryEngine().apply(ObjectQuery(query, multi_index_mode=mode), gf.graph, gf.dataframe)
    elapsed = time.perf_counter() - t0
    uid = sorted(int(df.loc[m, "uid"]) if ranks == 1 else int(df.xs(m, level="node")["uid"].iloc[0])
                 for m in matched)
    import hatchet as _h
    versions = {"python": sys.version.split()[0], "pandas": pd.__version__,
                "numpy": np.__version__, "llnl-hatchet": getattr(_h, "__version__", None)}
    print(json.dumps({"seconds": elapsed, "uids": uid, "versions": versions}))
""")


def time_hatchet(data: Dict[str, np.ndarray], inc: np.ndarray, mode: str,
                 python: str, timeout: float) -> Dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        arrays = os.path.join(tmp, "data.npz")
        np.savez(arrays, parent=data["parent"], names=data["names"], times=data["times"], inc=inc)
        script = os.path.join(tmp, "hatchet_query.py")
        with open(script, "w") as f:
            f.write(HATCHET_SCRIPT)
        out = subprocess.run([python, script, arrays, json.dumps(object_query()), mode],
                             capture_output=True, text=True, check=True, timeout=timeout)
    return json.loads(out.stdout.strip().splitlines()[-1])


def inclusive_by_input(gf: GraphFrame, nodes: int, ranks: int) -> np.ndarray:
    """``time (inc)`` as an (input node x rank) array."""
    flat = gf.dataframe.reset_index()
    inc = np.zeros((nodes, ranks))
    rank = flat["rank"].to_numpy() if ranks > 1 else np.zeros(len(flat), dtype=np.int64)
    inc[flat["uid"].to_numpy(), rank] = flat["time (inc)"].to_numpy()
    return inc


def run(nodes: int, ranks: int, repeat: int, hatchet: Optional[str],
        python: str, timeout: float) -> Dict[str, Any]:
    """One size: build the data, time graphframe, then Hatchet (unless ``hatchet`` says why not)."""
    t0 = time.perf_counter()
    data = generate(nodes, ranks)
    gf = build_graphframe(data)
    build_s = time.perf_counter() - t0
    mode = "any" if ranks > 1 else "off"
    ours = time_ours(gf, mode, repeat)
    ids = ours.pop("ids")
    uid_of_node = np.zeros(gf.graph.num_nodes, dtype=np.int64)
    flat = gf.dataframe.reset_index()
    uid_of_node[flat["node"].to_numpy(dtype=np.int64)] = flat["uid"].to_numpy()
    ours_uids = sorted(uid_of_node[ids].tolist())
    record: Dict[str, Any] = {
        "nodes": nodes, "ranks": ranks, "rows": len(gf.dataframe),
        "depth": int(gf.graph.depth.max()), "mode": mode, "build_s": build_s, "ours": ours}
    print(f"{nodes:,} nodes x {ranks} ranks ({len(gf.dataframe):,} rows, depth "
          f"{record['depth']}); built in {build_s:.2f} s")
    print(f"  graphframe object dialect: {ours['object_best_s'] * 1e3:9.1f} ms   string "
          f"dialect: {ours['string_best_s'] * 1e3:9.1f} ms   (best of {repeat}; predicates "
          f"{ours['predicates_s'] * 1e3:.1f} ms, matching {ours['matching_s'] * 1e3:.1f} ms)   "
          f"matched {ours['matched']:,} nodes")
    if hatchet is not None:
        print(f"  Hatchet: not run ({hatchet})")
        record["hatchet"] = {"skipped": hatchet}
        return record
    res = time_hatchet(data, inclusive_by_input(gf, nodes, ranks), mode, python, timeout)
    theirs = set(res["uids"])
    extra = len(set(ours_uids) - theirs)
    record["hatchet"] = {"seconds": res["seconds"], "matched": len(res["uids"]),
                         "same_nodes": res["uids"] == ours_uids,
                         "subset_of_ours": theirs <= set(ours_uids),
                         "only_ours": extra, "versions": res["versions"],
                         "speedup": res["seconds"] / ours["object_best_s"]}
    print(f"  Hatchet object dialect:    {res['seconds'] * 1e3:9.1f} ms   matched "
          f"{len(res['uids']):,} nodes; speed-up x{record['hatchet']['speedup']:,.0f}; "
          + ("same nodes" if res["uids"] == ours_uids else
             f"graphframe also matches {extra} nodes Hatchet's lazy '*' misses"
             if theirs <= set(ours_uids) else "DIFFERENT node sets"))
    return record


def parse_sizes(text: str) -> List[Tuple[int, int]]:
    """``"10000x16,1e6x1"`` -> ``[(10000, 16), (1000000, 1)]``.

    Examples
    --------
    >>> parse_sizes("10000x16,1e6x1")
    [(10000, 16), (1000000, 1)]
    """
    sizes = []
    for part in text.split(","):
        nodes, _, ranks = part.strip().partition("x")
        sizes.append((int(float(nodes)), int(ranks or 1)))
    return sizes


def main(argv: Any = None) -> Dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.query_bench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000x16,1000000x1",
                        help="nodes x ranks, comma-separated (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per dialect (best is kept)")
    parser.add_argument("--no-hatchet", action="store_true")
    parser.add_argument("--hatchet-python", default=HATCHET_PYTHON,
                        help="an interpreter with llnl-hatchet (default: %(default)s)")
    parser.add_argument("--hatchet-max-nodes", type=int, default=20_000)
    parser.add_argument("--hatchet-timeout", type=float, default=1800.0)
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    load_at_start = os.getloadavg() if hasattr(os, "getloadavg") else None
    results = []
    for nodes, ranks in parse_sizes(args.sizes):
        why_not = ("--no-hatchet" if args.no_hatchet else
                   f"more than --hatchet-max-nodes {args.hatchet_max_nodes}"
                   if nodes > args.hatchet_max_nodes else
                   f"no interpreter at {args.hatchet_python}"
                   if not os.path.exists(args.hatchet_python) else None)
        results.append(run(nodes, ranks, args.repeat, why_not, args.hatchet_python,
                           args.hatchet_timeout))
        sys.stdout.flush()
    report = {"environment": environment(False), "load_at_start": load_at_start,
              "settings": {"sizes": args.sizes, "repeat": args.repeat, "threshold": THRESHOLD,
                           "object_query": object_query(), "string_query": string_query(),
                           "hatchet_python": None if args.no_hatchet else args.hatchet_python},
              "results": results}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return report


if __name__ == "__main__":
    main()
