"""Remembering the statistics run on a Thicket, so that they can be run again (and
keeping a column-joined statsframe's columns sorted after each, as Thicket does).

Each public statistics function records its call in ``tk.statsframe_ops_cache``
(Thicket's name: function -> {the call's arguments as text: (args, kwargs)}),
and :meth:`graphframe.thicket.Thicket.reapply_stats_operations` runs every
recorded call again (after the statsframe was rebuilt, say).

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main",))] * 2)
>>> th.stats.mean(tk, columns=["time"])
['time_mean']
>>> [f.__name__ for f in tk.statsframe_ops_cache]
['mean']
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from ._common import sort_joined_columns


#: Thicket's statistics that leave a column-joined statsframe's new columns at its end
#: (the others sort its columns).
UNSORTED = ("calc_boxplot_statistics", "preference")


def recorded(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func(thicket, ...)`` that records its call in ``thicket.statsframe_ops_cache``."""
    sort = func.__name__ not in UNSORTED

    @functools.wraps(func)
    def run(thicket: Any, *args: Any, **kwargs: Any) -> Any:
        out = func(thicket, *args, **kwargs)
        if sort and hasattr(thicket, "statsframe"):
            sort_joined_columns(thicket)
        cache = getattr(thicket, "statsframe_ops_cache", None)
        if isinstance(cache, dict):
            cache.setdefault(run, {})[repr((args, sorted(kwargs.items())))] = (args, kwargs)
        return out
    return run


def reapply(thicket: Any) -> None:
    """Run every call recorded in ``thicket.statsframe_ops_cache`` again, in order."""
    for func, calls in list(thicket.statsframe_ops_cache.items()):
        for args, kwargs in list(calls.values()):
            func(thicket, *args, **kwargs)
