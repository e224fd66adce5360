"""The specification lines of a callgrind file (everything but cost lines).

Header lines (``key: value``) are few and read one by one. The position lines
(``ob=``, ``fl=``, ``fi=``, ``fe=``, ``fn=``, ``cob=``, ``cfi=``/``cfl=``,
``cfn=``, with name compression) and association lines (``calls=``,
``jump=``, ``jcnd=``) can be a third of a large file and are decoded with
numpy: the key of every line from its first bytes, compressed ids as numbers,
names interned once per definition, and the state each line is read in (the
current object, file and function; the ``cob=``/``cfi=`` given for the next
call) by forward-filling the positions of the lines that set it.

A function is told apart by (object, file, name): the object and file in force
when its ``fn=`` line comes, as KCachegrind does. A callee is in the object
given by ``cob=`` and the file given by ``cfi=``/``cfl=`` since the previous
call, and otherwise in the caller's current object and file (``fi=``/``fe=``
included): callgrind writes ``cob=``/``cfi=`` only for the call that follows,
and only when they differ from the caller's (checked on real profiles: every
callee then names a function that has its own ``fn=`` block).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..errors import ReadError
from .lines import Lines, all_digits, decimal_values

INT = np.int64
EXPECTED_LINE = ("a callgrind line: 'key: value' (header), 'ob=', 'fl=', 'fi=', 'fe=', "
                 "'fn=', 'cob=', 'cfi=', 'cfl=', 'cfn=', 'calls=', 'jump=', 'jcnd=', a cost "
                 "line or a '#' comment")

# kinds of specification lines
HEADER, OB, FL, FI, FE, FN, COB, CFI, CFL, CFN, CALLS, JUMP, JCND, JFI, JFN = range(15)
_KEYS = {b"ob": OB, b"fl": FL, b"fi": FI, b"fe": FE, b"fn": FN, b"cob": COB, b"cfi": CFI,
         b"cfl": CFL, b"cfn": CFN, b"calls": CALLS, b"jump": JUMP, b"jcnd": JCND, b"jfi": JFI,
         b"jfn": JFN}
#: name space of each position kind (compressed ids are per space)
_SPACE = {OB: 0, COB: 0, FL: 1, FI: 1, FE: 1, CFI: 1, CFL: 1, JFI: 1, FN: 2, CFN: 2, JFN: 2}
_SPACE_KEY = ("ob", "fl", "fn")
_KEY_RE = re.compile(r"([A-Za-z][A-Za-z0-9_]*)[ \t]*:[ \t]*(.*)$")


@dataclass
class Part:
    """One part of the file: its header values."""

    number: int
    first_line: int
    thread: Optional[int] = None
    events: Tuple[str, ...] = ()
    positions: Tuple[str, ...] = ("line",)
    summary: Optional[str] = None
    totals: Optional[str] = None
    summary_line: int = -1
    totals_line: int = -1
    header: Dict[str, Any] = field(default_factory=dict)


@dataclass
class Specs:
    """What the specification lines say, one entry per specification line."""

    line: np.ndarray          # line number (0-based)
    kind: np.ndarray          # HEADER, OB, ... (module constants)
    function: np.ndarray      # function in force after the line (-1: none yet)
    part: np.ndarray          # index into parts
    call_callee: np.ndarray   # callee of a calls= line, else -1
    call_count: np.ndarray    # count of a calls= line, else 0
    keys: List[Tuple[str, str, str]]  # (object, file, name) of every function id
    parts: List[Part]
    header: Dict[str, Any]


def read_specs(lines: Lines, rows: np.ndarray, body_rows: np.ndarray, source: Any) -> Specs:
    """Decode the specification lines ``rows`` (0-based line numbers, ascending);
    ``body_rows`` are the cost lines (they end a part's header)."""
    buf = lines.buf
    s, e = lines.starts[rows], lines.ends[rows]
    n = len(rows)
    eq = _first_byte_in(buf, ord("="), s, e)
    colon = _first_byte_in(buf, ord(":"), s, e)
    assign = (eq >= 0) & ((colon < 0) | (eq < colon))
    kind = np.full(n, HEADER, dtype=np.int8)
    kind[assign] = _key_kinds(buf, s[assign], eq[assign], rows[assign], source)
    unreadable = np.flatnonzero(~assign & (colon < 0))
    if len(unreadable):
        k = int(unreadable[0])
        raise ReadError(source, f"cannot read the line {_text(buf, s[k], e[k])[:60]!r}",
                        position=f"line {rows[k] + 1}", expected=EXPECTED_LINE)
    value = np.where(assign, eq + 1, 0)
    sid, names, empty = _names(buf, kind, value, e, rows, source)
    parts, part_of, header = _header(buf, rows, kind, s, e, body_rows, source)
    function, keys, callee = _functions(kind, sid, empty, rows, source)
    count = np.zeros(n, dtype=INT)
    calls = np.flatnonzero(kind == CALLS)
    if len(calls):
        count[calls] = _call_counts(buf, value[calls], e[calls], rows[calls], source)
    return Specs(line=rows.astype(INT), kind=kind, function=function, part=part_of,
                 call_callee=callee, call_count=count,
                 keys=[(names[0][a], names[1][b], names[2][c]) for a, b, c in keys],
                 parts=parts, header=header)


# ------------------------------------------------------------------ keys
def _first_byte_in(buf: np.ndarray, byte: int, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Offset of the first ``byte`` in each range ``s:e`` (-1 if none)."""
    at = np.flatnonzero(buf == byte)
    if not len(at):
        return np.full(len(s), -1, dtype=INT)
    k = np.searchsorted(at, s)
    found = np.where(k < len(at), at[np.minimum(k, len(at) - 1)], -1)
    return np.where((found >= 0) & (found < e), found, -1).astype(INT)


def _key_kinds(buf, s, eq, rows, source) -> np.ndarray:
    """The kind of every ``key=`` line from its key (at most 5 bytes)."""
    length = eq - s
    code = np.zeros(len(s), dtype=INT)
    for j in range(5):
        byte = buf[np.minimum(s + j, len(buf) - 1)].astype(INT)
        code |= np.where(j < length, byte, 0) << (8 * j)
    code[length > 5] = -1
    out = np.full(len(s), -1, dtype=np.int8)
    for key, kind in _KEYS.items():
        packed = sum(b << (8 * j) for j, b in enumerate(key))
        out[code == packed] = kind
    bad = np.flatnonzero(out < 0)
    if len(bad):
        k = int(bad[0])
        key = _text(buf, s[k], eq[k])
        raise ReadError(source, f"unknown specification {key}=", position=f"line {rows[k] + 1}",
                        expected=EXPECTED_LINE)
    return out


# ------------------------------------------------------------------ names
def _names(buf, kind, value, e, rows, source
           ) -> Tuple[np.ndarray, List[List[str]], List[int]]:
    """The string id (per name space) of every position line's name, undoing
    name compression (-1 for other lines); the strings of each name space; the id
    of the empty string in each space (the name of an object or file never given)."""
    n = len(kind)
    sid = np.full(n, -1, dtype=INT)
    tables: List[Dict[bytes, int]] = [{}, {}, {}]
    strings: List[List[str]] = [[], [], []]
    is_name = np.isin(kind, list(_SPACE))
    idx = np.flatnonzero(is_name)
    if not len(idx):
        return sid, [[""], [""], [""]], [0, 0, 0]
    v = value[idx].copy()
    end = e[idx]
    for _ in range(8):  # blanks after '='
        blank = (v < end) & ((buf[np.minimum(v, len(buf) - 1)] == 32)
                             | (buf[np.minimum(v, len(buf) - 1)] == 9))
        if not blank.any():
            break
        v = v + blank
    # "(id)" or "(id) name": digits in parentheses (a name may start with "(" too:
    # cachegrind writes "fn=(below main)")
    opens = (v < end) & (buf[np.minimum(v, len(buf) - 1)] == 40)
    close = _first_byte_in(buf, ord(")"), v, end)
    compressed = opens & (close > v + 1)
    maybe = np.flatnonzero(compressed)
    compressed[maybe] = all_digits(buf, v[maybe] + 1, close[maybe])
    space = np.array([_SPACE.get(int(k), 0) for k in range(15)], dtype=INT)[kind[idx]]
    # names given in full: uncompressed lines, and the definitions "(id) name"
    name_start = np.where(compressed, close + 1, v)
    for _ in range(8):
        blank = (name_start < end) & (buf[np.minimum(name_start, len(buf) - 1)] == 32)
        if not blank.any():
            break
        name_start = name_start + blank
    has_name = name_start < end
    full = np.flatnonzero(has_name | ~compressed)
    raw = buf.data  # a memoryview: names are sliced out, the buffer is not copied
    full_sid = np.empty(len(full), dtype=INT)
    sp_list = space[full].tolist()
    for j, (a, b, sp) in enumerate(zip(name_start[full].tolist(), end[full].tolist(), sp_list)):
        text = raw[a:b].tobytes().rstrip(b" \t")
        table = tables[sp]
        got = table.get(text)
        if got is None:
            got = table[text] = len(strings[sp])
            strings[sp].append(_decode(text))
        full_sid[j] = got
    sid_local = np.full(len(idx), -1, dtype=INT)
    sid_local[full] = full_sid
    comp = np.flatnonzero(compressed)
    if len(comp):
        ids, bad, _ = decimal_values(buf, v[comp] + 1, close[comp])
        if bad is not None:
            k = idx[comp[bad]]
            raise ReadError(source, "the compressed name id is too large",
                            position=f"line {rows[k] + 1}", expected="'(NUMBER) NAME'")
        # resolve references through the definitions of the same space and id
        key = space[comp] * (ids.max() + 1) + ids
        defines = has_name[comp]
        d_key, d_first = np.unique(key[defines], return_index=True)
        d_sid = sid_local[comp[defines]][d_first]
        d_pos = comp[defines][d_first]  # first definition (index into idx)
        _check_redefinitions(key[defines], sid_local[comp[defines]], idx[comp[defines]],
                             rows, kind, source)
        ref = ~defines
        at = np.searchsorted(d_key, key[ref])
        at_c = np.minimum(at, max(len(d_key) - 1, 0))
        known = (at < len(d_key)) & (d_key[at_c] == key[ref]) if len(d_key) else \
            np.zeros(int(ref.sum()), dtype=bool)
        known &= d_pos[at_c] < comp[ref] if len(d_key) else known
        if not known.all():
            k = idx[comp[ref][np.flatnonzero(~known)[0]]]
            key_name = [n for n, c in _KEYS.items() if c == kind[k]][0].decode()
            sp = _SPACE_KEY[_SPACE[int(kind[k])]]
            number = int(ids[ref][np.flatnonzero(~known)[0]])
            raise ReadError(source, f"{key_name}=({number}) refers to a name that was never "
                            "defined", position=f"line {rows[k] + 1}",
                            expected=f"'({number}) NAME' on an earlier {sp}-type line")
        sid_local[comp[ref]] = d_sid[at_c]
    sid[idx] = sid_local
    for sp in range(3):
        if "" not in tables[sp]:  # the empty name: a function without ob=/fl= lines
            tables[sp][b""] = len(strings[sp])
            strings[sp].append("")
    return sid, strings, [tables[sp][b""] for sp in range(3)]


def _check_redefinitions(keys, sids, at, rows, kind, source) -> None:
    if not len(keys):
        return
    order = np.lexsort((at, keys))
    k, v = keys[order], sids[order]
    clash = np.flatnonzero((k[1:] == k[:-1]) & (v[1:] != v[:-1]))
    if len(clash):
        where = int(at[order][clash[0] + 1])
        raise ReadError(source, "a compressed name id is defined twice with different names",
                        position=f"line {rows[where] + 1}",
                        expected="one name per '(id)' in each name space")


def _decode(text: bytes) -> str:
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        return text.decode("latin-1")  # names are bytes in the file; keep them all


def _text(buf: np.ndarray, a: int, b: int) -> str:
    return _decode(bytes(buf[int(a):int(b)]))


# ------------------------------------------------------------------ state
def _last(mask: np.ndarray) -> np.ndarray:
    """Per line: the index of the last line ``<=`` it where ``mask`` holds (-1 if none)."""
    idx = np.where(mask, np.arange(len(mask), dtype=INT), -1)
    return np.maximum.accumulate(idx) if len(idx) else idx


def _functions(kind, sid, empty, rows, source):
    """Function ids: of every FN line (after it, by forward fill) and of the callee
    of every CALLS line; ids numbered by first appearance."""
    n = len(kind)

    def current(mask, empty):
        last = _last(mask)
        return np.where(last >= 0, sid[np.maximum(last, 0)], empty)

    ob = current(kind == OB, empty[0])
    fl = current(kind == FL, empty[1])
    cur_file = current(np.isin(kind, (FL, FI, FE)), empty[1])
    reset = _last(np.isin(kind, (FN, CALLS)))
    before = np.empty(n, dtype=INT)  # last reset strictly before each line
    before[:1] = -1
    before[1:] = reset[:-1]
    last_cob = _last(kind == COB)
    last_cfl = _last(np.isin(kind, (CFI, CFL)))
    last_cfn = _last(kind == CFN)
    fn_lines = np.flatnonzero(kind == FN)
    call_lines = np.flatnonzero(kind == CALLS)
    if len(call_lines):
        no_cfn = call_lines[last_cfn[call_lines] < 0]
        if len(no_cfn):
            raise ReadError(source, "a calls= line without a cfn= line before it",
                            position=f"line {rows[no_cfn[0]] + 1}",
                            expected="'cfn=NAME' naming the called function")
        no_fn = call_lines[_last(kind == FN)[call_lines] < 0]
        if len(no_fn):
            raise ReadError(source, "a calls= line comes before any fn= line",
                            position=f"line {rows[no_fn[0]] + 1}", expected="'fn=NAME' first")
    c = call_lines
    c_ob = np.where(last_cob[c] > before[c], sid[np.maximum(last_cob[c], 0)], ob[c])
    c_fl = np.where(last_cfl[c] > before[c], sid[np.maximum(last_cfl[c], 0)], cur_file[c])
    c_fn = sid[last_cfn[c]] if len(c) else np.zeros(0, dtype=INT)
    # (object, file, name) triples of fn= lines and callees, in line order
    where = np.concatenate([fn_lines, c])
    triples = np.column_stack([np.concatenate([ob[fn_lines], c_ob]),
                               np.concatenate([fl[fn_lines], c_fl]),
                               np.concatenate([sid[fn_lines], c_fn])])
    order = np.argsort(where, kind="stable")
    where, triples = where[order], triples[order]
    if len(triples):
        size = triples.max(axis=0) + 1
        if float(size[0]) * float(size[1]) * float(size[2]) < 2.0 ** 62:  # one int64 key
            packed = (triples[:, 0] * size[1] + triples[:, 1]) * size[2] + triples[:, 2]
            _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
        else:
            _, first, inverse = np.unique(triples, axis=0, return_index=True,
                                          return_inverse=True)
        by_first = np.argsort(first, kind="stable")
        rank = np.empty(len(first), dtype=INT)
        rank[by_first] = np.arange(len(first), dtype=INT)
        ids = rank[inverse.ravel()]
        keys = triples[first[by_first]].tolist()
    else:
        ids, keys = np.zeros(0, dtype=INT), []
    fid = np.full(n, -1, dtype=INT)
    fid[where] = ids
    is_fn = kind == FN
    last_fn = _last(is_fn)
    function = np.where(last_fn >= 0, fid[np.maximum(last_fn, 0)], -1)
    callee = np.full(n, -1, dtype=INT)
    callee[c] = fid[c]
    return function, keys, callee


def _call_counts(buf, value, e, rows, source) -> np.ndarray:
    """The count of every ``calls=COUNT TARGET`` line."""
    space = _first_byte_in(buf, 32, value, e)
    tab = _first_byte_in(buf, 9, value, e)
    stop = np.where(space >= 0, space, e)
    stop = np.where((tab >= 0) & (tab < stop), tab, stop)
    counts, bad, problem = decimal_values(buf, value, stop)
    if bad is not None:
        raise ReadError(source, f"the calls= count {_text(buf, value[bad], stop[bad])!r} is "
                        f"{problem}", position=f"line {rows[bad] + 1}",
                        expected="'calls=COUNT TARGET-POSITION'")
    return counts


# ------------------------------------------------------------------ header
def _header(buf, rows, kind, s, e, body_rows, source):
    """Parts and header values from the ``key: value`` lines (a loop over those
    lines only; they are few)."""
    n = len(rows)
    heads = np.flatnonzero(kind == HEADER)
    # body lines (position lines and cost lines) before a header line end a part
    positions = rows[kind != HEADER]
    parts: List[Part] = [Part(number=1, first_line=0)]
    starts: List[int] = [0]
    header: Dict[str, Any] = {}
    body_at_start = 0
    for k in heads.tolist():
        text = _text(buf, s[k], e[k])
        m = _KEY_RE.match(text)
        if m is None:
            raise ReadError(source, f"cannot read the line {text[:60]!r}",
                            position=f"line {rows[k] + 1}", expected=EXPECTED_LINE)
        key, value = m.group(1), m.group(2).strip()
        where = f"line {rows[k] + 1}"
        body_before = int(np.searchsorted(positions, rows[k])) + \
            int(np.searchsorted(body_rows, rows[k]))
        if key in ("part", "events", "positions") and body_before > body_at_start:
            # a part header after cost lines: a new part
            parts.append(Part(number=len(parts) + 1, first_line=int(rows[k]),
                              events=parts[-1].events, positions=parts[-1].positions))
            starts.append(k)
            body_at_start = body_before
        part = parts[-1]
        if key == "part":
            part.number = _count(value, source, where)
        elif key == "events":
            events = tuple(value.split())
            if not events:
                raise ReadError(source, "the events: line names no event", position=where,
                                expected="'events: NAME...'")
            if len(set(events)) != len(events):
                raise ReadError(source, f"the events: line names an event twice ({value})",
                                position=where, expected="distinct event names")
            part.events = events
        elif key == "positions":
            positions = tuple(value.split())
            if not positions or any(p not in ("line", "instr") for p in positions):
                raise ReadError(source, f"unknown positions: {value!r}", position=where,
                                expected="'positions: line', 'instr', or 'instr line'")
            part.positions = positions
        elif key == "summary":
            part.summary, part.summary_line = value, int(rows[k])
        elif key == "totals":
            part.totals, part.totals_line = value, int(rows[k])
        elif key == "thread":
            part.thread = _count(value, source, where)
        else:
            part.header.setdefault(key, value)
            if key == "desc":
                header.setdefault("desc", []).append(value)
            else:
                header.setdefault(key, value)
    part_of = np.searchsorted(np.asarray(starts, dtype=INT), np.arange(n), side="right") - 1
    return parts, part_of.astype(INT), header


def _count(text: str, source: Any, where: str) -> int:
    text = text.strip()
    if not text.isdigit() or len(text) > 18:
        raise ReadError(source, f"{text!r} is not a count", position=where,
                        expected="a whole number from 0 to 10**18")
    return int(text)
