"""Benchmark: reading raw profiler outputs (callgrind, gprof text, perf script).

Writes one generated input per format with the test-input generators of
``graphframe_readers.testing.writers`` (``generate_callgrind``, ``generate_gprof``,
``generate_perf_script``), then times ``graphframe_readers.read`` of each, in a
fresh process per run, and prints MB/s (the median of ``--repeat`` runs, of the wall
time and of the process's CPU time) with the machine's load average.

Usage::

    python -m benchmarks.read_raw_profilers --scale 1
    python -m benchmarks.read_raw_profilers --scale 4 --repeat 3 --formats callgrind,perf
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parent.parent

#: generator keywords per format at scale 1 (about 15-20 MB each)
SIZES = {
    "callgrind": dict(functions=20_000, calls_per_function=6, lines_per_function=60),
    "gprof": dict(functions=20_000, calls_per_function=6),
    "perf": dict(samples=40_000, functions=400, max_depth=24),
}


def write_input(fmt: str, folder: Path, scale: float, seed: int = 0) -> Path:
    """Write the generated input of ``fmt`` (``callgrind``, ``gprof`` or ``perf``)."""
    from graphframe_readers.testing import (generate_callgrind, generate_gprof,
                                            generate_perf_script)
    size = {k: max(1, int(v * scale)) if k in ("functions", "samples") else v
            for k, v in SIZES[fmt].items()}
    if fmt == "callgrind":
        path = folder / "callgrind.out.bench"
        generate_callgrind(path, seed=seed, **size)
    elif fmt == "gprof":
        path = folder / "bench.gprof.txt"
        generate_gprof(path, seed=seed, **size)
    else:
        path = folder / "bench.perf.txt"
        generate_perf_script(path, seed=seed, **size)
    return path


def time_read(path: Path) -> Tuple[float, float]:
    """Wall and CPU seconds of ``graphframe_readers.read(path)`` in a fresh process (import
    excluded). On a shared machine the CPU time is the better measure of the work."""
    code = ("import time, graphframe_readers as g, sys\n"
            "g.formats()\n"
            "t, c = time.perf_counter(), time.process_time(); g.read(sys.argv[1]); "
            "print(time.perf_counter() - t, time.process_time() - c)\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True, cwd=REPO)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--formats", default="callgrind,gprof,perf")
    args = parser.parse_args(argv)
    results: Dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in args.formats.split(","):
            path = write_input(fmt, Path(tmp), args.scale)
            size = path.stat().st_size / 1e6
            runs = [time_read(path) for _ in range(args.repeat)]
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            results[fmt] = {"MB": round(size, 1), "wall s": [round(w, 2) for w, _ in runs],
                            "cpu s": [round(c, 2) for _, c in runs],
                            "MB/s wall (median)": round(size / wall, 1),
                            "MB/s cpu (median)": round(size / cpu, 1),
                            "load": [round(x, 1) for x in os.getloadavg()]}
            print(json.dumps({fmt: results[fmt]}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
