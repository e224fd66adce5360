"""The members of a scanned block's events that the decoder reads, as columns.

:func:`member_spans` finds, for each of the keys read (``ph``, ``ts``, ``dur``,
``pid``, ``tid``, ``name``, ``args``; any other member is skipped), which
events have it and where its value lies (the last duplicate wins; keys
written with escapes compare by their text). :func:`number_column` and
:func:`ident_column` turn those spans into integer columns, and
:func:`args_json` decodes one ``args`` text, each error naming the byte.

Examples
--------
>>> from graphframe_readers.traces.chrome.scan import scan_events
>>> buf = b'{"ph": "X", "ts": 1.5, "pid": "io"}, {"ph": "i", "ts": 2, "pid": 3}]'
>>> scan = scan_events(buf, "t.json", 1, False)  # buf: the bytes after the '[' at byte 0
>>> spans = member_spans(scan.a, scan, "t.json", 1)
>>> events, starts, ends = spans["ts"]
>>> events.tolist(), [buf[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
([0, 1], [b'1.5', b'2'])
>>> number_column(scan.a, spans["ts"], 2, 3, "t.json", 1, "ts")[0].tolist()
[1500, 2000]
>>> ident_column(scan.a, buf, spans["pid"], 2, "t.json", 1, {}).tolist()
[0, 3]
"""

from __future__ import annotations

import json
from typing import Any, Dict, Tuple

import numpy as np

from ...errors import ReadError
from .values import bad_scalar, key_code, key_codes, parse_fixed, small_ints

#: the members read (all keys <= 4 bytes); any other member is skipped
_KEYS = {k: np.uint64(key_code(k)) for k in ("ph", "ts", "dur", "pid", "tid", "name", "args")}

#: (event index, value start, value end) of one member in every event that has it
Span = Tuple[np.ndarray, np.ndarray, np.ndarray]


def member_spans(a: np.ndarray, scan: Any, source: str, base: int) -> Dict[str, Span]:
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
    _check_skipped_scalars(a, scan, code, source, base)
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


def _check_skipped_scalars(a: np.ndarray, scan: Any, code: np.ndarray, source: str,
                           base: int) -> None:
    """The scalar values of the members not read (``cat``, ``id``...) are JSON values:
    a number, ``true``, ``false`` or ``null`` (the members read are checked as parsed)."""
    other = np.flatnonzero(~np.isin(code, np.array(list(_KEYS.values()), dtype=np.uint64)))
    if not len(other):
        return
    lo, hi = scan.value_start[other], scan.value_end[other]
    first = a[lo]
    scalar = (first != 34) & (first != 123) & (first != 91)  # not '"', '{', '['
    bad = bad_scalar(a, lo[scalar], hi[scalar])
    if bad >= 0:
        end = int(hi[scalar][np.argmax(lo[scalar] == bad)])
        raise ReadError(source, f"{bytes(a[bad:min(end, bad + 40)]).decode('utf-8', 'replace')!r} "
                        "is not a JSON value", position=f"byte {base + bad}",
                        expected="a string, number, true, false or null")


def _escaped_keys(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Indexes of the keys that contain a backslash (keys are in file order)."""
    slash = np.flatnonzero(a == 92)
    k = np.searchsorted(start, slash, side="right") - 1
    ok = k >= 0
    k, slash = k[ok], slash[ok]
    return np.unique(k[slash < end[k]])


def number_column(a: np.ndarray, span: Span, n: int, scale: int, source: str, base: int,
                  what: str) -> Tuple[np.ndarray, np.ndarray]:
    """A decimal member of ``n`` events times ``10**scale`` as int64 (0 where absent),
    and which events have it."""
    sel, vs, ve = span
    out = np.zeros(n, dtype=np.int64)
    has = np.zeros(n, dtype=bool)
    if len(sel):
        out[sel] = parse_fixed(a, vs, ve, scale, source, base, what)
        has[sel] = True
    return out, has


def ident_column(a: np.ndarray, buf: bytes, span: Span, n: int, source: str, base: int,
                 text_ids: Dict[str, int]) -> np.ndarray:
    """``pid`` or ``tid`` of ``n`` events as int64 (0 where absent); string ids are
    numbered in order of appearance through ``text_ids`` (updated)."""
    sel, vs, ve = span
    out = np.zeros(n, dtype=np.int64)
    if not len(sel):
        return out
    small = small_ints(a, vs, ve)
    if small is not None:
        out[sel] = small
        return out
    text = a[vs] == 34
    if (~text).any():
        out[sel[~text]] = parse_fixed(a, vs[~text], ve[~text], 0, source, base, "pid/tid")
    for i, s, e in zip(sel[text].tolist(), vs[text].tolist(), ve[text].tolist()):
        try:
            label = json.loads(buf[s:e])
        except ValueError as exc:
            raise ReadError(source, f"bad 'pid'/'tid' string: {exc}",
                            position=f"byte {base + s}", expected="a JSON string") from exc
        out[i] = text_ids.setdefault(label, len(text_ids))
    return out


def args_json(text: str, source: str, base: int, scan: Any, i: int) -> Any:
    """The ``args`` text of event ``i`` of ``scan`` decoded."""
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ReadError(source, f"bad 'args' value: {exc}",
                        position=f"byte {base + int(scan.starts[i])}",
                        expected="a JSON object") from exc
