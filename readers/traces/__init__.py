"""Trace readers in four replaceable layers.

1. :mod:`~graphframe_readers.traces.sources`: byte sources that yield blocks
   (:class:`FileSource`, :class:`FollowSource` for a file still being
   written, :class:`MemorySource`, :func:`rank_sources` for per-rank files);
2. :mod:`~graphframe_readers.traces.decoder`: one :class:`Decoder` per format turns
   blocks into columnar :class:`EventBatch` objects (Chrome trace-event
   JSON, SST DUMPI, ...);
3. :mod:`~graphframe_readers.traces.handler`: :class:`EventHandler` receives
   definitions and batches (or, through the default ``on_batch``, one call
   per event: ``on_enter``, ``on_leave``, ``on_message``, ``on_io``...);
4. analyses live in ``graphframe.traces`` (handlers that build a
   ``TraceFrame`` or a calling-context tree, and what is computed on them).

:func:`decode` runs a decoder into a handler. ``graphframe_readers`` never imports
``graphframe``.

Examples
--------
>>> import graphframe_readers.traces as rt
>>> class Count(rt.EventHandler):
...     def __init__(self):
...         super().__init__(); self.n = 0
...     def on_batch(self, batch):
...         self.n += len(batch)
>>> src = rt.MemorySource(b'[{"ph": "X", "name": "f", "pid": 0, "tid": 0, "ts": 1, "dur": 2}]',
...                       name="mem.json")
>>> rt.decode(src, Count(), format="chrome").n
2
"""

from .decoder import Decoder
from .definitions import Definitions
from .events import ATTRIBUTES, KIND_NAMES, EventBatch, Kind, StringTable, concat_batches
from .handler import EventHandler
from .registry import (decode, decoder_class, register_format, sniff_trace,
                       trace_formats)
from .sources import (ByteSource, FileSource, FollowSource, MemorySource, rank_of,
                      rank_sources)

__all__ = [
    "ATTRIBUTES",
    "ByteSource",
    "Decoder",
    "Definitions",
    "EventBatch",
    "EventHandler",
    "FileSource",
    "FollowSource",
    "KIND_NAMES",
    "Kind",
    "MemorySource",
    "StringTable",
    "concat_batches",
    "decode",
    "decoder_class",
    "rank_of",
    "rank_sources",
    "register_format",
    "sniff_trace",
    "trace_formats",
]
