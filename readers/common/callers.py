"""Edge data kept per callee: ``((caller, value, ...), ...)`` columns of call graphs.

``RawProfile`` has no edge attribute table, so call-graph readers (gprof2dot DOT,
cProfile, callgrind, gprof) keep what they know of each call per callee, one
tuple per caller. :func:`per_callee` builds such a column from edge arrays
with one sort; only the final tuples are Python objects.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np


def per_callee(rows: np.ndarray, n_rows: int, labels: Sequence[str], *values: Sequence
               ) -> np.ndarray:
    """An object column of ``n_rows`` entries: for row ``r``, the tuple of
    ``(labels[k], values[0][k], ...)`` over the edges ``k`` with ``rows[k] == r``,
    in edge order (``()`` for a row without edges).

    Examples
    --------
    >>> per_callee(np.array([2, 0, 2]), 3, ["a", "b", "c"], [1, 2, 3]).tolist()
    [(('b', 2),), (), (('a', 1), ('c', 3))]
    >>> per_callee(np.array([0, 1]), 2, ["a", "b"], [(1, 2), (3, 4)]).tolist()
    [(('a', (1, 2)),), (('b', (3, 4)),)]
    """
    out = np.empty(n_rows, dtype=object)
    out[:] = [()] * n_rows
    rows = np.asarray(rows, dtype=np.int64)
    if not len(rows):
        return out
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    labels_sorted = np.asarray(labels, dtype=object)[order].tolist()
    picks = order.tolist()
    columns = [[v[k] for k in picks] if isinstance(v, list) else np.asarray(v)[order].tolist()
               for v in values]
    pairs = list(zip(labels_sorted, *columns))
    bounds = np.flatnonzero(np.diff(ordered)) + 1
    starts = np.concatenate([[0], bounds]).tolist()
    ends = np.concatenate([bounds, [len(ordered)]]).tolist()
    for target, a, b in zip(ordered[starts].tolist(), starts, ends):
        out[target] = tuple(pairs[a:b])  # one by one: numpy would unpack equal-length tuples
    return out
