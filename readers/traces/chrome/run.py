"""The state of decoding one Chrome trace source (shared by the serial and parallel paths).

:class:`ChromeRun` drives the decoding of one source: it finds the event array
(:mod:`.envelope`), scans it block by block (:mod:`.scan`), reads each block's
members as columns (:mod:`.members`, with the events graphframe wrote from
typed rows in :mod:`.typed`), turns the phases into ENTER/LEAVE/INSTANT/COUNTER
endpoints and definitions, and hands them to the handler through the
:class:`.order.Orderer`.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions
from ..events import ATTRIBUTES, EventBatch, Kind, StringTable
from ..handler import EventHandler
from ..limits import MAX_EVENT_BYTES, MAX_EVENT_TOKENS
from ..sources import ByteSource
from ..text import utf8_blocks
from . import flat
from .envelope import check_trailer, find_array
from .members import args_json, ident_column, member_spans, number_column
from .order import Orderer, concat_parts
from .scan import scan_events
from .typed import restore_args, typed_columns, typed_events
from .values import intern_strings
from .writer import COLUMNS_KEY

class ChromeRun:
    """The state of decoding one source."""

    def __init__(self, options: Dict[str, Any], source: ByteSource,
                 handler: EventHandler) -> None:
        self.source = source
        self.name = source.name
        self.handler = handler
        self.options = options
        self.keep_args = bool(options["args"])
        self.columns: Optional[List[str]] = None
        self.strings = StringTable()
        self.text_ids: Dict[str, int] = {}
        self.seq = 0
        self.wrapped = False  # the events are the traceEvents member of an object
        self.orderer = Orderer(self._emit, options["order"], options["sort_limit"], self.name)
        self.pool: Optional[ThreadPoolExecutor] = None  # parses flat runs (see _flat_runs)

    # ------------------------------------------------------------------ driving
    def blocks(self) -> Iterator[bytes]:
        """The source's blocks, checked to be UTF-8 as a whole (JSON text)."""
        return utf8_blocks(self.source.blocks(), self.name)

    def run(self) -> None:
        blocks = self.blocks()
        buf, pos = self._find_array(blocks)
        self.handler.on_definitions(Definitions(metadata={"format": "chrome"}))
        self.stream_from(buf, pos, blocks, continuing=False)

    def stream_from(self, buf: bytes, pos: int, blocks: Iterator[bytes],
                    continuing: bool) -> None:
        """Decode events from ``buf`` (file offset ``pos``) and the blocks that follow."""
        try:
            self._stream_from(buf, pos, blocks, continuing)
        finally:
            if self.pool is not None:
                self.pool.shutdown(wait=True)
                self.pool = None

    def _stream_from(self, buf: bytes, pos: int, blocks: Iterator[bytes],
                     continuing: bool) -> None:
        while True:
            if flat.ENABLED:  # runs of flat events, parsed in C (see .flat)
                buf, pos, continuing = self._flat_runs(buf, pos, blocks, continuing)
            scan = scan_events(buf, self.name, pos, continuing)
            if len(scan.starts) and len(buf) > MAX_EVENT_BYTES:
                self._check_events(scan, pos)
            if len(scan.starts):
                self._convert(buf, scan, pos)
                continuing = True
            scan.raise_error(self.name, pos)
            buf, pos = buf[scan.consumed:], pos + scan.consumed
            if scan.closed:
                check_trailer(buf, pos, blocks, self.wrapped, self.name)
                break
            more = self._more(buf, pos, blocks, grow=not len(scan.starts))
            if more is None:
                rest = buf.strip(b" \t\r\n,")
                if rest:
                    raise ReadError(self.name, "the trace ends inside an event (truncated file?)",
                                    position=f"byte {pos + buf.index(rest[:1])}",
                                    expected="a complete event object")
                break
            buf = more
        self.orderer.finish()

    def _flat_runs(self, buf: bytes, pos: int, blocks: Iterator[bytes],
                   continuing: bool) -> Tuple[bytes, int, bool]:
        """Convert the runs of flat events from ``buf`` on (:mod:`.flat`), each parsed on a
        helper thread while the one before is converted; returns (buffer, offset,
        continuing) where the path declines or the input ends: the scanner takes it
        from there (other events, the closing ']', errors at their byte)."""
        pending = None  # (parse future, its buffer, offset, continuing, run end)
        while True:
            prepared = flat.prepare(buf, continuing, MAX_EVENT_BYTES)
            job = None
            if prepared is not None:
                if self.pool is None:
                    self.pool = ThreadPoolExecutor(max_workers=1)
                job = (self.pool.submit(flat.parse, prepared, buf), buf, pos, continuing,
                       prepared.end)
            if pending is not None:
                run = pending[0].result()
                if run is None:  # back to the start of that run, with the bytes read since
                    return pending[1][:pending[4]] + buf, pending[2], pending[3]
                self._convert_flat(run, pending[2])
            if job is None:
                return buf, pos, continuing
            pending = job
            end = job[4]
            buf, pos, continuing = buf[end:], pos + end, True
            more = self._more(buf, pos, blocks, grow=False)
            if more is None:
                run = pending[0].result()
                if run is None:
                    return pending[1], pending[2], pending[3]
                self._convert_flat(run, pending[2])
                return buf, pos, continuing
            buf = more

    def _more(self, buf: bytes, pos: int, blocks: Iterator[bytes],
              grow: bool) -> Optional[bytes]:
        """``buf`` and the next block (None at the end of the input). With ``grow`` (no
        complete event in ``buf``: a long one is coming), blocks until ``buf`` doubles, so
        an event of n bytes is scanned O(log n) times (linear work); an event longer
        than :data:`~..limits.MAX_EVENT_BYTES`, or with more structural characters than
        :data:`~..limits.MAX_EVENT_TOKENS`, is a ReadError."""
        if grow and len(buf) > 1 << 20:
            self._check_size(buf, pos)
        parts, size = [buf], len(buf)
        want = max(min(2 * size, MAX_EVENT_BYTES + 1), size + 1) if grow else size + 1
        while size < want:
            block = next(blocks, None)
            if block is None:
                break
            parts.append(block)
            size += len(block)
        return None if len(parts) == 1 else b"".join(parts)

    def _find_array(self, blocks: Iterator[bytes]) -> Tuple[bytes, int]:
        """Read up to the '[' that opens the events; returns the rest and its offset."""
        buf, pos, self.wrapped = find_array(blocks, self.name)
        return buf, pos

    def _check_events(self, scan: Any, pos: int) -> None:
        """ReadError at the first complete event longer than MAX_EVENT_BYTES (a long event
        may complete in a buffer grown past the limit)."""
        size = scan.ends - scan.starts
        if int(size.max()) > MAX_EVENT_BYTES:
            at = int(scan.starts[np.argmax(size > MAX_EVENT_BYTES)])
            raise ReadError(self.name, f"an event longer than {MAX_EVENT_BYTES >> 20} MiB",
                            position=f"byte {pos + at}",
                            expected=f"events of at most {MAX_EVENT_BYTES >> 20} MiB, "
                                     "strings included")

    def _check_size(self, buf: bytes, pos: int) -> None:
        """ReadError when the event that ``buf`` begins passes a limit (one C pass per
        structural character over the event so far)."""
        rest = buf.lstrip(b" \t\r\n,")
        where = f"byte {pos + len(buf) - len(rest)}"
        if len(rest) > MAX_EVENT_BYTES:
            raise ReadError(self.name, f"an event longer than {MAX_EVENT_BYTES >> 20} MiB",
                            position=where,
                            expected=f"events of at most {MAX_EVENT_BYTES >> 20} MiB, "
                                     "strings included")
        tokens = sum(rest.count(c) for c in (b"{", b"}", b"[", b"]", b",", b":", b'"'))
        if tokens > MAX_EVENT_TOKENS:
            raise ReadError(self.name, f"an event with more than {MAX_EVENT_TOKENS} JSON "
                            "brackets, commas, colons and quotes", position=where,
                            expected=f"events of at most {MAX_EVENT_TOKENS} structural characters")

    # ------------------------------------------------------------------ events
    def _convert(self, buf: bytes, scan: Any, base: int) -> None:
        a = scan.a
        n = len(scan.starts)
        field = member_spans(a, scan, self.name, base)
        ph = np.zeros(n, dtype=np.uint8)
        sel, vs, ve = field["ph"]
        bad = (a[vs] != 34) | (ve - vs != 3)
        if bad.any():
            self._fail(base, int(vs[np.argmax(bad)]), "'ph' is not a one-letter string",
                       'a phase such as "X"')
        ph[sel] = a[vs + 1]
        if (ph == 0).any():
            self._fail(base, int(scan.starts[np.argmax(ph == 0)]), "an event has no 'ph'",
                       "a 'ph' member")
        ts, has_ts = number_column(a, field["ts"], n, 3, self.name, base, "ts")
        dur, has_dur = number_column(a, field["dur"], n, 3, self.name, base, "dur")
        rank = ident_column(a, buf, field["pid"], n, self.name, base, self.text_ids)
        thread = ident_column(a, buf, field["tid"], n, self.name, base, self.text_ids)
        name = np.full(n, -1, dtype=np.int32)
        sel, vs, ve = field["name"]
        if len(sel):
            name[sel] = intern_strings(a, buf, vs, ve, self.strings, self.name, base)
        unnamed = (name < 0) & (ph != ord("E"))  # an 'E' takes the name of what it closes
        if unnamed.any():
            name[unnamed] = self.strings.intern("")
        args = None
        sel, vs, ve = field["args"]
        want = (ph[sel] == ord("M")) | (ph[sel] == ord("C")) | self.keep_args
        if want.any():
            args = np.full(n, None, dtype=object)
            for i, s, e in zip(sel[want].tolist(), vs[want].tolist(), ve[want].tolist()):
                args[i] = buf[s:e].decode("utf-8", "replace")
        typed = typed_events(a, buf, ph, field["args"], self.name, base, scan)
        restore_args(typed, args)
        self._events(ph, ts, has_ts, dur, has_dur, rank, thread, name, args, typed, base,
                     scan)

    def _convert_flat(self, run: Any, base: int) -> None:
        """A run of flat events (:mod:`.flat`): no args, escapes or string ids."""
        name = np.full(len(run.ph), -1, dtype=np.int32)
        if run.names:
            named = run.name >= 0
            name[named] = self.strings.intern_many(run.names)[run.name[named]]
        ph = run.ph
        unnamed = (name < 0) & (ph != ord("E"))
        if unnamed.any():
            name[unnamed] = self.strings.intern("")
        self._events(ph, run.ts, run.has_ts, run.dur, run.has_dur, run.rank, run.thread,
                     name, None, {}, base, run)

    def _events(self, ph, ts, has_ts, dur, has_dur, rank, thread, name, args, typed, base,
                scan) -> None:
        """Definitions and endpoints of a block's events (``scan.starts``: their offsets)."""
        meta = ph == ord("M")
        if meta.any():
            self._definitions(np.flatnonzero(meta), name, rank, thread, args, base, scan)
        timed = ~meta
        missing = timed & ~has_ts
        if missing.any():
            self._fail(base, int(scan.starts[np.argmax(missing)]), "an event has no 'ts'",
                       "a 'ts' member (µs)")
        self._endpoints(ph, ts, dur, has_dur, rank, thread, name, args, timed, base, scan, typed)

    def _endpoints(self, ph, ts, dur, has_dur, rank, thread, name, args, timed, base, scan,
                   typed):
        n = len(ph)
        seq = self.seq + np.arange(n, dtype=np.int64)
        self.seq += n
        is_x = (ph == ord("X")) & timed
        if (is_x & ~has_dur).any():
            dur = np.where(is_x & ~has_dur, 0, dur)
        if (is_x & (dur < 0)).any():
            self._fail(base, int(scan.starts[np.argmax(is_x & (dur < 0))]),
                       "an 'X' event has a negative 'dur'", "a duration >= 0")
        counters = (ph == ord("C")) & timed
        kind = np.full(n, Kind.INSTANT, dtype=np.uint8)
        kind[ph == ord("B")] = Kind.ENTER
        kind[ph == ord("E")] = Kind.LEAVE
        kind[is_x] = Kind.ENTER
        typed_col = None
        if typed:
            rows = np.fromiter(typed, dtype=np.int64, count=len(typed))
            point = ph[rows] == ord("i")  # B/E keep their kind, the args give attributes
            kind[rows[point]] = [k for (k, _), p in zip(typed.values(), point) if p]
            typed_col = np.full(n, None, dtype=object)
            for i, (_, members) in typed.items():
                typed_col[i] = members
        k1 = np.ones(n, dtype=np.int8)  # B, E and points keep their file order at equal times
        long_x = is_x & (dur > 0)
        k1[long_x] = 2
        k2 = np.where(long_x, -(ts + dur), 0)
        k3 = np.where(k1 == 1, 2 * seq, seq)
        keep = timed & ~counters
        parts = [dict(kind=kind[keep], time=ts[keep], rank=rank[keep], thread=thread[keep],
                      name=name[keep], k1=k1[keep], k2=k2[keep], k3=k3[keep], start=ts[keep],
                      primary=np.ones(int(keep.sum()), dtype=bool))]
        if args is not None:
            parts[0]["args"] = args[keep]
        if typed_col is not None:
            parts[0]["typed"] = typed_col[keep]
        if is_x.any():
            m = is_x
            cnt = int(m.sum())
            lx = long_x[m]
            parts.append(dict(
                kind=np.full(cnt, Kind.LEAVE, dtype=np.uint8), time=(ts + dur)[m],
                rank=rank[m], thread=thread[m], name=name[m],
                k1=np.where(lx, 0, 1).astype(np.int8), k2=np.where(lx, -ts[m], 0),
                k3=np.where(lx, -seq[m], 2 * seq[m] + 1), start=ts[m],
                primary=np.zeros(cnt, dtype=bool)))
        if counters.any():
            values = self._counters(np.flatnonzero(counters), ts, rank, thread, name, args,
                                    k3, base, scan)
            if len(values["time"]):  # 'C' events without args give no rows (and no column)
                parts.append(values)
        chunk = concat_parts(parts)
        self.orderer.add(chunk, f"byte {base + int(scan.starts[0])}")

    def _counters(self, rows, ts, rank, thread, name, args, k3, base, scan):
        out: Dict[str, List[Any]] = {k: [] for k in ("row", "value", "args")}
        for i in rows.tolist():
            members = args_json(args[i], self.name, base, scan, i) if args is not None and args[i] is not None \
                else {}
            if not isinstance(members, dict):
                self._fail(base, int(scan.starts[i]), "a 'C' event's args is not an object",
                           "an object of counter values")
            for key, value in members.items():
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    self._fail(base, int(scan.starts[i]), f"counter {key!r} is not a number",
                               "numeric counter values")
                out["row"].append(i)
                out["value"].append(float(value))
                out["args"].append(json.dumps({key: value}))
        r = np.asarray(out["row"], dtype=np.int64)
        cnt = len(r)
        argcol = np.empty(cnt, dtype=object)
        argcol[:] = out["args"]
        return dict(kind=np.full(cnt, Kind.COUNTER, dtype=np.uint8), time=ts[r], rank=rank[r],
                    thread=thread[r], name=name[r], k1=np.ones(cnt, dtype=np.int8),
                    k2=np.zeros(cnt, dtype=np.int64), k3=k3[r], start=ts[r],
                    primary=np.ones(cnt, dtype=bool), args=argcol,
                    value=np.asarray(out["value"], dtype=np.float64))

    def _definitions(self, rows, name, rank, thread, args, base, scan) -> None:
        defs = Definitions()
        for i in rows.tolist():
            label = self.strings[name[i]] if name[i] >= 0 else None
            members = args_json(args[i], self.name, base, scan, i) if args is not None and args[i] is not None \
                else {}
            r, t = int(rank[i]), int(thread[i])
            if label == COLUMNS_KEY:
                self.columns = [c for c in members.get("columns", []) if c in ATTRIBUTES]
            elif label == "process_name":
                defs.ranks.setdefault(r, {})["name"] = members.get("name")
            elif label == "thread_name":
                defs.threads.setdefault((r, t), {})["name"] = members.get("name")
            elif label is not None and label.startswith("thread_"):
                defs.threads.setdefault((r, t), {})[label] = members
            elif label is not None:
                defs.ranks.setdefault(r, {})[label] = members
        self.handler.on_definitions(defs)

    def _emit(self, c: Dict[str, np.ndarray]) -> None:
        attrs: Dict[str, Any] = {}
        if "args" in c and np.not_equal(c["args"], None).any():
            attrs["args"] = c["args"]
        if "value" in c:
            attrs["value"] = c["value"]
        if "typed" in c:
            attrs.update(typed_columns(c["typed"], self.strings))
        if self.columns is not None:  # a file we wrote: the columns of its table
            n = len(c["time"])
            attrs = {k: attrs[k] if k in attrs else _absent(k, n) for k in self.columns}
        self.handler.on_batch(EventBatch.build(
            self.strings, kind=c["kind"], time=c["time"], rank=c["rank"],
            thread=c["thread"], name=c["name"], source=self.name, **attrs))

    def _fail(self, base: int, pos: int, problem: str, expected: str) -> None:
        raise ReadError(self.name, problem, position=f"byte {base + pos}", expected=expected)


def _absent(col: str, n: int) -> np.ndarray:
    """A column of ``n`` "absent" values."""
    dtype, fill = ATTRIBUTES[col]
    return np.full(n, fill, dtype=dtype)

