"""Writing DUMPI trace files (tests and the synthetic-trace generator of the benchmarks).

:class:`DumpiWriter` appends records one call at a time (:meth:`DumpiWriter.call`)
or many calls of one function at once from numpy columns
(:meth:`DumpiWriter.calls`, vectorised), then :meth:`DumpiWriter.finish`
writes the end-of-stream mark, header, footer (call counts), datatype sizes,
an empty function-name table and the index. Every record gets a thread
id and wall times (mask ``THREAD | WALL``, plus ``STATUS`` when asked),
like libdumpi's defaults without CPU times.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ...traces.dumpi.layouts import (ALL_FUNCTIONS, DEFAULT_TYPE_SIZES, END_OF_STREAM, FOOTER_MAGIC,
                      FUNCTION_ENTER, FUNCTION_EXIT, LABEL,
                      LAYOUTS, MAGIC, STATUS, THREAD, TYPE_SIZE, WALL)

_NP = {"i": ">i4", "req": ">i4", "dt": ">u2", "comm": ">u2", "group": ">u2", "win": ">u2",
       "info": ">u2", "file": ">u2", "op": "u1", "u8": "u1", "i64": ">i8"}


class DumpiWriter:
    """Builds one rank's DUMPI file in memory (``finish()`` returns the bytes).

    Parameters
    ----------
    start_time : int
        Seconds since the epoch of the trace start (the wall-time bias).
    statuses : bool
        Store MPI_Status arguments (as empty lists unless given).
    hostname, username : str
        Header fields.
    """

    def __init__(self, start_time: int = 0, statuses: bool = False,
                 hostname: str = "localhost", username: str = "user") -> None:
        self.bias = int(start_time)
        self.mask = THREAD | WALL | (STATUS if statuses else 0)
        self.parts: List[bytes] = [MAGIC, struct.pack(">ii", 0, self.bias)]
        self.counts = [0] * (ALL_FUNCTIONS + 1)
        self.hostname, self.username = hostname, username
        self.size = len(MAGIC) + 8

    def _layout(self, name: str):
        label = LABEL[name]
        return label, LAYOUTS[label]

    def call(self, name: str, start: int, end: int, thread: int = 0, **args: Any) -> None:
        """One call: ``start``/``end`` wall times in ns since the epoch; ``args`` by name."""
        label, layout = self._layout(name)
        out = bytearray(struct.pack(">HBH", label, self.mask, thread))
        for t in (start, end):
            sec, ns = divmod(int(t), 1_000_000_000)
            out += struct.pack(">HI", sec - self.bias, ns)
        for arg, typ, root_only in layout:
            if root_only and args.get("commrank") != args.get("root"):
                continue
            value = args.get(arg, 0)
            if typ == "st":
                if self.mask & STATUS:
                    value = value or []
                    out += struct.pack(">i", len(value))
                    for st in value:
                        out += struct.pack(">iibbi", st["bytes"], st["source"], st["cancelled"],
                                           st["error"], st["tag"])
            elif typ in ("ia", "dta"):
                value = list(value or [])
                out += struct.pack(f">i{len(value)}{'i' if typ == 'ia' else 'H'}",
                                   len(value), *value)
            elif typ == "str":
                b = str(value or "").encode()
                out += struct.pack(">i", len(b)) + b
            elif typ == "argv":
                value = list(value or [])
                out += struct.pack(">i", len(value))
                for s in value:
                    b = s.encode()
                    out += struct.pack(">i", len(b)) + b
            else:
                out += np.array([value], dtype=_NP[typ]).tobytes()
        self.parts.append(bytes(out))
        self.size += len(out)
        self.counts[label] += 1

    def function(self, enter: bool, address: int, start: int, end: int, thread: int = 0) -> None:
        """A user function's entry (``enter=True``) or exit record, as
        ``-finstrument-functions`` tracing writes them; ``address`` names it through
        :meth:`finish`'s ``functions`` table."""
        label = FUNCTION_ENTER if enter else FUNCTION_EXIT
        out = bytearray(struct.pack(">HBH", label, self.mask, thread))
        for t in (start, end):
            sec, ns = divmod(int(t), 1_000_000_000)
            out += struct.pack(">HI", sec - self.bias, ns)
        out += struct.pack(">Q", address)
        self.parts.append(bytes(out))
        self.size += len(out)

    def calls(self, name: str, start: np.ndarray, end: np.ndarray, thread: Any = 0,
              **args: Any) -> bytes:
        """The records of many calls of one fixed-layout function, vectorised.

        Returns the bytes without appending them (interleave several
        functions with :func:`interleave`, then :meth:`append`).
        """
        label, layout = self._layout(name)
        fields = [("label", ">u2"), ("mask", "u1"), ("thread", ">u2"),
                  ("s0", ">u2"), ("n0", ">u4"), ("s1", ">u2"), ("n1", ">u4")]
        for arg, typ, root_only in layout:
            if typ == "st" and not self.mask & STATUS:
                continue
            if root_only or typ not in TYPE_SIZE:
                raise ValueError(f"{name} has no fixed layout; use call()")
            fields.append((arg, _NP[typ]))
        n = len(start)
        rec = np.zeros(n, dtype=np.dtype(fields))
        rec["label"], rec["mask"], rec["thread"] = label, self.mask, thread
        s0, n0 = np.divmod(np.asarray(start, dtype=np.int64), 1_000_000_000)
        s1, n1 = np.divmod(np.asarray(end, dtype=np.int64), 1_000_000_000)
        rec["s0"], rec["n0"], rec["s1"], rec["n1"] = s0 - self.bias, n0, s1 - self.bias, n1
        for arg, value in args.items():
            rec[arg] = value
        self.counts[label] += n
        return rec.tobytes()

    def append(self, data: bytes) -> None:
        """Append already encoded records."""
        self.parts.append(data)
        self.size += len(data)

    def finish(self, type_sizes: Sequence[int] = DEFAULT_TYPE_SIZES,
               functions: Optional[Dict[int, str]] = None) -> bytes:
        """The complete file: stream end, header, footer, sizes, function names, index."""
        parts = self.parts
        pos = self.size
        parts.append(struct.pack(">H", END_OF_STREAM))
        pos += 2
        header = pos
        h = bytes([1, 0, 0]) + struct.pack(">Q", self.bias)
        for s in (self.hostname, self.username):
            b = s.encode()
            h += struct.pack(">H", len(b)) + b
        h += struct.pack(">ii", 0, 0)
        parts.append(h)
        pos += len(h)
        footer = pos
        f = struct.pack(">Q", FOOTER_MAGIC) + struct.pack(f">{2 * len(self.counts)}i",
                                                          *self.counts, *([0] * len(self.counts)))
        parts.append(f)
        pos += len(f)
        sizes = pos
        s = struct.pack(f">i{len(type_sizes)}i", len(type_sizes), *type_sizes)
        parts.append(s)
        pos += len(s)
        names = pos
        table = struct.pack(">i", len(functions or {}))
        for address, fname in sorted((functions or {}).items()):
            b = fname.encode()
            table += struct.pack(">QH", address, len(b)) + b
        parts.append(table)
        pos += len(table)
        parts.append(MAGIC + struct.pack(">7Q", sizes, names, 0, header, 8, footer, 0))
        return b"".join(parts)


def interleave(chunks: Sequence[bytes], sizes: Sequence[int], order: np.ndarray) -> bytes:
    """Merge record arrays of different functions into one stream.

    ``chunks[k]`` holds records of ``sizes[k]`` bytes each; ``order`` lists,
    for every output record, which chunk it comes from (records of one
    chunk keep their order).
    """
    order = np.asarray(order)
    lengths = np.asarray(sizes, dtype=np.int64)[order]
    offsets = np.r_[0, np.cumsum(lengths)[:-1]]
    out = np.zeros(int(lengths.sum()), dtype=np.uint8)
    for k, (chunk, size) in enumerate(zip(chunks, sizes)):
        rows = np.frombuffer(chunk, dtype=np.uint8).reshape(-1, size)
        at = offsets[order == k]
        out[at[:, None] + np.arange(size)] = rows
    return out.tobytes()
