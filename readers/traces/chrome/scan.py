"""Vectorised scanning of a JSON array of flat-ish objects (Chrome trace events).

:func:`scan_events` finds, in a buffer that starts inside the event array,
every complete event object and the members of each (key span, value
span), with numpy over the whole buffer and no Python work per event:

1. one pass over the bytes finds quotes and structural characters
   (``{}[],:``); escaped quotes are dropped; a cumulative count of quotes
   tells which structural characters lie outside strings;
2. a cumulative sum of ``{[`` (+1) and ``}]`` (-1) gives the nesting depth:
   events open at depth 0, their members' colons are at depth 1;
3. a key is the string just before its colon, a value runs from the colon
   to the next ``,`` or ``}`` of its event (string values: exactly their
   quotes; nested values: to the terminator after them).

What lies between the tokens is checked to be whitespace, the top level
to be events separated by single commas. The value helpers that turn
spans into columns are in :mod:`.values`.

Examples
--------
>>> import numpy as np
>>> buf = b' {"ph": "X", "ts": 1.5, "args": {"a": [1, 2]}}, {"ph": "B", "ts": 2}, {"ph'
>>> s = scan_events(buf, "mem")
>>> s.starts.tolist(), s.ends.tolist(), s.consumed, s.closed
([1, 48], [46, 68], 68, False)
>>> [buf[a:b] for a, b in zip(s.key_start, s.key_end)][:3]
[b'ph', b'ts', b'args']
>>> [buf[a:b] for a, b in zip(s.value_start, s.value_end)][:3]
[b'"X"', b'1.5', b'{"a": [1, 2]}']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from ...errors import ReadError
from .values import bad_scalar, check_blank, padded, strip

_CLASS = np.zeros(256, dtype=bool)
_CLASS[list(b'{}[],:"')] = True
_DELTA = np.zeros(256, dtype=np.int8)
_DELTA[list(b"{[")] = 1
_DELTA[list(b"}]")] = -1
_LBRACE, _RBRACE, _COMMA, _COLON, _QUOTE = (ord(c) for c in '{},:"')


#: a problem found while scanning: (byte offset in the buffer, problem, expected)
Problem = Tuple[int, str, str]


@dataclass
class Scan:
    """Where the events and their members are in a buffer (byte offsets).

    When the buffer has a problem, ``error`` holds the first one and the
    events are only those that end before it: a decoder converts them (so
    an earlier problem inside them is reported first), then calls
    :meth:`raise_error`.
    """

    a: np.ndarray           # the buffer's bytes, padded (see .values.padded)
    starts: np.ndarray      # '{' of each complete event
    ends: np.ndarray        # one past its '}'
    member_event: np.ndarray  # event index of each member
    key_start: np.ndarray   # key text (inside the quotes)
    key_end: np.ndarray
    value_start: np.ndarray  # value text, whitespace trimmed (strings with their quotes)
    value_end: np.ndarray
    consumed: int           # bytes fully handled (after the last complete event)
    closed: bool            # the array's closing ']' was found
    after: int              # offset just past ']' when closed
    error: Optional[Problem] = None
    escaped: bool = False   # the buffer has backslashes (escapes in strings)

    def raise_error(self, source: str, base: int) -> None:
        """Raise the scan's problem, if any, as a ReadError at its file offset."""
        if self.error is not None:
            at, problem, expected = self.error
            _fail(source, base + at, problem, expected)


def scan_events(buf: bytes, source: str, base: int = 0, continuing: bool = False) -> Scan:
    """Scan ``buf`` (it begins inside the event array, outside any string).

    ``base`` is the buffer's offset in the file, for error positions;
    ``continuing``: events came before, so a ',' precedes the first one.
    A byte that cannot belong to the array is reported in ``Scan.error``.
    """
    a = padded(buf)
    pos = np.flatnonzero(_CLASS[a])           # quotes and structural characters
    code = a[pos]
    if b"\\" in buf:
        keep = _unescaped(a, pos, code)
        pos, code = pos[keep], code[keep]
    isq = code == _QUOTE
    nq = np.cumsum(isq, dtype=np.int32)       # quotes up to here
    si = np.flatnonzero(((nq & 1) | isq) == 0)  # outside strings (index into pos)
    s, ch = pos[si], code[si]
    delta = _DELTA[ch]
    depth = np.cumsum(delta, dtype=np.int32)  # after each character
    before = depth - delta
    problems: List[Optional[Problem]] = []
    closing = np.flatnonzero(depth < 0)
    closed = bool(len(closing))
    if closed:
        stop = int(closing[0])
        if ch[stop] != ord("]"):
            problems.append((int(s[stop]), "unbalanced '}'", "',' or ']'"))
            closed = False
        si, s, ch, depth, before = (x[:stop + 1] for x in (si, s, ch, depth, before))
    is_start = (before == 0) & (ch == _LBRACE)
    end_at = np.flatnonzero((depth == 0) & (ch == _RBRACE))
    starts, ends = s[is_start][:len(end_at)], s[end_at] + 1
    problems.append(_check_top_level(a, s, ch, before, ends, continuing))
    empty = np.zeros(0, dtype=np.int64)
    ci = empty
    if len(ends):
        lim = int(end_at[-1]) + 1             # structural characters of complete events
        ci = np.flatnonzero((before[:lim] == 1) & (ch[:lim] == _COLON))
    member_event = (np.cumsum(is_start, dtype=np.int32) - 1)[ci].astype(np.int64)
    if len(ends):
        problems.append(_check_brackets(s[:lim], ch[:lim], before[:lim], depth[:lim]))
        problems.append(_check_members(s[:lim], ch[:lim], before[:lim]))
        problems.append(_check_nested(a, s[:lim], ch[:lim], before[:lim]))
    (key_start, key_end), bad_key = _keys(a, pos, code, nq, si, s, ci)
    (value_start, value_end), bad_value = _values(a, pos, code, nq, si, s, ch, depth, before, ci)
    after = int(s[-1]) + 1 if closed else (int(ends[-1]) if len(ends) else 0)
    scan = Scan(a, starts, ends, member_event, key_start, key_end, value_start, value_end,
                after, closed, after, escaped=b"\\" in buf)
    found = [p for p in problems + [bad_key, bad_value] if p is not None]
    if found:
        _truncate(scan, min(found))
    return scan


def _truncate(scan: Scan, error: Problem) -> None:
    """Keep only the events that end before the problem (see :class:`Scan`)."""
    keep = int(np.searchsorted(scan.ends, error[0], side="right"))
    members = int(np.searchsorted(scan.member_event, keep))
    scan.starts, scan.ends = scan.starts[:keep], scan.ends[:keep]
    for name in ("member_event", "key_start", "key_end", "value_start", "value_end"):
        setattr(scan, name, getattr(scan, name)[:members])
    scan.consumed = scan.after = int(scan.ends[-1]) if keep else 0
    scan.closed = False
    scan.error = error


def _check_brackets(s, ch, before, depth) -> Optional[Problem]:
    """Each '}' / ']' in complete events closes a bracket of its own kind.

    An event's closing brace is the one that returns to depth 0; nested
    brackets are matched by pairing, at each depth, an opener with the
    next closer (few in practice: only ``args`` nest).
    """
    wrong = np.flatnonzero((depth == 0) & (ch == ord("]")))
    found = [] if not len(wrong) else [(int(s[wrong[0]]), "']' closes an event's '{'", "'}'")]
    opener = (before >= 1) & ((ch == _LBRACE) | (ch == ord("[")))
    closer = (depth >= 1) & ((ch == _RBRACE) | (ch == ord("]")))
    nested = np.flatnonzero(opener | closer)
    if len(nested):
        level = np.where(opener[nested], depth[nested], before[nested])
        pairs = nested[np.lexsort((nested, level))].reshape(-1, 2)
        bad = np.flatnonzero(ch[pairs[:, 0]] + 2 != ch[pairs[:, 1]])
        if len(bad):
            j = int(pairs[bad, 1].min())
            found.append((int(s[j]), f"{chr(ch[j])!r} does not match its opening bracket",
                          "a closing bracket of the same kind"))
    return min(found) if found else None


def _check_members(s, ch, before) -> Optional[Problem]:
    """Inside each event: ``{`` then ``key: value`` members separated by single commas.

    The tokens of an event's own level ('{', ':', ',', '}') must alternate
    as ``{ : , : , ... : }`` (or ``{ }``): a stray value between two commas, a
    trailing comma or a member without ':' breaks the alternation.
    """
    tok = np.flatnonzero(((before == 0) & (ch == _LBRACE))
                         | ((before == 1) & ((ch == _COLON) | (ch == _COMMA) | (ch == _RBRACE))))
    tc = ch[tok]
    prev = np.r_[np.uint8(_RBRACE), tc[:-1]]
    ok = np.where(tc == _COLON, (prev == _LBRACE) | (prev == _COMMA),
                  np.where(tc == _COMMA, prev == _COLON,
                           np.where(tc == _RBRACE, (prev == _COLON) | (prev == _LBRACE),
                                    prev == _RBRACE)))
    if ok.all():
        return None
    at = int(s[tok[np.argmin(ok)]])
    return (at, f"misplaced {chr(ch[tok[np.argmin(ok)]])!r} in an event",
            '"key": value members separated by single commas')


def _check_nested(a, s, ch, before) -> Optional[Problem]:
    """Objects and arrays nested in members: ``{ "k": v, ... }`` and ``[ v, ... ]``.

    The structural characters of each nested container are taken level by
    level (sorted by depth, then position, each container's own characters
    are contiguous): objects alternate ``: ,`` from ``{`` to ``}``, arrays
    hold only ``,``, and every gap between two of them holds something
    (a key or a value) except in ``{}`` and ``[]``. Cost follows the
    nested content only. Scalars and strings inside are not parsed.
    """
    opener = (before >= 1) & ((ch == _LBRACE) | (ch == ord("[")))
    inner = (before >= 2) & ((ch == _COLON) | (ch == _COMMA) | (ch == _RBRACE) | (ch == ord("]")))
    tok = np.flatnonzero(opener | inner)
    if not len(tok):
        return None
    level = before[tok] + opener[tok]
    tok = tok[np.lexsort((tok, level))]
    tc, op = ch[tok], opener[tok]
    kind = tc[np.maximum.accumulate(np.where(op, np.arange(len(tok)), 0))]  # container's opener
    prev = np.r_[np.uint8(0), tc[:-1]]
    obj = kind == _LBRACE
    ok = np.where(op, True, np.where(
        obj, np.where(tc == _COLON, (prev == _LBRACE) | (prev == _COMMA),
                      np.where(tc == _COMMA, prev == _COLON,
                               (prev == _COLON) | (prev == _LBRACE))),
        tc != _COLON))
    follow = np.flatnonzero(~op)              # gaps before each non-opening character
    lo, hi = strip(a, s[tok[follow - 1]] + 1, s[tok[follow]])
    pf, cf = prev[follow], tc[follow]
    empty_obj = (pf == _LBRACE) & (cf == _RBRACE)
    blank = lo >= hi
    ok[follow[blank & ~empty_obj & ~((pf == ord("[")) & (cf == ord("]")))]] = False
    ok[follow[empty_obj & ~blank]] = False    # '{ x }'
    is_key = obj[follow] & (cf == _COLON)
    key = np.flatnonzero(is_key & ~blank)  # a key: one string
    ok[follow[key[(a[lo[key]] != _QUOTE) | (a[hi[key] - 1] != _QUOTE) | (hi[key] - lo[key] < 2)]]] = False
    # a value: one string, one container (checked at its own level) or a scalar
    value = np.flatnonzero(~is_key & ~blank & ~empty_obj)
    vlo, vhi = lo[value], hi[value]
    first, last = a[vlo], a[vhi - 1]
    string = first == _QUOTE
    container = (first == _LBRACE) | (first == ord("["))
    ok[follow[value[string & ((last != _QUOTE) | (vhi - vlo < 2))]]] = False
    ok[follow[value[container & (last != np.where(first == _LBRACE, _RBRACE, ord("]")))]]] = False
    scalar = ~string & ~container
    bad = bad_scalar(a, vlo[scalar], vhi[scalar])
    found = None if bad < 0 else (bad, f"{_token(a, bad)!r} is not a JSON value",
                                  "a string, number, true, false or null")
    if ok.all():
        return found
    at = int(s[tok[~ok]].min())
    if found is not None and found[0] < at:
        return found
    return (at, f"misplaced {chr(a[at])!r} in a nested object or array",
            "JSON objects and arrays inside member values")


def _token(a: np.ndarray, at: int) -> str:
    """The bytes of a scalar from ``at`` to the next delimiter, as text (for messages)."""
    end = at
    while end < len(a) and end - at < 40 and a[end] not in b' \t\r\n,:]}"{[\0':
        end += 1
    return bytes(a[at:end]).decode("utf-8", "replace")


def _unescaped(a: np.ndarray, pos: np.ndarray, code: np.ndarray) -> np.ndarray:
    """False for quotes escaped by an odd run of backslashes before them."""
    keep = np.ones(len(pos), dtype=bool)
    qi = np.flatnonzero(code == _QUOTE)
    at = pos[qi] - 1
    run = np.zeros(len(qi), dtype=np.int64)
    live = np.flatnonzero((at >= 0) & (a[np.maximum(at, 0)] == 92))
    while len(live):
        run[live] += 1
        at[live] -= 1
        live = live[(at[live] >= 0) & (a[np.maximum(at[live], 0)] == 92)]
    keep[qi[(run & 1) == 1]] = False
    return keep


def _keys(a, pos, code, nq, si, s, ci):
    """Each member's key: the one string between the preceding '{' or ',' and the colon."""
    pc, prev = si[ci], si[np.maximum(ci - 1, 0)]
    k0, k1 = prev + 1, np.maximum(pc - 1, 0)  # its quotes' indexes in pos
    k0 = np.minimum(k0, k1)
    ok = (k1 > k0) & (code[k0] == _QUOTE) & (code[k1] == _QUOTE) & (nq[k1] - nq[k0] == 1)
    key_start, key_end = pos[k0] + 1, pos[k1]
    problems = []
    if not ok.all():
        i = int(np.argmax(~ok))
        problems.append((int(s[ci[i] - 1]) + 1, "a member has no string key",
                         'a quoted key followed by ":"'))
    good = np.flatnonzero(ok)
    bad = check_blank(a, np.concatenate([s[ci[good] - 1] + 1, key_end[good] + 1]),
                      np.concatenate([key_start[good] - 1, s[ci[good]]]))
    if bad >= 0:
        problems.append((bad, f"unexpected {chr(a[bad])!r} around a key",
                         'whitespace, a quoted key and ":"'))
    return (key_start, key_end), min(problems) if problems else None


def _values(a, pos, code, nq, si, s, ch, depth, before, ci):
    """Each member's value span: a string with its quotes, a nested value, or a scalar."""
    nx = ci + 1                               # the character after the colon
    pc, pn = si[ci], si[nx]
    cn = ch[nx]
    flat = ((cn == _COMMA) & (before[nx] == 1)) | ((cn == _RBRACE) & (depth[nx] == 0))
    between = nq[pn] - nq[pc]                 # quotes between the colon and that character
    colon = s[ci]
    start, end = colon + 1, s[nx].copy()
    string = flat & (between == 2)
    scalar = flat & (between == 0)
    nested = ~flat & (between == 0) & (pn == pc + 1) & ((cn == _LBRACE) | (cn == ord("[")))
    problems = []
    junk = ~(string | scalar | nested)
    if junk.any():
        i = int(np.argmax(junk))
        problems.append((int(colon[i]) + 1, "a member value is not one JSON value",
                         "a string, number, literal, object or array"))
    gaps_lo, gaps_hi = [], []
    if string.any():
        st = np.flatnonzero(string)
        q0, q1 = pos[pc[st] + 1], pos[pn[st] - 1] + 1
        gaps_lo += [start[st], q1]
        gaps_hi += [q0, end[st]]
        start[st], end[st] = q0, q1
    if nested.any():
        nt = np.flatnonzero(nested)
        term = np.flatnonzero(((ch == _COMMA) & (before == 1)) | ((ch == _RBRACE) & (depth == 0)))
        after = term[np.minimum(np.searchsorted(s[term], end[nt]), len(term) - 1)]
        gaps_lo += [start[nt], s[after - 1] + 1]
        gaps_hi += [end[nt], s[after]]
        start[nt], end[nt] = end[nt], s[after - 1] + 1
    bad = check_blank(a, np.concatenate(gaps_lo), np.concatenate(gaps_hi)) if gaps_lo else -1
    if bad >= 0:
        problems.append((bad, f"unexpected {chr(a[bad])!r} around a value",
                         "whitespace between a value and ':' or ','"))
    sc = np.flatnonzero(scalar)
    if len(sc):
        start[sc], end[sc] = strip(a, start[sc], end[sc])
        empty = sc[start[sc] >= end[sc]]
        if len(empty):
            problems.append((int(colon[empty[0]]) + 1, "a member has no value",
                             "a JSON value after ':'"))
    return (start, end), min(problems) if problems else None


def _check_top_level(a, s, ch, before, ends, continuing) -> Optional[Problem]:
    """Events separated by single commas and whitespace; nothing else at depth 0."""
    top = np.flatnonzero(before == 0)          # '{' of events, ',' and a final ']'
    if not len(top):
        return None
    tc = ch[top]
    bad = (tc != _LBRACE) & (tc != _COMMA) & (tc != ord("]"))
    found = []
    if bad.any():
        p = int(s[top[np.argmax(bad)]])
        found.append((p, f"unexpected {chr(a[p])!r} between events",
                      "an event object, ',' or ']'"))
    seq = tc[:-1] if tc[-1] == ord("]") else tc
    expect = np.empty(len(seq), dtype=np.uint8)  # [','] '{' ',' '{' ... (',' may end it)
    expect[0::2] = _COMMA if continuing else _LBRACE
    expect[1::2] = _LBRACE if continuing else _COMMA
    wrong = np.flatnonzero((seq != expect) & ~bad[:len(seq)])
    if len(wrong):
        k = int(wrong[0])
        at = int(s[top[k]])
        if k == 0 and not continuing:
            found.append((at, "misplaced ',' before an event", "one ',' between events"))
        else:
            prev = np.searchsorted(ends, at, side="right") - 1
            found.append((int(ends[prev]) if prev >= 0 else 0,
                          "events are not separated by exactly one ','",
                          "one ',' between events"))
    # only whitespace before the first token and between tokens (an event's inside skipped)
    lo = s[top] + 1
    opens = np.flatnonzero(tc == _LBRACE)[:len(ends)]
    lo[opens] = ends[:len(opens)]
    bad_at = check_blank(a, np.r_[0, lo[:-1]], s[top])
    if bad_at >= 0:
        found.append((bad_at, f"unexpected {chr(a[bad_at])!r} between events",
                      "',' between event objects"))
    return min(found) if found else None


def _fail(source: str, pos: int, problem: str, expected: str) -> None:
    raise ReadError(source, problem, position=f"byte {pos}", expected=expected)

