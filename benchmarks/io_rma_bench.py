"""Issue 29 speed: a Recorder 2.5 trace of RANKS x RECORDS read and summarised (the I/O
questions per run), and a one-sided DUMPI trace of RANKS x OPS read and summarised
(foRMA's report), in one process and with ``jobs=2``.

Each measurement runs in a fresh interpreter and reports wall and CPU seconds (this
process and its workers), peak memory and the machine's load average beside it
(the machine is shared). Generated traces are cached in ``--cache``.

Usage::

    python -m benchmarks.io_rma_bench --ranks 64 --records 100000 --out benchmarks/results/io_rma.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any, Dict

CHILD = r"""
import json, os, sys, time
case, path, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = time.perf_counter()
c = os.times()
from graphframe.traces.read_many import read_calls
imported = time.perf_counter() - t
from graphframe_readers.traces.call_table import CallTableBuilder
joined = []  # this process's times when the workers' tables are joined (jobs > 1)
_join = CallTableBuilder.join
def join(self, others):
    joined.append(os.times())
    _join(self, others)
CallTableBuilder.join = join
ci = os.times()
calls, defs = read_calls(path, jobs=jobs or None, args=False)
read = time.perf_counter() - t
cr = os.times()
if case == "recorder":
    from graphframe.traces.io.view import IOView
    v = IOView(calls, defs)
    out = [v.record_count(per="rank"), v.function_count(per="rank"), v.function_time(per="rank"),
           v.file_accesses(per="rank"), v.total_file_accesses(per="rank"),
           v.file_count(per="rank"), v.total_function_time(per="rank")]
else:
    from graphframe.traces.rma_report import rma_report
    out = rma_report(calls, path)
seconds = time.perf_counter() - t
c1 = os.times()
cpu = (c1.user + c1.system + c1.children_user + c1.children_system
       - c.user - c.system - c.children_user - c.children_system)
def spent(a, b):
    return b.user + b.system + b.children_user + b.children_system - \
        (a.user + a.system + a.children_user + a.children_system)
# an idle machine's wall: the CPU, less what ran beside the calling process (the
# workers' decoding, or this process's own decoding while they ran: the shorter)
idle = cpu
if joined:
    own = joined[0].user + joined[0].system - ci.user - ci.system
    workers = cr.children_user + cr.children_system - ci.children_user - ci.children_system
    idle = cpu - min(own, workers)
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print("RESULT " + json.dumps({"seconds": seconds, "read_seconds": read, "cpu_seconds": cpu,
                              "import_seconds": imported, "import_cpu": spent(c, ci),
                              "read_cpu": spent(ci, cr), "summary_cpu": spent(cr, c1),
                              "idle_wall_estimate": idle,
                              "peak_mb": int(hwm) / 1024, "calls": len(calls)}))
"""


def _inputs(ranks: int, records: int, cache: str) -> Dict[str, str]:
    from graphframe_readers.testing.writers.dumpi_rma import write_rma_trace
    from graphframe_readers.testing.writers.recorder import write_loop_trace

    rec = os.path.join(cache, f"recorder-{ranks}x{records}")
    if not os.path.exists(os.path.join(rec, "recorder.mt")):
        write_loop_trace(rec, ranks, records)
    rma = os.path.join(cache, f"dumpi-rma-{ranks}x{records}")
    if not os.path.exists(os.path.join(rma, "rma.meta")):
        write_rma_trace(rma, ranks, records, per_epoch=16)
    return {"recorder": rec, "dumpi-rma": rma}


def measure(case: str, path: str, jobs: int, hugepages: bool = True) -> Dict[str, Any]:
    """One fresh-interpreter run; returns its RESULT plus the load averages around it.
    ``hugepages=False`` runs it with ``NUMPY_MADVISE_HUGEPAGE=0`` (numpy then does not ask
    the kernel for transparent huge pages for its large arrays)."""
    before = os.getloadavg()
    env = dict(os.environ)
    if not hugepages:
        env["NUMPY_MADVISE_HUGEPAGE"] = "0"
    out = subprocess.run([sys.executable, "-c", CHILD, case, path, str(jobs)],
                         capture_output=True, text=True, check=True, env=env)
    line = next(l for l in out.stdout.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result.update(case=case, jobs=jobs, hugepages=hugepages, load_before=before[0],
                  load_after=os.getloadavg()[0])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--cache", default="/tmp/graphframe-io-rma-bench")
    parser.add_argument("--out", help="write the results as JSON")
    parser.add_argument("--cases", nargs="+", default=["recorder", "dumpi-rma"])
    parser.add_argument("--jobs", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--no-hugepage", action="store_true",
                        help="run with NUMPY_MADVISE_HUGEPAGE=0 (see measure)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case")
    args = parser.parse_args()
    paths = _inputs(args.ranks, args.records, args.cache)
    results = []
    for case, path in paths.items():
        if case not in args.cases:
            continue
        for jobs in [j for _ in range(args.repeat) for j in args.jobs]:
            r = measure(case, path, jobs, hugepages=not args.no_hugepage)
            results.append(r)
            print(f"{case:10} jobs={jobs}: {r['seconds']:6.1f} s (read {r['read_seconds']:.1f} s,"
                  f" CPU {r['cpu_seconds']:.1f} s = import {r['import_cpu']:.1f} + read "
                  f"{r['read_cpu']:.1f} + summary {r['summary_cpu']:.1f}; idle wall ~"
                  f"{r['idle_wall_estimate']:.1f} s; {r['peak_mb']:.0f} MB,"
                  f" {r['calls']} calls; load {r['load_before']:.1f} -> {r['load_after']:.1f})",
                  flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"ranks": args.ranks, "records": args.records, "results": results}, fh,
                      indent=1)


if __name__ == "__main__":
    main()
