"""Equal time bins over int64 nanosecond timestamps, exact for epoch times.

Epoch nanoseconds (about 1.7e18) have 256 ns steps in float64, so bin edges
are relative to the first time: every analysis that bins times subtracts the
start in int64 before going to float (``time_profile``, ``comm_over_time``).
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import pandas as pd

from graphframe.errors import ArgumentError


def time_bins(times: pd.Series, bins: int, start: Optional[int] = None,
              end: Optional[int] = None) -> Optional[Tuple[int, np.ndarray, np.ndarray]]:
    """``(t0, edges, bin_start)`` of ``bins`` equal bins over ``times`` (int64 ns), or None
    when there are no times and no ``start``/``end``.

    ``edges`` (float64, ``bins + 1`` values) are relative to ``t0``, so they keep
    nanosecond precision for epoch timestamps; ``bin_start`` is each bin's absolute
    start (int64 ns, rounded down).

    Examples
    --------
    >>> epoch = 1_700_000_000_000_000_001
    >>> t0, edges, starts = time_bins(pd.Series([epoch, epoch + 100]), 2)
    >>> t0, edges.tolist(), starts.tolist()
    (1700000000000000001, [0.0, 50.0, 100.0], [1700000000000000001, 1700000000000000051])
    """
    if bins < 1:
        raise ArgumentError(f"bins={bins}: need at least one bin")
    if not len(times) and (start is None or end is None):
        return None
    t0 = int(times.min()) if start is None else int(start)
    t1 = int(times.max()) if end is None else int(end)
    span = max(t1 - t0, 1)
    edges = np.linspace(0.0, float(span), bins + 1)
    return t0, edges, t0 + np.floor(edges[:-1]).astype(np.int64)

