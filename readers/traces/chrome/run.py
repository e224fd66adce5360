"""The state of decoding one Chrome trace source (shared by the serial and parallel paths)."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions
from ..events import ATTRIBUTES, KIND_NAMES, EventBatch, Kind, StringTable
from ..handler import EventHandler
from ..sources import ByteSource
from .order import Orderer, concat_parts
from .scan import scan_events
from .writer import ARGS_KEY, COLUMNS_KEY, KIND_KEY
from .values import intern_strings, key_code, key_codes, parse_fixed, small_ints

#: how the args of an event written from a SEND/IO/RMA... row begin (see .writer)
_TYPED = np.frombuffer(b'{"' + KIND_KEY.encode() + b'": "', dtype=np.uint8)
_KIND_OF = {name: Kind(code) for code, name in enumerate(KIND_NAMES)}
#: the members read (all keys <= 4 bytes); any other member is skipped
_KEYS = {k: np.uint64(key_code(k)) for k in ("ph", "ts", "dur", "pid", "tid", "name", "args")}


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

    # ------------------------------------------------------------------ driving
    def run(self) -> None:
        blocks = self.source.blocks()
        buf, pos = self._find_array(blocks)
        self.handler.on_definitions(Definitions(metadata={"format": "chrome"}))
        self.stream_from(buf, pos, blocks, continuing=False)

    def stream_from(self, buf: bytes, pos: int, blocks: Iterator[bytes],
                    continuing: bool) -> None:
        """Decode events from ``buf`` (file offset ``pos``) and the blocks that follow."""
        while True:
            scan = scan_events(buf, self.name, pos, continuing)
            if len(scan.starts):
                self._convert(buf, scan, pos)
                continuing = True
            scan.raise_error(self.name, pos)
            buf, pos = buf[scan.consumed:], pos + scan.consumed
            if scan.closed:
                self._check_trailer(buf, pos, blocks)
                break
            block = next(blocks, None)
            if block is None:
                rest = buf.strip(b" \t\r\n,")
                if rest:
                    raise ReadError(self.name, "the trace ends inside an event (truncated file?)",
                                    position=f"byte {pos + buf.index(rest[:1])}",
                                    expected="a complete event object")
                break
            buf += block
        self.orderer.finish()

    def _check_trailer(self, buf: bytes, pos: int, blocks: Iterator[bytes]) -> None:
        """After the array's ']': only whitespace, or the wrapping object's other members."""
        rest = buf + b"".join(blocks)
        if not self.wrapped:
            text = rest.lstrip(b" \t\r\n")
            if text:
                raise ReadError(self.name, f"unexpected {text[:1].decode('ascii', 'replace')!r} "
                                "after the event array", position=f"byte {pos + len(rest) - len(text)}",
                                expected="the end of the file")
            return
        text = rest.decode("utf-8", "replace")
        try:
            json.loads('{"":0' + text)
        except ValueError as exc:
            at = max(getattr(exc, "pos", 5) - 5, 0)
            raise ReadError(self.name, f"bad JSON after the event array: {getattr(exc, 'msg', exc)}",
                            position=f"byte {pos + len(text[:at].encode())}",
                            expected="the trace object's other members and its '}'") from exc

    def _find_array(self, blocks: Iterator[bytes]) -> Tuple[bytes, int]:
        """Read up to the '[' that opens the events; returns the rest and its offset."""
        buf = b""
        decoder = json.JSONDecoder()
        while True:
            text = buf.lstrip(b"\xef\xbb\xbf \t\r\n")
            skipped = len(buf) - len(text)
            if text[:1] == b"[":
                self.wrapped = False
                return text[1:], skipped + 1
            if text[:1] == b"{":
                found = _members_until_events(decoder, buf, skipped + 1, self.name)
                if found is not None:
                    self.wrapped = True
                    return buf[found:], found
            elif text:
                raise ReadError(self.name, "not a Chrome trace", position=f"byte {skipped}",
                                expected="'[' or '{' opening the trace")
            block = next(blocks, None)
            if block is None:
                raise ReadError(self.name, "no trace events found (empty or truncated file)",
                                position=f"byte {len(buf)}",
                                expected="a JSON array of events or a traceEvents member")
            buf += block

    # ------------------------------------------------------------------ events
    def _convert(self, buf: bytes, scan: Any, base: int) -> None:
        a = scan.a
        n = len(scan.starts)
        field = _fields(a, scan, self.name, base)
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
        ts, has_ts = self._number(a, field["ts"], n, 3, base, "ts")
        dur, has_dur = self._number(a, field["dur"], n, 3, base, "dur")
        rank = self._ident(a, buf, field["pid"], n, base)
        thread = self._ident(a, buf, field["tid"], n, base)
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
        typed = self._typed(a, buf, ph, field["args"], base, scan)
        if typed and args is not None:
            for i, (_, members) in typed.items():
                args[i] = members.pop(ARGS_KEY, None)
        else:
            for _, members in typed.values():
                members.pop(ARGS_KEY, None)
        meta = ph == ord("M")
        if meta.any():
            self._definitions(np.flatnonzero(meta), name, rank, thread, args, base, scan)
        timed = ~meta
        missing = timed & ~has_ts
        if missing.any():
            self._fail(base, int(scan.starts[np.argmax(missing)]), "an event has no 'ts'",
                       "a 'ts' member (µs)")
        self._endpoints(ph, ts, dur, has_dur, rank, thread, name, args, timed, base, scan, typed)

    def _typed(self, a, buf, ph, field, base, scan) -> Dict[int, Dict[str, Any]]:
        """Events written by ``to_chrome`` from SEND/RECV/IO/RMA... rows: ``i`` events
        whose ``args`` start with ``{"gf.kind": "``: event index -> parsed args."""
        sel, vs, ve = field
        width = len(_TYPED)
        p = ph[sel]
        cand = ((p == ord("i")) | (p == ord("B")) | (p == ord("E"))) & (ve - vs > width)
        if not cand.any():
            return {}
        idx = np.flatnonzero(cand)
        head = a[vs[idx][:, None] + np.arange(width)]
        idx = idx[(head == _TYPED).all(axis=1)]
        out = {}
        for i, s, e in zip(sel[idx].tolist(), vs[idx].tolist(), ve[idx].tolist()):
            members = self._json(buf[s:e].decode("utf-8", "replace"), base, scan, i)
            label = members.pop(KIND_KEY)
            kind = _KIND_OF.get(label) if isinstance(label, str) else None
            expect = {ord("B"): Kind.ENTER, ord("E"): Kind.LEAVE}.get(int(ph[i]))
            if kind is None or (kind == expect if expect is not None
                                else kind in (Kind.ENTER, Kind.LEAVE)) is (expect is None):
                self._fail(base, int(scan.starts[i]), f"'gf.kind' {label!r} does not fit a "
                           f"{chr(ph[i])!r} event", "enter on B, leave on E, another kind "
                           "name on i")
            bad = [k for k, v in members.items() if not _typed_value_ok(k, v)]
            if bad:
                self._fail(base, int(scan.starts[i]), f"'gf.kind' event member {bad[0]!r} is "
                           "not an attribute column or has a value of the wrong type",
                           "attribute columns of graphframe_readers.traces.ATTRIBUTES: integers, "
                           "'file' and 'gf.args' strings, or null")
            out[i] = (kind, members)
        return out

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
            parts.append(self._counters(np.flatnonzero(counters), ts, rank, thread, name,
                                        args, k3, base, scan))
        chunk = concat_parts(parts)
        self.orderer.add(chunk, f"byte {base + int(scan.starts[0])}")

    def _counters(self, rows, ts, rank, thread, name, args, k3, base, scan):
        out: Dict[str, List[Any]] = {k: [] for k in ("row", "value", "args")}
        for i in rows.tolist():
            members = self._json(args[i], base, scan, i) if args is not None and args[i] is not None \
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
            members = self._json(args[i], base, scan, i) if args is not None and args[i] is not None \
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
            attrs.update(self._typed_columns(c["typed"]))
        if self.columns is not None:  # a file we wrote: the columns of its table
            n = len(c["time"])
            attrs = {k: attrs[k] if k in attrs else _absent(k, n) for k in self.columns}
        self.handler.on_batch(EventBatch.build(
            self.strings, kind=c["kind"], time=c["time"], rank=c["rank"],
            thread=c["thread"], name=c["name"], source=self.name, **attrs))

    def _typed_columns(self, typed: np.ndarray) -> Dict[str, np.ndarray]:
        """Attribute columns from the parsed ``gf.kind`` args (None elsewhere)."""
        cols: Dict[str, np.ndarray] = {}
        for i in np.flatnonzero(np.not_equal(typed, None)).tolist():
            for key, value in typed[i].items():
                col = cols.get(key)
                if col is None:
                    dtype, fill = ATTRIBUTES[key]
                    col = cols[key] = np.full(len(typed), fill, dtype=dtype)
                if value is None:
                    continue
                col[i] = self.strings.intern(value) if key == "file" else value
        return cols

    # ------------------------------------------------------------------ values
    def _number(self, a, field, n, scale, base, what):
        sel, vs, ve = field
        out = np.zeros(n, dtype=np.int64)
        has = np.zeros(n, dtype=bool)
        if len(sel):
            out[sel] = parse_fixed(a, vs, ve, scale, self.name, base, what)
            has[sel] = True
        return out, has

    def _ident(self, a, buf, field, n, base):
        sel, vs, ve = field
        out = np.zeros(n, dtype=np.int64)
        if not len(sel):
            return out
        small = small_ints(a, vs, ve)
        if small is not None:
            out[sel] = small
            return out
        text = a[vs] == 34
        if (~text).any():
            out[sel[~text]] = parse_fixed(a, vs[~text], ve[~text], 0, self.name, base, "pid/tid")
        for i, s, e in zip(sel[text].tolist(), vs[text].tolist(), ve[text].tolist()):
            try:
                label = json.loads(buf[s:e])
            except ValueError as exc:
                raise ReadError(self.name, f"bad 'pid'/'tid' string: {exc}",
                                position=f"byte {base + s}", expected="a JSON string") from exc
            out[i] = self.text_ids.setdefault(label, len(self.text_ids))
        return out

    def _json(self, text: str, base: int, scan: Any, i: int) -> Any:
        try:
            return json.loads(text)
        except ValueError as exc:
            raise ReadError(self.name, f"bad 'args' value: {exc}",
                            position=f"byte {base + int(scan.starts[i])}",
                            expected="a JSON object") from exc

    def _fail(self, base: int, pos: int, problem: str, expected: str) -> None:
        raise ReadError(self.name, problem, position=f"byte {base + pos}", expected=expected)


def _typed_value_ok(key: str, value: Any) -> bool:
    """Whether ``key: value`` of a ``gf.kind`` event fits its attribute column."""
    if value is None:
        return key in ATTRIBUTES or key == ARGS_KEY
    if key in ("file", ARGS_KEY):
        return isinstance(value, str)
    if key not in ATTRIBUTES or isinstance(value, bool) or key == "args":
        return False
    if key == "value":
        return isinstance(value, (int, float))
    return isinstance(value, int) and -(1 << 63) <= value < (1 << 63)


def _absent(col: str, n: int) -> np.ndarray:
    """A column of ``n`` "absent" values."""
    dtype, fill = ATTRIBUTES[col]
    return np.full(n, fill, dtype=dtype)


def _fields(a: np.ndarray, scan: Any, source: str,
            base: int) -> Dict[str, Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each known key: (event index, value start, value end); the last duplicate wins."""
    code = key_codes(a, scan.key_start, scan.key_end)
    if scan.escaped:  # keys written with escapes ("n\u0061me") compare by their text
        for i in _escaped_keys(a, scan.key_start, scan.key_end).tolist():
            raw = bytes(a[scan.key_start[i] - 1:scan.key_end[i] + 1])
            try:
                text = json.loads(raw)
            except ValueError as exc:
                raise ReadError(source, f"bad key escape: {getattr(exc, 'msg', exc)}",
                                position=f"byte {base + int(scan.key_start[i]) - 1}",
                                expected="a JSON string key") from exc
            if text in _KEYS:
                code[i] = _KEYS[text]
    out = {}
    for key, value in _KEYS.items():
        hit = np.flatnonzero(code == value)
        ev = scan.member_event[hit]
        if len(ev) > 1 and (ev[1:] == ev[:-1]).any():  # duplicates: keep the last
            keep = np.ones(len(ev), dtype=bool)
            keep[:-1] = ev[1:] != ev[:-1]
            hit, ev = hit[keep], ev[keep]
        out[key] = (ev, scan.value_start[hit], scan.value_end[hit])
    return out


def _escaped_keys(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Indexes of the keys that contain a backslash (keys are in file order)."""
    slash = np.flatnonzero(a == 92)
    k = np.searchsorted(start, slash, side="right") - 1
    ok = k >= 0
    k, slash = k[ok], slash[ok]
    return np.unique(k[slash < end[k]])


def _members_until_events(decoder: json.JSONDecoder, buf: bytes, pos: int,
                          name: str) -> Optional[int]:
    """Skip object members until ``"traceEvents": [``; the offset after '[' or None (need more)."""
    text = buf.decode("utf-8", "replace")  # offsets equal for the ASCII prefix we act on
    ws = " \t\r\n"
    while True:
        while pos < len(text) and text[pos] in ws:
            pos += 1
        if pos >= len(text):
            return None
        if text[pos] == "}":
            raise ReadError(name, "the object has no traceEvents member",
                            position=f"byte {pos}", expected='a "traceEvents" array')
        try:
            key, end = decoder.raw_decode(text, pos)
            colon = text.index(":", end)
            vpos = colon + 1
            while vpos < len(text) and text[vpos] in ws:
                vpos += 1
            if vpos >= len(text):
                return None
            if key == "traceEvents":
                if text[vpos] != "[":
                    raise ReadError(name, "traceEvents is not an array",
                                    position=f"byte {vpos}", expected="'['")
                return len(text[:vpos + 1].encode("utf-8"))
            _, pos = decoder.raw_decode(text, vpos)
        except (ValueError, IndexError):
            return None
        while pos < len(text) and text[pos] in ws + ",":
            pos += 1
