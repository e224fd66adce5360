"""Trace reading side by side with pipit: time, CPU time and peak memory per case.

Each case reads one trace and runs the analyses both libraries have (flat
profile with inclusive and exclusive time; the communication matrix where the
trace has messages) in a fresh interpreter, ours and pipit's alternately,
``--repeat`` times; the report gives medians. Figures per run: the import
time, the read time, the analyses' time, the CPU time of the process and its
worker processes (``resource.getrusage``) from after the imports to the end,
and the peak resident memory of the process (``ru_maxrss``) and of its largest
worker. The machine's load average is recorded beside each run: on a shared
machine the CPU time is the steadier figure.

pipit (hpcgroup/pipit) is not on the package index; install its source
checkout into a virtual environment of its own and pass its interpreter as
``--pipit-python`` (a case is reported for ours alone when the interpreter is
absent or cannot import pipit).

Cases (``--cases``; the generated inputs are written once to ``--cache``):

=============  =================================================================
``otf2``        generated OTF2 (the ``otf2`` writer), 8 ranks x 1e5 events per rank
``nvtx``        generated Nsight NVTX push/pop CSV, 1e6 ranges on 4 processes
``chrome``      generated Chrome JSON, 1e7 events, to a calling-context tree
                (``read_tree``; pipit reads no Chrome JSON: ours alone)
``otf2-small``  the real OTF2 ping-pong (../shared/data/otf2/pipit-ping-pong-otf2)
``proj-small``  the real Projections ping-pong
``nvtx-small``  the real NVTX CSV (nbody)
``hpct-small``  the real HPCToolkit ping-pong trace.db
=============  =================================================================

``--named`` gives ours the format (``read_trace(path, "otf2")``), as pipit's
``Trace.from_otf2`` is told it; by default ours recognises the input. ``--warm`` times,
in each process, the read (and analyses) of a copy of the input made
after a first read: the cost once the modules are loaded and used once, for both
libraries. ``--start N`` also times, in N fresh processes, ``import pandas``, then ``import
graphframe``, then ``import graphframe.traces`` (CPU time each), the first read of the
OTF2 ping-pong and the read of a copy of it (the read's own cost once its modules are
loaded).

Usage::

    python -m benchmarks.traces_vs_pipit --cases otf2 nvtx otf2-small \\
        --pipit-python /work/venv-pipit/bin/python --repeat 3 --out results.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"

#: The reference figures of issue 31 (pipit develop @ 05d95634, idle 2-core machine).
PIPIT_REFERENCE = {
    "otf2": "read 4.7 s (9.0 s CPU with 2 worker processes), peak 403-478 MB",
    "nvtx": "read 0.68 s (pandas' C reader), end to end ~1x ours before issue 31",
    "small": "6-400 ms per read after import, peak 78-85 MB",
}

CHILD = r"""
import json, os, resource, sys, time, warnings
warnings.simplefilter("ignore")
side, case, path = sys.argv[1], sys.argv[2], sys.argv[3]
jobs = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
warm = len(sys.argv) > 5 and sys.argv[5] == "warm"
named = len(sys.argv) > 6 and sys.argv[6] == "named"
FORMATS = {"otf2": "otf2", "nvtx": "nsight-nvtx-csv", "proj": "projections",
           "hpct": "hpctoolkit-trace", "chrome": "chrome"}
fmt = FORMATS[case.split("-")[0]] if named else None

def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime

t0, c0 = time.perf_counter(), cpu()
if side == "ours":
    import graphframe.traces as gt
else:
    import pipit

def copy_of(path):
    import shutil, tempfile
    folder = tempfile.mkdtemp()
    src = os.path.dirname(path) if path.endswith(".otf2") or os.path.isfile(path) else path
    dst = os.path.join(folder, "copy")
    shutil.copytree(src, dst)
    return dst if os.path.isdir(path) else os.path.join(dst, os.path.basename(path))


def pipit_read(path):
    if case.startswith("otf2"):
        return pipit.Trace.from_otf2(os.path.dirname(path) if path.endswith(".otf2") else path)
    if case.startswith("nvtx"):
        return pipit.Trace.from_nsight(path)
    if case.startswith("proj"):
        return pipit.Trace.from_projections(path)
    return pipit.Trace.from_hpctoolkit(path)


def first_read(path):
    if side == "ours":
        gt.read_trace(path, fmt).flat_profile()
        return
    tr = pipit_read(path)
    try:
        tr.flat_profile(["time.inc", "time.exc"])
    except Exception:
        pass


if warm:  # the modules loaded and their first uses made by a first read; time a copy's
    first_read(path)
    path = copy_of(path)
t1, c1 = time.perf_counter(), cpu()
size = 0
if side == "ours":
    if case == "chrome":
        g = gt.read_tree(path, fmt, jobs=jobs)
        size = len(g.graph)
        t2 = time.perf_counter()
    else:
        tf = gt.read_trace(path, fmt, jobs=jobs)
        size = len(tf.events)
        t2 = time.perf_counter()
        tf.flat_profile()
        if case.startswith("otf2"):
            tf.comm_matrix()
else:
    tr = pipit_read(path)
    size = len(tr.events)
    t2 = time.perf_counter()
    try:
        tr.flat_profile(["time.inc", "time.exc"])
        if case.startswith("otf2"):
            tr.comm_matrix()
    except Exception as exc:  # pipit fails some analyses on some inputs
        print("ANALYSIS-FAILED " + type(exc).__name__ + ": " + str(exc)[:200], file=sys.stderr)
t3, c3 = time.perf_counter(), cpu()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
peak_workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print("RESULT " + json.dumps({
    "import_s": t1 - t0, "read_s": t2 - t1, "analyses_s": t3 - t2, "total_s": t3 - t1,
    "cpu_s": c3 - c1, "peak_mb": peak, "peak_worker_mb": peak_workers, "size": size}))
"""


def inputs(cache: str) -> Dict[str, str]:
    """Each case's input path (generated ones written to ``cache`` on first use)."""
    os.makedirs(cache, exist_ok=True)
    return {
        "otf2": os.path.join(cache, "otf2-8x1e5", "traces.otf2"),
        "nvtx": os.path.join(cache, "nvtx-1e6.csv"),
        "chrome": os.path.join(cache, "chrome-1e7.json"),
        "otf2-small": str(SHARED / "otf2" / "pipit-ping-pong-otf2" / "traces.otf2"),
        "proj-small": str(SHARED / "projections" / "pipit-ping-pong-projections"),
        "nvtx-small": str(SHARED / "traces" / "nsight" / "nbody-nvtx" / "trace.csv"),
        "hpct-small": str(SHARED / "hpctoolkit" / "pipit-ping-pong-v4-database"),
    }


def generate(case: str, path: str) -> None:
    """Write a generated case's input when absent."""
    if os.path.exists(path) or case.endswith("-small"):
        return
    from benchmarks import traces_generate
    if case == "otf2":
        sys.path.insert(0, str(ROOT / "benchmarks" / "traces"))
        from gen_otf2 import write_trace
        write_trace(os.path.dirname(path), ranks=8, iterations=7692)  # 8 x 1e5 events
    elif case == "nvtx":
        traces_generate.nvtx(1_000_000, path)
    elif case == "chrome":
        traces_generate.chrome(10_000_000, path)


#: a fresh process each time, with its modules' byte code cached as an installed package
#: has it (PYTHONDONTWRITEBYTECODE would make every run compile graphframe's modules)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

START = r"""
import os, shutil, sys, tempfile, time
cpu = time.process_time
path = sys.argv[1]
c0 = cpu()
import pandas
c1 = cpu()
import graphframe
c2 = cpu()
import graphframe.traces as gt
c3 = cpu()
gt.read_trace(path)
c4 = cpu()
copy = os.path.join(tempfile.mkdtemp(), "copy")
shutil.copytree(os.path.dirname(path), copy)
c5 = cpu()
gt.read_trace(os.path.join(copy, os.path.basename(path)))
c6 = cpu()
shutil.rmtree(os.path.dirname(copy))
print("RESULT " + __import__("json").dumps({
    "import_pandas_s": c1 - c0, "import_graphframe_s": c2 - c1,
    "import_traces_s": c3 - c2, "first_read_s": c4 - c3, "warm_read_s": c6 - c5}))
"""


def _workdir() -> str:
    """An empty folder to run the children in, as a user runs from a project folder: the
    interpreter's path starts with the working folder, and graphframe's plugin look-up
    lists it (a shared /tmp holds thousands of entries: 5-7 ms to list)."""
    folder = os.path.join(tempfile.gettempdir(), "graphframe-bench-cwd")
    os.makedirs(folder, exist_ok=True)
    return folder


def start_up(python: str, path: str, repeat: int) -> Dict[str, Any]:
    """CPU times of the imports and of reading the ping-pong (first read in a fresh process,
    then a copy of it: the read's own cost once the modules are loaded), medians."""
    runs = []
    for _ in range(repeat):
        load = os.getloadavg()[0]
        proc = subprocess.run([python, "-c", START, path], capture_output=True, text=True,
                              cwd=_workdir(), env=ENV)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
        out = json.loads(line[len("RESULT "):])
        out["load"] = round(load, 2)
        runs.append(out)
    return medians(runs)


def run_once(python: str, side: str, case: str, path: str,
             jobs: Optional[int] = None, warm: bool = False,
             named: bool = False) -> Optional[Dict[str, Any]]:
    """One fresh-process measurement, or None when the side cannot run."""
    load = os.getloadavg()[0]
    try:
        proc = subprocess.run([python, "-c", CHILD, side, case, path,
                               "" if jobs is None else str(jobs), "warm" if warm else "",
                               "named" if named else ""],
                              capture_output=True, text=True, cwd=_workdir(), env=ENV)
    except OSError as exc:
        print(f"  {side} {case}: cannot run {python}: {exc}", file=sys.stderr)
        return None
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    if proc.returncode or not lines:
        print(f"  {side} {case}: failed: {proc.stderr.strip().splitlines()[-1:]}",
              file=sys.stderr)
        return None
    out = json.loads(lines[-1][len("RESULT "):])
    out["load"] = round(load, 2)
    if "ANALYSIS-FAILED" in proc.stderr:
        out["analysis_failed"] = proc.stderr.split("ANALYSIS-FAILED ", 1)[1].splitlines()[0]
    return out


def medians(runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    keys = [k for k in runs[0] if isinstance(runs[0][k], (int, float))]
    out = {k: round(statistics.median(r[k] for r in runs), 4) for k in keys}
    out["runs"] = len(runs)
    out["loads"] = [r["load"] for r in runs]
    if any("analysis_failed" in r for r in runs):
        out["analysis_failed"] = next(r["analysis_failed"] for r in runs if "analysis_failed" in r)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+",
                        default=["otf2", "nvtx", "otf2-small", "proj-small", "nvtx-small",
                                 "hpct-small"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pipit-python", default="/work/venv-pipit/bin/python")
    parser.add_argument("--ours-python", default=sys.executable)
    parser.add_argument("--cache", default="/tmp/graphframe-trace-bench")
    parser.add_argument("--no-pipit", action="store_true")
    parser.add_argument("--named", action="store_true",
                        help="ours reads with format= named, as pipit's from_<format> do")
    parser.add_argument("--warm", action="store_true",
                        help="time the read of a copy after a first read in the same process")
    parser.add_argument("--jobs", type=int, default=None,
                        help="ours' jobs= (default: the reader's default)")
    parser.add_argument("--start", type=int, default=0, metavar="N",
                        help="also time the imports and the ping-pong's reads in N processes")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    paths = inputs(args.cache)
    pipit_ok = not args.no_pipit and os.path.exists(args.pipit_python)
    report: Dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M"), "cpus": os.cpu_count(),
                              "jobs": args.jobs, "warm": args.warm, "named": args.named,
                              "pipit_reference": PIPIT_REFERENCE, "cases": {}}
    for case in args.cases:
        generate(case, paths[case])
        runs: Dict[str, List[Dict[str, Any]]] = {"ours": [], "pipit": []}
        sides = ["ours"] + (["pipit"] if pipit_ok and case != "chrome" else [])
        for rep in range(args.repeat):
            for side in (sides if rep % 2 == 0 else sides[::-1]):
                python = args.ours_python if side == "ours" else args.pipit_python
                res = run_once(python, side, case, paths[case],
                               args.jobs if side == "ours" else None, args.warm,
                               args.named)
                if res is not None:
                    runs[side].append(res)
        entry = {side: medians(r) for side, r in runs.items() if r}
        if "ours" in entry and "pipit" in entry:
            o, p = entry["ours"], entry["pipit"]
            entry["speedup_total"] = round(p["total_s"] / o["total_s"], 2)
            entry["speedup_cpu"] = round(p["cpu_s"] / o["cpu_s"], 2)
            entry["speedup_read"] = round(p["read_s"] / o["read_s"], 2)
        report["cases"][case] = entry
        print(case, json.dumps(entry), flush=True)
    if args.start:
        report["start"] = start_up(args.ours_python, paths["otf2-small"], args.start)
        print("start", json.dumps(report["start"]), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
