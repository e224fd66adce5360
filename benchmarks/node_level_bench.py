"""Cost of the ``node`` index level handing out Node objects (issue 14 item 2).

Compares the same frame indexed by plain int64 ids with graphframe's node
level (a per-graph subclass of pandas' masked IntegerArray, see
``graphframe/model/nodeindex.py``): building it, ``groupby(level="node")``,
``loc`` with one node and with 200 nodes, ``reset_index``, ``xs`` and the
index memory. Best of ``--repeat`` runs.

    python -m benchmarks.node_level_bench --nodes 62500 --ranks 16
    python -m benchmarks.node_level_bench --nodes 1e6 --ranks 0
"""

from __future__ import annotations

import argparse
import gc
import os
import time
from typing import Any, Callable, Dict, List

import numpy as np
import pandas as pd

from graphframe import GraphFrame
from graphframe.model.nodeindex import with_node_values

from .generate import generate


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(df: pd.DataFrame, graph: Any, kind: str, repeat: int) -> Dict[str, Any]:
    plain = df.set_axis(_plain_index(df.index))

    def build() -> pd.DataFrame:
        return plain if kind == "int64" else with_node_values(plain, graph)

    frame = build()
    probe = [graph.node(int(i)) for i in np.linspace(0, graph.num_nodes - 1, 200).astype(int)]
    multi = isinstance(frame.index, pd.MultiIndex)
    out: Dict[str, Any] = {"level": kind}
    out["build s"] = best(lambda: build(), repeat) if kind != "int64" else 0.0
    out["groupby(node).sum s"] = best(lambda: frame.groupby(level="node")["time"].sum(), repeat)
    out["loc[node] ms"] = 1000 * best(lambda: [frame.loc[n] for n in probe[:50]], repeat) / 50
    out["loc[200 nodes] s"] = best(lambda: frame.loc[probe], repeat)
    out["reset_index s"] = best(lambda: frame.reset_index(), repeat)
    if multi:
        out["xs(rank 0) s"] = best(lambda: frame.xs(0, level="rank"), repeat)
    out["index MB"] = frame.index.memory_usage(deep=True) / 1e6
    value = frame.index.get_level_values("node")[0]
    out["value"] = type(value).__name__
    return out


def _plain_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        levels = [np.asarray(lev) if lev.dtype.kind in "iu" else lev for lev in index.levels]
        return pd.MultiIndex(levels=levels, codes=index.codes, names=index.names)
    return pd.Index(np.asarray(index, dtype=np.int64), name=index.name)


def main(argv: List[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="62500")
    parser.add_argument("--ranks", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    gf = GraphFrame.from_raw(generate(int(float(args.nodes)), ranks=args.ranks or None, seed=0))
    df = gf.dataframe[["time", "name"]]
    rows = [measure(df, gf.graph, kind, args.repeat) for kind in ("int64", "Node level")]
    print(f"pandas {pd.__version__}, {len(df):,} rows ({gf.graph.num_nodes:,} nodes x "
          f"{max(args.ranks, 1)} ranks), best of {args.repeat}; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(pd.DataFrame(rows).set_index("level").T.to_string())


if __name__ == "__main__":
    main()
