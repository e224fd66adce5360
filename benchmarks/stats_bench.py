"""Benchmark: ``GraphFrame.rank_stats`` against plain numpy on the same arrays.

The issue's target: on 1,000,000 nodes x 64 ranks (64 M rows) ``rank_stats``
is within 3x of a plain numpy computation of the same numbers from the same
arrays, and needs at most 2 GB above its input.

The input is the synthetic MPI profile of :mod:`benchmarks.generate` (every
node on every rank, per-rank imbalance and a straggler), built into a
GraphFrame once. Then, alternately and ``--repeat`` times each:

* **numpy**: ``m = dataframe["time"].to_numpy().reshape(nodes, ranks)``
  and ``sum, min, max, mean, median, std, max / mean, argmax, argmin``
  along axis 1 - what someone who knows the layout would write, with no NaN
  handling and no index work;
* **ours**: ``gf.rank_stats("time")`` (the same nine statistics, from the
  GraphFrame: index codes, layout check, NaN handling, result frame).

Each run's time and peak resident memory above the resident size before
it (``/proc`` VmHWM after resetting it) are recorded; the results must be
equal (exactly, they are computed the same way). The machine's load
average is printed with the figures: the machine is shared.

Usage::

    python -m benchmarks.stats_bench                          # 1,000,000 x 64
    python -m benchmarks.stats_bench --nodes 100000 --ranks 16 --repeat 5 \\
        --json benchmarks/results/rank-stats.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from graphframe import GraphFrame

from .generate import generate
from .measure import memory_kb, release_free_memory, reset_peak
from .report import environment

STATS = ("sum", "min", "max", "mean", "median", "std", "imbalance", "argmax", "argmin")
#: The issue's limits: time ratio to numpy, memory above the input.
MAX_RATIO = 3.0
MAX_DELTA_KB = 2 * 1024 * 1024


def build(nodes: int, ranks: int, seed: int = 0) -> GraphFrame:
    """The synthetic profile as a GraphFrame (rows node-major, every node on every rank)."""
    return GraphFrame.from_raw(generate(nodes, ranks=ranks, seed=seed))


def numpy_stats(values: np.ndarray, nodes: int, ranks: int) -> Dict[str, np.ndarray]:
    """The nine statistics with plain numpy from the metric column (layout known)."""
    m = values.reshape(nodes, ranks)
    mean = m.mean(axis=1)
    high = m.max(axis=1)
    return {"sum": m.sum(axis=1), "min": m.min(axis=1), "max": high, "mean": mean,
            "median": np.median(m, axis=1), "std": m.std(axis=1), "imbalance": high / mean,
            "argmax": m.argmax(axis=1), "argmin": m.argmin(axis=1)}


def measured(fn: Callable[[], Any]) -> Dict[str, Any]:
    """Run ``fn`` once: its result, seconds and peak KiB above the resident size before."""
    gc.collect()
    release_free_memory()
    before = memory_kb()["rss"]
    resettable = reset_peak()
    t0 = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - t0
    peak = memory_kb()["hwm"] - before if resettable else None
    return {"result": result, "seconds": seconds, "peak_delta_kb": peak}


def same_numbers(ours: Any, ref: Dict[str, np.ndarray]) -> Dict[str, bool]:
    """Per statistic: does ``rank_stats``' column equal numpy's (exactly)?"""
    out = {}
    for stat in STATS:
        col = ours[f"time.{stat}"]
        got = col.to_numpy(dtype=np.int64) if stat.startswith("arg") else col.to_numpy()
        out[stat] = bool(np.array_equal(got, ref[stat], equal_nan=True))
    return out


def run(nodes: int, ranks: int, repeat: int, seed: int = 0) -> Dict[str, Any]:
    """Build the input, time both sides ``repeat`` times (alternating), compare results."""
    gc.collect()
    release_free_memory()
    base = memory_kb()["rss"]
    t0 = time.perf_counter()
    gf = build(nodes, ranks, seed)
    gc.collect()
    release_free_memory()
    input_kb = memory_kb()["rss"] - base
    build_s = time.perf_counter() - t0
    values = gf.dataframe["time"].to_numpy()
    sides: Dict[str, List[Dict[str, Any]]] = {"numpy": [], "ours": []}
    ref = ours = None
    for _ in range(repeat):
        r = measured(lambda: numpy_stats(values, nodes, ranks))
        ref = r.pop("result")
        sides["numpy"].append(r)
        r = measured(lambda: gf.rank_stats("time", stats=STATS))
        ours = r.pop("result")
        sides["ours"].append(r)
    equal = same_numbers(ours, ref)
    summary = {side: {"seconds": [r["seconds"] for r in runs],
                      "median_s": float(np.median([r["seconds"] for r in runs])),
                      "peak_delta_kb": max((r["peak_delta_kb"] or 0) for r in runs)}
               for side, runs in sides.items()}
    ratio = summary["ours"]["median_s"] / summary["numpy"]["median_s"]
    return {"nodes": nodes, "ranks": ranks, "rows": nodes * ranks, "repeat": repeat,
            "build_s": build_s, "input_rss_kb": input_kb, **summary, "ratio": ratio,
            "equal": equal,
            "within_limits": {"ratio": ratio <= MAX_RATIO,
                              "memory": summary["ours"]["peak_delta_kb"] <= MAX_DELTA_KB,
                              "equal": all(equal.values())}}


def report_text(res: Dict[str, Any], env: Dict[str, Any]) -> str:
    """Human-readable lines for one result."""
    mb = 1024.0
    load = env.get("load_average")
    lines = [
        f"rank_stats on {res['nodes']:,} nodes x {res['ranks']} ranks ({res['rows']:,} rows); "
        f"input {res['input_rss_kb'] / mb:,.0f} MB (built in {res['build_s']:.1f} s); "
        f"load average {_load(env.get('load_average_before'))} before, {_load(load)} after",
        f"  numpy      median {res['numpy']['median_s']:.3f} s  "
        f"peak +{res['numpy']['peak_delta_kb'] / mb:,.0f} MB",
        f"  rank_stats median {res['ours']['median_s']:.3f} s  "
        f"peak +{res['ours']['peak_delta_kb'] / mb:,.0f} MB",
        f"  ratio {res['ratio']:.2f} (limit {MAX_RATIO:g}); memory limit "
        f"{MAX_DELTA_KB / mb / mb:g} GB; equal results: "
        f"{'yes' if res['within_limits']['equal'] else res['equal']}",
    ]
    return "\n".join(lines) + "\n"


def _load(value: Any) -> str:
    return str(tuple(round(x, 2) for x in value)) if value else "n/a"


def main(argv: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args(argv)
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
    res = run(args.nodes, args.ranks, args.repeat, args.seed)
    env = environment(False)
    env["load_average_before"] = load_before
    print(report_text(res, env), end="")
    settings = dict(vars(args), json=str(args.json) if args.json else None)
    report = {"settings": settings, "environment": env, "result": res}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str) + "\n")
    return report


if __name__ == "__main__":
    main()
