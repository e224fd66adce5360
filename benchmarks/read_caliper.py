"""Benchmark: reading Caliper json-split (and .cali) with graphframe vs Hatchet.

Generates a random calling-context tree (:func:`graphframe_readers.testing.random_tree_profile`),
writes it with :mod:`graphframe_readers.testing.writers.caliper`, then times, each in a fresh
process under ``/usr/bin/time -v`` (for the peak resident set size):

* graphframe: ``graphframe_readers.read`` (decoding) and ``GraphFrame.from_raw`` (the
  shared model build) separately, and their sum;
* Hatchet: ``GraphFrame.from_caliper`` (json-split) or ``from_caliperreader``
  (``.cali``), with the interpreter given by ``--hatchet-python``.

Usage::

    python -m benchmarks.read_caliper --nodes 10000 --ranks 16
    python -m benchmarks.read_caliper --nodes 1000000 --ranks 1 --no-hatchet
    python -m benchmarks.read_caliper --nodes 10000 --ranks 16 --format cali
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Dict, List, Optional

from graphframe_readers.testing import write_cali, write_caliper_json
from graphframe_readers.testing import random_tree_profile

REPO = Path(__file__).resolve().parent.parent
HATCHET_PYTHON = "/work/hvenv/bin/python"


OURS = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {repo!r})
    t0 = time.perf_counter()
    import graphframe_readers, graphframe
    t1 = time.perf_counter(); c1 = time.process_time()
    raw = graphframe_readers.read({path!r})
    t2 = time.perf_counter(); c2 = time.process_time()
    gf = graphframe.GraphFrame.from_raw(raw)
    t3 = time.perf_counter(); c3 = time.process_time()
    print("import", t1 - t0); print("read", t2 - t1); print("from_raw", t3 - t2)
    print("total", t3 - t1); print("cpu_read", c2 - c1); print("cpu_from_raw", c3 - c2)
    print("cpu", c3 - c1); print("rows", len(gf.dataframe)); print("nodes", gf.graph.num_nodes)
    print("df_bytes", int(gf.dataframe.memory_usage(deep=True).sum()))
""")

HATCHET = textwrap.dedent("""
    import time, warnings
    warnings.filterwarnings("ignore")
    t0 = time.perf_counter()
    import hatchet
    t1 = time.perf_counter(); c1 = time.process_time()
    gf = hatchet.GraphFrame.{reader}({path!r})
    t2 = time.perf_counter(); c2 = time.process_time()
    print("import", t1 - t0); print("total", t2 - t1); print("cpu", c2 - c1)
    print("rows", len(gf.dataframe))
""")


def run(python: str, code: str, timeout: float) -> Dict[str, float]:
    """Run ``code`` under /usr/bin/time -v; its printed ``key value`` lines plus peak RSS (MB)."""
    cmd = ["/usr/bin/time", "-v", python, "-c", code]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    out: Dict[str, float] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        try:
            out[key] = float(value)
        except ValueError:
            pass
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if match:
        out["peak_mb"] = int(match.group(1)) / 1024
    if done.returncode != 0:
        out["error"] = 1.0
        sys.stderr.write(done.stderr[-2000:])
    return out


def baseline(python: str, modules: str) -> float:
    """Peak RSS (MB) of an interpreter that only imports ``modules``."""
    code = f"import sys; sys.path.insert(0, {str(REPO)!r}); import {modules}"
    return run(python, code, 120).get("peak_mb", float("nan"))


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10000)
    parser.add_argument("--ranks", type=int, default=16)
    parser.add_argument("--format", choices=("json", "cali"), default="json")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-hatchet", action="store_true")
    parser.add_argument("--hatchet-python", default=HATCHET_PYTHON)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--keep", help="directory to keep the generated file in")
    args = parser.parse_args(argv)

    workdir = args.keep or tempfile.mkdtemp(prefix="caliper-bench-")
    path = os.path.join(workdir, f"bench-{args.nodes}x{args.ranks}.{args.format}")
    raw = random_tree_profile(args.nodes, args.ranks)
    if args.format == "json":
        write_caliper_json(raw, path)
        reader = "from_caliper"
    else:
        write_cali(raw, path)
        reader = "from_caliperreader"
    size_mb = os.path.getsize(path) / 2 ** 20
    print(f"input: {args.nodes} nodes x {args.ranks} ranks = {len(raw.metrics)} rows, "
          f"{args.format}, {size_mb:.1f} MB ({path})")

    ours = [run(sys.executable, OURS.format(repo=str(REPO), path=path), args.timeout)
            for _ in range(args.repeat)]
    best = min(ours, key=lambda r: r.get("total", float("inf")))
    base = baseline(sys.executable, "graphframe_readers, graphframe")
    print(f"graphframe: read {best.get('read', float('nan')):.3f} s + from_raw "
          f"{best.get('from_raw', float('nan')):.3f} s = {best.get('total', float('nan')):.3f} s "
          f"(CPU {best.get('cpu_read', float('nan')):.3f} + {best.get('cpu_from_raw', float('nan')):.3f}"
          f" = {best.get('cpu', float('nan')):.3f} s); "
          f"peak RSS {best.get('peak_mb', float('nan')):.0f} MB (interpreter + imports "
          f"{base:.0f} MB, so {best.get('peak_mb', 0) - base:.0f} MB for the data = "
          f"{(best.get('peak_mb', 0) - base) / size_mb:.1f}x the file); dataframe "
          f"{best.get('df_bytes', 0) / 2 ** 20:.1f} MB")
    if not args.no_hatchet and os.path.exists(args.hatchet_python):
        theirs = [run(args.hatchet_python, HATCHET.format(reader=reader, path=path), args.timeout)
                  for _ in range(max(1, min(args.repeat, 2)))]
        hbest = min(theirs, key=lambda r: r.get("total", float("inf")))
        if "total" in hbest:
            print(f"hatchet:    {hbest['total']:.3f} s (CPU {hbest.get('cpu', float('nan')):.3f} s); "
                  f"peak RSS {hbest.get('peak_mb', 0):.0f} MB; graphframe is "
                  f"{hbest['total'] / best['total']:.1f}x faster (CPU: "
                  f"{hbest.get('cpu', float('nan')) / best.get('cpu', float('nan')):.1f}x)")
        else:
            print(f"hatchet:    did not finish ({hbest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
