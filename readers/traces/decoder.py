"""Decoder: the format layer between byte sources and event handlers.

A decoder knows one trace format. To add a format, subclass :class:`Decoder`:

- ``format_name`` (what users pass as ``format=``) and ``description``;
- ``sniff(path, head)``: cheap recognition from the path and the first
  4096 bytes of the file (``b""`` for a directory);
- ``sources(path)``: the byte sources of a trace, one per rank file for
  per-rank formats (default: the file itself; a list of files -> one source
  per file, the rank from each name);
- ``decode(source, handler)``: read ``source.blocks()`` (or ``read_at``),
  call ``handler.on_definitions`` and ``handler.on_batch`` as events are
  decoded, keeping each (rank, thread) stream in time order (see
  :mod:`graphframe_readers.traces.events`). Never call ``on_end`` (the driver does).
  Bad bytes raise :class:`graphframe_readers.ReadError` naming ``source.name``, the
  byte offset or record number and what was expected; a decoder must not
  deliver events past the point where the input became unreadable;
- ``__init__(**options)`` stores keyword options and does no work;
  decoders are pickled to worker processes, so keep them to plain values.

Then register it: ``register_format(MyDecoder)`` at run time, or give its module a
``FORMAT = FormatInfo.for_decoder(MyDecoder, suffixes=..., markers=...)`` and add the
module to :data:`graphframe_readers.registry.FORMAT_MODULES` (or declare that ``FORMAT``
in the ``graphframe.formats`` entry-point group from another package).

Examples
--------
>>> from graphframe_readers.traces.events import EventBatch, Kind, StringTable
>>> class Lines(Decoder):
...     '''A toy format: lines "time rank enter|leave name".'''
...     format_name = "toy-lines"
...     @classmethod
...     def sniff(cls, path, head):
...         return head.startswith(b"#toy")
...     def decode(self, source, handler):
...         strings = StringTable()
...         text = b"".join(source.blocks()).decode()
...         rows = [line.split() for line in text.splitlines()[1:] if line]
...         handler.on_batch(EventBatch.build(
...             strings, time=[int(r[0]) for r in rows], rank=[int(r[1]) for r in rows],
...             kind=[Kind.ENTER if r[2] == "enter" else Kind.LEAVE for r in rows],
...             name=strings.intern_many(r[3] for r in rows), source=source.name))
>>> from graphframe_readers.traces.sources import MemorySource
>>> from graphframe_readers.traces.handler import EventHandler
>>> class Show(EventHandler):
...     def on_enter(self, rank, thread, time, name, attrs):
...         print("enter", name, time)
>>> src = MemorySource(b"#toy\\n1 0 enter main\\n5 0 leave main\\n", name="toy")
>>> Lines().decode(src, Show())
enter main 1
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar, Dict, List, Sequence

from .handler import EventHandler
from .sources import ByteSource, FileSource, rank_sources


class Decoder:
    """Base class of trace decoders (see the module docs for the contract)."""

    #: the name users pass as ``format=``
    format_name: ClassVar[str] = ""
    #: one line for error messages and listings
    description: ClassVar[str] = ""
    #: bytes of input worth one worker process when ``jobs`` is not given (see
    #: :func:`graphframe_readers.traces.registry.default_jobs`)
    worker_bytes: ClassVar[int] = 8 << 20

    def __init__(self, **options: Any) -> None:
        self.options: Dict[str, Any] = dict(options)

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        """True when ``path`` (first bytes ``head``) looks like this format."""
        return False

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        """The byte sources of the trace at ``path`` (a file, a list of rank files...)."""
        if isinstance(path, ByteSource):
            return [path]
        if isinstance(path, (list, tuple)):
            if all(isinstance(p, ByteSource) for p in path):
                return list(path)
            return list(rank_sources(path)) if len(path) > 1 else [FileSource(path[0])]
        return [FileSource(os.fspath(path))]

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        """Decode one source into ``handler`` (definitions and batches, no on_end)."""
        raise NotImplementedError

    def input_bytes(self, sources: Sequence[ByteSource]) -> int:
        """The bytes decoding ``sources`` reads (the default ``jobs`` follows it): the
        sizes of their distinct files. Formats whose sources name another file than
        the one read (OTF2's anchor) say better."""
        seen = {}
        for source in sources:
            path = getattr(source, "path", None)
            if path is not None and path not in seen:
                try:
                    seen[path] = os.path.getsize(path)
                except OSError:
                    seen[path] = 0
        return sum(seen.values())

    def decode_parallel(self, source: ByteSource, handler: EventHandler, jobs: int) -> None:
        """Decode one source with ``jobs`` worker processes (``decode(..., jobs=)`` on a
        single-file trace). Optional: the default decodes in this process."""
        self.decode(source, handler)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        return f"{type(self).__name__}({opts})"


def split_groups(sources: Sequence[ByteSource], groups: int) -> List[List[ByteSource]]:
    """Sources cut into at most ``groups`` contiguous runs of near-equal size.

    Examples
    --------
    >>> from graphframe_readers.traces.sources import MemorySource
    >>> s = [MemorySource(b"x", name=str(i)) for i in range(5)]
    >>> [[x.name for x in g] for g in split_groups(s, 2)]
    [['0', '1', '2'], ['3', '4']]
    """
    groups = max(1, min(int(groups), len(sources)))
    size, extra = divmod(len(sources), groups)
    out, start = [], 0
    for g in range(groups):
        stop = start + size + (1 if g < extra else 0)
        out.append(list(sources[start:stop]))
        start = stop
    return out
