"""Byte sources: where a decoder's bytes come from, a block at a time.

A :class:`ByteSource` yields consecutive blocks of bytes (``blocks()``); block
boundaries fall anywhere, so a decoder keeps the incomplete tail of one block
and puts it in front of the next. Sources that allow it also read at an
offset (``read_at``, for formats with an index at the end such as DUMPI).

- :class:`FileSource`: a file read block by block (``block_size`` bytes);
- :class:`MemorySource`: bytes already in memory (tests, toy decoders);
- :class:`FollowSource`: a file that is still being written: yields what is
  there, then polls for more until the decoder stops reading (it found the
  end of the trace), ``stop()`` is called, or nothing new arrived for
  ``idle_timeout`` seconds;
- :func:`rank_sources`: one source per rank file, the rank taken from the
  last number in each file name.

Sources are small picklable descriptions (a path and options); they open
their file only inside ``blocks()``/``read_at()``, so they travel to worker
processes.

Examples
--------
>>> src = MemorySource(b"abcdefg", name="mem", block_size=3)
>>> list(src.blocks()), src.size(), src.read_at(2, 3)
([b'abc', b'def', b'g'], 7, b'cde')
"""

from __future__ import annotations

import os
import re
import time as _time
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Sequence, Union

from ..errors import ReadError

#: Default block size (bytes).
BLOCK_SIZE = 8 << 20

PathArg = Union[str, "os.PathLike[str]"]


class ByteSource:
    """Base class: a named sequence of bytes delivered in blocks.

    Attributes
    ----------
    name : str
        The file path or a description, used in every error message.
    rank : int or None
        The rank the source holds when known (per-rank files).
    block_size : int
        Preferred block length.
    """

    name: str = "<bytes>"
    rank: Optional[int] = None
    block_size: int = BLOCK_SIZE
    #: True when :meth:`read_at` works on the complete data
    seekable: bool = False

    def blocks(self, start: int = 0) -> Iterator[bytes]:
        """Consecutive blocks from byte ``start`` on (the last one may be short)."""
        raise NotImplementedError

    def size(self) -> Optional[int]:
        """Total length in bytes, when known now."""
        return None

    def read_at(self, offset: int, length: int) -> bytes:
        """``length`` bytes at ``offset`` (fewer at the end); only when ``seekable``."""
        raise ReadError(self.name, "this source cannot be read at an offset",
                        expected="a seekable source (a complete file)")

    def head(self, length: int = 4096) -> bytes:
        """The first ``length`` bytes (sniffing)."""
        for block in self.blocks():
            return block[:length]
        return b""

    def __repr__(self) -> str:
        rank = "" if self.rank is None else f", rank={self.rank}"
        return f"{type(self).__name__}({self.name!r}{rank})"


class FileSource(ByteSource):
    """A complete file, read ``block_size`` bytes at a time.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.bin")
    >>> _ = open(p, "wb").write(b"0123456789")
    >>> src = FileSource(p, block_size=4, rank=3)
    >>> [len(b) for b in src.blocks()], src.rank, src.read_at(8, 5)
    ([4, 4, 2], 3, b'89')
    """

    seekable = True

    def __init__(self, path: PathArg, *, block_size: int = BLOCK_SIZE,
                 rank: Optional[int] = None) -> None:
        self.path = os.fspath(path)
        self.name = self.path
        self.block_size = int(block_size)
        self.rank = rank

    def _open(self):
        try:
            return open(self.path, "rb")
        except OSError as exc:
            raise ReadError(self.path, f"cannot open the file: {exc.strerror}") from exc

    def blocks(self, start: int = 0) -> Iterator[bytes]:
        with self._open() as fh:
            if start:
                fh.seek(start)
            while True:
                block = fh.read(self.block_size)
                if not block:
                    return
                yield block

    def size(self) -> Optional[int]:
        try:
            return os.path.getsize(self.path)
        except OSError as exc:
            raise ReadError(self.path, f"cannot open the file: {exc.strerror}") from exc

    def read_at(self, offset: int, length: int) -> bytes:
        with self._open() as fh:
            fh.seek(offset)
            return fh.read(length)


class MemorySource(ByteSource):
    """Bytes in memory, delivered in blocks like a file."""

    seekable = True

    def __init__(self, data: bytes, *, name: str = "<bytes>", block_size: int = BLOCK_SIZE,
                 rank: Optional[int] = None) -> None:
        self.data = bytes(data)
        self.name = name
        self.block_size = int(block_size)
        self.rank = rank

    def blocks(self, start: int = 0) -> Iterator[bytes]:
        for pos in range(start, len(self.data), self.block_size):
            yield self.data[pos:pos + self.block_size]

    def size(self) -> Optional[int]:
        return len(self.data)

    def read_at(self, offset: int, length: int) -> bytes:
        return self.data[offset:offset + length]


class FollowSource(ByteSource):
    """A file that is still being written (like ``tail -f``).

    Yields the bytes present, then polls every ``poll_interval`` seconds
    for more. It ends when the decoder stops asking (it reached the end of
    the trace), when :meth:`stop` was called (from another thread or from
    ``should_stop``), when ``should_stop()`` returns True, or when the file
    did not grow for ``idle_timeout`` seconds (``None``: wait for ever). A
    missing file is waited for the same way. A decoder that then holds an
    incomplete trace reports it as usual (most raise ReadError; Chrome JSON
    without its closing bracket is complete by that format's rules).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "live.json")
    >>> _ = open(p, "wb").write(b"[1, 2")
    >>> src = FollowSource(p, poll_interval=0.01, idle_timeout=0.05)
    >>> b"".join(src.blocks())
    b'[1, 2'
    """

    def __init__(self, path: PathArg, *, poll_interval: float = 0.5,
                 idle_timeout: Optional[float] = 30.0,
                 should_stop: Optional[Callable[[], bool]] = None,
                 block_size: int = BLOCK_SIZE, rank: Optional[int] = None) -> None:
        self.path = os.fspath(path)
        self.name = self.path
        self.poll_interval = float(poll_interval)
        self.idle_timeout = idle_timeout
        self.should_stop = should_stop
        self.block_size = int(block_size)
        self.rank = rank
        self._stopped = False

    def stop(self) -> None:
        """Make ``blocks()`` end after the bytes already read."""
        self._stopped = True

    def _stop_now(self) -> bool:
        return self._stopped or (self.should_stop is not None and bool(self.should_stop()))

    def blocks(self, start: int = 0) -> Iterator[bytes]:
        fh = None
        last_growth = _time.monotonic()
        try:
            while True:
                if fh is None and os.path.exists(self.path):
                    fh = open(self.path, "rb")
                    fh.seek(start)
                block = fh.read(self.block_size) if fh is not None else b""
                if block:
                    last_growth = _time.monotonic()
                    yield block
                    continue
                if self._stop_now():
                    return
                if (self.idle_timeout is not None
                        and _time.monotonic() - last_growth >= self.idle_timeout):
                    return
                _time.sleep(self.poll_interval)
        except OSError as exc:
            raise ReadError(self.path, f"cannot read the file: {exc.strerror}") from exc
        finally:
            if fh is not None:
                fh.close()


_LAST_NUMBER = re.compile(r"(\d+)(?!.*\d)")


def rank_of(path: PathArg) -> Optional[int]:
    """The last number in a file's name (``trace-0003.bin`` -> 3), or None.

    Examples
    --------
    >>> rank_of("/x/run2/testtrace-0003.bin"), rank_of("trace.json")
    (3, None)
    """
    match = _LAST_NUMBER.search(Path(os.fspath(path)).name)
    return int(match.group(1)) if match else None


def rank_sources(paths: Sequence[PathArg], *, block_size: int = BLOCK_SIZE) -> List[FileSource]:
    """One :class:`FileSource` per rank file, ordered by rank (from the file names).

    Files whose names hold no number, or two files with the same number, are
    a ReadError.

    Examples
    --------
    >>> [s.rank for s in rank_sources(["t-0001.bin", "t-0000.bin"])]
    [0, 1]
    """
    out = []
    for p in paths:
        rank = rank_of(p)
        if rank is None:
            raise ReadError(p, "cannot tell the rank from the file name",
                            expected="a number in the name, as in trace-0003.bin")
        out.append(FileSource(p, block_size=block_size, rank=rank))
    out.sort(key=lambda s: s.rank)
    for a, b in zip(out, out[1:]):
        if a.rank == b.rank:
            raise ReadError([a.name, b.name], f"two files for rank {a.rank}")
    return out
