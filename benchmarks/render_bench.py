"""Benchmark: text trees of a large profile cost what they print (issue 19, item 10).

``tree(depth=2)`` of a 1,000,000-node x 16-rank profile prints about ten lines
and ``render_diff_tree(depth=3)`` of its diff with the 10 % variant about
seventy-five; both used to format every node (3-12 s each on the shared
machine). The synthetic profile of :mod:`benchmarks.generate` (and its
``variant`` for the diff) is built once, untimed; then each rendering is
timed ``--repeat`` times, with the number of printed lines and the machine's
load average (the machine is shared: figures vary with it).

Usage::

    python -m benchmarks.render_bench                       # 1,000,000 x 16
    python -m benchmarks.render_bench --nodes 100000 --repeat 5 \\
        --json benchmarks/results/render-trees.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import graphframe
from graphframe import GraphFrame
from graphframe.render.diff_tree import render_diff_tree

from .generate import generate
from .report import environment


def timed(render: Callable[[], str], repeat: int) -> Dict[str, Any]:
    """Seconds of each run, the printed lines and the load average after each run."""
    seconds: List[float] = []
    loads: List[float] = []
    text = ""
    for _ in range(repeat):
        start = time.perf_counter()
        text = render()
        seconds.append(round(time.perf_counter() - start, 4))
        loads.append(round(os.getloadavg()[0], 2))
    return {"seconds": seconds, "best": min(seconds), "lines": text.count("\n"),
            "load_average": loads}


def run(nodes: int, ranks: int, repeat: int, diff: bool = True) -> Dict[str, Any]:
    """Build the profiles (untimed) and time the renderings."""
    start = time.perf_counter()
    base = GraphFrame.from_raw(generate(nodes, ranks=ranks, seed=0))
    result: Dict[str, Any] = {"nodes": nodes, "ranks": ranks, "rows": len(base.dataframe),
                              "repeat": repeat,
                              "build_seconds": round(time.perf_counter() - start, 2)}
    result["tree_depth2"] = timed(lambda: base.tree(depth=2), repeat)
    result["tree_depth4"] = timed(lambda: base.tree(depth=4), repeat)
    if diff:
        variant = GraphFrame.from_raw(generate(nodes, ranks=ranks, seed=0, variant=0.1))
        d = graphframe.diff(base, variant)
        result["diff_tree_depth3"] = timed(lambda: render_diff_tree(d, depth=3), repeat)
    return result


def main(argv: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Command line: run, print a summary, optionally write JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.render_bench")
    parser.add_argument("--nodes", type=lambda s: int(float(s)), default=1_000_000)
    parser.add_argument("--ranks", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-diff", action="store_true", help="skip the diff tree")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args(argv)
    report = {"environment": environment(False),
              "result": run(args.nodes, args.ranks, args.repeat, diff=not args.no_diff)}
    res = report["result"]
    print(f"text trees of {res['nodes']:,} nodes x {res['ranks']} ranks "
          f"({res['rows']:,} rows), build {res['build_seconds']} s")
    for key in ("tree_depth2", "tree_depth4", "diff_tree_depth3"):
        if key in res:
            r = res[key]
            print(f"  {key:17} best {r['best']:.3f} s of {r['seconds']}, {r['lines']} lines, "
                  f"load {r['load_average']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str) + "\n")
    return report


if __name__ == "__main__":
    main()
