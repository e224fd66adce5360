"""One block of complete lines -> GC event columns (numpy), with numpy and pyarrow.

The route of a line is decided with numpy over the whole block: the
decorators (:mod:`.lines`), whether the message starts with ``GC(n)``,
whether its last token is a duration (``2.704ms``, ``0.030s``), whether the
token before is a heap figure (``6M->1M(128M)``) and whether the title before
it ends with ``:`` (a space transition such as ``Eden regions: 5->0(6)``).
Each route's regular expression then runs once over the array of its lines
(:mod:`.shapes`), and distinct titles are described once (:mod:`.titles`).

The result is a dict of columns (:data:`COLUMNS`), one row per event, in
line order; lines that are not understood go to ``state.unparsed``.
"""

from __future__ import annotations

import math
import re
from typing import Dict, List, Optional

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import shapes
from ...arrow_values import NULL_TEXT, indices, integer, mask, texts
from .figures import DURATION_UNITS, UNITS, present, sizes, to_float, to_int
from .layout import sniff_layout
from .lines import PAD, Block, decorate, strings
from .occupancy import METASPACE, OCCUPANCY_GROUPS, may_be_occupancy, occupancy_of
from .regex import SMALL, extract, match, precompile
from .scan import ByteIndex, read_int, run_length, scan_back, scan_forward, scratch
from .texts import Texts
from .tokens import decimals, read_token
from .state import LogState
from .titles import EVENT_TYPES, GENERATIONS, START_WORDS, describe

#: float columns of an event (NaN = absent); sizes in bytes, times in seconds
FLOATS = ("uptime", "heap_before", "heap_after", "heap_capacity", "heap_before_pct",
          "heap_after_pct", "duration", "time_to_reach", "at_safepoint", "cleanup",
          "leaving", "total", "time_since_last")
#: string columns (object arrays, None = absent; ``cause``, ``info`` and ``tags`` come out of
#: the parse as :class:`~.texts.Texts`: codes into the block's distinct values)
TEXTS = ("name", "cause", "info", "tags")
#: all event columns: line (from 1), sub (order within a line), gc_id (-1 none),
#: date (ns since the epoch, -1 none), event_type / generation (codes into
#: titles.EVENT_TYPES / GENERATIONS), level (indentation of sub-phases)
#: prefix (0 none, 1 ``Y:``, 2 ``O:``: a generational ZGC phase of the young / old generation)
COLUMNS = ("line", "sub", "gc_id", "date", "event_type", "generation", "level",
           "prefix") + FLOATS + TEXTS

_ETYPE = {t: i for i, t in enumerate(EVENT_TYPES)}
_GEN = {g: i for i, g in enumerate(GENERATIONS)}
_SPACE = np.zeros(256, dtype=bool)
_SPACE[32] = True
_ALPHA = np.zeros(256, dtype=bool)
_ALPHA[65:91] = True
_ALPHA[97:123] = True
_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[48:58] = True
_NOT_COLON = np.ones(256, dtype=bool)
_NOT_COLON[58] = False
_HEADER = re.compile(shapes.HEADER)
#: a line with other decorators that names a GC or a safepoint
_GC_MENTION = r"GC\(\d+\)|Safepoint|safepoint"
#: figures at the end of a line (a start line has none)
_FIGURES_AT_END = r"->|\s[\d.]+\w{0,2}$"
#: set-up lines with facts (then read with shapes.HEADER)
_HEADER_WORDS = (r"^(?:Using |Version: |Heap [Rr]egion [Ss]ize|(?:Heap )?Max Capacity|"
                 r"Heap address|Initializing The Z)")
_HEADER_FIRST = np.frombuffer(b"UVHMI", np.uint8)
#: a plain decimal (an uptime field)
_DECIMAL = r"^\d+(?:\.\d+)?$"
# Python's re runs them on small arrays: compiled once, when the module is imported
precompile(_GC_MENTION, _FIGURES_AT_END, _HEADER_WORDS, _DECIMAL,
           START_WORDS.pattern, shapes.GC_INFO, shapes.OTHER_INFO, shapes.OCCUPANCY,
           shapes.SAFEPOINT, shapes.APPLICATION, shapes.ENTERING, shapes.STOPPED)
_LEAVING = texts(["Leaving safepoint region"])[0]
#: a duration unit's first letter (before its "s") -> the unit per second
_UNIT_PER_SECOND = np.full(256, np.nan)
for _unit, _per in DURATION_UNITS.items():
    if len(_unit) == 2:
        _UNIT_PER_SECOND[ord(_unit[0])] = _per
_PER_SECOND = {"s": 1.0, "ms": 1e3, "ns": 1e9}
_COLLECTORS = {"The Z Garbage Collector": "ZGC", "Concurrent Mark Sweep": "CMS"}


#: column -> (dtype, value of an absent field)
_DEFAULTS = {"line": (np.int64, 0), "sub": (np.int8, 0), "gc_id": (np.int64, -1),
             "date": (np.int64, -1), "event_type": (np.int8, 0), "generation": (np.int8, 0),
             "level": (np.int8, 0), "prefix": (np.int8, 0),
             **{c: (np.float64, np.nan) for c in FLOATS}, **{c: (object, None) for c in TEXTS}}


def _default(name: str, n: int) -> np.ndarray:
    dtype, fill = _DEFAULTS[name]
    return np.full(n, fill, dtype=dtype)


def _empty(n: int) -> Dict[str, np.ndarray]:
    """Every event column of ``n`` events, all absent."""
    cols = {c: _default(c, n) for c in COLUMNS if c not in TEXTS}
    cols.update((c, np.empty(n, dtype=object)) for c in TEXTS)  # None-filled
    return cols


class EventColumns(dict):
    """Event columns of ``n`` events (:data:`COLUMNS`): a column is made, all absent,
    when first used, so a route's part (and a block's batch) holds only the columns set
    for it; ``in`` and iteration see those alone.

    >>> cols = EventColumns(2)
    >>> "duration" in cols, cols["duration"].tolist(), "duration" in cols
    (False, [nan, nan], True)
    """

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __missing__(self, name: str) -> np.ndarray:
        col = self[name] = _default(name, self.n)
        return col


def _all_in(pad: np.ndarray, lo: np.ndarray, hi: np.ndarray, allowed: np.ndarray,
            longest: int) -> np.ndarray:
    """Per row: every byte of ``pad[lo:hi]`` is ``allowed`` and the range is at most
    ``longest`` bytes (a short loop over positions, vectorised over rows)."""
    ok = (hi - lo) <= longest
    for j in range(longest):
        pos = lo + j
        inside = pos < hi
        if not inside.any():
            break
        ok &= ~inside | allowed[pad[np.where(inside, pos, 0)]]
    return ok


def _integers(pad: np.ndarray, lo: np.ndarray, hi: np.ndarray, longest: int) -> np.ndarray:
    """Per row, the integer ``pad[lo:hi]`` when it is 1 to ``longest`` digits, else -1
    (read with numpy, a digit at a time: a GC id has a few).

    >>> pad = np.frombuffer(b"GC(12) GC(0x1) GC() GC(7)" + bytes(8), np.uint8)
    >>> _integers(pad, np.array([3, 10, 18, 23]), np.array([5, 13, 18, 24]), 19).tolist()
    [12, -1, -1, 7]
    """
    out = np.full(len(lo), -1, np.int64)
    size = hi - lo
    sel = np.flatnonzero((size > 0) & (size <= longest))
    if len(sel):
        sel = sel[_all_in(pad, lo[sel], hi[sel], _DIGIT, longest)]
        out[sel] = read_int(pad, lo[sel], size[sel])
    return out


def _in_range(sorted_pos: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """How many of ``sorted_pos`` fall in ``[lo, hi)``, per row."""
    return np.searchsorted(sorted_pos, hi) - np.searchsorted(sorted_pos, lo)


def _texts(arr: pa.Array, trim: bool = False) -> np.ndarray:
    """A pyarrow string array -> object array (None for null) through its distinct values
    (``trim``: without their leading and trailing white space)."""
    enc = pc.dictionary_encode(arr)
    uniq = enc.dictionary.to_pylist()
    if trim:  # str.strip trims the same ASCII characters as pyarrow (whose first call is slow)
        uniq = [u.strip() for u in uniq] if all(u.isascii() for u in uniq) else \
            pc.utf8_trim_whitespace(enc.dictionary).to_pylist()
    values = np.array(uniq + [None], dtype=object)
    idx = pc.fill_null(enc.indices, integer(len(values) - 1, np.int32)).to_numpy(
        zero_copy_only=False)
    return values[idx.astype(np.int64)]


def _text_codes(arr: pa.Array, trim: bool = False) -> Texts:
    """A pyarrow string array -> :class:`~.texts.Texts` (null: absent) through its distinct
    values (``trim``: without their leading and trailing white space)."""
    enc = pc.dictionary_encode(arr)
    uniq = enc.dictionary.to_pylist()
    if trim:  # str.strip trims the same ASCII characters as pyarrow (whose first call is slow)
        uniq = [u.strip() for u in uniq] if all(u.isascii() for u in uniq) else \
            pc.utf8_trim_whitespace(enc.dictionary).to_pylist()
    codes = pc.fill_null(enc.indices, integer(-1, np.int32)).to_numpy(zero_copy_only=False)
    return Texts(codes.astype(np.int32, copy=False), uniq)


def _space_events(blk: Block, rows: np.ndarray, sel: np.ndarray, name_lo: np.ndarray,
                  name_hi: np.ndarray, tok: Dict[str, np.ndarray], sub: int,
                  ctx: dict) -> Dict[str, np.ndarray]:
    """Event columns of the space transitions ``sel`` (heap or metaspace), named by the
    text at ``[name_lo, name_hi)``, figures from ``tok`` (:func:`.tokens.read_token`)."""
    enc = pc.dictionary_encode(strings(blk.data, name_lo, name_hi))
    values = enc.dictionary.to_pylist()
    codes = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    cols = EventColumns(len(sel))
    cols["row"] = rows[sel]
    cols["sub"] = np.full(len(sel), sub, np.int8)
    cols["gc_id"] = ctx["gc_ids"][rows[sel]]
    cols["generation"] = cols["prefix"] = ctx["gen"][rows[sel]]
    cols["name"] = np.array(values, dtype=object)[codes]
    cols["event_type"] = np.array([_ETYPE["metaspace"] if v in METASPACE else _ETYPE["heap"]
                                   for v in values], np.int8)[codes]
    cols["heap_before"] = tok["before"][sel]
    cols["heap_after"] = tok["after"][sel]
    cap = tok["capacity"][sel]
    cols["heap_capacity"] = np.where(np.isnan(cap), tok["before_cap"][sel], cap)
    return cols


class BlockParser:
    """Parses the blocks of one log part into event columns (see the module docs)."""

    def __init__(self, state: LogState, name: str) -> None:
        self.state = state
        self.name = name
        self.line_base = 0  # lines of this part before the current block
        #: when a set: the GC(n) lines' texts that were not recognised as start lines or
        #: notes (a range parsed ahead checks them against titles learnt before it)
        self.unrecognised: Optional[set] = None

    # ------------------------------------------------------------------ driver
    def parse(self, blk: Block, last: bool = False) -> Dict[str, np.ndarray]:
        """Events of a block (``last``: the final, possibly unterminated, line is in it)."""
        st = self.state
        n = len(blk)
        st.counts["lines"] += n
        if st.layout is None:
            st.layout = sniff_layout(blk.line(i) for i in range(min(n, 500)))
        parts: List[Dict[str, np.ndarray]] = []
        unknown = np.ones(n, dtype=bool)     # not understood yet
        gcline = np.zeros(n, dtype=bool)     # a GC line (GC(n) or safepoint)
        blank = blk.ends == blk.starts
        st.counts["blank"] += int(blank.sum())
        unknown &= ~blank
        if st.layout is not None:
            dec = decorate(blk, st.layout.count)
            st.counts["decorated"] += int(dec.ok.sum())
            self._messages(blk, dec, unknown, gcline, parts)
            # a line with other decorators (two runs' logs in one file) that names a GC
            # is a GC line not understood: it counts against the share
            odd = np.flatnonzero(~dec.ok & ~blank)
            if len(odd):
                text = strings(blk.data, blk.starts[odd], blk.ends[odd])
                gcline[odd] |= match(text, _GC_MENTION)
        else:
            dec = None
        if last and n and blk.arr[-1] != 10:
            # an unterminated last line: the log was cut while being written
            st.truncated_last_line = True
            unknown[-1] = True
            gcline[-1] = b"GC(" in blk.line(n - 1)
            parts = [self._drop_row(p, n - 1) for p in parts]
        rows = np.flatnonzero(unknown)
        if len(rows):
            st.unparsed.add(self.name, (rows + 1 + self.line_base).tolist(),
                            [blk.line(i) for i in rows[:st.unparsed.limit]] +
                            [b""] * max(0, len(rows) - st.unparsed.limit),
                            gcline[rows].tolist())
        st.counts["gc_lines"] += int(gcline.sum())
        st.counts["gc_understood"] += int((gcline & ~unknown).sum())
        events = self._assemble(parts, blk, dec)
        st.counts["events"] += len(events["line"])
        self.line_base += n
        return events

    @staticmethod
    def _drop_row(part: Dict[str, np.ndarray], row: int) -> Dict[str, np.ndarray]:
        keep = part["row"] != row
        return {k: v[keep] for k, v in part.items()}

    # ------------------------------------------------------------------ routing
    def _messages(self, blk: Block, dec, unknown, gcline, parts) -> None:
        arr, ends = blk.arr, blk.ends
        ok = dec.ok & unknown
        unknown_undecorated = ~dec.ok
        ms = dec.msg_start
        # reads past the end are 0 (the copy goes to this thread's buffer: no fresh memory)
        pad = blk.pad
        if pad is None:  # (the block's bytes in this thread's buffer, for this block's parse)
            pad = blk.pad = scratch("pad", len(arr) + PAD, np.uint8)
            pad[:len(arr)] = arr
            pad[len(arr):] = 0
        has_gc = ok & (ends - ms >= 5) & (pad[ms] == 71) & (pad[ms + 1] == 67) & \
            (pad[ms + 2] == 40)  # "GC("
        # GC(n): the digits up to ')' then a space
        rows = np.flatnonzero(has_gc)
        where = ByteIndex(arr)
        cp = scan_forward(pad, 41, ms[rows] + 3, ends[rows], 20)  # ")"
        ids = _integers(pad, ms[rows] + 3, cp, 19)
        good = (ids >= 0) & ((cp + 1 >= ends[rows]) | (pad[np.maximum(cp, 0) + 1] == 32))
        rows, cp = rows[good], cp[good]
        has_gc[:] = False
        has_gc[rows] = True
        gcline |= has_gc
        gc_ids = np.full(len(blk), -1, np.int64)
        gc_ids[rows] = ids[good]
        body = np.array(ms)
        body[rows] = np.minimum(cp + 2, ends[rows])
        # generational ZGC's "Y: " / "O: "
        gen = np.zeros(len(blk), np.int8)
        yo = has_gc & (pad[body + 1] == 58) & (pad[body + 2] == 32) & \
            np.isin(pad[body], np.frombuffer(b"YOyo", np.uint8))
        gen[yo & np.isin(pad[body], np.frombuffer(b"Yy", np.uint8))] = _GEN["young"]
        gen[yo & np.isin(pad[body], np.frombuffer(b"Oo", np.uint8))] = _GEN["old"]
        if yo.any():
            self.state.generational_zgc = True
        body[yo] += 3
        # indentation (G1 sub-phases; at most 16)
        indent = np.zeros(len(blk), np.int8)
        g = np.flatnonzero(has_gc)
        indent[g] = run_length(pad, body[g], ends[g], _SPACE, 16)
        ctx = dict(arr=arr, pad=pad, ends=ends, body=body, indent=indent, gen=gen,
                   gc_ids=gc_ids, where=where)
        other = np.flatnonzero(ok & ~has_gc)
        text = strings(blk.data, dec.msg_start[other], blk.ends[other])
        # (a message's first byte; 0 for an empty one)
        self._first_bytes = np.where(ends > ms, pad[np.minimum(ms, len(arr))], 0)
        self._header(other, text, unknown)  # the collector and region size, first
        self._gc_lines(blk, has_gc, unknown, parts, ctx)
        self._other_lines(blk, other, text, unknown, gcline, parts, ctx, dec)
        del unknown_undecorated

    # ------------------------------------------------------------------ GC(n) lines
    def _gc_lines(self, blk, has_gc, unknown, parts, ctx) -> None:
        arr, pad, ends, body, indent = (ctx[k] for k in ("arr", "pad", "ends", "body", "indent"))
        rows = np.flatnonzero(has_gc)
        if not len(rows):
            return
        e = ends[rows]
        ts = body[rows] + indent[rows]
        # the last token (a duration?) and the one before (heap figures?), scanned back
        where = ctx["where"]
        ls = scan_back(pad, 32, e - 1, ts, 48)  # (spaces: read byte by byte, no index)
        # duration token: digits/dots then s, ms, us or ns
        last_s = pad[e - 1] == 115
        two = np.isin(pad[np.maximum(e - 2, 0)], np.frombuffer(b"mun", np.uint8))
        ulen = np.where(two, 2, 1)
        num_lo, num_hi = ls + 1, e - ulen
        has_dur = (ls >= 0) & last_s & (num_hi > num_lo) & \
            _DIGIT[pad[np.maximum(num_lo, 0)]]
        # the number: digits[.digits] (its value read here when it has at most 15 digits)
        dur_value = np.full(len(rows), np.nan)
        d = np.flatnonzero(has_dur)
        dur_value[d], has_dur[d], _ = decimals(pad, num_lo[d], num_hi[d])
        # heap token: before the duration, or the last token
        prev = np.full(len(rows), -1, np.int64)
        if has_dur.any():
            prev[has_dur] = scan_back(pad, 32, ls[has_dur] - 1, ts[has_dur], 48)
        ht_lo = np.where(has_dur, np.where(prev >= 0, prev + 1, ts), np.where(ls >= 0, ls + 1, ts))
        ht_hi = np.where(has_dur, ls, e)
        # heap figures start with a digit and hold "->" (looked for in those tokens only)
        heapish = _DIGIT[pad[np.maximum(ht_lo, 0)]] & (ht_hi > ht_lo)
        h = np.flatnonzero(heapish)
        dash = where.forward(45, ht_lo[h], ht_hi[h], 32)  # '-' of "->"
        heapish[h] = (dash >= 0) & (pad[np.maximum(dash, 0) + 1] == 62)
        title_hi = np.where(heapish, ht_lo - 1, np.where(has_dur, ls, e))
        title_hi = np.maximum(title_hi, ts)
        colon = (title_hi > ts) & (pad[np.maximum(title_hi - 1, 0)] == 58)
        transition = heapish & colon & ~has_dur
        phase = (has_dur | heapish) & ~transition
        if phase.any():
            self._phases(blk, rows[phase], ts[phase], title_hi[phase], heapish[phase],
                         ht_lo[phase], ht_hi[phase], has_dur[phase], dur_value[phase],
                         num_lo[phase], num_hi[phase], e[phase], unknown, parts, ctx)
        if transition.any():
            # one "Name: figures" (G1's regions, JDK 11 spaces): read with numpy; several on
            # a line (Parallel, Serial, metaspace): the regular expression
            t = np.flatnonzero(transition)
            multi = where.forward(45, ts[t], title_hi[t], 256) >= 0
            if (~multi).any():
                s1 = t[~multi]
                self._single_transitions(blk, rows[s1], ts[s1], title_hi[s1], ht_lo[s1],
                                         ht_hi[s1], unknown, parts, ctx)
            if multi.any():
                tr = rows[t[multi]]
                self._transitions(blk, tr, body[tr], ends[tr], unknown, parts, ctx)
        rest = rows[~(phase | transition)]
        if len(rest):
            self._gc_titles(blk, rest, body[rest] + indent[rest], ends[rest], unknown, parts,
                            ctx)

    def _phases(self, blk, rows, ts, th, heapish, hlo, hhi, has_dur, dur_value, nlo, nhi, e,
                unknown, parts, ctx) -> None:
        st = self.state
        titles = strings(blk.data, ts, th)
        enc = pc.dictionary_encode(titles)
        uniq = enc.dictionary.to_pylist()
        desc = [describe(t, st.collector) for t in uniq]
        idx = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        cols = EventColumns(len(rows))
        cols["row"] = rows
        cols["event_type"] = np.array([_ETYPE[d[0]] for d in desc], np.int8)[idx]
        names = np.array([d[1] for d in desc], dtype=object)
        cols["name"] = names[idx]
        codes = idx.astype(np.int32)
        cols["cause"] = Texts(codes, [d[2] or None for d in desc])
        cols["info"] = Texts(codes, [d[3] or None for d in desc])
        gen = np.array([_GEN[d[4]] for d in desc], np.int8)[idx]
        prefix = ctx["gen"][rows]
        cols["generation"] = np.where(prefix > 0, prefix, gen)
        cols["prefix"] = np.where(prefix > 0, prefix - 0, 0).astype(np.int8)
        cols["level"] = np.minimum(ctx["indent"][rows] // 2, 127).astype(np.int8)
        cols["gc_id"] = ctx["gc_ids"][rows]
        valid = np.ones(len(rows), dtype=bool)
        if has_dur.any():
            d = np.flatnonzero(has_dur)
            value = dur_value[d]
            long = np.flatnonzero(np.isnan(value))  # (more than 15 digits: read as text)
            if len(long):
                value[long] = to_float(strings(blk.data, nlo[d[long]], nhi[d[long]]))
            # the unit: s, or ms / us / ns (its first letter before the final s)
            pad = ctx["pad"]
            two = e[d] - nhi[d] == 2
            cols["duration"][d] = value / np.where(two, _UNIT_PER_SECOND[pad[e[d] - 2]], 1.0)
            st.duration_titles.update(uniq)
        if heapish.any():
            h = np.flatnonzero(heapish)
            tok = read_token(ctx["pad"], hlo[h], hhi[h])
            valid[h[~(tok["ok"] & tok["units"])]] = False
            cols["heap_before"][h] = tok["before"]
            cols["heap_after"][h] = tok["after"]
            cols["heap_capacity"][h] = tok["capacity"]
            for key in ("before_pct", "after_pct"):  # ZGC's percentages: only when logged
                if not np.isnan(tok[key]).all():
                    cols["heap_" + key][h] = tok[key]
        if not valid.all():
            cols = {k: v[valid] for k, v in cols.items()}
        unknown[cols["row"]] = False
        parts.append(cols)

    def _single_transitions(self, blk, rows, ts, th, hlo, hhi, unknown, parts, ctx) -> None:
        tok = read_token(ctx["pad"], hlo, hhi, region=self.state.region_size)
        good = tok["ok"] & (th - 1 > ts)
        if not good.any():
            return
        g = np.flatnonzero(good)
        parts.append(_space_events(blk, rows, g, ts[g], th[g] - 1, tok, 1, ctx))  # no ':'
        unknown[rows[g]] = False

    def _transitions(self, blk, rows, lo, hi, unknown, parts, ctx) -> None:
        """``Name: figures`` repeated up to three times on a line (Parallel's
        ``PSYoungGen: ... Eden: ... From: ...``, metaspace's ``Metaspace: ... NonClass: ...
        Class: ...``), read with numpy; lines of another shape stay not understood."""
        pad = ctx["pad"]
        region = self.state.region_size
        pos = lo + run_length(pad, lo, hi, _SPACE, 16)
        alive = _ALPHA[pad[pos]]
        found = []
        for i in range(1, shapes.TRANSITION_GROUPS + 1):
            # the ':' after the name (names are short: scanned, no index of the block's ':')
            name = run_length(pad, pos, hi, _NOT_COLON, 64)
            colon = np.where((name < 64) & (pos + name < hi) & (pad[pos + name] == 58),
                             pos + name, -1)
            good = alive & (pos < hi) & (colon > pos) & (pad[np.maximum(colon, 0) + 1] == 32)
            good &= _ALPHA[pad[pos]]
            space = scan_forward(pad, 32, colon + 2, hi, 64)
            end = np.where(space >= 0, space, hi)
            tok = read_token(pad, np.where(good, colon + 2, 0), np.where(good, end, 0),
                             region=region)
            good &= tok["ok"]
            if i == 1:
                alive &= good
            found.append((good, pos, colon, tok))
            pos = np.where(good, end + 1, hi)
        matched = alive & (pos >= hi)
        for i, (good, nlo, nhi, tok) in enumerate(found, start=1):
            sel = np.flatnonzero(good & matched)
            if len(sel):
                parts.append(_space_events(blk, rows, sel, nlo[sel], nhi[sel], tok, i, ctx))
        unknown[rows[matched]] = False

    def _gc_titles(self, blk, rows, lo, hi, unknown, parts, ctx) -> None:
        """GC(n) lines with no duration and no heap figures: start lines, notes, counters."""
        text = strings(blk.data, lo, hi)
        # these lines repeat (start lines, worker counts...): each distinct text tested once
        enc = pc.dictionary_encode(text)
        uniq = enc.dictionary
        start = match(uniq, START_WORDS.pattern)
        known = self.state.duration_titles
        if known and not start.all():
            start |= pc.is_in(uniq, texts(sorted(known))).to_numpy(zero_copy_only=False)
        # a start line has no figures: "Pause Young (...) 32M->4M(123M) 5.3" was cut short
        s = np.flatnonzero(start)
        if len(s):
            start[s] &= ~match(uniq.take(indices(s)) if len(s) < len(start) else uniq,
                               _FIGURES_AT_END)
        # the other lines: notes (each expression is asked of the texts it decides)
        info = np.zeros(len(start), bool)
        rest = np.flatnonzero(~start)
        if len(rest):
            info[rest] = match(uniq.take(indices(rest)) if len(rest) < len(start) else uniq,
                               shapes.GC_INFO)
        idx = enc.indices.to_numpy(zero_copy_only=False)
        unknown[rows[(start | info)[idx]]] = False
        if self.unrecognised is not None and not (start | info).all():
            self.unrecognised.update(uniq.filter(mask(~(start | info))).to_pylist())
        self._occupancy(blk, rows, text, unknown, parts, ctx, gc=True, distinct=(uniq, idx))

    # ------------------------------------------------------------------ other lines
    def _other_lines(self, blk, rows, text, unknown, gcline, parts, ctx, dec) -> None:
        if not len(rows):
            return
        self._safepoints(blk, rows, text, unknown, gcline, parts)
        # "->" found from the block's '-' positions (the GC lines' routing found them)
        arrow = ctx["where"].contains(b"->", dec.msg_start[rows], blk.ends[rows])
        if arrow.any():
            a = rows[arrow]
            self._transitions(blk, a, dec.msg_start[a], blk.ends[a], unknown, parts, ctx)
        self._occupancy(blk, rows, text, unknown, parts, ctx, gc=False)
        still = unknown[rows]
        if still.any():
            # a message opening with white space or '=' (the rows and rules of the statistics
            # tables printed at exit) is informational (shapes.OTHER_INFO): no regex needed
            ms = dec.msg_start[rows]
            lead = blk.arr[np.minimum(ms, len(blk.arr) - 1)]
            quick = still & (blk.ends[rows] > ms) & ((lead == 32) | (lead == 9) | (lead == 61))
            unknown[rows[quick]] = False
            still &= ~quick
        if still.any():
            info = match(text.filter(mask(still)), shapes.OTHER_INFO)
            unknown[rows[still][info]] = False

    def _header(self, rows, text, unknown) -> None:
        st = self.state
        if not len(rows):
            return
        # the words open the message: only messages opening with their first letters are tried
        first = self._first_bytes[rows]
        maybe = np.flatnonzero(np.isin(first, _HEADER_FIRST))
        if not len(maybe):
            return
        cand = np.zeros(len(rows), dtype=bool)
        cand[maybe] = match(text.take(indices(maybe)) if len(maybe) < len(rows) else text,
                            _HEADER_WORDS)
        if not cand.any():
            return
        for i in np.flatnonzero(cand).tolist():
            m = _HEADER.match(text[i].as_py())
            if not m:
                continue
            g = m.groupdict()
            if g["using"] and not re.match(r"^\d", g["using"]):
                st.collector = _COLLECTORS.get(g["using"], g["using"])
            elif g["version"]:
                st.version = st.version or g["version"]
            elif g["region"]:
                st.region_size = float(g["region"]) * UNITS[g["regionu"]]
            elif g["max"]:
                st.heap_max = float(g["max"]) * UNITS[g["maxu"]]
            elif g["addr"]:
                st.heap_max = float(g["addr"]) * UNITS["M"]
            elif g["z"]:
                st.collector = st.collector or "ZGC"
            unknown[rows[i]] = False

    def _occupancy(self, blk, rows, text, unknown, parts, ctx, gc: bool,
                   distinct: Optional[tuple] = None) -> None:
        """Occupancy lines (``distinct``: ``(values, codes)`` of ``text``, when known: each
        distinct text is then matched once)."""
        if distinct is None:
            cand = may_be_occupancy(text)
            if not cand.any():
                return
            sel = np.flatnonzero(cand)
            if len(sel) < SMALL:  # a few lines: each distinct text read once, in Python
                values = text.take(indices(sel)).to_pylist()
                index = {v: i for i, v in enumerate(dict.fromkeys(values))}
                self._few_occupancy(rows[sel], list(index),
                                    np.array([index[v] for v in values], np.int64),
                                    unknown, parts, ctx)
                return
            m = extract(text.filter(mask(cand)), shapes.OCCUPANCY)
        else:
            values, codes = distinct
            ucand = may_be_occupancy(values)
            if not ucand.any():
                return
            if ucand.sum() < SMALL:
                place = np.full(len(values), -1, np.int64)  # distinct value -> candidate
                place[ucand] = np.arange(int(ucand.sum()))
                at = place[codes]
                sel = np.flatnonzero(at >= 0)
                self._few_occupancy(rows[sel], values.filter(mask(ucand)).to_pylist(), at[sel],
                                    unknown, parts, ctx)
                return
            found = extract(values.filter(mask(ucand)), shapes.OCCUPANCY)
            place = np.full(len(values), -1, np.int64)  # distinct value -> row of ``found``
            place[ucand] = np.arange(int(ucand.sum()))
            at = place[codes]
            cand = at >= 0
            m = found.take(indices(at[cand]))
        sel = np.flatnonzero(cand)
        matched = m.is_valid().to_numpy(zero_copy_only=False)
        if not matched.any():
            return
        sel = sel[matched]
        m = m.filter(mask(matched))
        f = m.field
        cols = EventColumns(len(sel))
        cols["row"] = rows[sel]
        cols["gc_id"] = ctx["gc_ids"][rows[sel]]
        name = np.full(len(sel), None, dtype=object)
        etype = np.full(len(sel), _ETYPE["heap"], np.int8)
        after = np.full(len(sel), np.nan)
        cap = np.full(len(sel), np.nan)
        for key, used, cap_key, kind in OCCUPANCY_GROUPS:
            here = present(f(used))
            if not here.any():
                continue
            if kind == "codecache":
                after[here] = to_float(f(used))[here] * 1024.0
                cap[here] = to_float(f(cap_key))[here] * 1024.0
            else:
                after[here] = sizes(f(used), f(used + "u"))[here]
                cap[here] = sizes(f(cap_key), f(cap_key + "u"))[here]
            label = _texts(f(key)) if key else np.full(len(sel), "Heap", dtype=object)
            if key == "m":
                label = np.where(label == "Metaspace", "Metaspace", "Class space")
            if kind == "codecache":
                label = np.array([f"CodeHeap '{x}'" for x in label], dtype=object)
            name[here] = label[here]
            etype[here] = _ETYPE[kind]
        flush = present(f("flush"))
        name[flush] = "CodeCache flushing"
        etype[flush] = _ETYPE["codecache"]
        name = np.array([x.strip() if isinstance(x, str) else x for x in name], dtype=object)
        etype[np.isin(name, list(METASPACE))] = _ETYPE["metaspace"]
        cols["name"], cols["event_type"] = name, etype
        cols["heap_after"], cols["heap_capacity"] = after, cap
        unknown[rows[sel]] = False
        parts.append(cols)

    def _few_occupancy(self, rows, texts, codes, unknown, parts, ctx) -> None:
        """Occupancy lines ``rows``, row i being ``texts[codes[i]]``: each text read once with
        Python's ``re`` (:func:`occupancy_of`; the same figures as the columnar route)."""
        found = [occupancy_of(t) for t in texts]
        ok = np.array([f is not None for f in found] + [False], bool)
        codes = np.where(ok[codes], codes, len(found))
        sel = np.flatnonzero(codes < len(found))
        if not len(sel):
            return
        found = [f or (None, 0, np.nan, np.nan) for f in found]
        codes = codes[sel]
        cols = EventColumns(len(sel))
        cols["row"] = rows[sel]
        cols["gc_id"] = ctx["gc_ids"][rows[sel]]
        cols["name"] = np.array([f[0] for f in found], dtype=object)[codes]
        cols["event_type"] = np.array([f[1] for f in found], np.int8)[codes]
        cols["heap_after"] = np.array([f[2] for f in found], np.float64)[codes]
        cols["heap_capacity"] = np.array([f[3] for f in found], np.float64)[codes]
        unknown[rows[sel]] = False
        parts.append(cols)

    def _safepoints(self, blk, rows, text, unknown, gcline, parts) -> None:
        st = self.state
        sp = pc.starts_with(text, 'Safepoint "').to_numpy(zero_copy_only=False)
        if sp.any():
            sel = np.flatnonzero(sp)
            m = extract(text.filter(mask(sp)), shapes.SAFEPOINT)
            ok = m.is_valid().to_numpy(zero_copy_only=False)
            gcline[rows[sel]] = True
            sel = sel[ok]
            m = m.filter(mask(ok))
            cols = EventColumns(len(sel))
            cols["row"] = rows[sel]
            cols["event_type"] = np.full(len(sel), _ETYPE["safepoint"], np.int8)
            cols["name"] = _texts(m.field("name"))
            for out, key in (("time_since_last", "since"), ("time_to_reach", "reach"),
                             ("cleanup", "clean"), ("at_safepoint", "at"),
                             ("leaving", "leave"), ("total", "total")):
                cols[out] = to_float(m.field(key)) / 1e9
            cols["duration"] = cols["total"].copy()
            unknown[rows[sel]] = False
            parts.append(cols)
        # JDK 9-15: Application time / Entering ... / Leaving ... / Total time ...
        kinds = np.zeros(len(rows), np.int8)
        kinds[pc.starts_with(text, "Application time: ").to_numpy(zero_copy_only=False)] = 1
        kinds[pc.starts_with(text, "Entering safepoint region: ").to_numpy(
            zero_copy_only=False)] = 2
        kinds[pc.starts_with(text, "Total time for which application threads").to_numpy(
            zero_copy_only=False)] = 3
        leaving = pc.equal(text, _LEAVING).to_numpy(zero_copy_only=False)
        unknown[rows[leaving]] = False
        gcline[rows[leaving]] = True
        if not kinds.any():
            return
        sel = np.flatnonzero(kinds)
        sub = text.filter(mask(kinds > 0))
        k = kinds[sel]
        app = to_float(extract(sub, shapes.APPLICATION).field("app"))
        name = _texts(extract(sub, shapes.ENTERING).field("name"))
        stop = extract(sub, shapes.STOPPED)
        total = to_float(stop.field("total"))
        reach = to_float(stop.field("reach"))
        good = ((k == 1) & ~np.isnan(app)) | ((k == 2) & (name != None)) | \
            ((k == 3) & ~np.isnan(total))  # noqa: E711
        gcline[rows[sel]] = True
        unknown[rows[sel[good]]] = False
        k = np.where(good, k, 0)
        pos = np.arange(len(k))
        last_name = np.maximum.accumulate(np.where(k == 2, pos, -1))
        last_app = np.maximum.accumulate(np.where(k == 1, pos, -1))
        is_total = k == 3
        prev_total = np.maximum.accumulate(np.where(is_total, pos, -1))
        prev_total = np.concatenate([[-1], prev_total[:-1]])  # the total before this row
        t = np.flatnonzero(is_total)
        names = np.where(last_name[t] >= 0, name[np.maximum(last_name[t], 0)],
                         st.safepoint_name or None)
        since = np.where(last_app[t] > prev_total[t], app[np.maximum(last_app[t], 0)],
                         np.where(prev_total[t] < 0, st.app_time, np.nan))
        if len(t) or (k == 1).any():
            st.safepoint_seen = True
        if (k == 2).any():
            st.safepoint_name = name[np.flatnonzero(k == 2)[-1]]
        tail_app = last_app[-1]
        st.app_time = app[tail_app] if tail_app >= 0 and tail_app > prev_total[-1] and \
            not is_total[-1] and tail_app > (t[-1] if len(t) else -1) else \
            (st.app_time if not len(t) else math.nan)
        if len(t):
            cols = EventColumns(len(t))
            cols["row"] = rows[sel[t]]
            cols["event_type"] = np.full(len(t), _ETYPE["safepoint"], np.int8)
            cols["name"] = names.astype(object)
            cols["total"] = total[t]
            cols["time_to_reach"] = reach[t]
            cols["time_since_last"] = since
            cols["duration"] = total[t].copy()
            parts.append(cols)

    # ------------------------------------------------------------------ assembly
    def _assemble(self, parts, blk: Block, dec) -> Dict[str, np.ndarray]:
        st = self.state
        parts = [p for p in parts if len(p["row"])]
        if not parts:
            out = _empty(0)
            return out
        # every part's columns go straight to their rows' places (by line, then sub)
        row = np.concatenate([p["row"] for p in parts])
        sub = np.concatenate([p["sub"] if "sub" in p else np.zeros(len(p["row"]), np.int8)
                              for p in parts])
        order = np.lexsort((sub, row))
        place = np.empty(len(order), np.int64)
        place[order] = np.arange(len(order))
        cols = EventColumns(len(order))  # the columns no part sets stay absent
        at = 0
        for p in parts:
            where = place[at:at + len(p["row"])]
            at += len(p["row"])
            for c, v in p.items():
                if c in _DEFAULTS:  # not "row"
                    if isinstance(v, Texts) and c not in cols:
                        cols[c] = Texts.absent(len(order))
                    if isinstance(v, Texts) != isinstance(cols[c], Texts):  # (one is objects)
                        cols[c] = np.asarray(cols[c])
                        v = np.asarray(v)
                    cols[c][where] = v
        row = row[order]
        cols["line"] = row + 1 + self.line_base
        lay = st.layout
        if lay.time_field is not None:
            f = lay.time_field
            unit_len = len(lay.units[f])
            lo = dec.field_start[f][row]
            hi = np.maximum(dec.field_end[f][row] - unit_len, lo)
            uptime, _, exact = decimals(blk.pad, lo, hi)
            long = np.flatnonzero(~exact)  # (not a number, or more than 15 digits: as text)
            if len(long):
                value = strings(blk.data, lo[long], hi[long])
                ok = mask(match(value, _DECIMAL))
                uptime[long] = to_float(pc.if_else(ok, value, NULL_TEXT))
            cols["uptime"] = uptime / _PER_SECOND[lay.units[f]]
        if lay.date_field is not None:
            cols["date"] = _dates(blk, dec.field_start[lay.date_field][row],
                                  dec.field_end[lay.date_field][row])
        elif lay.epoch_field is not None:
            f = lay.epoch_field
            value = strings(blk.data, dec.field_start[f][row],
                            dec.field_end[f][row] - len(lay.units[f]))
            scale = {"ms": 1_000_000, "ns": 1}[lay.units[f]]
            cols["date"] = to_int(value) * scale
        if lay.time_field is None:
            dated = cols["date"] >= 0
            if dated.any() and st.date_origin is None:
                st.date_origin = int(cols["date"][dated][0])
            if st.date_origin is not None:
                cols["uptime"] = np.where(dated, (cols["date"] - st.date_origin) / 1e9, np.nan)
        if "tags" in lay.kinds:
            f = lay.kinds.index("tags")
            tags = strings(blk.data, dec.field_start[f][row], dec.field_end[f][row])
            cols["tags"] = _text_codes(tags, trim=True)
        return cols


_DATE_CHARS = 23  # 2026-12-01T19:47:50.572


def _dates(blk: Block, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``YYYY-MM-DDTHH:MM:SS.mmm[+-]HHMM`` fields -> ns since the epoch (-1 when malformed)."""
    n = len(lo)
    out = np.full(n, -1, np.int64)
    if not n:
        return out
    width = hi - lo
    ok = width >= _DATE_CHARS
    idx = lo[:, None] + np.arange(_DATE_CHARS)[None, :]
    idx = np.minimum(idx, len(blk.arr) - 1)
    chars = blk.arr[idx]
    digits = np.array([0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22])
    ok &= _DIGIT[chars[:, digits]].all(axis=1)
    ok &= (chars[:, 4] == 45) & (chars[:, 7] == 45) & (chars[:, 10] == 84) & \
        (chars[:, 13] == 58) & (chars[:, 16] == 58) & (chars[:, 19] == 46)
    if not ok.any():
        return out
    text = np.ascontiguousarray(chars[ok]).view(f"S{_DATE_CHARS}").reshape(-1)
    try:
        stamp = text.astype("datetime64[ms]").astype(np.int64) * 1_000_000
    except ValueError:
        return out
    # the zone: [+-]HHMM right after the milliseconds, or Z / nothing (UTC)
    zone = np.zeros(ok.sum(), np.int64)
    zlo = lo[ok] + _DATE_CHARS
    has_zone = (hi[ok] - zlo) == 5
    if has_zone.any():
        zi = zlo[has_zone][:, None] + np.arange(5)[None, :]
        z = blk.arr[zi].astype(np.int64) - 48
        sign = np.where(blk.arr[zi[:, 0]] == 45, -1, 1)
        zone[has_zone] = sign * ((z[:, 1] * 10 + z[:, 2]) * 3600 + (z[:, 3] * 10 + z[:, 4]) * 60)
    out[ok] = stamp - zone * 1_000_000_000
    return out
