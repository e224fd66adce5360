"""Benchmark: a 3-step call-path query, graphframe vs Hatchet, on the same data.

Builds a random calling-context tree (``--nodes`` x ``--ranks``) with
``readers.ProfileBuilder``'s bulk path, runs

    [{"name": "solve_.*"}, "*", {"name": "MPI_.*", "time (inc)": ">= T"}]

(a name regex, a wildcard, then a name regex and a metric threshold, with
``multi_index_mode="any"`` when there are ranks) with graphframe in both
dialects, then the same query with Hatchet (``/work/hvenv/bin/python``, or
``--hatchet-python``) on a Hatchet GraphFrame holding the same tree and rows,
and prints the times and the matched node counts.

Usage::

    python -m benchmarks.query_bench                      # 10,000 x 16 and 1,000,000 x 1
    python -m benchmarks.query_bench --nodes 10000 --ranks 16
    python -m benchmarks.query_bench --nodes 1000000 --ranks 1 --no-hatchet

Hatchet runs only up to ``--hatchet-max-nodes`` (default 20,000) nodes: it
needs minutes there and hours at a million nodes.
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
from typing import Any, Dict, List, Tuple

import numpy as np

from graphframe import GraphFrame
from graphframe.query import ObjectQuery, StringQuery, matched_nodes
from readers import ProfileBuilder

HATCHET_PYTHON = "/work/hvenv/bin/python"
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
    return GraphFrame.from_raw(raw).update_inclusive_columns()


def object_query() -> List[Any]:
    return [{"name": "solve_.*"}, "*", {"name": "MPI_.*", "time (inc)": f">= {THRESHOLD}"}]


def string_query() -> str:
    return ('MATCH (p)->("*")->(q) WHERE p."name" =~ "solve_.*" AND q."name" =~ "MPI_.*" '
            f'AND q."time (inc)" >= {THRESHOLD}')


def time_ours(gf: GraphFrame, mode: str, repeat: int = 3) -> Tuple[float, float, np.ndarray]:
    best_obj = best_str = float("inf")
    ids = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        ids = matched_nodes(gf, ObjectQuery(object_query(), multi_index_mode=mode))
        best_obj = min(best_obj, time.perf_counter() - t0)
        t0 = time.perf_counter()
        ids_s = matched_nodes(gf, StringQuery(string_query(), multi_index_mode=mode))
        best_str = min(best_str, time.perf_counter() - t0)
        if not np.array_equal(ids, ids_s):
            raise AssertionError("the two dialects disagree")
    return best_obj, best_str, ids


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
    query[1] = query[1]
    mode = sys.argv[3]
    t0 = time.perf_counter()
    matched = QueryEngine().apply(ObjectQuery(query, multi_index_mode=mode), gf.graph, gf.dataframe)
    elapsed = time.perf_counter() - t0
    uid = sorted(int(df.loc[m, "uid"]) if ranks == 1 else int(df.xs(m, level="node")["uid"].iloc[0])
                 for m in matched)
    print(json.dumps({"seconds": elapsed, "uids": uid}))
""")


def time_hatchet(data: Dict[str, np.ndarray], inc: np.ndarray, mode: str,
                 python: str) -> Dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        arrays = os.path.join(tmp, "data.npz")
        np.savez(arrays, parent=data["parent"], names=data["names"], times=data["times"], inc=inc)
        script = os.path.join(tmp, "hatchet_query.py")
        with open(script, "w") as f:
            f.write(HATCHET_SCRIPT)
        out = subprocess.run([python, script, arrays, json.dumps(object_query()), mode],
                             capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def inclusive_by_input(gf: GraphFrame, nodes: int, ranks: int) -> np.ndarray:
    """``time (inc)`` as an (input node x rank) array."""
    flat = gf.dataframe.reset_index()
    inc = np.zeros((nodes, ranks))
    rank = flat["rank"].to_numpy() if ranks > 1 else np.zeros(len(flat), dtype=np.int64)
    inc[flat["uid"].to_numpy(), rank] = flat["time (inc)"].to_numpy()
    return inc


def run(nodes: int, ranks: int, hatchet: bool, python: str) -> None:
    t0 = time.perf_counter()
    data = generate(nodes, ranks)
    gf = build_graphframe(data)
    build_s = time.perf_counter() - t0
    mode = "any" if ranks > 1 else "off"
    obj_s, str_s, ids = time_ours(gf, mode)
    uid_of_node = np.zeros(gf.graph.num_nodes, dtype=np.int64)
    flat = gf.dataframe.reset_index()
    uid_of_node[flat["node"].to_numpy()] = flat["uid"].to_numpy()
    ours_uids = sorted(uid_of_node[ids].tolist())
    print(f"{nodes:,} nodes x {ranks} ranks ({len(gf.dataframe):,} rows, depth "
          f"{int(gf.graph.depth.max())}); built in {build_s:.2f} s")
    print(f"  graphframe object dialect: {obj_s * 1e3:9.1f} ms   string dialect: "
          f"{str_s * 1e3:9.1f} ms   matched {len(ids):,} nodes")
    if not hatchet:
        print("  Hatchet: not run")
        return
    res = time_hatchet(data, inclusive_by_input(gf, nodes, ranks), mode, python)
    same = res["uids"] == ours_uids
    extra = len(set(ours_uids) - set(res["uids"]))
    print(f"  Hatchet object dialect:    {res['seconds'] * 1e3:9.1f} ms   matched "
          f"{len(res['uids']):,} nodes; speed-up x{res['seconds'] / obj_s:,.0f}; "
          + ("same nodes" if same else
             f"graphframe also matches {extra} nodes Hatchet's lazy '*' misses"
             if set(res["uids"]) <= set(ours_uids) else "DIFFERENT node sets"))


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, action="append")
    parser.add_argument("--ranks", type=int, action="append")
    parser.add_argument("--no-hatchet", action="store_true")
    parser.add_argument("--hatchet-python", default=HATCHET_PYTHON)
    parser.add_argument("--hatchet-max-nodes", type=int, default=20_000)
    args = parser.parse_args(argv)
    sizes = list(zip(args.nodes or [10_000, 1_000_000], args.ranks or [16, 1]))
    for nodes, ranks in sizes:
        use_hatchet = (not args.no_hatchet and nodes <= args.hatchet_max_nodes
                       and os.path.exists(args.hatchet_python))
        run(nodes, ranks, use_hatchet, args.hatchet_python)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
