"""Benchmark: drawing a flame graph of a 100,000-node profile and a 1,000 x 512 heatmap.

The profiles come from :func:`benchmarks.generate.generate` (built in memory,
not timed). Each case is timed end to end as a user sees it: the plot
function (data preparation and artists) plus rendering the figure with Agg
(``canvas.draw()``); saving a PNG is timed separately. The issue's budget is
2 s for each of the two main cases.

Usage::

    python -m benchmarks.plot_bench                    # both cases, 3 repeats
    python -m benchmarks.plot_bench --repeat 5 --json benchmarks/results/plot-ours-pandas3.json
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from typing import Any, Callable, Dict, List

from graphframe import GraphFrame
from graphframe.plot import flamegraph, heatmap

from .generate import generate
from .report import environment

BUDGET_S = 2.0


def _canvas(size: tuple) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _timed(draw: Callable[[Any], Any], size: tuple, repeat: int) -> Dict[str, Any]:
    draw_s: List[float] = []
    png_s: List[float] = []
    for _ in range(repeat):
        fig = _canvas(size)
        start = time.perf_counter()
        draw(fig.add_subplot())
        fig.canvas.draw()
        draw_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        fig.savefig(io.BytesIO(), format="png", dpi=100)
        png_s.append(time.perf_counter() - start)
    return {"draw_s": draw_s, "median_draw_s": statistics.median(draw_s),
            "median_png_s": statistics.median(png_s)}


def run(repeat: int = 3, nodes: int = 100_000, ranks: int = 16, heat_paths: int = 1000,
        heat_ranks: int = 512) -> Dict[str, Any]:
    """Time every case; return the results with the environment."""
    results: Dict[str, Any] = {"environment": environment(False), "budget_s": BUDGET_S,
                               "cases": {}}
    big = GraphFrame.from_raw(generate(nodes, ranks=ranks, seed=0))
    cases = {
        f"flamegraph {nodes:,} nodes x {ranks} ranks (min_fraction 0.001)":
            (lambda ax: flamegraph(big, ax=ax), (12.0, 6.0)),
        f"flamegraph {nodes:,} nodes x {ranks} ranks, every box (min_fraction 0)":
            (lambda ax: flamegraph(big, ax=ax, min_fraction=0.0), (12.0, 6.0)),
    }
    wide = GraphFrame.from_raw(generate(heat_paths, ranks=heat_ranks, seed=0))
    cases[f"heatmap {heat_paths:,} call paths x {heat_ranks} ranks"] = (
        lambda ax: heatmap(wide, top=heat_paths, ax=ax), (10.0, 12.0))
    cases[f"heatmap {heat_paths:,} call paths x {heat_ranks} ranks, imbalance"] = (
        lambda ax: heatmap(wide, top=heat_paths, imbalance=True, ax=ax), (10.0, 12.0))
    for name, (draw, size) in cases.items():
        results["cases"][name] = _timed(draw, size, repeat)
    results["environment"]["load_average_after"] = environment(False)["load_average"]
    return results


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--ranks", type=int, default=16)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    results = run(args.repeat, args.nodes, args.ranks)
    env = results["environment"]
    print(f"load average before {env['load_average']}, after {env['load_average_after']}; "
          f"{env['cpus']} CPUs; numpy {env['numpy']}, pandas {env['pandas']}")
    for name, r in results["cases"].items():
        mark = "" if "every box" in name or "imbalance" in name else (
            "  ok" if r["median_draw_s"] <= BUDGET_S else "  OVER BUDGET")
        print(f"{name:70} draw {r['median_draw_s']:.2f} s  png {r['median_png_s']:.2f} s{mark}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
