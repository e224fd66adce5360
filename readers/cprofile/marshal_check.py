"""Checking marshal data before :func:`marshal.loads` sees it (pstats files).

``marshal.loads`` trusts the sizes it reads: five bytes ``[\\xff\\xff\\xff\\x7f``
make it allocate a list of 2**31 - 1 slots before it notices the data ends
(a ``MemoryError`` under a memory limit; a tuple of that size is zeroed, so
17 GB are really touched), a corrupted back-reference can crash the
interpreter (we saw a segmentation fault on a pstats file with a few flipped
bytes), and its errors say what failed but never where.
:func:`check_marshal` walks the stream without building anything: every
declared count and size must fit in the bytes that follow, every type code
must be one pstats data can hold (no code objects), every back-reference
must point at an earlier object. It returns the byte offset and a
description of the first problem, so the reader can report a position and
only hands sound data to ``marshal.loads``.
"""

from __future__ import annotations

import re
import struct
from typing import List, Optional, Tuple

_INT32 = struct.Struct("<i")
_FLOAT_TEXT = re.compile(rb"^[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan)$")
_FLAG_REF = 0x80
_SINGLETONS = frozenset(b"NFTS.")  # None, False, True, StopIteration, Ellipsis
_SIZED = frozenset(b"stuaA")  # bytes / str with a 4-byte size
_FIXED = {0x69: 4, 0x49: 8, 0x67: 8, 0x79: 16, 0x72: 4}  # i, I, g, y, r: payload bytes
_SHORT = frozenset(b"zZ")  # ascii str with a 1-byte size
_SEQUENCES = frozenset(b"([<>")  # tuple, list, set, frozenset with a 4-byte count
_UNHASHABLE = frozenset(b"[{<")  # list, dict, set
_LATE = frozenset(b"()>")  # registered for back-references once complete
_DICT_KEY, _DICT_VALUE = -1, -2
_NAMES = {ord("("): "tuple", ord("["): "list", ord("<"): "set", ord(">"): "frozenset",
          ord(")"): "tuple"}


def check_marshal(data: bytes) -> Optional[Tuple[int, str]]:
    """``(byte offset, problem)`` of the first flaw in marshal ``data``, or None.

    Examples
    --------
    >>> import marshal
    >>> check_marshal(marshal.dumps({("f.py", 1, "f"): (1, 1, 0.5, 0.5, {})})) is None
    True
    >>> check_marshal(b"[\\xff\\xff\\xff\\x7f")
    (0, 'a list declares 2147483647 items but only 0 bytes follow')
    >>> check_marshal(b"{)\\x03z\\x01a")
    (6, 'the data ends where an object was expected')
    """
    n = len(data)
    pos = 0
    refs: List[Optional[bool]] = []  # per referable object: hashable? (None: being read)
    pending = [-1]  # per open container: its slot in refs while it is being read
    stack = [1]  # per open container: items still expected (or a dict state)
    keyed = [False]  # per open container: its items must be hashable (a key / set)
    unpack = _INT32.unpack_from
    while stack:
        top = stack[-1]
        if top == 0:
            _close(stack, keyed, pending, refs)
            continue
        if pos >= n:
            return pos, "the data ends where an object was expected"
        start = pos
        byte = data[pos]
        code = byte & ~_FLAG_REF
        pos += 1
        if top == _DICT_KEY or top == _DICT_VALUE:
            if code == 0x30:  # '0' (NULL) ends a dict, as a key or as a value
                _close(stack, keyed, pending, refs)
                continue
            stack[-1] = _DICT_VALUE if top == _DICT_KEY else _DICT_KEY
        else:
            stack[-1] = top - 1
        hashed = keyed[-1] or top == _DICT_KEY
        if hashed and code in _UNHASHABLE:
            return start, f"a dict key or set item holds a {_describe(code)} (not hashable)"
        slot = -1
        if byte & _FLAG_REF and code not in _SINGLETONS and code != 0x72:
            # marshal registers lists, dicts and sets before their items, tuples
            # and frozensets after them: a reference into an unfinished one fails
            if code in _LATE:
                slot = len(refs)
                refs.append(None)
            else:
                refs.append(code not in _UNHASHABLE)
        if code in _SINGLETONS:
            continue
        if code in _FIXED or code in _SIZED or code in _SEQUENCES or code == 0x6C:
            width = _FIXED.get(code, 4)  # i I g y r / sized / sequences / l
            if pos + width > n:
                return start, f"the data ends inside a {_describe(code)}"
            if width == 4:
                value = unpack(data, pos)[0]
            pos += width
            if code in _FIXED and code != 0x72:
                continue
            if code == 0x72:  # 'r': a reference to an earlier object
                if not 0 <= value < len(refs):
                    return start, f"a back-reference points at object {value} of {len(refs)}"
                if refs[value] is None:
                    return start, f"a back-reference points at object {value}, which is " \
                        "still being read"
                if hashed and not refs[value]:
                    return start, "a dict key or set item refers to a list, dict or set"
                continue
            if code == 0x6C:  # 'l': |value| digits of 2 bytes
                need, what = 2 * abs(value), "an integer declares"
                unit = f"{abs(value)} digits"
            else:
                need, what = value, f"a {_describe(code)} declares"
                unit = f"{value} {'bytes' if code in _SIZED else 'items'}"
            if value < 0 and code != 0x6C:
                return start, f"a {_describe(code)} declares a negative size ({value})"
            if need > n - pos:
                return start, f"{what} {unit} but only {n - pos} bytes follow"
            if code == 0x6C:
                digits = struct.unpack_from(f"<{abs(value)}H", data, pos)
                if any(d >> 15 for d in digits) or (digits and not digits[-1]):
                    return start, "an integer has digits out of range"
            if code in _SEQUENCES:
                stack.append(value)
                keyed.append(hashed or code in (0x3C, 0x3E))  # set / frozenset items
                pending.append(slot)
            else:
                pos += need
            continue
        if code in _SHORT or code == 0x66:  # z Z / f: a 1-byte size
            if pos >= n or data[pos] > n - pos - 1:
                return start, f"the data ends inside a {_describe(code)}"
            size = data[pos]
            if code == 0x66 and not _FLOAT_TEXT.match(data[pos + 1:pos + 1 + size]):
                return start, "a float written as text is not a number"
            pos += 1 + size
            continue
        if code == 0x29:  # ')': a small tuple, 1-byte count
            if pos >= n:
                return start, "the data ends inside a tuple"
            count = data[pos]
            pos += 1
            if count > n - pos:
                return start, f"a tuple declares {count} items but only {n - pos} bytes follow"
            stack.append(count)
            keyed.append(hashed)
            pending.append(slot)
            continue
        if code == 0x7B:  # '{'
            stack.append(_DICT_KEY)
            keyed.append(False)
            pending.append(-1)
            continue
        return start, f"type code {byte:#04x} ({_describe(code)}) cannot occur in pstats data"
    return None


def _close(stack: list, keyed: list, pending: list, refs: list) -> None:
    stack.pop()
    keyed.pop()
    slot = pending.pop()
    if slot >= 0:
        refs[slot] = True  # a finished tuple / frozenset (hashable as far as we check)


def _describe(code: int) -> str:
    if code in _NAMES:
        return _NAMES[code]
    if code in _SIZED or code in _SHORT:
        return "string"
    return {0x69: "32-bit integer", 0x49: "64-bit integer", 0x6C: "long integer", 0x67: "float", 0x66: "float",
            0x79: "complex number", 0x72: "back-reference", 0x63: "code object",
            0x30: "NULL outside a dict", 0x7B: "dict"}.get(code, "unknown object")
