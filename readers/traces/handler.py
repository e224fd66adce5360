"""EventHandler: the interface between trace decoders and whatever consumes events.

A decoder calls, for each source it decodes:

1. ``on_definitions(defs)`` zero or more times (:class:`Definitions`);
2. ``on_batch(batch)`` for each block of events (:class:`EventBatch`);

and the driver (:func:`graphframe_readers.traces.decode`) calls ``on_end()`` once after
the last source. Built-in handlers work on whole batches (numpy). The base
class's :meth:`EventHandler.on_batch` instead walks the batch row by row and
calls one method per event, so a user can write a simple handler by
overriding only what they need:

======================  =========================================
method                  called for
======================  =========================================
``on_enter``            Kind.ENTER
``on_leave``            Kind.LEAVE
``on_instant``          Kind.INSTANT
``on_message``          Kind.SEND, RECV, COLLECTIVE
``on_io``               Kind.IO
``on_rma``              Kind.RMA, RMA_SYNC
``on_counter``          Kind.COUNTER
======================  =========================================

each as ``method(rank, thread, time, name, attrs)``: Python ints, ``time`` in
ns, ``name`` a str (or None), ``attrs`` a dict of the event's attribute
columns that have a value, plus ``"kind"`` (the lower-case kind name) for
the methods that serve several kinds. This path costs one to two microseconds
per event: fine for millions of events, use ``on_batch`` beyond that.

Whole calls (a shortcut for call tables): a handler that sets
``takes_calls = True`` receives, from decoders that record calls with their
start and end (Recorder 2.4+, DUMPI), ``on_calls(strings, columns)`` in place
of ``on_batch``: one row per call, the columns the call's ENTER and data
event would have given (see :meth:`EventHandler.on_calls`), in the order of
the ENTER events. Decoders without that shortcut call ``on_batch`` as
always, so such a handler implements both.

Parallel reading (``jobs=``): a handler that can work on a subset of the
sources implements :meth:`fork` (a new, empty handler with the same
settings; it is pickled to a worker process) and :meth:`join` (merge the
workers' handlers, returned in source order, into ``self``). Workers never
call ``on_end``. The default :meth:`fork` raises ``NotImplementedError``
and the driver then reads the sources one after the other in this process.

Examples
--------
>>> from graphframe_readers.traces.events import EventBatch, Kind, StringTable
>>> class CountSends(EventHandler):
...     def __init__(self):
...         super().__init__()
...         self.sent = 0
...     def on_message(self, rank, thread, time, name, attrs):
...         if attrs["kind"] == "send":
...             self.sent += attrs.get("bytes", 0)
>>> t = StringTable(["MPI_Send"])
>>> h = CountSends()
>>> h.on_batch(EventBatch.build(t, kind=[Kind.SEND, Kind.SEND], time=[1, 2], rank=0,
...                              name=0, bytes=[8, 16]))
>>> h.sent
24
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import numpy as np

from .definitions import Definitions
from .events import KIND_NAMES, EventBatch, Kind, StringTable


class EventHandler:
    """Base class of event consumers; every method is a no-op by default.

    ``self.definitions`` collects what ``on_definitions`` receives.
    """

    def __init__(self) -> None:
        self.definitions = Definitions()

    # ------------------------------------------------------------ batch API
    def on_definitions(self, definitions: Definitions) -> None:
        """Record definitions (merged into ``self.definitions``)."""
        self.definitions.update(definitions)

    def on_batch(self, batch: EventBatch) -> None:
        """Consume a block of events; the default dispatches row by row (slow path)."""
        table = _DISPATCH
        for kind, rank, thread, time, name, attrs in batch.rows():
            method, tagged = table[kind]
            if tagged:
                attrs["kind"] = KIND_NAMES[kind]
            getattr(self, method)(rank, thread, time, name, attrs)

    #: True: decoders that can give whole calls call :meth:`on_calls` instead of ``on_batch``
    takes_calls = False

    def on_calls(self, strings: StringTable, columns: Dict[str, np.ndarray]) -> None:
        """Consume whole calls (only when ``takes_calls``; one row per call).

        ``columns``: ``rank``, ``thread``, ``name`` (ids into ``strings``),
        ``start``, ``end`` (ns), ``kind`` (the :class:`Kind` of the call's
        data event, -1 none), ``file`` (ids into ``strings``, -1 none), and
        any of ``fd``, ``bytes``, ``offset``, ``peer``, ``tag``, ``comm``,
        ``window``, ``recv_bytes``, ``assertion`` (the data event's value,
        -1 absent; ``fd`` also from the ENTER), ``args`` (object).
        """
        raise NotImplementedError(f"{type(self).__name__} does not take whole calls")

    def on_end(self) -> None:
        """Called once after the last event of the last source."""

    # ------------------------------------------------------------ event API
    def on_enter(self, rank: int, thread: int, time: int, name: Optional[str],
                 attrs: Dict[str, Any]) -> None:
        """A region begins."""

    def on_leave(self, rank: int, thread: int, time: int, name: Optional[str],
                 attrs: Dict[str, Any]) -> None:
        """The innermost open region of (rank, thread) ends."""

    def on_instant(self, rank: int, thread: int, time: int, name: Optional[str],
                   attrs: Dict[str, Any]) -> None:
        """A point event."""

    def on_message(self, rank: int, thread: int, time: int, name: Optional[str],
                   attrs: Dict[str, Any]) -> None:
        """A SEND, RECV or COLLECTIVE event (``attrs["kind"]`` tells which)."""

    def on_io(self, rank: int, thread: int, time: int, name: Optional[str],
              attrs: Dict[str, Any]) -> None:
        """An I/O operation."""

    def on_rma(self, rank: int, thread: int, time: int, name: Optional[str],
               attrs: Dict[str, Any]) -> None:
        """A one-sided operation or synchronisation (``attrs["kind"]``)."""

    def on_counter(self, rank: int, thread: int, time: int, name: Optional[str],
                   attrs: Dict[str, Any]) -> None:
        """A counter sample (``attrs["value"]``)."""

    # ------------------------------------------------------------ parallel
    def fork(self) -> "EventHandler":
        """A new empty handler with the same settings, for a worker process."""
        raise NotImplementedError(f"{type(self).__name__} does not read in parallel")

    def join(self, others: Sequence["EventHandler"]) -> None:
        """Merge the workers' handlers (in source order) into this one."""
        raise NotImplementedError(f"{type(self).__name__} does not read in parallel")

    def result(self) -> Any:
        """What :func:`graphframe_readers.traces.decode` returns (default: the handler)."""
        return self


#: kind code -> (method name, whether attrs gets a "kind" entry)
_DISPATCH = {
    Kind.ENTER: ("on_enter", False),
    Kind.LEAVE: ("on_leave", False),
    Kind.INSTANT: ("on_instant", False),
    Kind.SEND: ("on_message", True),
    Kind.RECV: ("on_message", True),
    Kind.COLLECTIVE: ("on_message", True),
    Kind.IO: ("on_io", False),
    Kind.RMA: ("on_rma", True),
    Kind.RMA_SYNC: ("on_rma", True),
    Kind.COUNTER: ("on_counter", False),
}
