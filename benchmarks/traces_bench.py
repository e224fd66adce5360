"""Trace benchmarks: synthetic Chrome JSON and DUMPI traces -> call-tree GraphFrame.

Each measurement runs in a fresh interpreter and reports wall time and the
process's peak resident memory (``VmHWM``). Generated traces are cached in
``--cache`` (default ``/tmp/graphframe-trace-bench``).

Usage::

    python -m benchmarks.traces_bench --sizes 1e6 1e7 --out benchmarks/results/traces.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, List

from benchmarks import traces_generate

CHILD = r"""
import json, os, sys, time, warnings
import graphframe.traces as gt
path, what, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = time.perf_counter()
c = os.times()
if what == "tree":
    gf = gt.read_tree(path, jobs=jobs or None)
    size = len(gf.graph)
else:
    tf = gt.read_trace(path, jobs=jobs or None)
    size = len(tf.events)
seconds = time.perf_counter() - t
c1 = os.times()  # this process and its worker processes (jobs=)
cpu = (c1.user + c1.system + c1.children_user + c1.children_system
       - c.user - c.system - c.children_user - c.children_system)
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print("RESULT " + json.dumps({"seconds": seconds, "cpu_seconds": cpu, "peak_mb": int(hwm) / 1024,
                              "size": size}))
"""


def _input(kind: str, n: int, cache: str) -> str:
    os.makedirs(cache, exist_ok=True)
    if kind == "chrome":
        path = os.path.join(cache, f"chrome-{n}.json")
        if not os.path.exists(path):
            traces_generate.chrome(n, path)
        return path
    out = os.path.join(cache, f"dumpi-{n}")
    meta = os.path.join(out, "synth.meta")
    if not os.path.exists(meta):
        traces_generate.dumpi(n, out)
    return meta


def measure(path: str, what: str, jobs: int) -> Dict[str, Any]:
    """Run one read in a child interpreter; its time and peak memory."""
    proc = subprocess.run([sys.executable, "-c", CHILD, path, what, str(jobs)],
                          capture_output=True, text=True, check=True)
    line = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1e6", "1e7"])
    parser.add_argument("--kinds", nargs="+", default=["chrome", "dumpi"])
    parser.add_argument("--what", nargs="+", default=["tree"], choices=["tree", "table"])
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--cache", default="/tmp/graphframe-trace-bench")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    results = []
    for kind in args.kinds:
        for size in args.sizes:
            n = int(float(size))
            path = _input(kind, n, args.cache)
            for what in args.what:
                load = os.getloadavg()[0]
                res = measure(path, what, args.jobs)
                res.update(kind=kind, events=n, what=what, jobs=args.jobs,
                           file_mb=_size_mb(path), load_before=round(load, 2),
                           load_after=round(os.getloadavg()[0], 2))
                results.append(res)
                print(f"{kind:7s} {what:5s} {n:>10,d} events: {res['seconds']:7.2f} s "
                      f"({res['cpu_seconds']:.2f} s CPU), "
                      f"peak {res['peak_mb']:7.1f} MB (load {load:.1f})", flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"date": time.strftime("%Y-%m-%d %H:%M"), "cpus": os.cpu_count(),
                       "results": results}, fh, indent=1)
    return 0


def _size_mb(path: str) -> float:
    if path.endswith(".meta"):
        d = os.path.dirname(path)
        return round(sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)) / 2**20, 1)
    return round(os.path.getsize(path) / 2**20, 1)


if __name__ == "__main__":
    sys.exit(main())
