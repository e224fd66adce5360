"""OTF2 traces of one-sided MPI (as Score-P records them), for tests.

Needs the optional ``otf2`` package. Rank ``r`` of ``ranks``: one window;
``MPI_Win_fence`` (an RMA collective), ``MPI_Put`` of 64 bytes and a
request-based ``MPI_Rput`` of 32 bytes to the next rank, ``MPI_Win_fence``;
then ``MPI_Win_lock`` of the next rank, ``MPI_Fetch_and_op`` (an atomic, 8
bytes each way), ``MPI_Win_unlock``. One-sided records are points inside
their call's region, as Score-P writes them. Times in ns.

Examples
--------
>>> import tempfile, pytest
>>> _ = pytest.importorskip("otf2")
>>> write_rma_otf2(tempfile.mkdtemp(), ranks=2).endswith("traces.otf2")
True
"""

from __future__ import annotations

import os


def write_rma_otf2(folder: str, ranks: int = 2) -> str:
    """Write the trace; returns the anchor file path."""
    import otf2  # optional dependency
    from otf2.enums import (CollectiveOp, GroupType, LockType, Paradigm, RegionRole,
                            RmaAtomicType, RmaSyncLevel)

    with otf2.writer.open(folder, timer_resolution=1_000_000_000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("machine")
        groups = [defs.location_group(f"MPI Rank {r}", system_tree_parent=node)
                  for r in range(ranks)]
        locs = [defs.location("Master thread", group=g) for g in groups]
        world = defs.comm("MPI_COMM_WORLD", group=defs.group(
            "world", members=locs, group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI))
        win = defs.rma_win("win", world)

        def region(name):
            return defs.region(name, region_role=RegionRole.FUNCTION, paradigm=Paradigm.MPI)

        fence, put, rput, lock, unlock, fop = (region(n) for n in (
            "MPI_Win_fence", "MPI_Put", "MPI_Rput", "MPI_Win_lock", "MPI_Win_unlock",
            "MPI_Fetch_and_op"))
        for r, loc in enumerate(locs):
            w = trace.event_writer_from_location(loc)
            nxt = (r + 1) % ranks
            t = 1000 * (r + 1)

            def fence_at(t0):
                w.enter(t0, fence)
                w.rma_collective_begin(t0 + 1)
                w.rma_collective_end(t0 + 40, CollectiveOp.BARRIER, RmaSyncLevel.PROCESS, win,
                                     0xFFFFFFFF, 0, 0)
                w.leave(t0 + 50, fence)

            fence_at(t)
            w.enter(t + 100, put)
            w.rma_put(t + 101, win, nxt, 64, 1)
            w.leave(t + 110, put)
            w.enter(t + 120, rput)
            w.rma_put(t + 121, win, nxt, 32, 2)
            w.leave(t + 125, rput)
            fence_at(t + 200)
            w.enter(t + 300, lock)
            w.rma_acquire_lock(t + 305, win, nxt, 1, LockType.EXCLUSIVE)
            w.leave(t + 310, lock)
            w.enter(t + 320, fop)
            w.rma_atomic(t + 321, win, nxt, RmaAtomicType.FETCH_AND_ADD, 8, 8, 3)
            w.leave(t + 330, fop)
            w.enter(t + 340, unlock)
            w.rma_release_lock(t + 345, win, nxt, 1)
            w.leave(t + 360, unlock)
    return os.path.join(folder, "traces.otf2")
