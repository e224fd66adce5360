"""Write a synthetic MPI OTF2 trace with the ``otf2`` package (tests and benchmarks).

Every rank runs ``main`` -> ``iterations`` x (``solve`` -> ``compute``,
``MPI_Send`` to the next rank + ``MPI_Recv`` from the previous one,
``MPI_Allreduce``), so the events per rank are ``2 + iterations * 13``
(enter/leave pairs plus one message or collective event per MPI call).
Times are in ns (timer resolution 1e9), deterministic.

Run: ``python benchmarks/traces/gen_otf2.py OUT_DIR RANKS ITERATIONS``.

Examples
--------
>>> import tempfile, pytest
>>> _ = pytest.importorskip("otf2")
>>> anchor = write_trace(tempfile.mkdtemp(), ranks=2, iterations=3)
>>> anchor.endswith("traces.otf2")
True
"""

from __future__ import annotations

import os
import sys
from typing import Any


def write_trace(folder: str, ranks: int = 2, iterations: int = 10) -> str:
    """Write the trace into ``folder``; returns the anchor file path."""
    import otf2  # optional dependency
    from otf2.enums import CollectiveOp, GroupType, Paradigm, RegionRole

    with otf2.writer.open(folder, timer_resolution=1_000_000_000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("machine")
        groups = [defs.location_group(f"MPI Rank {r}", system_tree_parent=node)
                  for r in range(ranks)]
        locs = [defs.location("Master thread", group=g) for g in groups]
        writers = [trace.event_writer_from_location(loc) for loc in locs]
        world_group = defs.group("world", members=locs, group_type=GroupType.COMM_LOCATIONS,
                                 paradigm=Paradigm.MPI)
        world = defs.comm("MPI_COMM_WORLD", group=world_group)

        def region(name: str, role: Any = RegionRole.FUNCTION, paradigm: Any = Paradigm.USER):
            return defs.region(name, region_role=role, paradigm=paradigm,
                               source_file="synthetic.c")

        main, solve, compute = region("main"), region("solve"), region("compute")
        send = region("MPI_Send", RegionRole.POINT2POINT, Paradigm.MPI)
        recv = region("MPI_Recv", RegionRole.POINT2POINT, Paradigm.MPI)
        allreduce = region("MPI_Allreduce", RegionRole.COLL_ALL2ALL, Paradigm.MPI)
        for r, w in enumerate(writers):
            t = 1000 * (r + 1)
            w.enter(t, main)
            for i in range(iterations):
                t = _iteration(w, t, i, r, ranks, world, (solve, compute, send, recv, allreduce),
                               CollectiveOp.ALLREDUCE)
            w.leave(t + 10, main)
    return os.path.join(folder, "traces.otf2")


def _iteration(w: Any, t: int, i: int, r: int, ranks: int, world: Any, regions: tuple,
               op: Any) -> int:
    solve, compute, send, recv, allreduce = regions
    w.enter(t + 10, solve)
    w.enter(t + 20, compute)
    w.leave(t + 120 + 10 * r, compute)
    t += 130 + 10 * r
    w.enter(t, send)
    w.mpi_send(t + 2, (r + 1) % ranks, world, i, 1024 * (i % 4 + 1))
    w.leave(t + 20, send)
    w.enter(t + 25, recv)
    w.mpi_recv(t + 40, (r - 1) % ranks, world, i, 1024 * (i % 4 + 1))
    w.leave(t + 45, recv)
    w.leave(t + 50, solve)
    w.enter(t + 55, allreduce)
    w.mpi_collective_begin(t + 56)
    w.mpi_collective_end(t + 70, op, world, 0xFFFFFFFF, 8, 8 * ranks)
    w.leave(t + 75, allreduce)
    return t + 80


if __name__ == "__main__":
    out, n_ranks, n_iter = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(write_trace(out, n_ranks, n_iter))
