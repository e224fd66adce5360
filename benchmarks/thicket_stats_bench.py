"""Thicket's ``stats`` functions: graphframe.thicket.stats side by side with Thicket.

The same script runs under either implementation (their APIs are the same):
it reads every ``.cali`` file below a folder with ``Thicket.from_caliperreader`` and
times ``stats.mean``, ``std``, ``percentiles`` and ``calc_boxplot_statistics``
on the given columns (reading is not timed). Run it once with graphframe's
venv and once with Thicket's::

    python -m benchmarks.thicket_stats_bench DIR --impl graphframe
    ../thicketvenv/bin/python benchmarks/thicket_stats_bench.py DIR --impl thicket

It prints one JSON line: implementation, profiles, rows and the seconds of
each function (best of ``--repeat``; the boxplot runs once).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--impl", choices=["graphframe", "thicket"], default="graphframe")
    p.add_argument("--columns", default="time,time (exc)")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    if args.impl == "thicket":
        import thicket as th
    else:
        import graphframe.thicket as th
    files = sorted(str(f) for f in Path(args.folder).rglob("*.cali"))
    tk = th.Thicket.from_caliperreader(files, disable_tqdm=True)
    columns = args.columns.split(",")
    calls = {"mean": lambda: th.stats.mean(tk, columns),
             "std": lambda: th.stats.std(tk, columns),
             "percentiles": lambda: th.stats.percentiles(tk, columns),
             "calc_boxplot_statistics": lambda: th.stats.calc_boxplot_statistics(tk, columns)}
    seconds = {}
    for name, call in calls.items():
        best = float("inf")
        # Thicket's boxplot cannot run twice on one Thicket (its join refuses the columns)
        for _ in range(1 if name == "calc_boxplot_statistics" else args.repeat):
            start = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - start)
        seconds[name] = round(best, 5)
    print(json.dumps({"impl": args.impl, "profiles": len(tk.profile),
                      "rows": len(tk.dataframe), "seconds": seconds}))


if __name__ == "__main__":
    main()
