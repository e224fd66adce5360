"""Exports, diff and persistence timings (graphframe, and Hatchet where Hatchet has it).

Run from the repository root::

    python -m benchmarks.io_bench                       # every case, ours only
    python -m benchmarks.io_bench exports --hatchet-python /work/benchvenv/bin/python
    python -m benchmarks.io_bench diff save load fail-above --json out.json

Every case runs in its own child process (``--python``, default this
interpreter), so its peak RSS is its own; each case also reports the RSS
after building its inputs, to tell the operation's memory from the input's.
Profiles come from :func:`benchmarks.generate.generate` (realistic shape,
names and exclusive ``time`` per rank; the diff's second profile is the
generator's ``variant``: the same program with about 10 % of its call paths
changed and every time perturbed). Cases:

``exports``     ``--small`` nodes x ``--ranks`` ranks: ``to_flamegraph``,
                ``tree()`` and ``to_dot`` of the exclusive ``time``; with
                ``--hatchet-python`` the same calls on a Hatchet GraphFrame of
                the same data (built by ``benchmarks.hatchet_adapter``) in that
                interpreter, outputs compared byte for byte.
``diff``        two ``--big``-node profiles: ``graphframe.diff`` (the inclusive
                partner is computed: the profiles are exclusive-only), the two
                ranked tables, ``regressions`` (``--fail-above``'s test),
                ``ranked_changes(top=None)``, the changed-paths tree and the
                flat diff.
``save``        a ``--big`` x ``--ranks`` profile saved as a ``.gfz`` archive.
``load``        that archive loaded in a fresh process.
``json``        that archive loaded, then written as Hatchet's JSON layout by the
                streamed writer (``graphframe convert big.gfz big.json``'s path):
                seconds, file size, RSS with the profile loaded and peak RSS.
``fail-above``  ``graphframe diff BEFORE.gfz AFTER.gfz --fail-above 10 --no-tree``
                end to end (two archive loads, the diff, the tables and the
                regression test) as a command, wall clock.

Numbers are wall-clock seconds, best of ``--repeat`` runs (the diff itself, its
flat form and tree, and fail-above run once).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

HATCHET_PYTHON = "/work/benchvenv/bin/python"
ROOT = Path(__file__).resolve().parent.parent

HATCHET_SCRIPT = r"""
import json, resource, sys, time
from benchmarks.generate import generate
from benchmarks.hatchet_adapter import to_hatchet
nodes, ranks, repeat = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
gf = to_hatchet(generate(nodes, ranks=ranks or None, seed=0))
def best(f):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); times.append(time.perf_counter() - t)
    return min(times), out
fold_t, fold = best(lambda: gf.to_flamegraph(metric="time"))
tree_t, tree = best(lambda: gf.tree(metric_column="time", render_header=False))
dot_t, dot = best(lambda: gf.to_dot(metric="time"))
import hatchet, pandas
json.dump({"flamegraph": fold_t, "tree": tree_t, "dot": dot_t,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "versions": {"hatchet": getattr(hatchet, "__version__", "?"),
                        "pandas": pandas.__version__},
           "outputs": {"flamegraph": fold, "tree": tree, "dot": dot}}, sys.stdout)
"""


# ------------------------------------------------------------------ helpers
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


def _profile(nodes: int, ranks: int, variant: float = 0.0):
    from benchmarks.generate import generate
    from graphframe import GraphFrame

    return GraphFrame.from_raw(generate(nodes, ranks=ranks or None, seed=0, variant=variant))


# ------------------------------------------------------------------ cases
def case_exports(args) -> Dict[str, Any]:
    gf = _profile(args.small, args.ranks)
    setup = _rss_now_mb()
    fold_t, fold = _best(lambda: gf.to_flamegraph(metric="time"), args.repeat)
    tree_t, tree = _best(lambda: gf.tree(metric_column="time", render_header=False,
                                         color=False), args.repeat)
    dot_t, dot = _best(lambda: gf.to_dot(metric="time"), args.repeat)
    result: Dict[str, Any] = {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe),
                              "flamegraph": fold_t, "tree": tree_t, "dot": dot_t,
                              "setup_rss_mb": setup, "peak_rss_mb": _peak_mb()}
    if args.hatchet_python and Path(args.hatchet_python).exists():
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        proc = subprocess.run([args.hatchet_python, "-c", HATCHET_SCRIPT, str(args.small),
                               str(args.ranks), str(args.hatchet_repeat)],
                              capture_output=True, text=True, check=False, env=env, cwd=ROOT)
        if proc.returncode == 0:
            h = json.loads(proc.stdout)
            outs = h.pop("outputs")
            result["hatchet"] = h
            result["same_output"] = {"flamegraph": outs["flamegraph"] == fold,
                                     "tree": outs["tree"] == tree, "dot": outs["dot"] == dot}
        else:
            result["hatchet_error"] = proc.stderr.strip().splitlines()[-3:]
    return result


def case_diff(args) -> Dict[str, Any]:
    from graphframe import diff
    from graphframe.diffing import ranked_changes, regressions

    before = _profile(args.big, args.ranks)
    after = _profile(args.big, args.ranks, variant=0.1)
    setup = _rss_now_mb()
    diff_t, d = _best(lambda: diff(before, after), 1)
    tables_t, _ = _best(lambda: (ranked_changes(d, top=10),
                                 ranked_changes(d, "time", "exclusive", top=10)), args.repeat)
    reg_t, bad = _best(lambda: regressions(d, 10.0), args.repeat)
    all_t, every = _best(lambda: ranked_changes(d, top=None), args.repeat)
    tree_t, text = _best(lambda: d.diff_tree(changed_only=True, render_header=False), 1)
    flat_t, flat = _best(lambda: diff(before, after, by="name"), 1)
    counts = {str(k): int(v) for k, v in d.dataframe["status"].value_counts().items()}
    return {"nodes_before": before.graph.num_nodes, "nodes_after": after.graph.num_nodes,
            "rows_before": len(before.dataframe), "union_nodes": d.graph.num_nodes,
            "status": counts, "diff": diff_t, "ranked_tables": tables_t,
            "regressions": reg_t, "regressions_rows": len(bad), "ranked_all": all_t,
            "ranked_all_rows": len(every), "diff_tree_changed": tree_t,
            "diff_tree_lines": text.count("\n"), "flat_diff": flat_t,
            "flat_names": flat.graph.num_nodes, "setup_rss_mb": setup,
            "peak_rss_mb": _peak_mb()}


def case_save(args) -> Dict[str, Any]:
    gf = _profile(args.big, args.ranks)
    setup = _rss_now_mb()
    path = Path(args.workdir) / "big.gfz"
    save_t, _ = _best(lambda: gf.save(path), args.repeat)
    return {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe), "save": save_t,
            "file_mb": path.stat().st_size / 2**20, "setup_rss_mb": setup,
            "peak_rss_mb": _peak_mb()}


def case_load(args) -> Dict[str, Any]:
    from graphframe import load

    path = Path(args.workdir) / "big.gfz"
    setup = _rss_now_mb()
    load_t, gf = _best(lambda: load(path), args.repeat)
    return {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe), "load": load_t,
            "setup_rss_mb": setup, "peak_rss_mb": _peak_mb()}


def case_json(args) -> Dict[str, Any]:
    from graphframe import load
    from graphframe.io.json.stream import write_json

    path = Path(args.workdir) / "big.gfz"
    if not path.exists():
        _profile(args.big, args.ranks).save(path)
    gf = load(path)
    setup = _rss_now_mb()
    out = Path(args.workdir) / "big.json"
    write_t, _ = _best(lambda: write_json(gf, out), 1)
    return {"nodes": gf.graph.num_nodes, "rows": len(gf.dataframe), "write_json": write_t,
            "file_mb": out.stat().st_size / 2**20, "setup_rss_mb": setup,
            "peak_rss_mb": _peak_mb(), "peak_over_setup": _peak_mb() / setup}


def case_fail_above(args) -> Dict[str, Any]:
    work = Path(args.workdir)
    paths = [work / "before.gfz", work / "after.gfz"]
    for path, variant in zip(paths, (0.0, 0.1)):
        if not path.exists():
            _profile(args.big, args.ranks, variant).save(path)
    cmd = [sys.executable, "-m", "graphframe", "diff", str(paths[0]), str(paths[1]),
           "--fail-above", "10", "--no-tree", "--no-color"]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - t
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"nodes": args.big, "ranks": args.ranks, "command": wall,
            "exit_status": proc.returncode, "stderr": proc.stderr.strip()[:200],
            "setup_rss_mb": 0.0, "peak_rss_mb": usage.ru_maxrss / 1024}


CASES = {"exports": case_exports, "diff": case_diff, "save": case_save, "load": case_load,
         "json": case_json, "fail-above": case_fail_above}


# ------------------------------------------------------------------ driver
def parse(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("cases", nargs="*", help=f"cases to run (default: all of {', '.join(CASES)})")
    p.add_argument("--small", type=int, default=10_000, help="nodes of the exports profile")
    p.add_argument("--big", type=int, default=1_000_000,
                   help="nodes of the diff/save/fail-above profiles")
    p.add_argument("--ranks", type=int, default=16)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--hatchet-repeat", type=int, default=1)
    p.add_argument("--hatchet-python", default="",
                   help=f"interpreter with Hatchet for the exports case (e.g. {HATCHET_PYTHON})")
    p.add_argument("--python", default=sys.executable, help="interpreter of our cases")
    p.add_argument("--workdir", help="keep inputs here (default: a temporary directory)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--json", metavar="OUT", help="write the results and environment here")
    return p.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse(argv)
    if args.child:
        json.dump(CASES[args.child](args), sys.stdout)
        return 0
    cases = list(args.cases) or list(CASES)
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        raise SystemExit(f"unknown case(s) {unknown}; choose from {list(CASES)}")
    if "load" in cases and "save" not in cases:
        cases.insert(cases.index("load"), "save")
    results: Dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        for case in cases:
            cmd = [args.python, "-m", "benchmarks.io_bench", "--child", case,
                   "--small", str(args.small), "--big", str(args.big), "--ranks", str(args.ranks),
                   "--repeat", str(args.repeat), "--hatchet-repeat", str(args.hatchet_repeat),
                   "--hatchet-python", args.hatchet_python, "--workdir", workdir]
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ROOT,
                                  env=env)
            if proc.returncode:
                results[case] = {"error": proc.stderr.strip().splitlines()[-3:]}
            else:
                results[case] = json.loads(proc.stdout)
            print(_line(case, results[case]), file=sys.stderr)
    if args.json:
        record = {"environment": _environment(args.python), "settings": {
            "small": args.small, "big": args.big, "ranks": args.ranks, "repeat": args.repeat,
            "hatchet_repeat": args.hatchet_repeat}, "results": results}
        Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    return 0


def _environment(python: str) -> Dict[str, Any]:
    probe = ("import json, numpy, pandas, pyarrow; print(json.dumps({'numpy': numpy.__version__,"
             " 'pandas': pandas.__version__, 'pyarrow': pyarrow.__version__}))")
    proc = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    versions = json.loads(proc.stdout) if proc.returncode == 0 else {}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False, cwd=ROOT).stdout.strip()
    return {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "python": platform.python_version(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "load_average": list(os.getloadavg()), "commit": commit, **versions}


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
