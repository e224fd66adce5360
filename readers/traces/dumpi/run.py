"""Decoding one DUMPI rank file into event batches (see :mod:`.decoder` for the format).

:class:`DumpiRun` reads the records block by block. The format has no record lengths; a
table gives the length of every (function, mask) whose layout is fixed, and
:mod:`.boundaries` follows the chain of record starts with numpy walks (exact Python steps
only where the walks did not settle, e.g. around records whose length depends on their
data, which go through :func:`.records.parse_record`). Fields are then gathered with numpy
for all records of a layout at once. A handler that ``takes_calls`` (the call table) gets
whole calls (:meth:`.EventHandler.on_calls`) instead of events. Imported by
:meth:`.decoder.DumpiDecoder.decode` on first use, so recognising a file of another format
does not load the record tables.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions
from ..events import EventBatch, Kind, StringTable
from ..handler import EventHandler
from ..sources import ByteSource
from .boundaries import record_starts
from .layouts import (ALL_FUNCTIONS, CPU, DEFAULT_TYPE_SIZES, END_OF_STREAM, FUNCTION_ENTER,
                      FUNCTION_EXIT, FUNCTIONS, LABEL, LAYOUTS, MAGIC, THREAD, TYPE_SIZE, WALL)
from .mpiio import DELETE, IS_IO, HandleTable, io_columns
from .records import Record, Short, Trailer, parse_record, read_trailer

#: MPI call -> (event kind, peer argument, count argument, datatype argument, tag argument)
_SEND = ("count", "datatype", "dest", "tag")
_DATA: Dict[str, Tuple[Kind, Optional[str], Optional[str], Optional[str], Optional[str]]] = {}
for _n in ("Send", "Bsend", "Ssend", "Rsend", "Isend", "Ibsend", "Issend", "Irsend"):
    _DATA["MPI_" + _n] = (Kind.SEND, "dest", "count", "datatype", "tag")
for _n in ("Recv", "Irecv"):
    _DATA["MPI_" + _n] = (Kind.RECV, "source", "count", "datatype", "tag")
for _n, _c, _t in (("Bcast", "count", "datatype"), ("Reduce", "count", "datatype"),
                   ("Allreduce", "count", "datatype"), ("Scan", "count", "datatype"),
                   ("Exscan", "count", "datatype"), ("Barrier", None, None),
                   ("Gather", "sendcount", "sendtype"), ("Scatter", "recvcount", "recvtype"),
                   ("Allgather", "sendcount", "sendtype"), ("Alltoall", "sendcount", "sendtype"),
                   ("Gatherv", "sendcount", "sendtype"), ("Scatterv", "recvcount", "recvtype"),
                   ("Allgatherv", "sendcount", "sendtype"), ("Alltoallv", None, None),
                   ("Reduce_scatter", None, None), ("Alltoallw", None, None)):
    _DATA["MPI_" + _n] = (Kind.COLLECTIVE, "root", _c, _t, None)
for _n in ("Put", "Get", "Accumulate"):
    _DATA["MPI_" + _n] = (Kind.RMA, "targetrank", "origincount", "origintype", None)
for _n in ("Win_fence", "Win_lock", "Win_unlock", "Win_post", "Win_start", "Win_complete",
           "Win_wait", "Win_test"):
    _DATA["MPI_" + _n] = (Kind.RMA_SYNC, "winrank", None, None, None)
_DATA_BY_LABEL = {LABEL[call]: role for call, role in _DATA.items()}
_EXTRA = ("comm", "request", "win", "sendcount", "sendtype", "recvcount", "recvtype", "dest",
          "source", "sendtag", "recvtag")


class DumpiRun:
    """The state of decoding one rank file (:meth:`run`)."""

    def __init__(self, source: ByteSource, handler: EventHandler, options: Dict[str, Any]):
        self.source = source
        self.name = source.name
        self.handler = handler
        self.rank = source.rank if source.rank is not None else 0
        self.want_args = bool(options["args"])
        self.batch_records = int(options["batch_records"])
        self.strings = StringTable(FUNCTIONS)
        self.files = HandleTable(self.strings)
        self.slice_bytes = 1 << 20  # decode at most this much at a time: bounded memory
        self.masks: set = set()  # record masks met so far (see boundaries.record_starts)

    def run(self) -> None:
        head = self.source.read_at(0, 8) if self.source.seekable else self.source.head(8)
        if head != MAGIC:
            raise ReadError(self.name, "not a DUMPI trace", position="byte 0",
                            expected="the DUMPI magic ff aa dd 'DUMPI'")
        trailer = read_trailer(self.source) if self.source.seekable else Trailer()
        self.trailer = trailer
        sizes = trailer.type_sizes or list(DEFAULT_TYPE_SIZES)
        self.sizes = np.asarray(sizes + [0], dtype=np.int64)
        self._definitions(trailer)
        self._stream(trailer.body)

    def _definitions(self, t: Trailer) -> None:
        counts = {FUNCTIONS[i]: (c, t.ignored_counts[i]) for i, c in
                  enumerate(t.call_counts[:ALL_FUNCTIONS]) if c or t.ignored_counts[i]}
        self.handler.on_definitions(Definitions(
            ranks={self.rank: {"host": t.hostname, "user": t.username, "call_counts": counts}},
            communicators={2: {"name": "MPI_COMM_WORLD"}, 4: {"name": "MPI_COMM_SELF"}},
            metadata={"format": "dumpi", "version": ".".join(map(str, t.version)),
                      "start_time": t.start_time * 1_000_000_000}))

    def _stream(self, body: int) -> None:
        blocks = self.source.blocks(body)
        buf, pos = b"", body
        biases = None
        done = False
        for block in _slices(blocks, self.slice_bytes):
            buf += block
            if biases is None:
                if len(buf) < 8:
                    continue
                biases = (int.from_bytes(buf[0:4], "big", signed=True),
                          int.from_bytes(buf[4:8], "big", signed=True))
                buf, pos = buf[8:], pos + 8
            used, done = self._records(buf, pos, biases)
            buf, pos = buf[used:], pos + used
            if done:
                break
        if not done:
            raise ReadError(self.name, "the call stream ends inside a record (truncated file?)",
                            position=f"byte {pos}",
                            expected="a complete record or the end-of-stream mark")

    def _records(self, buf: bytes, base: int, biases) -> Tuple[int, bool]:
        """Decode the complete records of ``buf``; returns (bytes used, end of stream seen)."""
        a = np.frombuffer(buf, dtype=np.uint8)
        records: Dict[int, Record] = {}
        state = {"done": False}
        functions = self.trailer.functions

        def step(p: int) -> Optional[int]:  # a record that is not of fixed length
            label = (buf[p] << 8) | buf[p + 1]
            if label >= END_OF_STREAM:
                if label == END_OF_STREAM:
                    state["done"] = True
                    return None
                raise ReadError(self.name, f"bad function label {label}",
                                position=f"byte {base + p}",
                                expected=f"a DUMPI function label below {END_OF_STREAM}")
            try:
                rec, q = parse_record(buf, p, biases, functions, self.name, base)
            except Short:
                return None
            records[p] = rec
            return q

        starts, slow_at, used = record_starts(a, 0, len(buf), step, self.masks)
        if len(starts):
            self.masks.update(np.flatnonzero(np.bincount(a[starts + 2], minlength=256)).tolist())
        slow_index = np.searchsorted(starts, slow_at).tolist() if slow_at else []
        padded = _padded(buf)
        for lo in range(0, len(starts), self.batch_records):
            hi = lo + self.batch_records
            slow = {i - lo: records[p] for i, p in zip(slow_index, slow_at) if lo <= i < hi}
            self._emit(buf, padded, starts[lo:hi], slow, biases)
        return used, state["done"]

    # ------------------------------------------------------------------ columns
    def _emit(self, buf: bytes, a: np.ndarray, starts: np.ndarray, slow: Dict[int, Record],
              biases) -> None:
        """Decode the records at ``starts`` (``a``: ``buf`` as :func:`_padded` gives it)."""
        label = _be(a, starts, 2)
        mask = a[starts + 2].astype(np.int64)
        off = 3 + 2 * ((mask & THREAD) > 0)
        thread = np.where(mask & THREAD, _be(a, starts + 3, 2), 0)
        off = off + 12 * ((mask & CPU) > 0)
        has_wall = (mask & WALL) > 0
        wall = np.where(has_wall, off, off - 12)  # without wall times, use the CPU times
        bias = np.where(has_wall, biases[1], biases[0])
        start = (_be(a, starts + wall, 2) + bias) * 1_000_000_000 + _be(a, starts + wall + 2, 4)
        end = (_be(a, starts + wall + 6, 2) + bias) * 1_000_000_000 + _be(a, starts + wall + 8, 4)
        args_at = off + 12 * has_wall
        fields = self._fields(a, starts, label, mask, args_at, slow)
        if slow:
            idx = np.fromiter(slow, dtype=np.int64)
            recs = list(slow.values())
            thread[idx] = [r.thread for r in recs]
            start[idx] = [r.wall[0] if r.wall != (0, 0) else r.cpu[0] for r in recs]
            end[idx] = [r.wall[1] if r.wall != (0, 0) else r.cpu[1] for r in recs]
        name = label.astype(np.int32)
        user = np.flatnonzero((label == FUNCTION_ENTER) | (label == FUNCTION_EXIT))
        if len(user):  # user functions: named from the file's address table
            addrs, inverse = np.unique(fields["fn"][user], return_inverse=True)
            functions = self.trailer.functions
            ids = [self.strings.intern(functions.get(int(x), f"0x{int(x):x}")) for x in addrs]
            name[user] = np.asarray(ids, dtype=np.int32)[inverse]
        self._batch(label, thread, start, end, name, fields, starts, buf, slow, biases)

    def _fields(self, a, starts, label, mask, args_at, slow) -> Dict[str, np.ndarray]:
        """Integer arguments that events need, -1 where absent (vectorised per layout)."""
        wanted = {"count", "datatype", "dest", "source", "tag", "root", "targetrank",
                  "origincount", "origintype", "winrank", "fn", "file", "offset",
                  "assertion"} | set(_EXTRA)
        out = {k: np.full(len(starts), -1, dtype=np.int64) for k in wanted}
        slow_mask = np.zeros(len(starts), dtype=bool)
        if slow:
            slow_mask[np.fromiter(slow, dtype=np.int64)] = True
        for lab in _present(label[~slow_mask]):
            rows = np.flatnonzero((label == lab) & ~slow_mask)
            offset = args_at[rows].copy()
            for arg, typ, _ in LAYOUTS[lab]:
                if typ == "st":  # fixed records carry statuses only when not stored
                    continue
                width = TYPE_SIZE[typ]
                if arg in out:
                    value = _be(a, starts[rows] + offset, width)
                    if typ in ("i", "req"):
                        value = np.where(value >= 1 << 31, value - (1 << 32), value)
                    out[arg][rows] = value
                offset = offset + width
        for i, rec in slow.items():
            for arg, value in rec.args.items():
                if arg in out and isinstance(value, int):
                    out[arg][i] = value
        return out

    def _batch(self, label, thread, start, end, name, f, starts, buf, slow, biases) -> None:
        n = len(label)
        data_kind = np.full(n, 255, dtype=np.uint8)
        peer = np.full(n, -1, dtype=np.int64)
        nbytes = np.full(n, -1, dtype=np.int64)
        tag = np.full(n, -1, dtype=np.int64)
        sizes = self.sizes
        present = _present(label)
        for lab in present:
            if lab not in _DATA_BY_LABEL:
                continue
            kind, peer_arg, count_arg, type_arg, tag_arg = _DATA_BY_LABEL[lab]
            rows = np.flatnonzero(label == lab)
            data_kind[rows] = kind
            if peer_arg:
                peer[rows] = f[peer_arg][rows]
            if count_arg:
                dt = f[type_arg][rows]
                dt = np.where((dt >= 0) & (dt < len(sizes) - 1), dt, len(sizes) - 1)
                nbytes[rows] = f[count_arg][rows] * sizes[dt]
            elif kind == Kind.COLLECTIVE:
                nbytes[rows] = 0
            if tag_arg:
                tag[rows] = f[tag_arg][rows]
        io = None
        if IS_IO[[lab for lab in present if lab < len(IS_IO)]].any():
            io = io_columns(label, f, sizes, self.files, slow)
            data_kind[io["fd"] >= 0] = Kind.IO
            data_kind[label == DELETE] = Kind.IO
            nbytes = np.where(io["bytes"] >= 0, io["bytes"], nbytes)
        enter_user = label == FUNCTION_ENTER
        exit_user = label == FUNCTION_EXIT
        if self.handler.takes_calls:
            self._calls(label, thread, start, end, name, f, data_kind, peer, tag, nbytes, io,
                        enter_user, exit_user, buf, starts, slow, biases)
            return
        # three slots per record: ENTER, data event, LEAVE (user enter/exit: one slot)
        slot_kind = np.stack([np.where(exit_user, Kind.LEAVE, Kind.ENTER).astype(np.uint8),
                              data_kind, np.full(n, Kind.LEAVE, dtype=np.uint8)], axis=1)
        keep = np.stack([np.ones(n, bool), data_kind != 255, ~(enter_user | exit_user)], axis=1)
        slot_time = np.stack([np.where(exit_user, end, start), start, end], axis=1)
        sel = keep.reshape(-1)
        rec = np.repeat(np.arange(n), 3)[sel]
        is_data = np.tile([False, True, False], n)[sel]
        is_call = np.tile([True, False, False], n)[sel] & ~(enter_user | exit_user)[rec]
        attrs = {  # a call's ENTER carries its end too (one row per call: CallTableBuilder)
            "end": np.where(is_data | is_call, end[rec], -1),
            "peer": np.where(is_data, peer[rec], -1),
            "tag": np.where(is_data, tag[rec], -1),
            "bytes": np.where(is_data, nbytes[rec], -1),
            "comm": np.where(is_data, f["comm"][rec], -1),
            "request": np.where(is_data, f["request"][rec], -1),
            "window": np.where(is_data, f["win"][rec], -1),
            "assertion": np.where(is_data, f["assertion"][rec], -1),
        }
        if io is not None:
            for col in ("fd", "file", "offset"):
                attrs[col] = np.where(is_data, io[col][rec], -1)
        if self.want_args:
            attrs["args"] = self._args_text(buf, starts, slow, biases)[rec]
            attrs["args"][~np.isin(np.arange(len(rec)), np.flatnonzero(
                np.r_[True, rec[1:] != rec[:-1]]))] = None
        self.handler.on_batch(EventBatch.build(
            self.strings, kind=slot_kind.reshape(-1)[sel], time=slot_time.reshape(-1)[sel],
            rank=self.rank, thread=thread[rec], name=name[rec], source=self.name, **attrs))

    def _calls(self, label, thread, start, end, name, f, data_kind, peer, tag, nbytes, io,
               enter_user, exit_user, buf, starts, slow, biases) -> None:
        """Whole calls (a handler that ``takes_calls``): the columns the ENTER and data events
        of :meth:`_batch` would give, one row per record but user function exits."""
        rec = np.flatnonzero(~exit_user)
        has = data_kind[rec] != 255
        cols = {"rank": self.rank, "thread": thread[rec], "name": name[rec],
                "start": start[rec], "end": np.where(enter_user[rec], -1, end[rec]),
                "kind": np.where(has, data_kind[rec].astype(np.int16), -1),
                "file": np.full(len(rec), -1, dtype=np.int32)}
        for col, values in (("peer", peer), ("tag", tag), ("bytes", nbytes),
                            ("comm", f["comm"]), ("window", f["win"]),
                            ("assertion", f["assertion"])):
            cols[col] = np.where(has, values[rec], -1)
        if io is not None:
            cols["file"] = np.where(has, io["file"][rec], -1)
            for col in ("fd", "offset"):
                cols[col] = np.where(has, io[col][rec], -1)
        if self.want_args:
            cols["args"] = self._args_text(buf, starts, slow, biases)[rec]
        self.handler.on_calls(self.strings, cols)

    def _args_text(self, buf, starts, slow, biases) -> np.ndarray:
        out = np.empty(len(starts), dtype=object)
        for i, p in enumerate(starts.tolist()):
            rec = slow.get(i) or parse_record(buf, p, biases, self.trailer.functions,
                                              self.name)[0]
            out[i] = "\n".join(f"{k}={v}" for k, v in rec.args.items())
        return out


def _present(label: np.ndarray) -> List[int]:
    """The distinct labels of a batch, ascending (a count, not a sort)."""
    return np.flatnonzero(np.bincount(label, minlength=1)).tolist()


def _slices(blocks, size: int):
    """The blocks of a source cut into pieces of at most ``size`` bytes."""
    for block in blocks:
        for lo in range(0, len(block), size):
            yield block[lo:lo + size]


def _padded(buf: bytes) -> np.ndarray:
    """The bytes of ``buf`` as uint8 followed by 7 zero bytes (for :func:`_be`)."""
    a = np.zeros(len(buf) + 7, dtype=np.uint8)
    a[:len(buf)] = np.frombuffer(buf, dtype=np.uint8)
    return a


def _be(a: np.ndarray, at: np.ndarray, width: int) -> np.ndarray:
    """Big-endian unsigned integers of ``width`` bytes at offsets ``at`` of a
    :func:`_padded` buffer (one gather through a byte-strided view), as int64."""
    if width == 1:
        return a[at].astype(np.int64)
    view = np.ndarray((len(a) - 7,), dtype=f">u{width}", buffer=a, strides=(1,))
    return view[at].astype(np.int64)
