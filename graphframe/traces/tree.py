"""TreeBuilder: the calling-context tree of a trace as a GraphFrame.

The handler itself is :class:`graphframe_readers.traces.tree.CallTreeBuilder`
(it matches enter/leave events per stream and keeps only the tree, so memory does
not grow with the length of the trace; its result is a RawProfile). This
subclass gives a :class:`~graphframe.GraphFrame` as its result, as
``read_tree`` and :meth:`TraceFrame.to_graphframe` return it.

Examples
--------
>>> from graphframe_readers.traces import EventBatch, Kind, StringTable
>>> t = StringTable(["main", "solve"])
>>> E, L = Kind.ENTER, Kind.LEAVE
>>> b = TreeBuilder()
>>> b.on_batch(EventBatch.build(t, kind=[E, E, L, E, L, L], time=[0, 1, 3, 4, 8, 10],
...                             rank=0, name=[0, 1, 1, 1, 1, 0]))
>>> b.on_end()
>>> gf = b.graphframe()
>>> gf.dataframe[["name", "time (inc)", "time", "count"]].values.tolist()
[['main', 1e-08, 4e-09, 1], ['solve', 6e-09, 6e-09, 2]]
"""

from __future__ import annotations

from graphframe.graphframe import GraphFrame
from graphframe_readers.traces.tree import NAME_SPAN, CallTreeBuilder, tree_depth

__all__ = ["NAME_SPAN", "TreeBuilder", "tree_depth"]


class TreeBuilder(CallTreeBuilder):
    """:class:`~graphframe_readers.traces.tree.CallTreeBuilder` with a GraphFrame result."""

    def graphframe(self) -> GraphFrame:
        """The tree as a GraphFrame: ``time (inc)``, ``time`` (s) and ``count`` per (node, rank, thread)."""
        return GraphFrame.from_raw(self.raw_profile())

    def result(self) -> GraphFrame:  # type: ignore[override]
        return self.graphframe()
