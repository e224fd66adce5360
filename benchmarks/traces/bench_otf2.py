"""OTF2 reading (+ calling-context tree) time: ours vs a baseline.

The issue asks for a comparison with the pipit library run from its source
in a separate venv. ``pip install pipit`` on PyPI installs an empty 0.0.1
placeholder (no module), and this machine reaches no other source of it, so
when ``import pipit`` fails in the baseline interpreter the baseline is
**a lower bound of pipit's OTF2 reading**: iterating ``otf2.reader``'s
events, which pipit's OTF2 reader does for every event before it builds its
DataFrame, matches enter/leave rows and builds its tree in Python. A ratio
against the lower bound under-states the ratio against pipit.

Usage::

    python benchmarks/traces/bench_otf2.py [--ranks 8 --iterations 5000]
        [--baseline-python /work/pipitvenv/bin/python] [--out results.json]

Prints one JSON object: per trace, seconds (median of ``--repeat`` fresh processes,
timed after the imports) for ours
(decode into a handler that builds the calling-context tree when
``graphframe.traces.tree.TreeBuilder`` exists, else one that counts events)
with ``jobs=1`` and ``jobs=2``, the baseline's seconds, the ratios and the
load average.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

import graphframe_readers.traces as rt  # noqa: E402

PING_PONG = HERE.parents[2] / "shared" / "data" / "otf2" / "pipit-ping-pong-otf2" / "traces.otf2"

BASELINE = r"""
import sys, time
anchor = sys.argv[1]
try:
    import pipit
    t0 = time.perf_counter()
    trace = pipit.Trace.from_otf2(str(__import__("pathlib").Path(anchor).parent))
    trace.create_cct()
    kind = "pipit.Trace.from_otf2 + create_cct"
except ImportError:
    import otf2
    t0 = time.perf_counter()
    n = 0
    with otf2.reader.open(anchor) as tr:
        for location, event in tr.events:
            n += 1
    kind = "lower bound: otf2.reader event iteration (pipit not importable)"
t1 = time.perf_counter()
print(t1 - t0)
print(kind)
"""


OURS = r"""
import sys, time
sys.path.insert(0, sys.argv[3])
import otf2, graphframe_readers.traces as rt
from bench_otf2 import make_handler
anchor, jobs = sys.argv[1], int(sys.argv[2])
rt.trace_formats()  # load the decoder modules before timing
handler, what = make_handler()
t0 = time.perf_counter()
result = rt.decode(anchor, handler, format="otf2", jobs=jobs)
if hasattr(result, "graphframe"):
    result.graphframe()
print(time.perf_counter() - t0)
print(what)
"""


class Count(rt.EventHandler):
    """Counts events; reads in parallel."""

    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def on_batch(self, batch: rt.EventBatch) -> None:
        self.n += len(batch)

    def fork(self) -> "Count":
        return Count()

    def join(self, others) -> None:
        self.n += sum(o.n for o in others)


def make_handler():
    """The handler ours is timed with, and what it does."""
    try:
        from graphframe.traces.tree import TreeBuilder
    except ImportError:
        return Count(), "decode into an event counter (no TreeBuilder on this branch)"
    return TreeBuilder(), "decode + calling-context tree (TreeBuilder)"


def timed(argv: list, repeat: int) -> tuple:
    """Median seconds over ``repeat`` fresh processes (each prints seconds, then a label)."""
    times, what = [], ""
    for _ in range(repeat):
        out = subprocess.run(argv, capture_output=True, text=True, check=True,
                             cwd=str(HERE.parents[1])).stdout.split("\n")
        times.append(float(out[0]))
        what = out[1]
    return statistics.median(times), what


def ours(anchor: str, jobs: int, repeat: int) -> tuple:
    return timed([sys.executable, "-c", OURS, anchor, str(jobs), str(HERE)], repeat)


def baseline(python: str, anchor: str, repeat: int) -> tuple:
    return timed([python, "-c", BASELINE, anchor], repeat)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--iterations", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--baseline-python", default="/work/pipitvenv/bin/python")
    ap.add_argument("--out")
    args = ap.parse_args()
    from gen_otf2 import write_trace

    traces = {}
    if PING_PONG.is_file():
        traces["pipit-ping-pong (2 ranks, 120 events)"] = str(PING_PONG)
    tmp = tempfile.mkdtemp(prefix="otf2-bench-")
    try:
        big = write_trace(os.path.join(tmp, "t"), args.ranks, args.iterations)
        events = args.ranks * (2 + 13 * args.iterations)
        traces[f"generated ({args.ranks} ranks, {events} events)"] = big
        report = run(traces, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


def run(traces: dict, args: argparse.Namespace) -> dict:
    """Time every trace: ours with jobs=1 and 2, and the baseline."""
    report = {"load_average": os.getloadavg(), "results": {}}
    for name, anchor in traces.items():
        t1, what = ours(anchor, 1, args.repeat)
        t2, _ = ours(anchor, 2, args.repeat)
        tb, bwhat = baseline(args.baseline_python, anchor, args.repeat)
        report["results"][name] = {
            "ours": what, "ours_jobs1_s": round(t1, 4), "ours_jobs2_s": round(t2, 4),
            "baseline": bwhat, "baseline_s": round(tb, 4),
            "speedup_jobs1": round(tb / t1, 2), "speedup_jobs2": round(tb / t2, 2)}
    report["load_average_after"] = os.getloadavg()
    return report


if __name__ == "__main__":
    main()
