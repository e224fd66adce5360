"""A small GC view for examples and tests (the plots' and the guide's docstrings)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .view import GcView


def example_view() -> Any:
    """A small GC view of two logs (pauses, a concurrent phase, heap figures) for examples.

    Examples
    --------
    >>> example_view().summary()["pause_count"].tolist()
    [3, 2]
    """
    ev = pd.DataFrame({
        "log": ["a.log"] * 4 + ["b.log"] * 2,
        "gc_id": [0, 1, 1, 2, 0, 1], "time": [1.0, 2.0, 2.5, 3.0, 1.5, 2.5],
        "event_type": ["pause", "pause", "concurrent", "pause", "pause", "pause"],
        "name": ["Pause Young", "Pause Young", "Concurrent Mark", "Pause Full", "Pause Young",
                 "Pause Young"],
        "cause": ["Allocation Failure", "Allocation Failure", None, "System.gc()",
                  "Allocation Failure", "Allocation Failure"],
        "generation": ["young", "young", "old", "full", "young", "young"],
        "heap_before": [40.0, 50.0, None, 30.0, 20.0, 25.0],
        "heap_after": [10.0, 12.0, None, 8.0, 5.0, 6.0],
        "heap_capacity": [100.0, 100.0, None, 100.0, 64.0, 64.0],
        "duration": [0.004, 0.006, 0.03, 0.02, 0.009, 0.011],
        "total": [None] * 6, "time_to_reach": [None] * 6, "parent": [-1] * 6})
    for col in ("heap_before", "heap_after", "heap_capacity", "total", "time_to_reach"):
        ev[col] = ev[col].astype(float) * (2 ** 20 if col.startswith("heap") else 1)
    return GcView(ev)
