"""Columnar event batches: what every trace decoder hands to an event handler.

A decoder turns bytes into :class:`EventBatch` objects: one numpy array per
column, all of the same length, one row per event. The five core columns are
always present; the attribute columns (:data:`ATTRIBUTES`) only when the
decoder has values for them (a missing column reads as its fill value).

Core columns
------------
``kind``   uint8, a :class:`Kind` code.
``time``   int64, nanoseconds, on the clock of the file (Chrome: its ``ts`` in
           µs x 1000; DUMPI: wall-clock ns since the epoch). Not rebased.
``rank``   int64, the process (MPI rank, Chrome ``pid``...).
``thread`` int64, the thread within the rank (Chrome ``tid``, DUMPI thread).
``name``   int32, an id into ``batch.strings`` (a :class:`StringTable`);
           ``-1`` = no name (a Chrome ``E`` event without one).

Attribute columns (:data:`ATTRIBUTES`: dtype and fill value for "absent")
-----------------------------------------------------------------------
``end``        int64 ns, completion time of an operation that lasts
               (IO, RMA, SEND, RECV, COLLECTIVE, RMA_SYNC): ``end - time`` is
               its duration. ``-1``: instantaneous / unknown.
``peer``       int64: SEND = destination rank, RECV = source rank,
               COLLECTIVE = root rank, RMA = target rank. World ranks when
               the decoder can translate communicator ranks, else as
               recorded. ``-1``: none.
``tag``        int64 message tag (``-1`` none).
``bytes``      int64 bytes moved: SEND/RECV message size, COLLECTIVE bytes
               sent, IO bytes read/written, RMA bytes put/got (``-1`` unknown).
``recv_bytes`` int64 COLLECTIVE bytes received (``-1`` unknown).
``comm``       int64 communicator id (``Definitions.communicators``).
``request``    int64 request handle of a nonblocking operation.
``fd``         int64 file descriptor / file handle of an IO event (an
               ``open`` IO event carries the descriptor it returned).
``file``       int32 id into ``batch.strings`` of the file path of an IO
               event (``-1``: unknown; analyses recover it from the ``open``
               event that created ``fd``).
``offset``     int64 file offset of an IO event (``-1`` unknown).
``window``     int64 MPI window id of an RMA / RMA_SYNC event.
``assertion``  int64 the assertion of an RMA_SYNC event (``MPI_Win_fence``,
               ``_lock``, ``_post``, ``_start``) as recorded (``-1`` none).
``value``      float64 COUNTER value (NaN absent).
``args``       object: per-event text (JSON of Chrome ``args``, DUMPI's
               argument list as ``name=value`` lines) or ``None``. Slow;
               decoders fill it only when asked (``args=True``).

Order contract
--------------
Within one ``(rank, thread)`` stream, events arrive in the order they
happened: time non-decreasing and, at equal times, in nesting order (an
ENTER before the ENTERs nested in it, a LEAVE after the LEAVEs nested in
it). Streams may interleave arbitrarily, inside a batch and across
batches. One stream comes from one source (one rank file), so sources can
be decoded in parallel.

Examples
--------
>>> strings = StringTable()
>>> b = EventBatch.build(strings, kind=[Kind.ENTER, Kind.LEAVE], time=[10, 25],
...                      rank=0, thread=0, name=strings.intern_many(["main", "main"]))
>>> len(b), b.names().tolist(), b.column("bytes").tolist()
(2, ['main', 'main'], [-1, -1])
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence

import numpy as np


class Kind(IntEnum):
    """Event kinds (the ``kind`` column); the handler method each goes to.

    ============  ==================================================  ============
    kind          meaning                                             handler
    ============  ==================================================  ============
    ENTER         a region (function, MPI call, range) begins          on_enter
    LEAVE         the innermost open region of the stream ends         on_leave
    INSTANT       a point event (Chrome ``i``/``I``, a marker)         on_instant
    SEND          a point-to-point message sent                        on_message
    RECV          a point-to-point message received                    on_message
    COLLECTIVE    a collective operation's data (root, bytes)          on_message
    IO            an I/O operation (open/read/write/seek/close...)     on_io
    RMA           a one-sided data operation (put/get/accumulate)      on_rma
    RMA_SYNC      a one-sided synchronisation (fence, lock...)         on_rma
    COUNTER       a sampled value (Chrome ``C``, perf counters)        on_counter
    ============  ==================================================  ============

    A decoder reports an MPI call that moves data as an ENTER/LEAVE pair
    (for the call tree) *and* a SEND/RECV/COLLECTIVE/IO/RMA event (for the
    data), with ``time``/``end`` = the call's start/end and ``name`` = the
    call's name. ``RMA_SYNC`` events named ``*fence*`` delimit epochs.
    """

    ENTER = 0
    LEAVE = 1
    INSTANT = 2
    SEND = 3
    RECV = 4
    COLLECTIVE = 5
    IO = 6
    RMA = 7
    RMA_SYNC = 8
    COUNTER = 9


#: Lower-case kind names, indexed by code (the events table's ``kind`` values).
KIND_NAMES = tuple(k.name.lower() for k in Kind)

#: Core columns and their dtypes.
CORE = {"kind": np.uint8, "time": np.int64, "rank": np.int64,
        "thread": np.int64, "name": np.int32}

#: Attribute columns: name -> (dtype, fill value meaning "absent").
ATTRIBUTES: Dict[str, tuple] = {
    "end": (np.int64, -1),
    "peer": (np.int64, -1),
    "tag": (np.int64, -1),
    "bytes": (np.int64, -1),
    "recv_bytes": (np.int64, -1),
    "comm": (np.int64, -1),
    "request": (np.int64, -1),
    "fd": (np.int64, -1),
    "file": (np.int32, -1),
    "offset": (np.int64, -1),
    "window": (np.int64, -1),
    "assertion": (np.int64, -1),
    "value": (np.float64, np.nan),
    "args": (object, None),
}

#: Attribute columns that hold ids into the string table.
STRING_COLUMNS = ("name", "file")


class StringTable:
    """An append-only table of strings; events refer to them by id.

    A decoder owns one table per source and passes it with every batch
    (``batch.strings``); ids never change and the table only grows, so a
    handler can map a table's ids to its own once and extend the mapping
    as the table grows (``len(table)`` tells how far it has looked).

    Examples
    --------
    >>> t = StringTable()
    >>> t.intern("MPI_Send"), t.intern("MPI_Recv"), t.intern("MPI_Send")
    (0, 1, 0)
    >>> t.intern_many(["a", "MPI_Recv", "a"]).tolist()
    [2, 1, 2]
    >>> len(t), t[2], t.strings[:2]
    (3, 'a', ['MPI_Send', 'MPI_Recv'])
    """

    def __init__(self, strings: Iterable[str] = ()) -> None:
        self.strings: List[str] = []
        self._ids: Dict[str, int] = {}
        for s in strings:
            self.intern(s)

    def intern(self, text: str) -> int:
        """Id of ``text``, added when new."""
        sid = self._ids.get(text)
        if sid is None:
            sid = self._ids[text] = len(self.strings)
            self.strings.append(text)
        return sid

    def intern_many(self, texts: Iterable[str]) -> np.ndarray:
        """Ids (int32 array) of many strings, adding the new ones in order."""
        texts = texts if isinstance(texts, list) else list(texts)
        ids = self._ids
        for text in dict.fromkeys(texts):  # the new ones, in order of first appearance
            if text not in ids:
                ids[text] = len(self.strings)
                self.strings.append(text)
        return np.fromiter(map(ids.__getitem__, texts), dtype=np.int32, count=len(texts))

    def lookup(self, text: str) -> int:
        """Id of ``text`` or ``-1`` when absent (never adds)."""
        return self._ids.get(text, -1)

    def __getitem__(self, sid: int) -> str:
        return self.strings[sid]

    def __len__(self) -> int:
        return len(self.strings)

    def as_array(self) -> np.ndarray:
        """The strings as an object array (index = id)."""
        arr = np.empty(len(self.strings), dtype=object)
        arr[:] = self.strings
        return arr


class EventBatch:
    """A block of events as columns (see the module docs for each column).

    Build one with :meth:`build`, which checks lengths and dtypes and
    broadcasts scalars (a rank file's ``rank``). Attribute columns that a
    batch does not carry read as their fill value through :meth:`column`.

    Attributes
    ----------
    kind, time, rank, thread, name : numpy.ndarray
        Core columns.
    attrs : dict of str -> numpy.ndarray
        The attribute columns this batch carries.
    strings : StringTable
        Resolves ``name`` and ``file`` ids.
    source : str
        The file (or description) the events came from, for messages.
    """

    __slots__ = ("kind", "time", "rank", "thread", "name", "attrs", "strings", "source")

    def __init__(self, kind: np.ndarray, time: np.ndarray, rank: np.ndarray,
                 thread: np.ndarray, name: np.ndarray, strings: StringTable,
                 attrs: Optional[Dict[str, np.ndarray]] = None, source: str = "") -> None:
        self.kind = kind
        self.time = time
        self.rank = rank
        self.thread = thread
        self.name = name
        self.strings = strings
        self.attrs = attrs if attrs is not None else {}
        self.source = source

    @classmethod
    def build(cls, strings: StringTable, *, kind: Any, time: Any, rank: Any,
              thread: Any = 0, name: Any = -1, source: str = "",
              **attrs: Any) -> "EventBatch":
        """A checked batch; scalars are broadcast, arrays converted to the column dtype.

        Unknown attribute names and length mismatches raise ``ValueError``
        (a decoder bug, not bad input).

        Examples
        --------
        >>> t = StringTable(["MPI_Send"])
        >>> b = EventBatch.build(t, kind=Kind.SEND, time=[5], rank=1, name=0,
        ...                      peer=[2], bytes=[64])
        >>> b.kind.dtype, b.rank.tolist(), b.attrs["peer"].tolist()
        (dtype('uint8'), [1], [2])
        """
        time_arr = np.asarray(time, dtype=np.int64).reshape(-1)
        n = len(time_arr)
        cols = {}
        for col, value in (("kind", kind), ("rank", rank), ("thread", thread), ("name", name)):
            cols[col] = _column(col, value, CORE[col], n)
        extra = {}
        for col, value in attrs.items():
            if col not in ATTRIBUTES:
                raise ValueError(f"unknown event attribute {col!r}; known: "
                                 + ", ".join(ATTRIBUTES))
            if value is None:
                continue
            extra[col] = _column(col, value, ATTRIBUTES[col][0], n)
        return cls(cols["kind"], time_arr, cols["rank"], cols["thread"], cols["name"],
                   strings, extra, source)

    def __len__(self) -> int:
        return len(self.time)

    def column(self, name: str) -> np.ndarray:
        """A core or attribute column; an absent attribute as an array of its fill value."""
        if name in CORE:
            return getattr(self, name)
        if name in self.attrs:
            return self.attrs[name]
        dtype, fill = ATTRIBUTES[name]
        out = np.empty(len(self), dtype=dtype)
        out[...] = fill
        return out

    def names(self) -> np.ndarray:
        """``name`` resolved to strings (object array; ``None`` for ``-1``)."""
        return _resolve(self.strings, self.name)

    def take(self, index: np.ndarray) -> "EventBatch":
        """The rows selected by a boolean mask or an index array, as a new batch."""
        return EventBatch(self.kind[index], self.time[index], self.rank[index],
                          self.thread[index], self.name[index], self.strings,
                          {k: v[index] for k, v in self.attrs.items()}, self.source)

    def rows(self) -> Iterator[tuple]:
        """``(kind, rank, thread, time, name, attrs)`` per event, as Python values.

        ``attrs`` holds only the attribute columns with a value (not their
        fill), ``file`` resolved to its string. The slow path behind
        :meth:`EventHandler.on_batch`.
        """
        names = self.names().tolist()
        kinds = self.kind.tolist()
        ranks = self.rank.tolist()
        threads = self.thread.tolist()
        times = self.time.tolist()
        cols = []
        for col, arr in self.attrs.items():
            fill = ATTRIBUTES[col][1]
            values = _resolve(self.strings, arr).tolist() if col == "file" else arr.tolist()
            cols.append((col, values, fill))
        for i in range(len(times)):
            attrs = {}
            for col, values, fill in cols:
                v = values[i]
                if v is None or (v == fill if fill == fill else v != v):
                    continue
                attrs[col] = v
            yield kinds[i], ranks[i], threads[i], times[i], names[i], attrs


def concat_batches(batches: Sequence[EventBatch]) -> EventBatch:
    """One batch from several that share a string table (attribute columns unioned).

    Examples
    --------
    >>> t = StringTable(["f"])
    >>> a = EventBatch.build(t, kind=0, time=[1], rank=0, name=0)
    >>> b = EventBatch.build(t, kind=1, time=[2], rank=0, name=0, bytes=[8])
    >>> c = concat_batches([a, b]); c.time.tolist(), c.attrs["bytes"].tolist()
    ([1, 2], [-1, 8])
    """
    if not batches:
        raise ValueError("no batches to concatenate")
    strings = batches[0].strings
    if any(b.strings is not strings for b in batches):
        raise ValueError("batches with different string tables cannot be concatenated")
    cols = sorted({c for b in batches for c in b.attrs})
    attrs = {c: np.concatenate([b.column(c) for b in batches]) for c in cols}
    return EventBatch(*(np.concatenate([getattr(b, c) for b in batches]) for c in
                        ("kind", "time", "rank", "thread", "name")),
                      strings=strings, attrs=attrs, source=batches[0].source)


def _column(col: str, value: Any, dtype: Any, n: int) -> np.ndarray:
    if dtype is object:
        arr = np.empty(n, dtype=object)
        arr[:] = value if np.ndim(value) else [value] * n
        return arr
    arr = np.asarray(value, dtype=dtype)
    if arr.ndim == 0:
        return np.full(n, arr, dtype=dtype)
    arr = arr.reshape(-1)
    if len(arr) != n:
        raise ValueError(f"event column {col!r} has {len(arr)} values for {n} events")
    return arr


def _resolve(strings: StringTable, ids: np.ndarray) -> np.ndarray:
    table = np.empty(len(strings) + 1, dtype=object)
    table[:-1] = strings.strings
    table[-1] = None
    ids = np.asarray(ids)
    return table[np.where(ids < 0, len(strings), ids)]


def kind_names(codes: np.ndarray) -> np.ndarray:
    """Kind codes -> lower-case names (object array)."""
    return np.asarray(KIND_NAMES, dtype=object)[np.asarray(codes, dtype=np.intp)]


def attribute_names(batch: EventBatch) -> List[str]:
    """Attribute columns a batch carries, in :data:`ATTRIBUTES` order."""
    return [c for c in ATTRIBUTES if c in batch.attrs]


def empty_attrs(n: int, columns: Iterable[str]) -> Mapping[str, np.ndarray]:
    """Fill-valued attribute columns of length ``n``."""
    out = {}
    for col in columns:
        dtype, fill = ATTRIBUTES[col]
        arr = np.empty(n, dtype=dtype)
        arr[...] = fill
        out[col] = arr
    return out


def stream_pairs(rank: np.ndarray, thread: np.ndarray):
    """Distinct (rank, thread) pairs (list of tuples) and each row's index into them.

    A lookup table when there are few small ids (the usual case: one pass, no
    sort), else one int64 key per row when both fit in 31 bits, else a
    row-wise unique.

    Examples
    --------
    >>> pairs, inv = stream_pairs(np.array([1, 0, 1]), np.array([5, 2, 5]))
    >>> pairs, inv.tolist()
    ([(0, 2), (1, 5)], [1, 0, 1])
    """
    rank = np.asarray(rank, dtype=np.int64)
    thread = np.asarray(thread, dtype=np.int64)
    rmax, tmax = (int(rank.max()), int(thread.max())) if len(rank) else (-1, -1)
    if len(rank) and rank.min() >= 0 and thread.min() >= 0 and rmax < 1 << 31 \
            and tmax < 1 << 31:
        if (rmax + 1) * (tmax + 1) <= 1 << 16:  # few small ids: a table instead of a sort
            key = rank * (tmax + 1) + thread
            present = np.bincount(key, minlength=(rmax + 1) * (tmax + 1)) > 0
            uniq = np.flatnonzero(present)
            lookup = np.cumsum(present) - 1
            return ([(int(k) // (tmax + 1), int(k) % (tmax + 1)) for k in uniq.tolist()],
                    lookup[key])
        key = (rank << 32) | thread
        if len(key) and (key == key[0]).all():
            return [(int(rank[0]), int(thread[0]))], np.zeros(len(key), dtype=np.int64)
        uniq, inverse = np.unique(key, return_inverse=True)
        return [(int(k >> 32), int(k & 0xFFFFFFFF)) for k in uniq.tolist()], inverse
    pairs = np.stack([rank, thread], axis=1)
    uniq, inverse = np.unique(pairs, axis=0, return_inverse=True)
    return [(int(r), int(t)) for r, t in uniq.tolist()], inverse.reshape(-1)
