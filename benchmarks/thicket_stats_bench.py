"""Thicket's ``stats`` functions: graphframe.thicket.stats side by side with Thicket.

The same script runs under either implementation (their APIs are the same):
it reads every ``.cali`` file below a folder with ``Thicket.from_caliperreader`` and
times ``stats.mean``, ``std``, ``percentiles`` and ``calc_boxplot_statistics``
on the given columns (reading is not timed; each figure is the best of
``--repeat`` calls). One implementation at a time::

    python -m benchmarks.thicket_stats_bench DIR --impl graphframe
    ../thicketvenv/bin/python benchmarks/thicket_stats_bench.py DIR --impl thicket

prints one JSON line: implementation, profiles, rows and the seconds of each
function. Both in the same run, alternating (the issue's comparison)::

    python -m benchmarks.thicket_stats_bench DIR --thicket-python ../thicketvenv/bin/python \\
        --rounds 3 --json benchmarks/results/thicket-stats.json

starts one process per implementation (each reads the files once), then runs
``--rounds`` rounds, Thicket then graphframe in each, and prints every round's
times, ratios (Thicket / graphframe) and load average, then the median ratio of
each function. Thicket's boxplot refuses to run twice on one Thicket (its join
finds the columns already there), so its previous columns are dropped, untimed,
before each call - in both implementations.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

FUNCTIONS = ("mean", "std", "percentiles", "calc_boxplot_statistics")


def load(folder: str, impl: str) -> Any:
    """(module, Thicket) of every ``.cali`` file below ``folder``."""
    if impl == "thicket":
        import thicket as th
    else:
        import graphframe.thicket as th
    files = sorted(str(f) for f in Path(folder).rglob("*.cali"))
    return th, th.Thicket.from_caliperreader(files, disable_tqdm=True)


def one_round(th: Any, tk: Any, columns: List[str], repeat: int) -> Dict[str, float]:
    """Best-of-``repeat`` seconds of each function."""
    seconds = {}
    for name in FUNCTIONS:
        best = float("inf")
        for _ in range(repeat):
            before = None
            if name == "calc_boxplot_statistics":
                before = list(tk.statsframe.dataframe.columns)
            start = time.perf_counter()
            made = getattr(th.stats, name)(tk, columns)
            best = min(best, time.perf_counter() - start)
            if before is not None:   # untimed: Thicket's boxplot cannot add them twice
                frame = tk.statsframe.dataframe
                tk.statsframe.dataframe = frame.drop(columns=[c for c in made if c in frame])
        seconds[name] = best
    return seconds


def serve(args: argparse.Namespace) -> None:
    """Child process: read, say ready, then one round per ``go`` line on stdin."""
    th, tk = load(args.folder, args.impl)
    columns = args.columns.split(",")
    print(json.dumps({"ready": True, "profiles": len(tk.profile), "rows": len(tk.dataframe)}),
          flush=True)
    for line in sys.stdin:
        if line.strip() != "go":
            break
        print(json.dumps(one_round(th, tk, columns, args.repeat)), flush=True)


def compare(args: argparse.Namespace) -> Dict[str, Any]:
    """Both implementations in the same run, alternating rounds."""
    here = Path(__file__).resolve()
    common = [args.folder, "--serve", "--columns", args.columns, "--repeat", str(args.repeat)]
    children = {}
    info = {}
    env = dict(os.environ, PYTHONPATH=str(here.parent.parent))
    for impl, python in (("graphframe", sys.executable), ("thicket", args.thicket_python)):
        child = subprocess.Popen([python, str(here), *common, "--impl", impl], env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        info[impl] = _reply(child)   # reading is done, untimed
        children[impl] = child
    rounds = []
    for _ in range(args.rounds):
        entry: Dict[str, Any] = {"load_average": list(os.getloadavg())}
        for impl in ("thicket", "graphframe"):
            child = children[impl]
            child.stdin.write("go\n")
            child.stdin.flush()
            entry[impl] = _reply(child)
        entry["ratio"] = {f: entry["thicket"][f] / entry["graphframe"][f] for f in FUNCTIONS}
        rounds.append(entry)
        print(json.dumps(entry), flush=True)
    for child in children.values():
        child.stdin.close()
        child.wait()
    median = {f: statistics.median(r["ratio"][f] for r in rounds) for f in FUNCTIONS}
    return {"profiles": info["graphframe"]["profiles"], "rows": info["graphframe"]["rows"],
            "thicket_rows": info["thicket"]["rows"], "columns": args.columns.split(","),
            "repeat": args.repeat, "rounds": rounds, "median_ratio": median}


def _reply(child: subprocess.Popen) -> Dict[str, Any]:
    """The child's next JSON line (Thicket prints notices on import)."""
    for line in child.stdout:
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"the benchmark child {child.args} ended without an answer")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--impl", choices=["graphframe", "thicket"], default="graphframe")
    p.add_argument("--columns", default="time,time (exc)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--thicket-python", help="compare with Thicket run by this interpreter")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", help="write the comparison here")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve(args)
        return
    if args.thicket_python:
        result = compare(args)
        print(json.dumps({"median_ratio": result["median_ratio"]}))
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
        return
    th, tk = load(args.folder, args.impl)
    seconds = one_round(th, tk, args.columns.split(","), args.repeat)
    print(json.dumps({"impl": args.impl, "profiles": len(tk.profile),
                      "rows": len(tk.dataframe),
                      "seconds": {k: round(v, 5) for k, v in seconds.items()}}))


if __name__ == "__main__":
    main()
