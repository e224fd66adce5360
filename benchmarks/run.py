"""Time graphframe (and Hatchet, when importable here) on generated profiles.

    python -m benchmarks.run [--nodes 1e4,1e5,1e6] [--ranks 16] [--cases tree,inclusive]
                             [--repeat 5] [--no-hatchet] [--hatchet-timeout 120] [--json OUT]

Every (size, case, side) is measured in a fresh interpreter (see
:mod:`benchmarks.measure`), so peak memory is per case. Hatchet runs in
this interpreter's environment when ``import hatchet`` works (a separate
venv, since Hatchet needs pandas < 3; see docs/benchmarks.md). Hatchet is
slow on big inputs: a Hatchet measurement whose first run passes
``--hatchet-timeout`` seconds is stopped, and a larger size is skipped when
the time measured at a smaller one, scaled by the case's growth exponent,
predicts it would pass the budget.
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
from typing import Any, Dict, List, Optional, Sequence

from .cases import CASES
from .hatchet_adapter import hatchet_available
from .inputs import default_cache_dir
from .measure import MARKER, measure
from .report import environment, format_table

REPO = Path(__file__).resolve().parent.parent


def parse_sizes(text: str) -> List[int]:
    """``"1e4,1e5"`` -> ``[10000, 100000]``.

    Examples
    --------
    >>> parse_sizes("1e4, 2500,1e6")
    [2500, 10000, 1000000]
    """
    return sorted({int(float(s)) for s in text.split(",") if s.strip()})


def child_command(spec: Dict[str, Any]) -> List[str]:
    """The command line that measures ``spec`` in a fresh interpreter."""
    return [sys.executable, "-m", "benchmarks.run", "--child", json.dumps(spec)]


def run_child(spec: Dict[str, Any], timeout: float) -> Dict[str, Any]:
    """Measure ``spec`` in a subprocess; errors and timeouts become notes."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    started = time.perf_counter()
    try:
        proc = subprocess.run(child_command(spec), cwd=REPO, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"killed after {timeout:.0f} s (setup included)"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(MARKER):
            result = json.loads(line[len(MARKER):])
            result["wall_s"] = time.perf_counter() - started
            return result
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": f"exit {proc.returncode}: {tail[:200]}"}


class Planner:
    """Decides whether a Hatchet measurement fits the time budget."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.seen: Dict[str, tuple] = {}

    def skip_reason(self, case: str, nodes: int, exponent: float) -> Optional[str]:
        if case not in self.seen:
            return None
        n0, t0, timed_out = self.seen[case]
        if timed_out:
            return f"skipped: over {self.budget:.0f} s budget at {n0:,} nodes"
        predicted = t0 * (nodes / n0) ** exponent
        if predicted > self.budget:
            return f"skipped: ~{predicted:.0f} s predicted > {self.budget:.0f} s budget"
        return None

    def record(self, case: str, nodes: int, result: Dict[str, Any]) -> None:
        if result.get("timed_out"):
            self.seen[case] = (nodes, self.budget, True)
        elif result.get("times"):
            self.seen[case] = (nodes, min(result["times"]), False)


def run(args: argparse.Namespace) -> Dict[str, Any]:
    """Measure every (size, case, side); return the JSON-able report."""
    names = list(CASES) if args.cases in (None, "all") else args.cases.split(",")
    unknown = [n for n in names if n not in CASES]
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(unknown)}; known: {', '.join(CASES)}")
    use_hatchet = not args.no_hatchet and hatchet_available()
    planner = Planner(args.hatchet_timeout)
    load_at_start = os.getloadavg() if hasattr(os, "getloadavg") else None
    records = []
    for nodes in parse_sizes(args.nodes):
        for name in names:
            c = CASES[name]
            spec = dict(case=name, nodes=nodes, ranks=args.ranks or None, threads=args.threads,
                        seed=args.seed, repeat=args.repeat, cache_dir=str(args.cache))
            rec: Dict[str, Any] = {"case": name, "nodes": nodes,
                                   "ranks": 1 if c.single_process else (args.ranks or 1),
                                   "threads": args.threads}
            rec["ours"] = run_child(dict(spec, side="ours", budget=args.timeout),
                                    args.timeout * 3 + 600)
            side = c.hatchet_side
            if side is None:
                rec["hatchet"] = {"skipped": "no Hatchet equivalent"}
            elif not use_hatchet:
                rec["hatchet"] = {"skipped": "--no-hatchet" if args.no_hatchet
                                  else "hatchet not importable"}
            else:
                reason = planner.skip_reason(name, nodes, side.exponent)
                if reason:
                    rec["hatchet"] = {"skipped": reason}
                else:
                    rec["hatchet"] = run_child(dict(spec, side="hatchet",
                                                    budget=args.hatchet_timeout),
                                               args.hatchet_timeout * 3 + 600)
                    planner.record(name, nodes, rec["hatchet"])
            _summarise(rec)
            records.append(rec)
            if not args.quiet:
                print(f"[{nodes:,} nodes] {name}: ours {_brief(rec['ours'])}, "
                      f"hatchet {_brief(rec['hatchet'])}", file=sys.stderr, flush=True)
    return {"environment": environment(use_hatchet), "load_at_start": load_at_start,
            "settings": {
        "nodes": parse_sizes(args.nodes), "ranks": args.ranks, "threads": args.threads,
        "seed": args.seed, "repeat": args.repeat, "hatchet_timeout": args.hatchet_timeout},
        "notes": {n: CASES[n].note for n in names if CASES[n].note},
        "results": records}


def _summarise(rec: Dict[str, Any]) -> None:
    for side in ("ours", "hatchet"):
        r = rec[side]
        if r.get("times"):
            r["median_s"] = statistics.median(r["times"])
    if "median_s" in rec["ours"] and "median_s" in rec["hatchet"]:
        rec["ratio"] = rec["hatchet"]["median_s"] / max(rec["ours"]["median_s"], 1e-9)


def _brief(r: Dict[str, Any]) -> str:
    if "median_s" in r:
        return f"{r['median_s']:.4g} s"
    return r.get("skipped") or r.get("error") or ("timed out" if r.get("timed_out") else "?")


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", default="1e4,1e5,1e6", help="comma-separated node counts")
    p.add_argument("--ranks", type=int, default=16, help="ranks (0: no rank level)")
    p.add_argument("--threads", type=int, default=None, help="threads per rank")
    p.add_argument("--cases", default=None, help=f"comma-separated, default all: {', '.join(CASES)}")
    p.add_argument("--repeat", type=int, default=5, help="timed runs per measurement")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-hatchet", action="store_true", help="time graphframe only")
    p.add_argument("--hatchet-timeout", type=float, default=120.0,
                   help="seconds allowed for Hatchet's timed runs of one case at one size")
    p.add_argument("--timeout", type=float, default=1800.0,
                   help="the same budget for our side")
    p.add_argument("--json", type=Path, default=None, help="write the full report here")
    p.add_argument("--cache", type=Path, default=default_cache_dir(),
                   help="where generated files are kept between runs")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line entry point."""
    args = parse_args(argv)
    if args.child:
        print(MARKER + json.dumps(measure(json.loads(args.child))), flush=True)
        return 0
    if args.list:
        for c in CASES.values():
            hatchet = "ours + Hatchet" if c.hatchet_side else "ours only"
            print(f"{c.name:14s} {c.description} [{hatchet}]")
        return 0
    report = run(args)
    print(format_table(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
