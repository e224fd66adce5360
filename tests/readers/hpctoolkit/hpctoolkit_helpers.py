"""Small HPCToolkit inputs built with the project's writers, shared by the HPCToolkit tests.

The sample tree itself (``TREE``, ``own_value``, ``sample_profile``) lives in
:mod:`graphframe_readers.testing.samples`; the expectations and the context-kinds tree are here.
"""

from __future__ import annotations

from graphframe_readers import ProfileBuilder
from graphframe_readers.testing.samples import TREE, own_value, sample_profile

__all__ = ["KINDS_EXPECTED", "KINDS_TREE", "TREE", "expected_inclusive", "kinds_profile",
           "own_value", "sample_profile"]


def expected_inclusive(node: int, rank: int, thread: int, factor: float = 1.0) -> float:
    """Subtree sum of :func:`own_value` below ``node`` (itself included)."""
    total = own_value(node, rank, thread) * factor
    for child, row in enumerate(TREE):
        if row[4] == node:
            total += expected_inclusive(child, rank, thread, factor)
    return total


#: (frame type, name or (file, line), module, relation, parent index) of a tree with every
#: context kind the current layout's ``type`` column tells apart
KINDS_TREE = [
    ("function", "main", "/bin/app", None, -1),                       # 0  function
    ("line", ("a.c", 10), None, None, 0),                             # 1  call site
    ("function", "solve", "/bin/app", None, 1),                       # 2  function
    ("line", ("b.c", 5), None, None, 2),                              # 3  call site (inlined)
    ("function", "swap", "/bin/app", "inlined call", 3),              # 4  inlined function
    ("line", ("a.c", 20), None, None, 0),                             # 5  call site
    ("function", "<gpu kernel>", "/bin/app", None, 5),                # 6  gpu kernel
    ("instruction", None, "/db/gpubins/k.gpubin", "call", 6),         # 7  gpu instruction
    ("function", "<gpu copyin>", "/bin/app", None, 5),                # 8  gpu operation
    ("line", ("a.c", 30), None, None, 0),                             # 9  call site
    ("function", "main._omp_fn.0", "/bin/app", None, 9),              # 10 openmp region
    ("loop", ("a.c", 31), None, None, 10),                            # 11 loop
    ("line", ("a.c", 32), None, None, 11),                            # 12 line
    ("function", "<omp idle>", "/bin/app", None, 9),                  # 13 openmp runtime
    ("instruction", None, "/lib/libfoo.so", None, 0),                 # 14 call site
    ("instruction", None, "/lib/libbar.so", "call", 14),              # 15 instruction
    ("function", "kernel_body", "/db/gpubins/k.gpubin", None, 7),     # 16 gpu function
]

KINDS_EXPECTED = ["function", "call site", "function", "call site", "inlined function",
                  "call site", "gpu kernel", "gpu instruction", "gpu operation", "call site",
                  "openmp region", "loop", "line", "openmp runtime", "call site", "instruction",
                  "gpu function"]


def kinds_profile():
    """A RawProfile of :data:`KINDS_TREE` (one rank, ``time`` = 1 per node)."""
    b = ProfileBuilder("kinds", index_levels=("rank",))
    ids = []
    for kind, what, module, relation, parent in KINDS_TREE:
        if kind == "function":
            frame = {"type": kind, "name": what}
            cols = {"module": module, "relation": relation}
        elif kind == "instruction":
            frame = {"type": kind, "name": f"{module}:0"}
            cols = {"module": module, "relation": relation}
        else:
            frame = {"type": kind, "file": what[0], "line": what[1]}
            cols = {"file": what[0], "line": what[1], "module": None, "relation": relation}
        ids.append(b.add_node(frame, ids[parent] if parent >= 0 else -1, columns=cols))
    for node in ids:
        b.add_row(node, {"time": 1.0}, rank=0)
    return b.build(exc_metrics=["time"], default_metric="time")
