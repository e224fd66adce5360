"""Layer 1: the ``.mlpd`` file header and its buffers, read one block at a time.

:class:`BlockReader` wraps any :class:`~graphframe_readers.traces.sources.ByteSource`
(a complete file, a file still being written, bytes in memory). A gzip
file (the profiler's ``zip`` option) is recognised by its magic number and
inflated as a stream, a bounded piece at a time, so memory never holds more
than one buffer and one input block. ``read_block()`` returns the next
:class:`RawBuffer` or ``None`` at the end; ``has_ended`` tells whether the
end was reached. Offsets are byte offsets in the (inflated) log, as
``mprof-report --debug`` prints them.

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> from graphframe_readers.traces.sources import MemorySource
>>> w = MlpdWriter(version=17)
>>> w.buffer(thread=7, events=[w.sync_point(time=5, kind=0)])
>>> r = BlockReader(MemorySource(w.getvalue(), name="mem.mlpd"))
>>> r.header.data_version, r.header.arch
(17, 'x86-64')
>>> buf = r.read_block(); (buf.thread, buf.offset, len(buf.data), r.read_block(), r.has_ended)
(7, 72, 3, None, True)
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Iterator, Optional

from ...errors import ReadError
from ..sources import ByteSource
from .format import (BUF_ID, BUFFER_HEADER_SIZE, LOG_HEADER_ID, MAX_DATA_VERSION,
                     MIN_DATA_VERSION)

#: Largest piece of inflated data produced at once from a gzip stream.
INFLATE_CHUNK = 4 << 20
_BUF_HEAD = struct.Struct("<IIqqqqq")


@dataclass(frozen=True)
class MlpdHeader:
    """The file header: profiler and data version, the run's description."""

    major: int
    minor: int
    data_version: int
    pointer_size: int
    startup_time_ms: int
    startup_time_ns: int
    timer_overhead: int
    flags: int
    pid: int
    port: int
    args: str
    arch: str
    os: str
    #: bytes the header occupies (the first buffer starts there)
    size: int

    def as_dict(self) -> dict:
        """Plain values, for ``Definitions.metadata`` and ``graphframe info``."""
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


@dataclass(frozen=True)
class RawBuffer:
    """One buffer: its header fields and the undecoded event bytes."""

    offset: int
    thread: int
    time_base: int
    ptr_base: int
    obj_base: int
    method_base: int
    data: bytes


class BlockReader:
    """Reads the header, then one buffer per :meth:`read_block` call (see module docs)."""

    def __init__(self, source: ByteSource) -> None:
        self.source = source
        self.name = source.name
        self._blocks: Iterator[bytes] = _inflated(source)
        self._pending = bytearray()
        self._start = 0      # offset in the log of _pending[0]
        self._ended = False
        self.header = self._read_header()

    # ---------------------------------------------------------------- public
    @property
    def has_ended(self) -> bool:
        """True once :meth:`read_block` returned ``None``."""
        return self._ended

    def read_block(self) -> Optional[RawBuffer]:
        """The next buffer, or ``None`` after the last one."""
        offset = self._start
        head = self._take(BUFFER_HEADER_SIZE, allow_end=True)
        if head is None:
            self._ended = True
            return None
        if len(head) < BUFFER_HEADER_SIZE:
            raise ReadError(self.name, f"the file ends inside a buffer header "
                            f"({len(head)} of {BUFFER_HEADER_SIZE} bytes)",
                            position=f"byte {offset}", expected="a complete buffer header")
        ident, length, time_base, ptr_base, obj_base, thread, method_base = \
            _BUF_HEAD.unpack(head)
        if ident != BUF_ID:
            raise ReadError(self.name, f"wrong buffer id 0x{ident:08x}",
                            position=f"byte {offset}",
                            expected=f"a buffer starting with 0x{BUF_ID:08x}")
        data = self._take(length, allow_end=False)
        if len(data) < length:
            raise ReadError(self.name, f"the file ends inside a buffer: {len(data)} of its "
                            f"{length} bytes are there (truncated file)",
                            position=f"buffer at byte {offset}",
                            expected=f"{length} bytes of events")
        return RawBuffer(offset, thread, time_base, ptr_base, obj_base, method_base, data)

    def __iter__(self) -> Iterator[RawBuffer]:
        while True:
            buf = self.read_block()
            if buf is None:
                return
            yield buf

    # ---------------------------------------------------------------- internals
    def _fill(self, count: int) -> None:
        while len(self._pending) < count:
            block = next(self._blocks, None)
            if block is None:
                return
            self._pending += block

    def _take(self, count: int, *, allow_end: bool) -> Optional[bytes]:
        self._fill(count)
        if allow_end and not self._pending:
            return None
        out = bytes(self._pending[:count])
        del self._pending[:count]
        self._start += len(out)
        return out

    def _read_header(self) -> MlpdHeader:
        fixed = self._take(8, allow_end=False)
        if len(fixed) < 8:
            raise ReadError(self.name, f"the file has {len(fixed)} bytes, too short for a "
                            "log profiler header", position="byte 0",
                            expected="a Mono log profiler (.mlpd) header")
        ident, major, minor, version, ptr_size = struct.unpack("<IBBBB", fixed)
        if ident != LOG_HEADER_ID:
            raise ReadError(self.name, f"wrong magic number 0x{ident:08x}", position="byte 0",
                            expected=f"0x{LOG_HEADER_ID:08x} (a Mono log profiler file)")
        if not MIN_DATA_VERSION <= version <= MAX_DATA_VERSION:
            raise ReadError(self.name, f"unsupported data version {version}", position="byte 6",
                            expected=f"data version {MIN_DATA_VERSION} to {MAX_DATA_VERSION}")
        if major < 1:
            raise ReadError(self.name, f"unsupported log profiler version {major}.{minor}",
                            position="byte 4", expected="version 1.0 or later")
        rest = 8 + (8 if major >= 3 else 0) + 14
        more = self._take(rest, allow_end=False)
        if len(more) < rest:
            raise ReadError(self.name, "the file ends inside its header", position="byte 8",
                            expected=f"{rest} more header bytes")
        startup_ms = struct.unpack_from("<Q", more, 0)[0]
        pos = 8
        startup_ns = 0
        if major >= 3:
            startup_ns = struct.unpack_from("<Q", more, pos)[0]
            pos += 8
        overhead, flags, pid, port = struct.unpack_from("<IIIH", more, pos)
        strings = [self._header_string(label) for label in ("arguments", "architecture", "os")]
        return MlpdHeader(major, minor, version, ptr_size, startup_ms, startup_ns, overhead,
                          flags, pid, port, *strings, size=self._start)

    def _header_string(self, label: str) -> str:
        at = self._start
        raw = self._take(4, allow_end=False)
        if len(raw) < 4:
            raise ReadError(self.name, f"the file ends before the header's {label}",
                            position=f"byte {at}", expected="a 4-byte string length")
        length = struct.unpack("<I", raw)[0]
        if length > 1 << 20:
            raise ReadError(self.name, f"the header's {label} claims {length} bytes",
                            position=f"byte {at}", expected="a string of at most 1 MiB")
        text = self._take(length, allow_end=False)
        if len(text) < length:
            raise ReadError(self.name, f"the file ends inside the header's {label}",
                            position=f"byte {at + 4}", expected=f"{length} bytes")
        return text.split(b"\0", 1)[0].decode("utf-8", "replace")


def _inflated(source: ByteSource) -> Iterator[bytes]:
    """The source's blocks, inflated when the data is a gzip stream."""
    blocks = source.blocks()
    first = next(blocks, b"")
    if first[:2] != b"\x1f\x8b":
        if first:
            yield first
        yield from blocks
        return
    yield from _gunzip(source.name, first, blocks)


def _gunzip(name: str, first: bytes, blocks: Iterator[bytes]) -> Iterator[bytes]:
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    consumed = 0
    data = first
    while True:
        while data:
            try:
                out = inflater.decompress(data, INFLATE_CHUNK)
            except zlib.error as exc:
                raise ReadError(name, f"corrupt gzip data: {exc}",
                                position=f"compressed byte {consumed}",
                                expected="a valid gzip stream") from exc
            if out:
                yield out
            if inflater.eof:
                consumed += len(data) - len(inflater.unused_data)
                data = inflater.unused_data
                if data:  # another gzip member follows
                    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
                continue
            tail = inflater.unconsumed_tail
            consumed += len(data) - len(tail)
            data = tail
        block = next(blocks, None)
        if block is None:
            break
        data = block
    if not inflater.eof:
        raise ReadError(name, "the gzip stream is cut short (truncated compressed file)",
                        position=f"compressed byte {consumed}",
                        expected="the end of the gzip stream")
