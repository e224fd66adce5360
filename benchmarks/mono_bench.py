"""Mono log (.mlpd) decoding speed and the call tree's memory, beside mprof-report.

Run from the repository root::

    python -m benchmarks.mono_bench                    # a 100 MB generated calls log
    python -m benchmarks.mono_bench --size 500 --mprof-report
    python -m benchmarks.mono_bench --path app.mlpd    # an existing log

The log comes from :func:`graphframe_readers.testing.writers.mlpd.write_calls_log`
(recursive calls of 12 methods and allocations with backtraces on two threads;
about 7 bytes per event). Each case runs in its own child process, so its
peak resident memory (``VmHWM``) is its own:

``decode``  the decoder into a handler that keeps nothing (layers 1-2 only);
``model``   the default handler (mprof-report's statistics, no backtraces kept);
``tree``    ``graphframe.read(path)``: the call tree as a GraphFrame.

Wall and CPU seconds are printed with the machine's load average (the
machine is shared), MB/s per CPU second and per wall second. With
``--mprof-report`` the same file goes through ``mprof-report`` (its wall
time and peak RSS, from ``getrusage`` of the child).
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
from typing import Dict

CASES = ("decode", "model", "tree")


def _peak_kb() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(case: str, path: str) -> Dict[str, float]:
    """Run one case in this process; returns its measurements."""
    from graphframe_readers.traces.mono.handler import MonoHandler, run
    from graphframe_readers.traces.mono.model import ModelBuilder
    from graphframe_readers.traces.sources import FileSource
    import graphframe

    class Count(MonoHandler):
        events = 0

        def on_chunk(self, chunk):
            self.events += len(chunk)

    before = _peak_kb()
    wall, cpu = time.perf_counter(), time.process_time()
    events = 0
    if case == "decode":
        events = run(FileSource(path), Count()).events
    elif case == "model":
        events = run(FileSource(path), ModelBuilder(traces=False)).events
    else:
        gf = graphframe.read(path)
        events = len(gf.dataframe)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
            "peak_kb": _peak_kb(), "start_kb": before, "count": events}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.mono_bench",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=float, default=100, help="generated log size, MB")
    p.add_argument("--path", help="an existing .mlpd file instead of a generated one")
    p.add_argument("--dir", default=tempfile.gettempdir(), help="where to write the log")
    p.add_argument("--cases", default=",".join(CASES))
    p.add_argument("--mprof-report", action="store_true", help="also time mprof-report")
    p.add_argument("--child", nargs=2, metavar=("CASE", "PATH"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    path = args.path
    if path is None:
        from graphframe_readers.testing.writers.mlpd import write_calls_log
        path = os.path.join(args.dir, f"mono-calls-{args.size:g}MB.mlpd")
        if not os.path.exists(path):
            write_calls_log(path, int(args.size * 1e6))
    mb = os.path.getsize(path) / 1e6
    print(f"log: {path} ({mb:.1f} MB)")
    if args.mprof_report:   # first: the children's peak RSS is then its own
        load = os.getloadavg()[0]
        start = time.perf_counter()
        done = subprocess.run(["mprof-report", path], capture_output=True)
        wall = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(f"mprof-report wall {wall:7.2f} s  exit {done.returncode}  "
              f"children's cpu {usage.ru_utime + usage.ru_stime:7.2f} s   "
              f"peak {usage.ru_maxrss / 1024:7.1f} MiB   "
              f"load {load:.1f}/{os.getloadavg()[0]:.1f}")
    for case in args.cases.split(","):
        load = os.getloadavg()[0]
        out = subprocess.run([sys.executable, "-m", "benchmarks.mono_bench", "--child", case,
                              path], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{case:8s} wall {r['wall']:7.2f} s  cpu {r['cpu']:7.2f} s  "
              f"{mb / r['cpu']:6.1f} MB/s per cpu s  {mb / r['wall']:6.1f} MB/s wall  "
              f"peak {r['peak_kb'] / 1024:7.1f} MiB (at start {r['start_kb'] / 1024:.1f})  "
              f"load {load:.1f}/{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
