"""Layer 2: buffers' bytes -> their events, as columns (numpy where the layout allows).

:func:`decode_buffers` takes consecutive buffers (about 256 KiB, so the fixed
cost of numpy calls is paid once for many buffers while the arrays stay in the
caches) and finds every event start from :func:`.fast.event_steps` (per LEB128
value, the value after an event starting there): with the lanes of
:func:`.fast.walk_lanes` where they prove the chain of events, else with the
jump tables of :mod:`.fast` (one Python step per 16 events; events with
strings go through the small per-event reader :mod:`.slow`). No event may run
past its own buffer. Then the fields of each fixed-shape kind are read for all
its events at once (:class:`~.leb128.LebIndex`; by value number for the kinds
made of LEB128 values): times are one cumulative sum restarted at each
buffer's time base, method pointers one cumulative sum over every method
field and backtrace frame in byte order, restarted at each buffer's method
base. The result is a :class:`MonoChunk`: per kind a table of columns, lists
(backtraces, moves, references, instruction pointers) flattened with
start/count columns, and the string-carrying events as Python records.

Bad bytes raise :class:`~graphframe_readers.ReadError` naming the file, the
buffer's offset, the event's offset and kind.

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter, encode_events
>>> from graphframe_readers.traces.mono.blocks import RawBuffer
>>> w = MlpdWriter(version=17)
>>> ev = [w.jit(time=1001, method=0x1000, code=0x2000, size=10, name="A:f ()"),
...       w.enter(time=1004, method=0x1000), w.leave(time=1013, method=0x1000)]
>>> raw = RawBuffer(100, 7, 1000, 0, 0, 0, encode_events(ev, time_base=1000))
>>> chunk = decode_buffers([raw], 17, "x.mlpd")
>>> chunk.kind_names(), chunk.time.tolist(), chunk.thread.tolist()
(['jit', 'enter', 'leave'], [1001, 1004, 1013], [7, 7, 7])
>>> chunk.tables["enter"]["method"].tolist(), chunk.records[0][2][3]
([4096], 'A:f ()')
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ...errors import ReadError
from . import format as F
from .blocks import RawBuffer
from .fast import BAD_END, TOO_LONG, event_steps, expand, jump_tables, walk_lanes
from .fields import FIXED, monitor13
from .kinds import KIND_CODES, KIND_LIST, KINDS
from .leb128 import MAX_LEB_BYTES, LebIndex
from .slow import SlowReader

Columns = Dict[str, np.ndarray]
_MASK = (1 << 64) - 1


def _i64(value: int) -> np.int64:
    value &= _MASK
    return np.int64(value - (1 << 64) if value >= 1 << 63 else value)


class MonoChunk:
    """The decoded events of consecutive buffers (see the module docs).

    Attributes
    ----------
    raws : list of RawBuffer
        The buffers (offset, thread, bases), in file order.
    buffer : numpy.ndarray
        Per event, the index of its buffer in :attr:`raws`.
    thread : numpy.ndarray
        Per event, the thread it happened on (its buffer's thread).
    kind : numpy.ndarray
        Per event, its kind code (index into :data:`~.kinds.KIND_LIST`).
    time : numpy.ndarray
        Per event, its time (ns, int64).
    start : numpy.ndarray
        Per event, its byte offset in the file (the inflated log for gzip files).
    tables : dict
        kind -> columns (``seq``: index of the event in the chunk; then the kind's
        fields; list fields as ``<field>_start``/``<field>_count`` into
        :attr:`lists`).
    lists : dict
        Flat arrays the list columns point into (``frames``: method
        pointers; ``moves`` and ``refs`` as (n, 2) rows; ``ips``; ``roots``).
    records : list
        ``(event index, kind, fields tuple)`` of the events read one at a
        time (metadata, JIT, symbols, counters...).
    """

    __slots__ = ("raws", "version", "buffer", "thread", "kind", "time", "start", "tables",
                 "lists", "records")

    def __init__(self, raws: List[RawBuffer], version: int) -> None:
        self.raws = raws
        self.version = version
        self.buffer = np.zeros(0, dtype=np.int64)
        self.thread = np.zeros(0, dtype=np.int64)
        self.kind = np.zeros(0, dtype=np.int16)
        self.time = np.zeros(0, dtype=np.int64)
        self.start = np.zeros(0, dtype=np.int64)
        self.tables: Dict[str, Columns] = {}
        self.lists: Dict[str, np.ndarray] = {}
        self.records: List[Tuple[int, str, tuple]] = []

    def __len__(self) -> int:
        return len(self.time)

    def kind_names(self) -> List[str]:
        """Kind names in file order."""
        return [KIND_LIST[k] for k in self.kind.tolist()]

    def events(self) -> Iterator[Tuple[str, int, int, tuple]]:
        """``(kind, thread, time, fields)`` per event in file order (Python values; slow path)."""
        rows: List[Any] = [None] * len(self)
        for index, kind, fields in self.records:
            rows[index] = fields
        for kind, cols in self.tables.items():
            for index, fields in zip(cols["seq"].tolist(), self.rows(kind)):
                rows[index] = fields
        return zip(self.kind_names(), self.thread.tolist(), self.time.tolist(), rows)

    def rows(self, kind: str) -> List[tuple]:
        """The fields of a table's events as tuples (lists resolved to tuples)."""
        cols = self.tables[kind]
        out = []
        for name in KINDS[kind]:
            if name in cols:
                out.append(cols[name].tolist())
            else:
                flat = self.lists[_LIST_OF[kind, name]]
                starts, counts = cols[name + "_start"].tolist(), cols[name + "_count"].tolist()
                if flat.ndim == 1:
                    out.append([tuple(flat[s:s + c].tolist()) for s, c in zip(starts, counts)])
                else:
                    out.append([tuple(map(tuple, flat[s:s + c].tolist()))
                                for s, c in zip(starts, counts)])
        return list(zip(*out)) if out else [()] * len(cols["seq"])


#: (kind, list field) -> the ``lists`` entry holding it, and its row width
_LIST_OF = {("alloc", "backtrace"): "frames", ("gc_handle_created", "backtrace"): "frames",
            ("gc_handle_destroyed", "backtrace"): "frames", ("monitor", "backtrace"): "frames",
            ("throw", "backtrace"): "frames", ("sample", "backtrace"): "frames",
            ("sample", "ips"): "ips", ("gc_moves", "moves"): "moves",
            ("heap_object", "refs"): "refs", ("heap_roots", "roots"): "roots"}

def decode_buffers(raws: List[RawBuffer], version: int, name: str) -> MonoChunk:
    """Decode consecutive buffers' events together (see the module docs)."""
    return _ChunkDecoder(raws, version, name).run()


class _ChunkDecoder:
    def __init__(self, raws: List[RawBuffer], version: int, name: str) -> None:
        self.raws = raws
        self.version = version
        self.name = name
        self.data = raws[0].data if len(raws) == 1 else b"".join(r.data for r in raws)
        self.b = np.frombuffer(self.data, dtype=np.uint8)
        self.ix = LebIndex(self.b)
        self.out = MonoChunk(raws, version)
        lengths = np.array([len(r.data) for r in raws], dtype=np.int64)
        self.buf_start = np.zeros(len(raws), dtype=np.int64)
        np.cumsum(lengths[:-1], out=self.buf_start[1:])
        self.buf_end = self.buf_start + lengths
        self.ptr_bases = np.array([_i64(r.ptr_base) for r in raws], dtype=np.int64)
        self.obj_bases = np.array([_i64(r.obj_base) for r in raws], dtype=np.int64)
        self.method_fields: List[Tuple[np.ndarray, np.ndarray, Columns, str]] = []
        self.frame_lists: List[tuple] = []   # (positions, deltas, event rows, counts, offsets)
        self.bt_groups: List[Tuple[Columns, int]] = []
        self.groups: Dict[str, List[Columns]] = {}
        self.group: Columns = {}
        self.starts: Optional[np.ndarray] = None
        self.after: np.ndarray = np.zeros(0, np.intp)   # see build_tables

    # ------------------------------------------------------------ errors
    def buffer_of(self, pos: int) -> int:
        """Index of the buffer holding byte ``pos`` of the chunk."""
        return max(int(np.searchsorted(self.buf_start, pos, side="right")) - 1, 0)

    def file_offset(self, pos: int) -> int:
        """File offset of byte ``pos`` of the chunk."""
        i = self.buffer_of(pos)
        return self.raws[i].offset + 48 + pos - int(self.buf_start[i])

    def error(self, pos: int, problem: str, expected: str) -> ReadError:
        i = self.buffer_of(pos)
        code = self.b[pos] if 0 <= pos < len(self.b) else None
        what = f"event 0x{int(code):02x}" if code is not None else "event"
        return ReadError(self.name, problem, expected=expected,
                         position=f"buffer at byte {self.raws[i].offset}, {what} at byte "
                                  f"{self.file_offset(pos)}")

    # ------------------------------------------------------------ walk
    def run(self) -> MonoChunk:
        n = len(self.b)
        ix = self.ix
        nxt = event_steps(ix, self.version)         # per value (ix.cand)
        slow = SlowReader(self)
        runs = walk_lanes(nxt, ix)       # most chunks: no slow event, nothing wrong
        if runs is not None:
            start, values = ix.cand[runs].astype(np.int64), runs
        else:
            start, values = self.walk(nxt, slow)
        self.check_boundaries(start, upto=n)
        self.starts = start
        codes = self.b[start] if n else np.zeros(0, np.uint8)
        out = self.out
        out.buffer = self.sorted_buffers(start)
        out.thread = np.array([r.thread for r in self.raws], dtype=np.int64)[out.buffer]
        out.start = np.array([r.offset + 48 for r in self.raws],
                             dtype=np.int64)[out.buffer] + start - self.buf_start[out.buffer]
        bases = np.array([r.time_base for r in self.raws], dtype=np.int64)
        # the time: the value after the event byte, or joined to an event byte >= 0x80
        # (times were checked by event_steps: too long is TOO_LONG)
        tval = values + (codes < 0x80)
        times = ix.values[tval].view(np.int64)
        tend = ix.cand[tval + 1]
        joined = np.flatnonzero(codes >= 0x80)
        if len(joined):
            times[joined] = ix.uleb(start[joined] + 1)
        out.time = self.per_buffer_sum(start, times, bases)
        kind = np.full(len(start), -1, dtype=np.int16)
        slow.index_records(start)
        for index, kname, _ in slow.records:
            kind[index] = KIND_CODES[kname]
        self.build_tables(start, codes, tend, tval + 1, kind)
        out.kind = kind
        out.records = slow.records
        self.resolve_methods(slow)
        return out

    def walk(self, nxt: np.ndarray, slow: SlowReader):
        """Every event start, in order (byte positions, value numbers), following the
        jump tables from value 0 and reading slow events on the way."""
        n = len(self.b)
        ix = self.ix
        tables = jump_tables(nxt, ix)
        far = memoryview(tables[-1])     # Python ints on indexing, no conversion up front
        near = memoryview(nxt)
        cand = memoryview(ix.cand)
        unknown = len(ix.cand)
        anchors: List[int] = []   # value numbers, each starting 2**JUMP_LEVELS events
        singles: List[int] = []
        i = p = 0
        try:
            while p < n:     # a long jump where it is known, else one event
                q = far[i]
                if q < unknown:
                    anchors.append(i)
                    i = q
                    p = cand[i]
                    continue
                q = near[i]
                if q < 0:
                    if q == TOO_LONG:
                        self.check_lengths(np.array([p + 1]), event=p)
                    q = self.value_at(slow.read(p)) if q != BAD_END else unknown
                    if q >= unknown:
                        raise self.error(p, "the event runs past the end of its buffer "
                                         "(corrupt or truncated data)",
                                         expected="an event that ends inside the buffer")
                singles.append(i)
                i = q
                p = cand[i]
        except ReadError:
            # an event that ran into the next buffer is the first error, if there is one
            self.check_boundaries(self.merge(tables, anchors, singles)[0], upto=p)
            raise
        return self.merge(tables, anchors, singles)

    def value_at(self, pos: int) -> int:
        """The number of the value starting at byte ``pos``; ``len(cand)`` if none does."""
        ix = self.ix
        at = int(ix.rank_of(np.array([pos]))[0])
        if pos > ix.n or at > ix.count or int(ix.cand[at]) != pos:
            return len(ix.cand)
        return at

    def merge(self, tables, anchors: List[int], singles: List[int]):
        """Every event start, in order, as byte positions and value numbers: the anchors'
        runs and the single steps (both value numbers)."""
        runs = expand(np.array(anchors, dtype=np.intp), tables)
        if singles:
            one = np.array(singles, dtype=np.intp)
            runs = np.insert(runs, np.searchsorted(runs, one), one)
        return self.ix.cand[runs].astype(np.int64), runs

    def check_boundaries(self, start: np.ndarray, upto: int) -> None:
        """Every buffer before ``upto`` must begin with an event (none ran past its buffer)."""
        heads = self.buf_start[(self.buf_start > 0) & (self.buf_start < upto)]
        if not len(heads):
            return
        at = np.searchsorted(start, heads)
        missed = np.flatnonzero((at >= len(start)) | (start[np.minimum(at, len(start) - 1)]
                                                       != heads)) if len(start) else [0]
        if len(missed):
            boundary = int(heads[missed[0]])
            before = start[start < boundary]
            culprit = int(before[-1]) if len(before) else boundary
            raise self.error(culprit, "the event runs past the end of its buffer "
                             "(corrupt or truncated data)",
                             expected="an event that ends inside the buffer")

    def per_buffer_sum(self, pos: np.ndarray, delta: np.ndarray,
                       bases: np.ndarray) -> np.ndarray:
        """Running sums of ``delta`` (at sorted positions) restarting at each buffer, plus
        the buffer's base."""
        total = np.cumsum(delta)
        buf = self.sorted_buffers(pos)
        first = np.searchsorted(pos, self.buf_start)        # first value of each buffer
        before = np.where(first > 0, total[np.maximum(first - 1, 0)] if len(total) else 0, 0)
        return (bases - before)[buf] + total

    def sorted_buffers(self, pos: np.ndarray) -> np.ndarray:
        """The buffer of each of the sorted positions ``pos``."""
        first = np.searchsorted(pos, self.buf_start)
        counts = np.diff(np.append(first, len(pos)))
        return np.repeat(np.arange(len(self.buf_start)), counts)

    def check_lengths(self, pos: np.ndarray, event: Optional[int] = None) -> None:
        """A ReadError at the first LEB128 value longer than ten bytes (located at its event:
        ``event``, or the event start before it once the walk is done)."""
        bad = np.flatnonzero(self.ix.too_long(pos))
        if len(bad):
            at = int(pos[bad[0]])
            if event is None:
                starts = self.starts if self.starts is not None else np.zeros(1, np.int64)
                event = int(starts[max(int(np.searchsorted(starts, at, side="right")) - 1, 0)])
            raise self.error(event, f"a LEB128 value at byte {self.file_offset(at)} is longer "
                             f"than {MAX_LEB_BYTES} bytes (corrupt data)",
                             expected="a LEB128 value of at most 10 bytes")

    # ------------------------------------------------------------ field helpers
    def U(self, pos: np.ndarray) -> np.ndarray:
        return self.ix.uleb(pos)

    def S(self, pos: np.ndarray) -> np.ndarray:
        return self.ix.sleb(pos)

    def E(self, pos: np.ndarray) -> np.ndarray:
        return self.ix.end(pos)

    def bases(self, pos: np.ndarray, bases: np.ndarray) -> np.ndarray:
        return bases[np.searchsorted(self.buf_start, pos, side="right") - 1]

    def ptr(self, pos: np.ndarray) -> np.ndarray:
        return self.bases(pos, self.ptr_bases) + self.S(pos)

    def obj(self, pos: np.ndarray) -> np.ndarray:
        return (self.bases(pos, self.obj_bases) + self.S(pos)) << 3

    # value-number helpers: for events made of LEB128 values only (fields.py), ``v`` are
    # value numbers (``self.after`` is the first field of each event of the group)
    def UV(self, v: np.ndarray) -> np.ndarray:
        return self.ix.values[v].view(np.int64)

    def SV(self, v: np.ndarray) -> np.ndarray:
        return self.ix.signed_at(v)

    def check_values(self, v: np.ndarray) -> None:
        """A ReadError at the first of the values ``v`` longer than ten bytes."""
        if self.ix.has_long:
            self.check_lengths(self.ix.cand[v])

    def group_bases(self, bases: np.ndarray) -> np.ndarray:
        """``bases`` (per buffer) for each event of the group being read."""
        return bases[self.out.buffer[self.group["seq"]]]

    def ptr_v(self, v: np.ndarray) -> np.ndarray:
        return self.group_bases(self.ptr_bases) + self.SV(v)

    def obj_v(self, v: np.ndarray) -> np.ndarray:
        return (self.group_bases(self.obj_bases) + self.SV(v)) << 3

    def list_values(self, first: np.ndarray, count: np.ndarray):
        """Numbers of the values of lists (``count`` values from value ``first``), and
        where each list begins among them."""
        offsets = np.zeros(len(count), dtype=np.int64)
        if len(count) > 1:
            np.cumsum(count[:-1], out=offsets[1:])
        total = int(offsets[-1] + count[-1]) if len(count) else 0
        if not total:
            return np.zeros(0, np.intp), offsets
        v = np.repeat(first - offsets, count)
        v += np.arange(total)
        self.check_values(v)
        return v, offsets

    def backtrace_v(self, cols: Columns, cv: np.ndarray) -> None:
        """:meth:`backtrace` from value numbers (``cv``: each backtrace's count)."""
        count = self.UV(cv)
        v, offsets = self.list_values(cv + 1, count)
        self.frame_lists.append((v, self.SV(v), self.group["seq"], count, offsets))
        cols["backtrace_start"] = offsets      # made absolute in resolve_methods
        cols["backtrace_count"] = count
        self.bt_groups.append((self.group, len(self.frame_lists) - 1))

    def add_method_field_v(self, cols: Columns, name: str, v: np.ndarray) -> None:
        """:meth:`add_method_field` from value numbers."""
        self.check_values(v)
        cols[name] = np.zeros(len(v), np.int64)
        self.method_fields.append((v, self.SV(v), self.group, name))

    def list_positions(self, first: np.ndarray, count: np.ndarray, width: int = 1):
        """Positions of the LEB128 values of lists (``count * width`` values from ``first``)."""
        total_each = count * width
        total = int(total_each.sum()) if len(count) else 0
        offsets = np.zeros(len(count), dtype=np.int64)
        if len(count) > 1:
            np.cumsum(total_each[:-1], out=offsets[1:])
        if not total:
            return np.zeros(0, np.int64), offsets
        owner = np.repeat(np.arange(len(count)), total_each)
        j = np.arange(total) - offsets[owner]
        base = first[owner]
        rank = self.ix.rank_of(np.minimum(base, self.ix.past))
        ends = self.ix._ends
        pos = np.where(j == 0, base, ends[np.minimum(rank + j - 1, len(ends) - 1)])
        self.check_lengths(pos)
        return pos, offsets

    def backtrace(self, cols: Columns, q: np.ndarray) -> None:
        """Decode backtraces starting at ``q`` into ``cols`` (frames resolved later)."""
        count = self.U(q)
        pos, offsets = self.list_positions(self.E(q), count)
        self.frame_lists.append((pos, self.S(pos), self.group["seq"], count, offsets))
        cols["backtrace_start"] = offsets      # made absolute in resolve_methods
        cols["backtrace_count"] = count
        self.bt_groups.append((self.group, len(self.frame_lists) - 1))

    # ------------------------------------------------------------ per kind
    def build_tables(self, start: np.ndarray, codes: np.ndarray, tend: np.ndarray,
                     after: np.ndarray, kind: np.ndarray) -> None:
        """Fields of the fixed-shape events, one group of columns per event byte.

        ``tend``: the byte after each event's time; ``after``: the number of the value
        starting there (the first field, for events made of LEB128 values only)."""
        if not len(start):
            return
        order = np.argsort(codes.astype(np.uint8), kind="stable")   # radix sort of bytes
        sorted_codes = codes[order]
        bounds = np.flatnonzero(np.diff(sorted_codes)) + 1
        for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(order)]):
            code = int(sorted_codes[lo])
            events = order[lo:hi]
            if kind[events[0]] >= 0:
                continue      # read by the slow reader (strings, or this version's layout)
            handler = FIXED.get(code)
            if code & 0xF == F.TYPE_MONITOR and self.version == 13:
                handler = monitor13
            self.group = {"seq": events}
            self.after = after[events]
            kname, cols = handler(self, code, tend[events])
            self.group.update(cols)
            kind[events] = KIND_CODES[kname]
            self.groups.setdefault(kname, []).append(self.group)

    def resolve_methods(self, slow: "SlowReader") -> None:
        """Method pointers: one running sum over every method field and backtrace frame in
        file order, restarted at each buffer's method base.

        Each event holds one method field or one backtrace, so the sum before an event
        is a running sum of per-event totals; a field adds its own delta to it, a frame
        the running sum within its backtrace.
        """
        starts = self.starts
        total = np.zeros(len(starts), dtype=np.int64)
        for _, delta, group, _ in self.method_fields:
            total[group["seq"]] = delta
        slow_events = np.zeros(0, np.int64)
        slow_delta = np.zeros(0, np.int64)
        if slow.method_pos:
            slow_events = np.searchsorted(starts, np.array(slow.method_pos, np.int64),
                                          side="right") - 1
            slow_delta = np.array(slow.method_delta, dtype=np.int64)
            total[slow_events] = slow_delta
        lists = []
        for _, delta, rows, count, offsets in self.frame_lists:
            running = np.cumsum(delta)
            before = np.where(offsets > 0, running[np.maximum(offsets - 1, 0)]
                              if len(running) else 0, 0)
            last = offsets + count - 1
            sums = np.where(count > 0, running[np.maximum(last, 0)] if len(running) else 0,
                            before) - before
            total[rows] = sums
            lists.append((running, before, rows, count))
        # the sum of all method deltas before each event, from its buffer's method base
        before_event = np.cumsum(total) - total
        first = np.minimum(np.searchsorted(starts, self.buf_start), max(len(starts) - 1, 0))
        bases = np.array([_i64(r.method_base) for r in self.raws], dtype=np.int64)
        if len(starts):
            bases = bases - before_event[first]
        prefix = bases[self.out.buffer] + before_event
        for _, delta, group, name in self.method_fields:
            group[name] = prefix[group["seq"]] + delta
        slow.set_methods(prefix[slow_events] + slow_delta)
        chunks = []
        for running, before, rows, count in lists:
            owner = np.repeat(np.arange(len(rows)), count)
            chunks.append(prefix[rows][owner] + running - before[owner])
        frames = np.concatenate(chunks) if chunks else np.zeros(0, np.int64)
        sizes = [len(c) for c in chunks]
        frame_base = np.zeros(len(sizes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=frame_base[1:])
        for group_cols, index in self.bt_groups:
            group_cols["backtrace_start"] = group_cols["backtrace_start"] + frame_base[index]
        self.out.lists["frames"] = frames
        for key, width in (("moves", 2), ("refs", 2), ("roots", 2 if self.version >= 15 else 3)):
            if key in self.out.lists:
                self.out.lists[key] = self.out.lists[key].reshape(-1, width)
        for kname, groups in self.groups.items():
            if len(groups) == 1:
                self.out.tables[kname] = groups[0]
                continue
            cols = {k: np.concatenate([g[k] for g in groups]) for k in groups[0]}
            order = np.argsort(cols["seq"], kind="stable")
            self.out.tables[kname] = {k: v[order] for k, v in cols.items()}

    def add_method_field(self, cols: Columns, name: str, pos: np.ndarray) -> None:
        """A method-pointer field, resolved with the others in :meth:`resolve_methods`."""
        self.check_lengths(pos)
        cols[name] = np.zeros(len(pos), np.int64)
        self.method_fields.append((pos, self.S(pos), self.group, name))

    def add_list(self, key: str, values: np.ndarray) -> int:
        """Append to a flat list; returns the offset of the first value."""
        current = self.out.lists.get(key)
        if current is None:
            self.out.lists[key] = values
            return 0
        self.out.lists[key] = np.concatenate([current, values])
        return len(current)
