"""Traces as tables and call trees (see ``docs/guide/traces.md``).

``read_trace`` -> :class:`TraceFrame` (events table + definitions + analyses);
``read_tree`` -> the calling-context tree as a GraphFrame, built while
streaming (memory independent of the trace length); ``TableBuilder`` and
``TreeBuilder`` are the handlers behind them. The decoding layers live in
:mod:`graphframe_readers.traces`.
"""

from .frame import TraceFrame
from .io.view import IOView
from .read import read_trace, read_tree, run_handler
from .trace_ensemble import TraceEnsemble, read_traces
from graphframe_readers.traces.table import TableBuilder
from .tree import TreeBuilder

__all__ = ["IOView", "TableBuilder", "TraceEnsemble", "TraceFrame", "TreeBuilder",
           "read_trace", "read_traces", "read_tree", "run_handler"]
