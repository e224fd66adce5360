"""Ensemble benchmarks: composing many profiles, side by side with Thicket.

Inputs
------
``small``: copies of the real Thicket-tutorial ``.cali`` files
(``../shared/data/ensemble/thicket-tutorial``), each copy with a distinct
``launchdate`` value written into it (so copies differ in content and metadata,
like repeated trials). ``--count 1184`` takes 74 files x 16 copies, as in the
issue's measurement of Thicket.

``large``: synthetic ``.cali`` profiles of ``--nodes`` nodes x ``--ranks`` ranks
from :mod:`benchmarks.generate` (eight variants of one program, linked to as
many files as asked for), composed after being read; the read and the
composition are timed separately.

Every measurement runs in a fresh interpreter; peak memory is the child's
``VmHWM`` and, with ``jobs``, the largest worker's peak (``RUSAGE_CHILDREN``);
``cpu_seconds`` is the CPU time of the child and its workers, which a loaded
machine changes much less than the elapsed ``seconds``.
Thicket runs in its own venv (``--thicket-python``, pandas < 3), given the same
files through ``Thicket.from_caliperreader``.

Command line::

    python -m benchmarks.ensemble_bench small --count 1184 --jobs 1,2 --thicket-python ../thicketvenv/bin/python
    python -m benchmarks.ensemble_bench small --count 1000,4000,15000 --jobs 2
    python -m benchmarks.ensemble_bench large --profiles 64 --nodes 100000 --ranks 16
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from graphframe_readers.testing.writers.caliper import write_cali

from .generate import generate

REPO = Path(__file__).resolve().parent.parent
TUTORIAL = REPO.parent / "shared" / "data" / "ensemble" / "thicket-tutorial"
RESULTS = REPO / "benchmarks" / "results"
_LAUNCH = re.compile(rb"__rec=node,id=(\d+),attr=\d+,data=launchdate,")


def tutorial_files() -> List[Path]:
    """The 75 ``.cali`` files of the Thicket tutorial, sorted."""
    return sorted(TUTORIAL.rglob("*.cali"))


def make_copies(out: Path, count: int) -> List[Path]:
    """``count`` distinct copies of the tutorial files (see the module docs)."""
    sources = tutorial_files()
    per_file = 74 if count % 74 == 0 else len(sources)
    sources = sources[:per_file]
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    blobs = [s.read_bytes() for s in sources]
    for i in range(count):
        src, blob = sources[i % len(sources)], blobs[i % len(sources)]
        target = out / f"c{i:06d}-{src.name}"
        if not target.exists():
            target.write_bytes(_with_launchdate(blob, 1_600_000_000 + i))
        paths.append(target)
    return paths


def _with_launchdate(blob: bytes, value: int) -> bytes:
    found = _LAUNCH.search(blob)
    if found is None:
        return blob
    attr = found.group(1)
    return re.sub(rb"(__rec=node,id=\d+,attr=" + attr + rb",data=)\d+", rb"\g<1>" +
                  str(value).encode(), blob, count=1)


# ------------------------------------------------------------ child processes
OURS = """
import json, os, resource, sys, time
from graphframe import Ensemble
files = json.load(open(sys.argv[1]))
jobs = int(sys.argv[2])
t = time.perf_counter()
ens = Ensemble.read(files, jobs=None if jobs == 1 else jobs)
seconds = time.perf_counter() - t
hwm = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]
child = resource.getrusage(resource.RUSAGE_CHILDREN)
me = resource.getrusage(resource.RUSAGE_SELF)
cpu = me.ru_utime + me.ru_stime + child.ru_utime + child.ru_stime
print("RESULT " + json.dumps(dict(seconds=seconds, cpu_seconds=cpu, peak_kb=hwm,
      worker_peak_kb=child.ru_maxrss,
      nodes=ens.graph.num_nodes, rows=len(ens.dataframe), profiles=ens.num_profiles)))
"""

THICKET = """
import json, resource, sys, time
import thicket as th
files = json.load(open(sys.argv[1]))
t = time.perf_counter()
tk = th.Thicket.from_caliperreader(files, disable_tqdm=True)
seconds = time.perf_counter() - t
hwm = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]
me = resource.getrusage(resource.RUSAGE_SELF)
print("RESULT " + json.dumps(dict(seconds=seconds, cpu_seconds=me.ru_utime + me.ru_stime,
      peak_kb=hwm, worker_peak_kb=0, nodes=len(tk.graph), rows=len(tk.dataframe), profiles=len(tk.profile))))
"""

LARGE = """
import json, os, resource, sys, time
from graphframe_readers import read
from graphframe.ensemble.tables import tables_from_raw
from graphframe.ensemble.build import parts_from_tables
files = json.load(open(sys.argv[1]))
t = time.perf_counter()
tables = [tables_from_raw(read(f), f) for f in files]
read_s = time.perf_counter() - t
t = time.perf_counter()
parts = parts_from_tables(tables, files)
compose_s = time.perf_counter() - t
hwm = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]
print("RESULT " + json.dumps(dict(read_seconds=read_s, compose_seconds=compose_s,
      peak_kb=hwm, nodes=parts['graph'].num_nodes, rows=len(parts['dataframe']))))
"""


def run_child(python: str, code: str, files: List[Path], *args: Any) -> Dict[str, Any]:
    """Run ``code`` in a fresh ``python`` with the file list; return its RESULT."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump([str(f) for f in files], fh)
        listing = fh.name
    try:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        done = subprocess.run([python, "-c", code, listing, *map(str, args)], env=env,
                              capture_output=True, text=True, check=False)
    finally:
        os.unlink(listing)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"benchmark child failed:\n{done.stderr[-2000:]}")


def load_average() -> List[float]:
    """The machine's 1/5/15-minute load averages."""
    return list(os.getloadavg())


def small(args: argparse.Namespace) -> List[Dict[str, Any]]:
    """Time composing ``--count`` tutorial copies (ours per ``--jobs``, and Thicket)."""
    out = []
    for count in [int(c) for c in args.count.split(",")]:
        files = make_copies(Path(args.dir) / f"copies-{count}", count)
        for jobs in [int(j) for j in args.jobs.split(",")]:
            r = run_child(sys.executable, OURS, files, jobs)
            out.append(dict(case="small", side="graphframe", count=count, jobs=jobs,
                            load=load_average(), **r))
            print(json.dumps(out[-1]), flush=True)
        if args.thicket_python:
            r = run_child(args.thicket_python, THICKET, files)
            out.append(dict(case="small", side="thicket", count=count, jobs=1,
                            load=load_average(), **r))
            print(json.dumps(out[-1]), flush=True)
    return out


def large(args: argparse.Namespace) -> List[Dict[str, Any]]:
    """Time reading vs composing ``--profiles`` synthetic profiles."""
    folder = Path(args.dir) / f"large-{int(args.nodes)}x{args.ranks}"
    folder.mkdir(parents=True, exist_ok=True)
    variants = []
    for v in range(min(8, args.profiles)):
        path = folder / f"variant{v}.cali"
        if not path.exists():
            raw = generate(int(args.nodes), ranks=args.ranks, seed=0, variant=0.02 * v)
            write_cali(raw, path)
        variants.append(path)
    files = []
    for i in range(args.profiles):
        link = folder / f"p{i:03d}.cali"
        if not link.exists():
            os.link(variants[i % len(variants)], link)
        files.append(link)
    r = run_child(sys.executable, LARGE, files)
    result = dict(case="large", profiles=args.profiles, nodes_per_profile=int(args.nodes),
                  ranks=args.ranks, load=load_average(),
                  ratio=r["compose_seconds"] / r["read_seconds"], **r)
    print(json.dumps(result), flush=True)
    return [result]


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("small")
    s.add_argument("--count", default="1184")
    s.add_argument("--jobs", default="1,2")
    s.add_argument("--thicket-python", default=None)
    s.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "gf-ensemble-bench"))
    g = sub.add_parser("large")
    g.add_argument("--profiles", type=int, default=64)
    g.add_argument("--nodes", type=float, default=1e5)
    g.add_argument("--ranks", type=int, default=16)
    g.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "gf-ensemble-bench"))
    for p in (s, g):
        p.add_argument("--save", default=None, help="write the results (JSON) here")
    args = parser.parse_args(argv)
    results = small(args) if args.what == "small" else large(args)
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
