"""Small profiles for tests and examples (the inputs of the writers in :mod:`graphframe_readers.testing`).

:func:`sample_profile` is a 10-node tree shaped like an HPCToolkit program:
functions, a loop, statements in three files, recursion (``solve`` calls
``solve``) and a statement after a nested procedure from another file.
:func:`random_tree_profile` and :func:`random_hpctoolkit_profile` make random
trees of any size (vectorised), for large inputs.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

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
    >>> from graphframe_readers.testing import write_hpctoolkit_latest
    >>> from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
    >>> db = write_hpctoolkit_latest(sample_profile(), tempfile.mkdtemp())
    >>> read_hpctoolkit_latest(db).nodes["name"].tolist()[:3]
    ['main thread', 'main', 'Loop@a.c:5']
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


def random_tree_profile(nodes: int, ranks: int, seed: int = 0) -> RawProfile:
    """A random tree (``nodes`` nodes, unique names) with ``time`` and
    ``time (inc)`` on every (node, rank); ``ranks == 1`` gives one rank level value.

    Examples
    --------
    >>> raw = random_tree_profile(100, 2)
    >>> raw.num_nodes, len(raw.metrics), raw.index_levels
    (100, 200, ('rank',))
    """
    rng = np.random.default_rng(seed)
    # parent of i: a random earlier node among the last 64, so depth grows slowly
    offsets = rng.integers(1, 65, size=nodes)
    parent = np.arange(nodes, dtype=np.int64) - offsets
    parent[parent < 0] = 0
    parent[0] = -1
    names = np.array([f"region_{i}" for i in range(nodes)], dtype=object)
    builder = ProfileBuilder("random", index_levels=("rank",))
    kinds = np.empty(nodes, dtype=object)
    kinds.fill("region")
    builder.add_nodes(parent, {"name": names, "type": kinds})
    node = np.repeat(np.arange(nodes, dtype=np.int64), ranks)
    rank = np.tile(np.arange(ranks, dtype=np.int64), nodes)
    time = rng.random(nodes * ranks)
    builder.add_rows(node, {"time": time, "time (inc)": time * 2.0}, rank=rank)
    return builder.build(["time"], ["time (inc)"], inclusive_of={"time": "time (inc)"},
                         default_metric="time", metadata={"cluster": "bench"})


def random_hpctoolkit_profile(nodes: int, ranks: int, seed: int = 0,
                              threads: int = 1) -> RawProfile:
    """A random calling-context tree shaped like HPCToolkit's: ~55% procedures, ~5% loops,
    ~40% statement leaves; ``time`` per rank (and thread).

    Examples
    --------
    >>> raw = random_hpctoolkit_profile(200, 2, threads=2)
    >>> raw.num_nodes, raw.index_levels, len(raw.metrics)
    (200, ('rank', 'thread'), 800)
    """
    rng = np.random.default_rng(seed)
    inner = max(1, int(nodes * 0.6))
    leaves = nodes - inner
    # inner nodes: a random recursive tree (parent uniform among earlier inner nodes),
    # depth ~ e*ln(n) (about 25 at 10,000 nodes; Hatchet recurses per level)
    parent_inner = (rng.random(inner) * np.arange(inner)).astype(np.int64)
    parent_inner[0] = -1
    parent_leaf = rng.integers(0, inner, leaves)
    parent = np.concatenate([parent_inner, parent_leaf])
    is_loop = np.zeros(nodes, dtype=bool)
    is_loop[1:inner] = rng.random(inner - 1) < 0.08
    is_stmt = np.zeros(nodes, dtype=bool)
    is_stmt[inner:] = True
    kind = np.where(is_stmt, "statement", np.where(is_loop, "loop", "function")).astype(object)
    files = np.array([f"src/file{k}.c" for k in range(max(1, nodes // 200))], dtype=object)
    procs = np.array([f"proc_{k}" for k in range(max(1, nodes // 20))], dtype=object)
    func_file = files[rng.integers(0, len(files), nodes)]
    # statements and loops take their enclosing procedure's file (as hpcprof writes them)
    file_of = func_file.copy()
    for level in range(64):
        lexical = (kind != "function") & (parent >= 0)
        new = np.where(lexical, file_of[np.maximum(parent, 0)], file_of)
        if (new == file_of).all():
            break
        file_of = new
    line = rng.integers(1, 5000, nodes)
    b = ProfileBuilder("random", index_levels=("rank", "thread") if threads > 1 else ("rank",))
    frames = {
        "type": kind,
        "name": np.where(kind == "function", procs[rng.integers(0, len(procs), nodes)], None),
        "file": np.where(kind == "function", None, file_of),
        "line": np.where(kind == "function", None, line).astype(object),
    }
    b.add_nodes(parent, frames, columns={"file": file_of, "line": line,
                                          "module": np.full(nodes, "app", dtype=object)})
    base = rng.exponential(100.0, nodes).round()
    ids = np.arange(nodes)
    for r in range(ranks):
        for t in range(threads):
            noise = rng.uniform(0.8, 1.2, nodes).round(3)
            levels = {"rank": r, "thread": t} if threads > 1 else {"rank": r}
            b.add_rows(ids, {"time": base * noise}, **levels)
    return b.build(exc_metrics=["time"], default_metric="time")


def random_call_dag(functions: int, calls_per_function: int, rng: np.random.Generator
                    ) -> np.ndarray:
    """Edges ``(caller, callee)`` of a random acyclic call graph on ``0..functions-1``
    (vectorised): every function after 0 is called by one before it, and each calls up
    to ``calls_per_function - 1`` more functions after it. Sorted, each edge once.

    Examples
    --------
    >>> edges = random_call_dag(5, 2, np.random.default_rng(0))
    >>> bool((edges[:, 0] < edges[:, 1]).all()), sorted(set(edges[:, 1].tolist()))
    (True, [1, 2, 3, 4])
    """
    n = functions
    later = np.arange(1, n, dtype=np.int64)
    first = (rng.random(n - 1) * later).astype(np.int64) if n > 1 else later
    src = [first]
    dst = [later]
    extra = max(calls_per_function - 1, 0)
    if n > 1 and extra:
        caller = np.repeat(np.arange(n - 1, dtype=np.int64), extra)
        span = n - 1 - caller  # callees k+1 .. n-1
        src.append(caller)
        dst.append(caller + 1 + (rng.random(len(caller)) * span).astype(np.int64))
    pairs = np.column_stack([np.concatenate(src), np.concatenate(dst)])
    return np.unique(pairs, axis=0) if len(pairs) else pairs.reshape(0, 2)


def groups(keys: np.ndarray, n: int) -> list:
    """For every ``k < n``, the positions where ``keys == k``, in order.

    Examples
    --------
    >>> [g.tolist() for g in groups(np.array([1, 0, 1]), 3)]
    [[1], [0, 2], []]
    """
    order = np.argsort(keys, kind="stable")
    bounds = np.searchsorted(keys[order], np.arange(n + 1))
    return [order[bounds[k]:bounds[k + 1]] for k in range(n)]
