"""Small profiles for tests and examples (the inputs of the writers in :mod:`readers.testing`).

:func:`sample_profile` is a 10-node tree shaped like an HPCToolkit program:
functions, a loop, statements in three files, recursion (``solve`` calls
``solve``) and a statement after a nested procedure from another file.
"""

from __future__ import annotations

from typing import Sequence

from ..builder import ProfileBuilder
from ..profile import RawProfile

#: (name, kind, file, line, parent index) in document order; recursion (solve -> solve),
#: a loop, statements in three files, and a statement after a nested procedure in
#: another file (the case Hatchet gets wrong).
TREE = [
    ("main", "function", "a.c", 1, -1),       # 0
    ("loop", "loop", "a.c", 5, 0),            # 1
    ("stmt", "statement", "a.c", 6, 1),       # 2
    ("solve", "function", "b.c", 20, 1),      # 3
    ("stmt", "statement", "b.c", 21, 3),      # 4
    ("solve", "function", "b.c", 20, 3),      # 5  recursion
    ("stmt", "statement", "b.c", 22, 5),      # 6
    ("helper", "function", "c.h", 2, 0),      # 7
    ("stmt", "statement", "c.h", 3, 7),       # 8
    ("stmt", "statement", "a.c", 9, 0),       # 9  after helper (c.h) in document order
]


def own_value(node: int, rank: int, thread: int) -> float:
    """The exclusive value the tests give ``node`` on (rank, thread)."""
    return float((node + 1) * (1 + 10 * rank + 100 * thread))


def sample_profile(ranks: Sequence[int] = (0, 1), threads: Sequence[int] = (0, 1),
                   metrics: Sequence[str] = ("time",)) -> RawProfile:
    """A RawProfile of :data:`TREE` with exclusive metrics only (the writers sum them up).

    Node ``k`` has ``own_value(k, rank, thread) * (i + 1)`` for the ``i``-th
    metric, on every rank and thread given.

    Examples
    --------
    >>> raw = sample_profile(ranks=(0,), threads=(0,))
    >>> raw.index_levels, raw.num_nodes, raw.metrics["time"].tolist()[:3]
    (('rank',), 10, [1.0, 2.0, 3.0])
    >>> import tempfile
    >>> from readers.testing import write_hpctoolkit_latest
    >>> from readers.hpctoolkit_latest import read_hpctoolkit_latest
    >>> db = write_hpctoolkit_latest(sample_profile(), tempfile.mkdtemp())
    >>> read_hpctoolkit_latest(db).nodes["name"].tolist()[:3]
    ['main thread', 'function: main', 'loop a.c:5']
    """
    levels = ("rank", "thread") if len(threads) > 1 or threads != (0,) else ("rank",)
    b = ProfileBuilder("sample", index_levels=levels)
    ids = []
    for name, kind, fname, line, parent in TREE:
        if kind == "function":
            frame = {"type": "function", "name": name}
            cols = {"file": fname, "line": line, "module": "app"}
        else:
            frame = {"type": kind, "file": fname, "line": line}
            cols = {"file": fname, "line": line, "module": None}
        ids.append(b.add_node(frame, ids[parent] if parent >= 0 else -1, columns=cols))
    for node in range(len(TREE)):
        for r in ranks:
            for t in threads:
                values = {m: own_value(node, r, t) * (k + 1) for k, m in enumerate(metrics)}
                b.add_row(ids[node], values, rank=r, thread=t)
    return b.build(exc_metrics=list(metrics), default_metric=metrics[0])
