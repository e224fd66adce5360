"""Heap figure tokens read with numpy: ``102M->24M(128M)``, ``2332M(28%)->190M(2%)``,
``29696K(38400K)->4064K(38400K)``, ``13.00M->3.00M``, G1's region counts ``67->0(63)``.

Grammar (per row, between ``lo`` and ``hi``)::

    figure  := number [unit] ["(" number ("%" | unit) ")"]
    token   := figure "->" figure ["(" number unit ")"]

A number is ``digits[.digits]``, converted exactly as ``float(text)`` does
(one integer division: both sides exact), a unit one of ``B K M G T``; a
figure without a unit counts regions (its factor is ``region``). Rows that
do not follow the grammar have ``ok`` False.

Examples
--------
>>> import numpy as np
>>> text = b"102M->24M(128M) 2332M(28%)->190M(2%) 67->0(63) 13.50M->3.00M"
>>> pad = np.frombuffer(text + b"\\0" * 32, np.uint8)
>>> t = read_token(pad, np.array([0, 16, 37, 47]), np.array([15, 36, 46, 60]), region=2.0)
>>> t["ok"].tolist(), (t["before"] / 2 ** 20).tolist()[:2], t["after"].tolist()[2]
([True, True, True, True], [102.0, 2332.0], 0.0)
>>> t["capacity"].tolist()[2], t["after_pct"].tolist()[1], t["before"].tolist()[3] / 2 ** 20
(126.0, 2.0, 13.5)
"""

from __future__ import annotations

from typing import Dict

import numpy as np

from .scan import ROWS, columns, read_int, run_length

_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[48:58] = True
_UNIT = np.full(256, np.nan)
for _c, _f in zip(b"BKMGT", (1.0, 2.0 ** 10, 2.0 ** 20, 2.0 ** 30, 2.0 ** 40)):
    _UNIT[_c] = _f
_POW10 = 10.0 ** np.arange(41)
_POW10_INT = 10 ** np.arange(19, dtype=np.int64)


def _number(pad, pos, hi, ok):
    # digits are read for the rows that may hold a number only, decimals for those with a dot
    n = np.zeros(len(pos), np.int64)
    sel = np.flatnonzero(ok)
    if len(sel):
        n[sel] = run_length(pad, pos[sel], hi[sel], _DIGIT, 18)
    ok = ok & (n > 0)
    p = pos + n
    dot = ok & (pad[p] == 46)
    m = np.zeros(len(pos), np.int64)
    d = np.flatnonzero(dot)
    if len(d):
        m[d] = run_length(pad, p[d] + 1, hi[d], _DIGIT, 12)
    dot &= m > 0
    whole = np.zeros(len(pos), np.int64)
    sel = np.flatnonzero(ok)
    if len(sel):
        whole[sel] = read_int(pad, pos[sel], n[sel])
    frac = np.zeros(len(pos), np.int64)
    d = np.flatnonzero(dot)
    if len(d):
        frac[d] = read_int(pad, p[d] + 1, m[d])
    k = np.where(dot, m, 0)
    value = (whole * _POW10[k].astype(np.int64) + frac) / _POW10[k]
    return np.where(ok, value, np.nan), np.where(dot, p + 1 + m, p), ok


#: significant digits below which ``mantissa / 10**k`` is exact (mantissa < 2**53)
_EXACT_DIGITS = 15


def decimals(pad: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """``(value, number, exact)`` per row of ``pad[lo:hi]``: ``number`` when the bytes are a
    decimal ``digits[.digits]``; ``exact`` when its value is ``value``, the float
    ``float(text)`` gives (at most 15 digits: one division of exact operands). A
    number with more digits is left to the caller (``value`` NaN).

    >>> pad = np.frombuffer(b"2.704 12 1.2.3 5. 0.0000001 1234567890123456789" + b"\\0" * 8,
    ...                     np.uint8)
    >>> v, num, ex = decimals(pad, np.array([0, 6, 9, 15, 18, 28]),
    ...                       np.array([5, 8, 14, 17, 27, 47]))
    >>> v.tolist()[:2], bool(v[4] == float("0.0000001"))
    ([2.704, 12.0], True)
    >>> num.astype(int).tolist(), ex.astype(int).tolist()
    ([1, 1, 0, 0, 1, 1], [1, 1, 0, 0, 1, 0])
    """
    size = hi - lo
    value = np.full(len(lo), np.nan)
    number = np.zeros(len(lo), bool)
    exact = np.zeros(len(lo), bool)
    # up to 16 bytes (15 digits and a dot): read as a matrix of rows x bytes (ROWS at a time)
    every = np.flatnonzero((size > 0) & (size <= _EXACT_DIGITS + 1))
    for at in range(0, len(every), ROWS):
        short = every[at:at + ROWS]
        short = short[~_same_shape(pad, lo, size, short, value, number, exact)]
        if not len(short):
            continue
        width = int(size[short].max())
        col = np.arange(width)
        inside = col < size[short, None]
        ch = pad[np.minimum(lo[short, None] + col, len(pad) - 1)]
        digit = _DIGIT[ch] & inside
        dot = (ch == 46) & inside
        dots = dot.sum(axis=1)
        rows = np.arange(len(short))
        ok = ((digit | dot) == inside).all(axis=1) & (dots <= 1) & digit[:, 0] & \
            digit[rows, size[short] - 1]  # digits on both sides of a dot
        number[short] = ok
        good = ok & (size[short] - dots <= _EXACT_DIGITS)
        exact[short] = good
        # each digit's weight: 10 ** (the digits after it)
        after = np.cumsum(digit[:, ::-1], axis=1)[:, ::-1] - digit
        mantissa = np.where(digit, (ch.astype(np.int64) - 48) *
                            _POW10_INT[np.minimum(after, 18)], 0).sum(axis=1)
        k = np.where(dots > 0, size[short] - 1 - np.argmax(dot, axis=1), 0)
        value[short] = np.where(good, mantissa / _POW10[k], np.nan)
    # longer ones: only whether they are numbers (their value is left to the caller)
    long = np.flatnonzero((size > _EXACT_DIGITS + 1) & _DIGIT[pad[np.maximum(lo, 0)]])
    if len(long):
        n = run_length(pad, lo[long], hi[long], _DIGIT, 40)
        p = lo[long] + n
        has_dot = (p < hi[long]) & (pad[p] == 46)
        m = np.zeros(len(long), np.int64)
        d = np.flatnonzero(has_dot)
        if len(d):
            m[d] = run_length(pad, p[d] + 1, hi[long][d], _DIGIT, 40)
        has_dot &= m > 0
        number[long] = np.where(has_dot, p + 1 + m, p) == hi[long]
    return value, number, exact


def _same_shape(pad, lo, size, rows, value, number, exact) -> np.ndarray:
    """Read the ``rows`` whose numbers share their shape with many others (a log's
    uptimes: the same digits before and after the dot) as one integer product per
    shape; which of ``rows`` were read (the others are left to the general route)."""
    done = np.zeros(len(rows), bool)
    widths, counts = np.unique(size[rows], return_counts=True)
    for width in widths[counts >= _SHAPE_ROWS].tolist():
        group = np.flatnonzero(size[rows] == width)
        ch = columns(pad, lo[rows[group]], width)  # (width, rows)
        dot_at = np.flatnonzero((ch == 46).any(axis=1))
        if len(dot_at) > 1 or (len(dot_at) == 1 and (
                dot_at[0] in (0, width - 1) or not (ch[dot_at[0]] == 46).all())):
            continue  # dots in several places, or not in every row
        digits = np.delete(ch, dot_at, axis=0)
        if len(digits) > _EXACT_DIGITS or not _DIGIT[digits].all():
            continue
        mantissa = _POW10_INT[len(digits) - 1::-1] @ (digits.astype(np.int64) - 48)
        k = width - 1 - dot_at[0] if len(dot_at) else 0
        at = rows[group]
        value[at] = mantissa / _POW10[k]
        number[at] = exact[at] = True
        done[group] = True
    return done


#: rows of one shape worth reading by :func:`_same_shape`
_SHAPE_ROWS = 64


def _figure(pad, pos, hi, ok, region):
    value, p, ok = _number(pad, pos, hi, ok)
    unit = _UNIT[pad[p]]
    has_unit = ~np.isnan(unit)
    factor = np.where(has_unit, unit, region)
    p = p + has_unit
    # optional "(N%)" or "(N unit)"
    paren = ok & (pad[p] == 40)
    inner, q, iok = _number(pad, p + 1, hi, paren)
    pct = iok & (pad[q] == 37)
    iunit = _UNIT[pad[q]]
    iunit_ok = iok & ~pct & ~np.isnan(iunit)
    close = np.where(pct | iunit_ok, q + 1, q)
    closed = (pct | iunit_ok) & (pad[close] == 41)
    # a bare "(N)" is not this figure's: the token's last group (a region capacity)
    p = np.where(paren & closed, close + 1, p)
    return (value * factor, has_unit, np.where(pct & closed, inner, np.nan),
            np.where(iunit_ok & closed, inner * np.where(np.isnan(iunit), 1, iunit), np.nan),
            p, ok)


def read_token(pad: np.ndarray, lo: np.ndarray, hi: np.ndarray,
               region: float = np.nan) -> Dict[str, np.ndarray]:
    """The figures of a heap token per row (see the module docs)."""
    ok = hi > lo
    before, bunit, bpct, bcap, p, ok = _figure(pad, lo, hi, ok, region)
    ok &= (pad[p] == 45) & (pad[p + 1] == 62)
    after, aunit, apct, acap, p, ok = _figure(pad, p + 2, hi, ok, region)
    # a last "(capacity unit)"
    paren = ok & (p < hi) & (pad[p] == 40)
    cap, q, cok = _number(pad, p + 1, hi, paren)
    cunit = _UNIT[pad[q]]
    has = ~np.isnan(cunit)
    q = q + has
    cok &= pad[q] == 41
    capacity = np.where(cok, cap * np.where(has, cunit, region), np.nan)
    p = np.where(cok, q + 1, p)
    ok &= (~paren | cok) & (p == hi)
    capacity = np.where(np.isnan(capacity), acap, capacity)
    return {"ok": ok, "units": bunit & aunit, "before": before, "after": after,
            "capacity": capacity,
            "before_cap": bcap, "before_pct": bpct, "after_pct": apct}
