"""A built-in example profile, generated here (not copied from anywhere).

It models a small MPI heat-diffusion solver on four ranks: set-up, a time
step loop with a halo exchange and a conjugate-gradient solve, and output.
Exclusive times are deterministic functions of the rank, so rank 3 is a
little slower (load imbalance) and every run gives the same numbers.
"""

from __future__ import annotations

from typing import List, Tuple

from graphframe_readers import ProfileBuilder, RawProfile

from .graphframe import GraphFrame
from .ops.inclusive import update_inclusive_columns

# (name, parent index, base exclusive seconds, extra seconds per rank)
_NODES: List[Tuple[str, int, float, float]] = [
    ("main", -1, 0.10, 0.00),
    ("initialize", 0, 0.05, 0.00),
    ("read_input", 1, 0.40, 0.00),
    ("MPI_Bcast", 1, 0.02, 0.01),
    ("setup_mesh", 1, 1.20, 0.05),
    ("timestep_loop", 0, 0.30, 0.00),
    ("exchange_halos", 5, 0.10, 0.00),
    ("MPI_Isend", 6, 0.25, 0.02),
    ("MPI_Irecv", 6, 0.20, 0.02),
    ("MPI_Waitall", 6, 0.90, 0.30),
    ("compute_fluxes", 5, 6.50, 0.40),
    ("cg_solve", 5, 0.40, 0.00),
    ("spmv", 11, 8.00, 0.50),
    ("dot_product", 11, 1.10, 0.05),
    ("MPI_Allreduce", 13, 0.70, 0.35),
    ("axpy", 11, 1.60, 0.05),
    ("apply_boundary", 5, 0.80, 0.00),
    ("write_output", 0, 0.05, 0.00),
    ("MPI_Gather", 17, 0.30, 0.10),
    ("write_hdf5", 17, 2.10, 0.00),
]

RANKS = 4


def example_raw() -> RawProfile:
    """The example as a RawProfile (20 nodes x 4 ranks, ``time`` in seconds).

    Examples
    --------
    >>> raw = example_raw()
    >>> raw.num_nodes, len(raw.metrics)
    (20, 80)
    """
    b = ProfileBuilder("<example>", index_levels=("rank",))
    ids: List[int] = []
    for name, parent, _, _ in _NODES:
        kind = "mpi" if name.startswith("MPI_") else "function"
        ids.append(b.add_node({"name": name, "type": kind},
                              parent=-1 if parent < 0 else ids[parent]))
    for rank in range(RANKS):
        for node, (_, _, base, skew) in zip(ids, _NODES):
            b.add_row(node, {"time": round(base + skew * rank, 6)}, rank=rank)
    return b.build(exc_metrics=["time"], default_metric="time",
                   metadata={"format": "example", "application": "heat-diffusion solver",
                             "mpi.world.size": RANKS})


def example_graphframe() -> GraphFrame:
    """The example as a GraphFrame, with ``time (inc)`` computed."""
    return update_inclusive_columns(GraphFrame.from_raw(example_raw()))
