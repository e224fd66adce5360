"""Exports, diff and persistence timings (graphframe vs Hatchet where Hatchet has it).

Run ``python -m benchmarks.io_bench`` from the repository root. Every case runs
in its own child process, so its peak RSS (``ru_maxrss``) is its own; each
case also reports the RSS after building its inputs, to tell the operation's
memory from the input's. Cases:

``exports``  a 10,000-node x 16-rank profile written in Hatchet's JSON layout;
             ``to_flamegraph``, ``tree()`` and ``to_dot`` timed in graphframe and in
             Hatchet (``/work/hvenv/bin/python`` or ``--hatchet-python``) on the same
             file, outputs compared byte for byte.
``diff``     two 1,000,000-node profiles (the second: 1% of subtrees removed, 1% new
             nodes, every time perturbed); ``graphframe.diff`` plus the ranked tables.
``save``     a 1,000,000-node x 16-rank profile saved as a ``.gfz`` archive.
``load``     that archive loaded in a fresh process.

Numbers are wall-clock seconds, best of ``--repeat`` runs for the fast cases.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import numpy as np

HATCHET_PYTHON = "/work/hvenv/bin/python"

HATCHET_SCRIPT = r"""
import json, resource, sys, time
import hatchet as ht
path, repeat = sys.argv[1], int(sys.argv[2])
t = time.perf_counter(); gf = ht.GraphFrame.from_json(open(path).read())
read = time.perf_counter() - t
def best(f):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); times.append(time.perf_counter() - t)
    return min(times), out
fold_t, fold = best(lambda: gf.to_flamegraph(metric="time"))
tree_t, tree = best(lambda: gf.tree(metric_column="time", render_header=False))
dot_t, dot = best(lambda: gf.to_dot(metric="time"))
json.dump({"read": read, "flamegraph": fold_t, "tree": tree_t, "dot": dot_t,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "outputs": {"flamegraph": fold, "tree": tree, "dot": dot}}, sys.stdout)
"""


# ------------------------------------------------------------------ inputs
def random_tree(n: int, seed: int, vocabulary: int = 50000):
    """A random recursive tree (parent of i uniform in 0..i-1) with repeating names."""
    rng = np.random.default_rng(seed)
    parent = (np.arange(n) * rng.random(n)).astype(np.int64)
    parent[0] = -1
    words = np.array([f"fn_{k}" for k in range(vocabulary)], dtype=object)
    names = words[rng.integers(0, vocabulary, n)]
    names[0] = "main"
    base = rng.gamma(1.0, 1.0, n)
    return parent, names, base, rng


def build(parent, names, base, ranks: int, source: str):
    from graphframe import GraphFrame
    from readers import ProfileBuilder

    n = len(parent)
    b = ProfileBuilder(source, index_levels=("rank",) if ranks else ())
    ids = b.add_nodes(parent, frames={"name": names,
                                      "type": np.full(n, "function", dtype=object)},
                      node_ids=np.arange(n))
    if ranks:
        rank = np.repeat(np.arange(ranks), n)
        values = np.tile(base, ranks) * (1.0 + 0.05 * rank)
        b.add_rows(np.tile(ids, ranks), {"time": np.round(values, 6)}, rank=rank)
    else:
        b.add_rows(ids, {"time": np.round(base, 6)})
    raw = b.build(exc_metrics=["time"], default_metric="time")
    return GraphFrame.from_raw(raw).update_inclusive_columns()


def changed_copy(parent, names, base, rng, removed: float = 0.01, added: float = 0.01):
    """The "after" profile: a few subtrees removed, new leaves added, times perturbed."""
    n = len(parent)
    gone = rng.random(n) < removed
    gone[0] = False
    for _ in range(64):  # a node is gone when an ancestor is: pointer-style propagation
        grown = gone | gone[np.maximum(parent, 0)] & (parent >= 0)
        if np.array_equal(grown, gone):
            break
        gone = grown
    keep = np.flatnonzero(~gone)
    new_id = np.full(n, -1, dtype=np.int64)
    new_id[keep] = np.arange(len(keep))
    p = np.where(parent[keep] >= 0, new_id[np.maximum(parent[keep], 0)], -1)
    extra = int(added * n)
    p = np.concatenate([p, rng.integers(0, len(keep), extra)])
    nm = np.concatenate([names[keep], np.array([f"new_{k}" for k in range(extra)], dtype=object)])
    t = np.concatenate([base[keep] * rng.normal(1.0, 0.05, len(keep)), rng.gamma(1.0, 1.0, extra)])
    return p, nm, np.abs(t)


# ------------------------------------------------------------------ cases
def _rss_now_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _best(f: Callable[[], Any], repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def case_exports(args) -> Dict[str, Any]:
    import graphframe

    parent, names, base, _ = random_tree(args.small, seed=1)
    gf = build(parent, names, base, args.ranks, "<bench exports>")
    workdir = Path(args.workdir)
    path = workdir / "exports.json"
    path.write_text(gf.to_json())
    # what Hatchet reads: same ids, same child order (named: the hatchet-json sniffer only
    # looks at the first 4 KB, where a big document has no "dataframe" key yet)
    gf = graphframe.read(path, format="hatchet-json")
    # written again from what was read, child lists follow node ids, which is the order
    # graphframe's hatchet-json reader gives children; Hatchet keeps the document's order
    path.write_text(gf.to_json())
    gf = graphframe.read(path, format="hatchet-json")
    setup = _rss_now_mb()
    fold_t, fold = _best(lambda: gf.to_flamegraph(metric="time"), args.repeat)
    tree_t, tree = _best(lambda: gf.tree(metric_column="time", render_header=False), args.repeat)
    dot_t, dot = _best(lambda: gf.to_dot(metric="time"), args.repeat)
    result = {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe), "flamegraph": fold_t,
              "tree": tree_t, "dot": dot_t, "setup_rss_mb": setup, "peak_rss_mb": _peak_mb()}
    if args.hatchet_python and Path(args.hatchet_python).exists():
        proc = subprocess.run([args.hatchet_python, "-c", HATCHET_SCRIPT, str(path),
                               str(args.hatchet_repeat)], capture_output=True, text=True,
                              check=False)
        if proc.returncode == 0:
            h = json.loads(proc.stdout)
            outs = h.pop("outputs")
            result["hatchet"] = h
            result["same_output"] = {"flamegraph": outs["flamegraph"] == fold,
                                     "tree": outs["tree"] == tree, "dot": outs["dot"] == dot}
        else:
            result["hatchet_error"] = proc.stderr.strip().splitlines()[-1:]
    return result


def case_diff(args) -> Dict[str, Any]:
    from graphframe import diff
    from graphframe.diffing import ranked_changes

    parent, names, base, rng = random_tree(args.big, seed=2)
    before = build(parent, names, base, 0, "<bench before>")
    after = build(*changed_copy(parent, names, base, rng), 0, "<bench after>")
    setup = _rss_now_mb()
    t = time.perf_counter()
    d = diff(before, after)
    diff_t = time.perf_counter() - t
    t = time.perf_counter()
    table = ranked_changes(d, top=20)
    table_exc = ranked_changes(d, kind="exclusive", top=20)
    rank_t = time.perf_counter() - t
    t = time.perf_counter()
    d_name = diff(before, after, by="name")
    flat_t = time.perf_counter() - t
    counts = d.dataframe["status"].value_counts().to_dict()
    return {"nodes_before": before.graph.num_nodes, "nodes_after": after.graph.num_nodes,
            "union_nodes": d.graph.num_nodes, "status": counts, "diff": diff_t,
            "ranked_tables": rank_t, "flat_diff": flat_t, "flat_names": d_name.graph.num_nodes,
            "top_rows": len(table) + len(table_exc), "setup_rss_mb": setup,
            "peak_rss_mb": _peak_mb()}


def case_save(args) -> Dict[str, Any]:
    parent, names, base, _ = random_tree(args.big, seed=3)
    gf = build(parent, names, base, args.ranks, "<bench save>")
    setup = _rss_now_mb()
    path = Path(args.workdir) / "big.gfz"
    t = time.perf_counter()
    gf.save(path)
    save_t = time.perf_counter() - t
    return {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe), "save": save_t,
            "file_mb": path.stat().st_size / 2**20, "setup_rss_mb": setup,
            "peak_rss_mb": _peak_mb()}


def case_load(args) -> Dict[str, Any]:
    from graphframe import load

    path = Path(args.workdir) / "big.gfz"
    setup = _rss_now_mb()
    t = time.perf_counter()
    gf = load(path)
    load_t = time.perf_counter() - t
    return {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe), "load": load_t,
            "setup_rss_mb": setup, "peak_rss_mb": _peak_mb()}


CASES = {"exports": case_exports, "diff": case_diff, "save": case_save, "load": case_load}


# ------------------------------------------------------------------ driver
def parse(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("cases", nargs="*", help=f"cases to run (default: all of {', '.join(CASES)})")
    p.add_argument("--small", type=int, default=10_000, help="nodes of the exports profile")
    p.add_argument("--big", type=int, default=1_000_000, help="nodes of the diff/save profiles")
    p.add_argument("--ranks", type=int, default=16)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--hatchet-repeat", type=int, default=1)
    p.add_argument("--hatchet-python", default=HATCHET_PYTHON)
    p.add_argument("--workdir", help="keep inputs here (default: a temporary directory)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    return p.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse(argv)
    if args.child:
        json.dump(CASES[args.child](args), sys.stdout)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        results = {}
        cases = list(args.cases) or list(CASES)
        unknown = [c for c in cases if c not in CASES]
        if unknown:
            raise SystemExit(f"unknown case(s) {unknown}; choose from {list(CASES)}")
        if "load" in cases and "save" not in cases:
            cases.insert(cases.index("load"), "save")
        for case in cases:
            cmd = [sys.executable, "-m", "benchmarks.io_bench", "--child", case,
                   "--small", str(args.small), "--big", str(args.big), "--ranks", str(args.ranks),
                   "--repeat", str(args.repeat), "--hatchet-repeat", str(args.hatchet_repeat),
                   "--hatchet-python", args.hatchet_python, "--workdir", workdir]
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if proc.returncode:
                results[case] = {"error": proc.stderr.strip().splitlines()[-3:]}
            else:
                results[case] = json.loads(proc.stdout)
            print(_line(case, results[case]), file=sys.stderr)
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
    return 0


def _line(case: str, r: Dict[str, Any]) -> str:
    if "error" in r:
        return f"{case}: FAILED {r['error']}"
    timed = {k: v for k, v in r.items() if isinstance(v, float) and not k.endswith("_mb")}
    parts = [f"{k} {v:.3f}s" for k, v in timed.items()]
    text = f"{case}: " + ", ".join(parts) + f"; peak RSS {r['peak_rss_mb']:.0f} MB " \
        f"(after inputs {r['setup_rss_mb']:.0f} MB)"
    if "hatchet" in r:
        h = r["hatchet"]
        ratios = ", ".join(f"{k} {h[k] / r[k]:.0f}x" for k in ("flamegraph", "tree", "dot"))
        text += "\n  hatchet: " + ", ".join(f"{k} {h[k]:.2f}s" for k in
                                               ("flamegraph", "tree", "dot")) + \
            f"; speed-up {ratios}; same output {r['same_output']}"
    return text


if __name__ == "__main__":
    sys.exit(main())
