"""Small profiles the plot tests build themselves, and matplotlib set-up."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest

from graphframe import GraphFrame
from graphframe_readers import ProfileBuilder

# (name, parent index, module)
SOLVER: List[Tuple[str, int, str]] = [
    ("main", -1, "app"),
    ("solve", 0, "app"),
    ("spmv", 1, "app"),
    ("MPI_Allreduce", 1, "libmpi"),
    ("io", 0, "app"),
    ("MPI_Allreduce", 4, "libmpi"),
]


def matplotlib_agg() -> Any:
    """matplotlib with the Agg backend, or skip the module's tests."""
    mpl = pytest.importorskip("matplotlib", reason="the plot tests need matplotlib "
                                                   "(pip install 'graphframe[plot]')")
    mpl.use("Agg", force=True)
    return mpl


def build(nodes: Sequence[Tuple[str, int, str]], times: np.ndarray,
          threads: Optional[int] = None, metadata: Optional[Dict[str, Any]] = None,
          inclusive: bool = True) -> GraphFrame:
    """A profile over ``nodes`` with exclusive ``time`` = ``times[node, rank]``.

    ``times`` is 1-d for a profile without ranks; NaN leaves the row out.
    With ``threads``, every thread of a rank gets ``times[node, rank] * (t + 1)``.
    """
    times = np.asarray(times, dtype=np.float64)
    levels: Tuple[str, ...] = ()
    if times.ndim == 2:
        levels = ("rank",) + (("thread",) if threads else ())
    b = ProfileBuilder("<test>", index_levels=levels)
    ids: List[int] = []
    for name, parent, module in nodes:
        ids.append(b.add_node({"name": name}, parent=-1 if parent < 0 else ids[parent],
                              columns={"name": name, "module": module}))
    for i, node in enumerate(ids):
        if times.ndim == 1:
            if not np.isnan(times[i]):
                b.add_row(node, {"time": float(times[i])})
            continue
        for rank in range(times.shape[1]):
            if np.isnan(times[i, rank]):
                continue
            for t in range(threads or 1):
                extra = {"thread": t} if threads else {}
                b.add_row(node, {"time": float(times[i, rank] * (t + 1))}, rank=rank, **extra)
    raw = b.build(exc_metrics=["time"], default_metric="time", metadata=metadata)
    gf = GraphFrame.from_raw(raw)
    return gf.update_inclusive_columns(inplace=False) if inclusive else gf


def node_of(gf: GraphFrame, path: str) -> int:
    """Node id of a call path ``"main > solve > spmv"``."""
    names = gf.dataframe.groupby(level="node")["name"].first()
    parent = gf.graph.parent
    want = path.split(" > ")
    for v in range(gf.graph.num_nodes):
        chain, u = [], v
        while u >= 0:
            chain.append(names[u])
            u = int(parent[u])
        if chain[::-1] == want:
            return v
    raise KeyError(path)


def solver(ranks: int = 4, threads: Optional[int] = None) -> GraphFrame:
    """SOLVER with deterministic, rank-dependent times (rank r: + r * skew)."""
    base = np.array([0.5, 1.0, 8.0, 0.5, 2.0, 0.25])
    skew = np.array([0.0, 0.0, 0.5, 0.4, 0.0, 0.1])
    times = base[:, None] + skew[:, None] * np.arange(ranks)[None, :]
    return build(SOLVER, times, threads=threads)
