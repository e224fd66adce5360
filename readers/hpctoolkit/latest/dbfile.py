"""Bounded access to HPCToolkit's binary ``*.db`` files (format 4.x, little-endian).

Every ``*.db`` file starts with ``HPCTOOLKIT`` (10 bytes), a 4-byte format
name (``meta``, ``prof``, ``ctxt``, ``trce``), major and minor version bytes,
then ``(size, pointer)`` pairs of u64, one per section, and ends with an
8-byte footer (``_meta.db``, ``_prof.db``, ``__ctx.db``). :class:`DbFile`
reads a whole (small) file or maps a large one and refuses every read that
falls outside it with a :class:`ReadError` naming the byte offset.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path
from typing import Any, Tuple

import numpy as np

from ...errors import ReadError

MAGIC = b"HPCTOOLKIT"
FOOTERS = {b"meta": b"_meta.db", b"prof": b"_prof.db", b"ctxt": b"__ctx.db"}


class DbFile:
    """A ``*.db`` file with bounds-checked reads (``struct`` formats, little-endian).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "meta.db")
    >>> with open(p, "wb") as fh:
    ...     _ = fh.write(b"HPCTOOLKITmeta\\x04\\x00" + bytes(16) + b"_meta.db")
    >>> db = DbFile(p, b"meta", sections=1)
    >>> db.version, db.sections
    ((4, 0), [(0, 0)])
    """

    def __init__(self, path: Any, kind: bytes, sections: int) -> None:
        self.path = Path(path)
        try:
            with open(self.path, "rb") as fh:
                size = fh.seek(0, 2)
                fh.seek(0)
                if size >= 1 << 20:
                    self.data: Any = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
                else:
                    self.data = fh.read()
        except OSError as exc:
            raise ReadError(self.path, f"cannot open the file: {exc.strerror}") from exc
        self.size = len(self.data)
        head = self.bytes(0, 16, "the file header")
        if head[:10] != MAGIC:
            raise ReadError(self.path, f"bad magic {head[:10]!r}", position="byte 0",
                            expected=repr(MAGIC))
        if head[10:14] != kind:
            raise ReadError(self.path, f"this is a {head[10:14]!r} file", position="byte 10",
                            expected=f"format {kind!r}")
        self.version = (head[14], head[15])
        if self.version[0] != 4:
            raise ReadError(self.path, f"unsupported major version {self.version[0]}",
                            position="byte 14", expected="version 4.x")
        footer = FOOTERS.get(kind)
        if footer is not None and self.bytes(self.size - 8, 8, "the footer") != footer:
            raise ReadError(self.path, "the file does not end with its footer (truncated?)",
                            position=f"byte {self.size - 8}", expected=repr(footer))
        self.sections = [self.unpack("<QQ", 16 + 16 * k, f"section table entry {k}")
                         for k in range(sections)]
        for k, (sz, ptr) in enumerate(self.sections):
            if ptr + sz > self.size:
                raise ReadError(self.path, f"section {k} ({sz} bytes at byte {ptr}) runs past the "
                                f"end of the file ({self.size} bytes)",
                                position=f"byte {16 + 16 * k}", expected="sections inside the file")

    def error(self, offset: int, problem: str, expected: str) -> ReadError:
        return ReadError(self.path, problem, position=f"byte {offset}", expected=expected)

    def bytes(self, offset: int, length: int, what: str) -> bytes:
        if offset < 0 or length < 0 or offset + length > self.size:
            raise self.error(offset, f"{what} ({length} bytes) lies outside the file "
                             f"({self.size} bytes)", f"{what} inside the file")
        return bytes(self.data[offset:offset + length])

    def unpack(self, fmt: str, offset: int, what: str) -> Tuple:
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > self.size:
            raise self.error(offset, f"{what} ({size} bytes) lies outside the file "
                             f"({self.size} bytes)", f"{what} inside the file")
        return struct.unpack_from(fmt, self.data, offset)

    def array(self, dtype: Any, offset: int, count: int, what: str) -> np.ndarray:
        dtype = np.dtype(dtype)
        length = dtype.itemsize * count
        if count < 0 or offset < 0 or offset + length > self.size:
            raise self.error(offset, f"{what} ({count} x {dtype.itemsize} bytes) lies outside "
                             f"the file ({self.size} bytes)", f"{what} inside the file")
        return np.frombuffer(self.data, dtype=dtype, count=count, offset=offset)

    def string(self, offset: int, what: str) -> str:
        if offset <= 0 or offset >= self.size:
            raise self.error(offset, f"{what} points outside the file", "a string inside the file")
        end = self.data.find(b"\0", offset)
        if end < 0:
            raise self.error(offset, f"{what} is not NUL-terminated", "a NUL-terminated string")
        return bytes(self.data[offset:end]).decode("utf-8", errors="replace")
