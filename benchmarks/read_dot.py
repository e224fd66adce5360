"""Benchmark: reading a gprof2dot DOT call graph (``graphframe_readers.read`` and the GraphFrame build).

Writes a synthetic call graph in gprof2dot's shape (one statement per line,
callgrind-style node labels ``module\\nname\\nP%\\n(P%)\\nN×``, edge labels
``P%\\nN×``): ``--nodes`` functions and three edges per function (a tree edge
plus two calls from other functions), optionally with gprof2dot's colour and
size attributes (``--colour``). Then times, each in a fresh process, the
decoding (``graphframe_readers.read``) and ``GraphFrame.from_raw``.

Usage::

    python -m benchmarks.read_dot --nodes 100000
    python -m benchmarks.read_dot --nodes 100000 --colour --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Dict, List

import numpy as np

REPO = Path(__file__).resolve().parent.parent


def write_gprof_dot(path: str, nodes: int, *, colour: bool = False, seed: int = 0) -> str:
    """Write a gprof2dot-shaped DOT file of ``nodes`` functions and ``3 * nodes - 1`` edges.

    Examples
    --------
    >>> import os, tempfile, graphframe_readers
    >>> p = write_gprof_dot(os.path.join(tempfile.mkdtemp(), "g.dot"), 50)
    >>> raw = graphframe_readers.read(p)
    >>> raw.num_nodes, len(raw.edges) > 0
    (50, True)
    """
    rng = np.random.default_rng(seed)
    ids = np.arange(nodes)
    tree_parent = ids - rng.integers(1, 65, size=nodes)
    tree_parent[tree_parent < 0] = 0
    extra_src = rng.integers(0, nodes, size=2 * nodes)
    extra_dst = rng.integers(1, nodes, size=2 * nodes) if nodes > 1 else extra_src
    src = np.concatenate([tree_parent[1:], extra_src])
    dst = np.concatenate([ids[1:], extra_dst])
    total = rng.random(nodes) * 100
    own = total * rng.random(nodes)
    calls = rng.integers(1, 100_000, size=nodes)
    node_style = ('color="#0d3b73", fontcolor="#ffffff", fontsize="10.00", '
                  if colour else "")
    edge_style = ('arrowsize="0.35", color="#0d3b73", fontsize="10.00", '
                  if colour else "")
    edge_tail = ', labeldistance="0.50", penwidth="0.50"' if colour else ""
    lines = ["digraph {",
             '\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25];',
             '\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, style=filled, width=0];',
             '\tedge [fontname=Arial];']
    lines += [f'\t"fn_{i}" [{node_style}label="libapp.so\\nfn_{i}\\n{t:.2f}%\\n({s:.2f}%)\\n{c}\u00d7"];'
              for i, t, s, c in zip(ids.tolist(), total.tolist(), own.tolist(), calls.tolist())]
    share = rng.random(len(src)) * 100
    edge_calls = rng.integers(1, 1000, size=len(src))
    lines += [f'\t"fn_{a}" -> "fn_{b}" [{edge_style}label="{p:.2f}%\\n{c}\u00d7"{edge_tail}];'
              for a, b, p, c in zip(src.tolist(), dst.tolist(), share.tolist(),
                                    edge_calls.tolist())]
    lines.append("}")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return path


CHILD = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, {repo!r})
    import graphframe_readers, graphframe
    t0 = time.perf_counter()
    raw = graphframe_readers.read({path!r}, format="gprof-dot")
    t1 = time.perf_counter()
    gf = graphframe.GraphFrame.from_raw(raw)
    t2 = time.perf_counter()
    print(json.dumps({{"read": t1 - t0, "from_raw": t2 - t1, "nodes": gf.graph.num_nodes}}))
""")


def measure(path: str, repeat: int) -> Dict[str, float]:
    """Median read and build times over ``repeat`` fresh processes."""
    runs: List[Dict[str, float]] = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO), path=path)],
                             capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main(argv: List[str] = None) -> None:
    """Command line: write the file, time it, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=float, default=1e5)
    parser.add_argument("--colour", action="store_true", help="gprof2dot's colour attributes")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_gprof_dot(os.path.join(tmp, "bench.dot"), int(args.nodes),
                               colour=args.colour)
        size = os.path.getsize(path)
        result = measure(path, args.repeat)
    result.update(bytes=size, load=os.getloadavg()[0])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
