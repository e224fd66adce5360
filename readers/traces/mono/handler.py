"""Layer 3: the handler interface of the Mono log decoder, and the driver that feeds it.

A :class:`MonoHandler` receives, in file order:

1. ``on_header(header)`` once (:class:`~.blocks.MlpdHeader`);
2. ``on_chunk(chunk)`` per group of decoded buffers (:class:`~.decode.MonoChunk`,
   about 256 KiB of log); the default implementation calls one method per
   event, ``on_<kind>(thread, time, *fields)``, with the fields of
   :data:`~.kinds.KINDS` (for example ``on_alloc(thread, time, vtable, obj,
   size, backtrace)``, ``on_enter(thread, time, method)``,
   ``on_sample(thread, time, sampled_thread, ips, backtrace, sample_type)``);
3. ``on_end()`` once; :func:`run` returns ``result()``.

Every ``on_<kind>`` method does nothing by default, so a handler overrides
only what it needs. The per-event path costs about a microsecond per event;
handlers that must keep up with the decoder override ``on_chunk`` and work
on the chunk's columns (:class:`~.model.ModelBuilder` does).

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> from graphframe_readers.traces.sources import MemorySource
>>> w = MlpdWriter()
>>> w.buffer(thread=1, events=[w.klass(1, 0x50, 0x90, "A.Node"), w.vtable(2, 0x60, 0, 0x50),
...                            w.alloc(3, 0x60, 0x1000, 40), w.alloc(4, 0x60, 0x1040, 40)])
>>> class Bytes(MonoHandler):
...     def __init__(self):
...         self.total = 0
...     def on_alloc(self, thread, time, vtable, obj, size, backtrace):
...         self.total += size
...     def result(self):
...         return self.total
>>> run(MemorySource(w.getvalue(), name="demo.mlpd"), Bytes())
80
"""

from __future__ import annotations

from typing import Any, List, Optional

from ..sources import ByteSource
from .blocks import BlockReader, MlpdHeader, RawBuffer
from .decode import MonoChunk, decode_buffers
from .kinds import KINDS, method_name

#: Buffers are decoded together until they hold at least this many bytes (256 KiB: the
#: per-position arrays of a chunk stay in the caches; larger chunks measured slower).
CHUNK_BYTES = 1 << 18


class MonoHandler:
    """Base class of Mono log consumers (see the module docs)."""

    header: Optional[MlpdHeader] = None

    def on_header(self, header: MlpdHeader) -> None:
        """The file header (kept as ``self.header``)."""
        self.header = header

    def on_chunk(self, chunk: MonoChunk) -> None:
        """Decoded buffers; the default calls ``on_<kind>`` per event, in file order."""
        for kind, thread, time, fields in chunk.events():
            getattr(self, "on_" + kind)(thread, time, *fields)

    def on_end(self) -> None:
        """After the last chunk."""

    def result(self) -> Any:
        """What :func:`run` returns (default: the handler)."""
        return self


def _no_op(kind: str):
    fields = ", ".join(KINDS[kind])

    def method(self, thread: int, time: int, *values: Any) -> None:
        pass
    method.__name__ = method_name(kind)
    method.__doc__ = f"A ``{kind}`` event: thread, time, {fields}." if fields else \
        f"A ``{kind}`` event: thread, time."
    return method


for _kind in KINDS:
    setattr(MonoHandler, method_name(_kind), _no_op(_kind))


def chunks(reader: BlockReader, chunk_bytes: int = CHUNK_BYTES):
    """Decoded chunks of the reader's buffers (about ``chunk_bytes`` each).

    Examples
    --------
    >>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
    >>> from graphframe_readers.traces.sources import MemorySource
    >>> w = MlpdWriter()
    >>> for t in range(3):
    ...     w.buffer(thread=t, events=[w.enter(10 * t, 0x10), w.leave(10 * t + 5, 0x10)])
    >>> r = BlockReader(MemorySource(w.getvalue()))
    >>> [len(c) for c in chunks(r, chunk_bytes=8)]
    [4, 2]
    """
    pending: List[RawBuffer] = []
    size = 0
    version = reader.header.data_version
    for raw in reader:
        pending.append(raw)
        size += len(raw.data)
        if size >= chunk_bytes:
            yield decode_buffers(pending, version, reader.name)
            pending, size = [], 0
    if pending:
        yield decode_buffers(pending, version, reader.name)


def run(source: ByteSource, handler: MonoHandler, *, chunk_bytes: int = CHUNK_BYTES) -> Any:
    """Decode ``source`` into ``handler``; returns ``handler.result()``."""
    reader = BlockReader(source)
    handler.on_header(reader.header)
    for chunk in chunks(reader, chunk_bytes):
        handler.on_chunk(chunk)
    handler.on_end()
    return handler.result()
