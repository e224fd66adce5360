"""HPCToolkit metric values of the old layout: ``*.metric-db`` files and packed ``*.mdb`` files.

``*.metric-db`` (hpcprof-mpi, one file per rank/thread)::

    offset  size   content
    0       18     "HPCPROF-metricdb__"
    18      5      version, e.g. "00.10"
    23      1      byte order: "b" (big-endian) or "l" (little-endian)
    24      4      int32: number of CCT nodes N
    28      4      int32: number of metrics M
    32      8*N*M  float64, row k = CCT node id k+1, M values in MetricDB order

The rank and thread come from the file name
(``<prog>-<rank>-<thread>-<host>-<pid>-<gen>.metric-db``).

``experiment-N.mdb`` (hpcprof 2020, all threads in one file, big-endian)::

    0       4      int32: kind of parallelism (bit flags)
    4       4      int32: number of embedded profiles P
    8       16*P   per profile: int32 rank, int32 thread, int64 offset
    ...            at each offset: one metric-db image as above
    end     8      0xFFFFFFFFDEADF00D

Each source becomes a :class:`Block` (where the values are, for which
rank/thread); :func:`read_block` decodes one with ``numpy.fromfile``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np

from ...errors import ReadError

MAGIC = b"HPCPROF-metricdb__"
HEADER_SIZE = 32
MDB_END = 0xFFFFFFFFDEADF00D

_NAME = re.compile(r"-(\d+)-(\d+)-([0-9A-Za-z]+)-(\d+)-(\d+)\.metric-db$")


@dataclass(frozen=True)
class Block:
    """One rank/thread's values: ``path`` holds a metric-db image at ``offset``."""

    path: Path
    offset: int
    rank: int
    thread: int
    end: int  # byte where the image must end at the latest (file size or next image)


def metricdb_blocks(directory: Path) -> List[Block]:
    """The ``*.metric-db`` files of ``directory``, ranks/threads from their names.

    Raises :class:`ReadError` for a name without rank and thread or for two
    files claiming the same rank and thread.
    """
    blocks = []
    for path in sorted(directory.glob("*.metric-db")):
        match = _NAME.search(path.name)
        if match is None:
            raise ReadError(path, "cannot tell the rank and thread from the file name",
                            position="file name",
                            expected="<program>-<rank>-<thread>-<host>-<pid>-<n>.metric-db")
        rank, thread = int(match.group(1)), int(match.group(2))
        if max(rank, thread) >= 2**62:
            raise ReadError(path, f"rank {match.group(1)} or thread {match.group(2)} in the file "
                            "name is out of range", position="file name",
                            expected="a rank and thread that fit in 64 bits")
        blocks.append(Block(path, 0, rank, thread, path.stat().st_size))
    _check_unique(blocks)
    return blocks


def mdb_blocks(path: Path) -> List[Block]:
    """The profiles packed in one ``experiment*.mdb`` file.

    Checked: the header's profile count fits the file, the file ends with the
    ``0xFFFFFFFFDEADF00D`` trailer, every profile starts inside the data area
    and before the next one, ranks and threads are non-negative and unique.
    """
    size = path.stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(8)
        if len(head) < 8:
            raise ReadError(path, f"the file has {len(head)} bytes", position="byte 0",
                            expected="an 8-byte header (kind, number of profiles)")
        kind, count = (int(v) for v in np.frombuffer(head, dtype=">i4"))
        data_start = 8 + 16 * count
        if count < 0 or data_start + 8 > size:
            raise ReadError(path, f"the header announces {count} profiles, more than the "
                            f"file's {size} bytes can hold", position="byte 4",
                            expected="a profile count that fits the file")
        table = np.frombuffer(fh.read(16 * count),
                              dtype=[("rank", ">i4"), ("thread", ">i4"), ("offset", ">i8")])
        fh.seek(size - 8)
        trailer = int(np.frombuffer(fh.read(8), dtype=">u8")[0])
    if trailer != MDB_END:
        raise ReadError(path, f"the file ends with {trailer:#018x}, not the .mdb trailer "
                        "(truncated?)", position=f"byte {size - 8}", expected=f"{MDB_END:#018x}")
    end = size - 8
    offsets = table["offset"].astype(np.int64)
    ends = np.append(offsets[1:], end)
    outside = np.flatnonzero((offsets < data_start) | (offsets > end - HEADER_SIZE))
    unordered = np.flatnonzero(ends < offsets)
    blocks = []
    for k in range(count):
        off, rank, thread = int(offsets[k]), int(table["rank"][k]), int(table["thread"][k])
        where = f"profile table entry {k} (byte {8 + 16 * k})"
        if len(outside) and k == outside[0]:
            raise ReadError(path, f"profile {k} starts at byte {off}, outside the data area",
                            position=where,
                            expected=f"an offset between {data_start} and {end - HEADER_SIZE}")
        if not len(outside) and len(unordered) and k == unordered[0] + 1:
            raise ReadError(path, f"profile {k} starts at byte {off}, before profile {k - 1} "
                            f"(at byte {int(offsets[k - 1])})", position=where,
                            expected="profiles in increasing offset order")
        if rank < 0 or thread < 0:
            raise ReadError(path, f"profile {k} has rank {rank} thread {thread}", position=where,
                            expected="a non-negative rank and thread")
        blocks.append(Block(path, off, rank, thread, int(ends[k])))
    _check_unique(blocks)
    return blocks


def _check_unique(blocks: List[Block]) -> None:
    seen = {}
    for b in blocks:
        key = (b.rank, b.thread)
        if key in seen:
            raise ReadError(b.path, f"rank {b.rank} thread {b.thread} appears twice "
                            f"(also in {seen[key]})", position="file name" if b.offset == 0
                            else f"byte {b.offset}", expected="one profile per rank and thread")
        seen[key] = b.path


def read_header(fh, block: Block) -> Tuple[int, int, str]:
    """Validate a metric-db header; return ``(nodes, metrics, dtype string)``."""
    fh.seek(block.offset)
    head = fh.read(HEADER_SIZE)
    where = block.offset
    if len(head) < HEADER_SIZE:
        raise ReadError(block.path, f"the metric-db header is cut short ({len(head)} bytes)",
                        position=f"byte {where}", expected=f"a {HEADER_SIZE}-byte header")
    if head[:18] != MAGIC:
        raise ReadError(block.path, f"bad magic {head[:18]!r}", position=f"byte {where}",
                        expected=repr(MAGIC))
    order = head[23:24]
    if order not in (b"b", b"l"):
        raise ReadError(block.path, f"unknown byte order flag {order!r}",
                        position=f"byte {where + 23}", expected="b (big-endian) or l (little-endian)")
    prefix = ">" if order == b"b" else "<"
    nodes, metrics = (int(v) for v in np.frombuffer(head[24:32], dtype=prefix + "i4"))
    if nodes < 0 or metrics < 0:
        raise ReadError(block.path, f"negative sizes (nodes {nodes}, metrics {metrics})",
                        position=f"byte {where + 24}", expected="non-negative counts")
    need = HEADER_SIZE + 8 * nodes * metrics
    if block.offset + need > block.end:
        raise ReadError(block.path, f"the values end at byte {block.offset + need} but the "
                        f"{'file' if block.offset == 0 else 'profile'} ends at byte {block.end}"
                        " (truncated?)", position=f"byte {block.end}",
                        expected=f"{nodes} x {metrics} float64 values after the header")
    return nodes, metrics, prefix + "f8"


def _open(block: Block):
    """The block's file, opened for reading (a ReadError if it cannot be)."""
    try:
        return open(block.path, "rb")
    except OSError as exc:
        raise ReadError(block.path, f"cannot open the file: {exc.strerror}") from exc


def _checked_header(fh, block: Block, nodes: int, metrics: int) -> Tuple[int, int, str]:
    """The block's header, which must declare the first file's shape."""
    n, m, dtype = read_header(fh, block)
    if (n, m) != (nodes, metrics):
        raise ReadError(block.path, f"the header declares {n} nodes x {m} metrics, "
                        f"unlike the first file ({nodes} x {metrics})",
                        position=f"byte {block.offset + 24}",
                        expected=f"{nodes} nodes and {metrics} metrics")
    return n, m, dtype


def read_block(block: Block, nodes: int, metrics: int) -> np.ndarray:
    """Values of one block as a ``(nodes, metrics)`` float64 array in the file's byte order
    (converted when copied out, so a block never exists twice).

    ``nodes``/``metrics`` are what the first block declared; every block must agree.
    """
    fh = _open(block)
    with fh:
        n, m, dtype = _checked_header(fh, block, nodes, metrics)
        values = np.fromfile(fh, dtype=dtype, count=n * m)
    if len(values) != n * m:  # the file shrank between the size check and the read
        raise ReadError(block.path, f"only {len(values)} of {n * m} values could be read",
                        position=f"byte {block.offset + HEADER_SIZE + 8 * len(values)}",
                        expected=f"{n * m} float64 values")
    return values.reshape(n, m)


def read_rows(block: Block, rows: np.ndarray, nodes: int, metrics: int) -> np.ndarray:
    """Values of a few rows of one block, ``(len(rows), metrics)`` float64.

    Seeks to each row (for the roots of the tree: a handful), or decodes
    the whole block when many rows are asked for.
    """
    rows = np.asarray(rows, dtype=np.int64)
    if len(rows) > 64:
        return read_block(block, nodes, metrics)[rows].astype(np.float64)
    fh = _open(block)
    out = np.empty((len(rows), metrics))
    with fh:
        n, m, dtype = _checked_header(fh, block, nodes, metrics)
        for k, row in enumerate(rows.tolist()):
            at = block.offset + HEADER_SIZE + 8 * m * row
            fh.seek(at)
            data = fh.read(8 * m)
            if len(data) != 8 * m:
                raise ReadError(block.path, f"row {row} is cut short", position=f"byte {at}",
                                expected=f"{m} float64 values")
            out[k] = np.frombuffer(data, dtype=dtype)
    return out


def metricdb_values(path: Any) -> np.ndarray:
    """All values of one ``*.metric-db`` file, ``(nodes, metrics)``, native byte order.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> p = os.path.join(tempfile.mkdtemp(), "a-000000-000-0-1-0.metric-db")
    >>> with open(p, "wb") as fh:
    ...     _ = fh.write(MAGIC + b"00.10b" + np.array([2, 1], ">i4").tobytes()
    ...                  + np.array([1.5, 2.5], ">f8").tobytes())
    >>> metricdb_values(p).tolist()
    [[1.5], [2.5]]
    """
    path = Path(path)
    block = Block(path, 0, 0, 0, path.stat().st_size)
    with open(path, "rb") as fh:
        n, m, _ = read_header(fh, block)
    return read_block(block, n, m).astype(np.float64)


def first_shape(block: Block) -> Tuple[int, int]:
    """``(nodes, metrics)`` declared by a block's header."""
    try:
        with open(block.path, "rb") as fh:
            n, m, _ = read_header(fh, block)
    except OSError as exc:
        raise ReadError(block.path, f"cannot open the file: {exc.strerror}") from exc
    return n, m
