"""Benchmark: read large generated HPCToolkit databases, ours vs Hatchet.

Usage::

    python -m benchmarks.read_hpctoolkit --nodes 1e6 --ranks 16 [--layout old|latest]
        [--per-profile] [--hatchet /work/benchvenv/bin/python] [--workdir DIR] [--repeat 3]

Generates a random calling-context tree (procedures, loops, statements; built
with ProfileBuilder's bulk path), writes it with the project's writer, then
times in fresh processes, each under ``/usr/bin/time -v`` for peak RSS:

* ours: ``graphframe.read(db)`` (what a user calls: the reader, then the
  GraphFrame build, which consumes the reader's tables), and with
  ``--skip-from-raw`` ``graphframe_readers.read`` alone;
* Hatchet: ``GraphFrame.from_hpctoolkit`` (old layout) or
  ``from_hpctoolkit_latest`` (current layout; ``parallel_profiles_mode`` with
  ``--per-profile``), when its interpreter is given.

Times are the best of ``--repeat`` runs, wall clock and CPU (``process_time``;
Hatchet's metric-db worker processes are not in its CPU figure). The report
gives the bytes of the metric files (``*.metric-db`` or ``profile.db``) and
the peak as a multiple of them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from graphframe_readers.testing import random_hpctoolkit_profile

REPO = Path(__file__).resolve().parent.parent

OURS = r"""
import json, sys, time
sys.path.insert(0, {repo!r})
import graphframe
best = cpu = float("inf")
for _ in range({repeat}):
    c0, t0 = time.process_time(), time.perf_counter()
    gf = graphframe.read({path!r}, format={fmt!r}, **{options!r})
    c1, t1 = time.process_time(), time.perf_counter()
    best, cpu = min(best, t1 - t0), min(cpu, c1 - c0)
    rows, nodes = len(gf.dataframe), gf.graph.num_nodes
    dataframe_mb = gf.dataframe.memory_usage(deep=False, index=True).sum() / 2**20
    del gf
print(json.dumps({{"graphframe.read": best, "graphframe.read_cpu": cpu, "rows": rows,
                  "nodes": nodes, "dataframe_mb": dataframe_mb}}))
"""

OURS_READ_ONLY = r"""
import json, sys, time
sys.path.insert(0, {repo!r})
import graphframe_readers
t0 = time.perf_counter(); raw = graphframe_readers.read({path!r}, format={fmt!r}, **{options!r})
t1 = time.perf_counter()
print(json.dumps({{"read": t1 - t0, "rows": len(raw.metrics), "nodes": raw.num_nodes}}))
"""

HATCHET = r"""
import json, time, warnings
warnings.simplefilter("ignore")
import hatchet as ht
best = cpu = float("inf")
for _ in range({repeat}):
    c0, t0 = time.process_time(), time.perf_counter()
    gf = ht.GraphFrame.{reader}({path!r}{extra})
    c1, t1 = time.process_time(), time.perf_counter()
    best, cpu = min(best, t1 - t0), min(cpu, c1 - c0)
print(json.dumps({{"read": best, "read_cpu (main process only)": cpu, "rows": len(gf.dataframe),
                  "nodes": len(gf.graph)}}))
"""


def run_measured(code: str, python: str) -> dict:
    """Run ``code`` in a fresh interpreter under /usr/bin/time -v; result JSON + peak RSS."""
    proc = subprocess.run(["/usr/bin/time", "-v", python, "-c", code], capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-25:]}
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    out["peak_rss_mb"] = int(match.group(1)) / 1024 if match else None
    return out


def metric_file_bytes(db: Path) -> int:
    """Bytes of the files holding the metric values (``*.metric-db``, ``*.mdb``, ``profile.db``)."""
    files = [p for p in db.iterdir()
             if p.suffix in (".metric-db", ".mdb") or p.name == "profile.db"]
    return sum(p.stat().st_size for p in files)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=lambda text: int(float(text)), default=10_000,
                    help="nodes of the generated tree (1e6 is accepted)")
    ap.add_argument("--ranks", type=int, default=16)
    ap.add_argument("--layout", choices=["old", "latest"], default="old")
    ap.add_argument("--per-profile", action="store_true",
                    help="current layout: one row per node and rank (parallel_profiles_mode)")
    ap.add_argument("--hatchet", default="/work/benchvenv/bin/python")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-from-raw", action="store_true",
                    help="time only graphframe_readers.read (peak memory of the reader alone)")
    args = ap.parse_args(argv)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="hpctk-bench-"))
    db = work / f"{args.layout}-{args.nodes}x{args.ranks}"
    if not db.exists():
        raw = random_hpctoolkit_profile(args.nodes, args.ranks)
        if args.layout == "old":
            from graphframe_readers.testing import write_hpctoolkit
            write_hpctoolkit(raw, db)
        else:
            from graphframe_readers.testing import write_hpctoolkit_latest
            write_hpctoolkit_latest(raw, db)
    size = sum(p.stat().st_size for p in db.iterdir())
    metric_bytes = metric_file_bytes(db)
    fmt = "hpctoolkit" if args.layout == "old" else "hpctoolkit-latest"
    options = {"parallel_profiles_mode": True} if args.per_profile else {}
    template = OURS_READ_ONLY if args.skip_from_raw else OURS
    ours = run_measured(template.format(repo=str(REPO), path=str(db), fmt=fmt, options=options,
                                        repeat=args.repeat), sys.executable)
    if ours.get("peak_rss_mb"):
        ours["peak / metric file bytes"] = round(ours["peak_rss_mb"] * 2**20 / metric_bytes, 2)
    report = {"database": str(db), "bytes_on_disk": size, "metric_file_bytes": metric_bytes,
              "ours": ours}
    if args.hatchet and os.path.exists(args.hatchet):
        reader = "from_hpctoolkit" if args.layout == "old" else "from_hpctoolkit_latest"
        extra = ", parallel_profiles_mode=True" if args.per_profile else ""
        report["hatchet"] = run_measured(HATCHET.format(reader=reader, path=str(db), extra=extra,
                                                        repeat=args.repeat), args.hatchet)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
