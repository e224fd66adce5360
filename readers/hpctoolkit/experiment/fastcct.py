"""Vectorised decoding of ``experiment.xml``'s calling-context section, for files as hpcprof writes them.

The general parser (:mod:`.xmltree`) gives every element of the file to expat
and calls a Python function per element; in the calling-context section
(``SecCallPathProfileData``, 90 % of a file's bytes) those calls, and expat's
own pass over the bytes, are most of a read. This module decodes that section
with numpy instead, a block at a time, and checks it completely on the way:
markup positions come from byte comparisons, every tag is checked byte by byte
against the form hpcprof writes, end tags are matched with their start tags,
attribute values are parsed as decimal numbers over whole arrays, and the tree
(each element's enclosing element, file and call-site line) comes from sorting
and pointer jumping.

The form accepted (what hpcprof writes):

* printable ASCII, with tabs and line breaks between tags only, lines ending
  ``\\n`` or ``\\r\\n``; no ``&``, ``'``, comments, CDATA or processing
  instructions; nothing but white space between tags;
* start tags ``<NAME ATTR="VALUE" ...>`` or ``.../>``: one space before each
  attribute, no space around ``=`` or before the tag end; end tags
  ``</NAME>``; elements ``PF``, ``Pr``, ``L``, ``S``, ``C``; attributes
  among :data:`KNOWN_ATTRIBUTES`, each at most once per tag, with the ones read
  (:data:`ATTRIBUTES`) plain decimal numbers without leading zeros;
* ``<M .../>`` summary values on one line: the general parser cuts them from
  the stream unread (``xmltree.SUMMARY_VALUE``), and so are they skipped here.

Anything else raises :class:`NotCanonical` and the caller reads the file with
the general parser, which accepts any well-formed file and gives the located
errors; both routes give the same tree
(``tests/readers/hpctoolkit/test_hpctoolkit_fastcct.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Dict, List

import numpy as np
import pandas as pd

#: Element codes (0: not an element of the section).
TAG_NAMES = ("", "PF", "Pr", "L", "S", "C", "M")
PF, PR, LOOP, STMT, CALL, SUMMARY = 1, 2, 3, 4, 5, 6

#: The attributes read, in the order of :attr:`Tokens.attrs`.
ATTRIBUTES = ("i", "n", "f", "l", "lm")
#: Every attribute hpcprof writes on the section's elements (the first five are read).
KNOWN_ATTRIBUTES = ATTRIBUTES + ("s", "a", "it", "v", "str", "t")

_LT, _GT, _QUOTE, _EQ, _SLASH, _SPACE, _NL, _ZERO = 60, 62, 34, 61, 47, 32, 10, 48
_LONGEST = 18  # digits: every such number fits in int64


def _name_key(name: bytes) -> int:
    padded = name.ljust(3, b"\0")
    return padded[0] << 16 | padded[1] << 8 | padded[2]


_KEYS = np.array([_name_key(a.encode()) for a in KNOWN_ATTRIBUTES], dtype=np.int64)
_KEY_ORDER = np.argsort(_KEYS)
_SORTED_KEYS = _KEYS[_KEY_ORDER]


class NotCanonical(Exception):
    """The section is not in the form this decoder accepts; parse it with expat instead."""


@dataclass
class Tokens:
    """The section's tags in document order, ``<M>`` left out (end tags: kind and depth only)."""

    kind: List[np.ndarray] = field(default_factory=list)
    depth: List[np.ndarray] = field(default_factory=list)
    closing: List[np.ndarray] = field(default_factory=list)
    line: List[np.ndarray] = field(default_factory=list)  # start tags only
    attrs: Dict[str, List[np.ndarray]] = field(
        default_factory=lambda: {name: [] for name in ATTRIBUTES})
    open_depth: int = 0

    def add(self, text: bytes, first_line: int) -> int:
        """Check and decode ``text`` (whole tags only) whose first byte is on line ``first_line``.

        Returns the number of line breaks in ``text``.

        Examples
        --------
        >>> t = Tokens()
        >>> t.add(b'<PF i="1" n="7" l="3">\\n<M n="2" v="1.5"/><S i="2" l="4"/></PF>', 5)
        1
        >>> [k.tolist() for k in t.kind], [d.tolist() for d in t.depth]
        ([[1, 4, 1]], [[0, 1, 1]])
        >>> t.line[0].tolist(), t.attrs["l"][0].tolist(), t.attrs["f"][0].tolist()
        ([5, 6], [3, 4], [-1, -1])
        >>> Tokens().add(b'<PF i="1" n = "7">', 1)
        Traceback (most recent call last):
        ...
        graphframe_readers.hpctoolkit.experiment.fastcct.NotCanonical: an attribute not written ' name="value"'
        """
        if not text:
            return 0
        for forbidden in (b"&", b"'"):  # '<!' and '<?' fail the element names below
            if forbidden in text:
                raise NotCanonical(f"{forbidden.decode()!r} in the section")
        size = len(text)
        buf = np.frombuffer(text + b"\0\0\0\0", dtype=np.uint8)
        body = buf[:size]
        breaks = int(np.count_nonzero(body == _NL))
        tabs = text.count(b"\t") if b"\t" in text else 0
        returns = text.count(b"\r") if b"\r" in text else 0
        if body.max() > 126 or np.count_nonzero(body < 32) != breaks + tabs + returns:
            raise NotCanonical("a byte that is not printable ASCII or white space")
        if returns and returns != text.count(b"\r\n"):
            raise NotCanonical("a carriage return that does not end a line")
        lt = np.flatnonzero(body == _LT)
        gt = np.flatnonzero(body == _GT)
        if len(lt) != len(gt):
            raise NotCanonical("'<' and '>' not in pairs")
        if len(lt) and ((lt >= gt).any() or (gt[:-1] >= lt[1:]).any()):
            raise NotCanonical("'>' inside a tag")
        # between the tags: white space holding every line break (none inside a tag)
        breaks_before = _white_between(buf, np.concatenate(([0], gt + 1)),
                                       np.concatenate((lt, [size])))
        if breaks_before[-1] != breaks:
            raise NotCanonical("a line break inside a tag")
        breaks_before = breaks_before[:-1]  # line breaks before each tag
        if not len(lt):
            return breaks
        closing = buf[lt + 1] == _SLASH
        kind, after_name = _element_names(buf, lt + 1 + closing)
        if not kind.all():
            raise NotCanonical("an element other than PF, Pr, L, S, C, M")
        empty = buf[gt - 1] == _SLASH
        summary = kind == SUMMARY
        if summary.any():
            _check_summaries(buf[lt[summary] + 2], empty[summary], closing[summary])
            tree = ~summary  # from here on the tags of the tree only (<M> is cut unread)
            lt, gt, closing, kind = lt[tree], gt[tree], closing[tree], kind[tree]
            after_name, empty = after_name[tree], empty[tree]
            breaks_before = breaks_before[tree]
            if not len(lt):
                return breaks
        quotes = np.flatnonzero(body == _QUOTE)
        first_quote = np.searchsorted(quotes, lt)
        per_tag = np.searchsorted(quotes, gt) - first_quote
        if (per_tag % 2).any():
            raise NotCanonical("an unpaired quote")
        if (per_tag[closing] != 0).any():
            raise NotCanonical("an attribute in an end tag")
        if summary.any():
            quotes = quotes[_runs(first_quote, per_tag)]  # the tree's tags' quotes
        count = per_tag // 2
        opens, closes = quotes[0::2], quotes[1::2]
        # the byte before each attribute's " ... a space, the name and '=' after the last value
        first = np.cumsum(count) - count
        has_attrs = count > 0
        previous_end = np.empty_like(opens)
        previous_end[1:] = closes[:-1]
        previous_end[first[has_attrs]] = after_name[has_attrs] - 1
        code = _attribute_codes(buf, previous_end, opens)
        if len(code):  # one bit per attribute name: a tag's sum and bitwise or differ on a repeat
            bit = np.left_shift(1, code.astype(np.int64))
            heads = first[has_attrs]
            if (np.add.reduceat(bit, heads) != np.bitwise_or.reduceat(bit, heads)).any():
                raise NotCanonical("an attribute given twice")
        # after the last value (or the name): '>' or '/>' straight away
        last_end = after_name - 1
        last_end[has_attrs] = closes[first[has_attrs] + count[has_attrs] - 1]
        if (gt - last_end - 1 != empty).any() or (empty & closing).any():
            raise NotCanonical("a tag not ended by '>' or '/>' right after its last value")
        # depth before each tag: opened minus closed so far
        delta = np.where(closing, -1, np.where(empty, 0, 1)).astype(np.int32)
        depth = np.cumsum(delta, dtype=np.int64) - delta + self.open_depth
        if depth.max(initial=0) >= (1 << 31) - 1:
            raise NotCanonical("elements nested too deep")
        depth = depth.astype(np.int32)
        self.open_depth = int(depth[-1] + delta[-1])
        starts = ~closing
        self.kind.append(kind)
        self.depth.append(depth)
        self.closing.append(closing)
        self.line.append(first_line + breaks_before[starts])
        row = (np.cumsum(starts) - 1)[np.repeat(np.arange(len(lt)), count)]
        read = code < len(ATTRIBUTES)
        values = _decimals(buf, opens[read] + 1, closes[read] - opens[read] - 1)
        row, code = row[read], code[read]
        rows = int(starts.sum())
        for k, attr in enumerate(ATTRIBUTES):
            mine = code == k
            column = np.full(rows, -1, dtype=np.int64)
            column[row[mine]] = values[mine]
            self.attrs[attr].append(column)
        return breaks


def _runs(start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The indices ``start[k], ..., start[k] + length[k] - 1`` of every run, in order."""
    total = int(length.sum())
    offset = np.cumsum(length) - length
    return np.repeat(start - offset, length) + np.arange(total)


def _white_between(buf: np.ndarray, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Check that the ranges ``[start, stop)`` are white space; line breaks before each range's end.

    Returns the running count of ``\\n`` at the end of each range.
    """
    length = stop - start
    byte = buf[_runs(start, length)]
    if not ((byte == _SPACE) | (byte == _NL) | (byte == 9) | (byte == 13)).all():
        raise NotCanonical("text outside the tags")
    running = np.zeros(len(byte) + 1, dtype=np.int64)
    np.cumsum(byte == _NL, out=running[1:])
    return running[np.cumsum(length)]


def _element_names(buf: np.ndarray, name_at: np.ndarray):
    """Element code of each tag's name starting at ``name_at``, and the position after it."""
    first, second, third = buf[name_at], buf[name_at + 1], buf[name_at + 2]
    ends_at_1, ends_at_2 = _ends_name(second), _ends_name(third)
    kind = np.zeros(len(name_at), dtype=np.int8)
    two = (first == ord("P")) & ends_at_2
    kind[two & (second == ord("F"))] = PF
    kind[two & (second == ord("r"))] = PR
    for code, letter in ((LOOP, "L"), (STMT, "S"), (CALL, "C"), (SUMMARY, "M")):
        kind[(first == ord(letter)) & ends_at_1] = code
    return kind, name_at + np.where((kind == PF) | (kind == PR), 2, 1)


def _ends_name(byte: np.ndarray) -> np.ndarray:
    return (byte == _SLASH) | (byte == _GT) | (byte == _SPACE) | (byte == _NL) \
        | (byte == 9) | (byte == 13)


def _check_summaries(after: np.ndarray, empty: np.ndarray, closing: np.ndarray) -> None:
    """``<M>`` tags are cut unread, as the general parser cuts them (``xmltree.SUMMARY_VALUE``).

    That is ``<M``, a space, tab or carriage return, no line break (checked
    for every tag), ``/>``. ``after`` is the byte after ``<M``.
    """
    white = (after == _SPACE) | (after == 9) | (after == 13)
    if closing.any() or not (empty & white).all():
        raise NotCanonical("an <M> element not written <M .../> on one line")


def _attribute_codes(buf: np.ndarray, previous_end: np.ndarray, opens: np.ndarray) -> np.ndarray:
    """Index in KNOWN_ATTRIBUTES of each attribute written `` name="`` between the two positions."""
    length = opens - previous_end - 3  # the name's length
    if ((length < 1) | (length > 3)).any():
        raise NotCanonical("an attribute not written ' name=\"value\"'")
    if (buf[previous_end + 1] != _SPACE).any() or (buf[opens - 1] != _EQ).any():
        raise NotCanonical("an attribute not written ' name=\"value\"'")
    start = previous_end + 2
    key = buf[start].astype(np.int64) << 16
    key |= np.where(length > 1, buf[start + 1], 0).astype(np.int64) << 8
    key |= np.where(length > 2, buf[start + 2], 0)
    slot = np.minimum(np.searchsorted(_SORTED_KEYS, key), len(_SORTED_KEYS) - 1)
    if (_SORTED_KEYS[slot] != key).any():
        raise NotCanonical("an attribute hpcprof does not write")
    return _KEY_ORDER[slot]


def _decimals(buf: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The decimal numbers at ``buf[start:start + length]`` (plain digits, no leading zero)."""
    value = np.zeros(len(start), dtype=np.int64)
    if not len(start):
        return value
    if (length < 1).any() or (length > _LONGEST).any():
        raise NotCanonical("an empty or over-long number")
    if ((buf[start] == _ZERO) & (length > 1)).any():
        raise NotCanonical("a number with a leading zero")
    for size in np.flatnonzero(np.bincount(length)).tolist():
        these = np.flatnonzero(length == size)
        digits = buf[start[these, None] + np.arange(size)].astype(np.int64) - _ZERO
        if ((digits < 0) | (digits > 9)).any():
            raise NotCanonical("a value that is not a decimal number")
        value[these] = digits @ (10 ** np.arange(size - 1, -1, -1, dtype=np.int64))
    return value


@dataclass
class Tree:
    """The nodes of the section (see :class:`.xmltree.CallingContextTree` for the fields)."""

    nid: np.ndarray
    parent: np.ndarray
    tag: np.ndarray
    n: "CodedTexts"
    f: "CodedTexts"
    l: np.ndarray
    lm: "CodedTexts"
    call_line: np.ndarray
    xml_line: np.ndarray


def build_tree(tokens: Tokens, procedures: Dict[str, str]) -> Tree:
    """Nodes, their parents and inherited attributes from the section's tags.

    End tags are matched with their start tags first. ``C`` elements and
    ``Pr`` elements whose procedure name is empty are not nodes: their
    children attach to the enclosing node. A statement's file is the
    enclosing scope's; a procedure's or loop's is its own ``f`` or, without
    one, the enclosing scope's. The call-site line is the ``l`` of the XML
    parent (0 at the top or without one).

    Examples
    --------
    >>> t = Tokens()
    >>> t.add(b'<PF i="1" n="7" f="2" l="3"><C i="2" l="9"><PF i="3" n="8" l="5">'
    ...       b'<S i="4" l="6"/></PF></C></PF>', 1)
    0
    >>> tree = build_tree(t, {"7": "main", "8": "foo"})
    >>> tree.parent.tolist(), tree.call_line.tolist(), list(tree.f)
    ([-1, 0, 1], [0, 9, 5], ['2', '2', '2'])
    """
    if tokens.open_depth != 0:
        raise NotCanonical("an element left open at the end of the section")
    kind = _joined(tokens.kind, np.int8)
    closing = _joined(tokens.closing, bool)
    parent = _xml_parents(kind, _joined(tokens.depth, np.int32), closing)
    kind = kind[~closing]
    del closing
    attrs = {name: _joined(tokens.attrs[name], np.int64) for name in ATTRIBUTES}
    count = len(kind)
    ref = attrs["n"]
    is_node = kind != CALL
    procs = np.flatnonzero(kind == PR)
    if len(procs):
        refs = np.unique(ref[procs])
        nameless = [r for r in refs.tolist() if r >= 0 and procedures.get(str(r), str(r)) == ""]
        if nameless:
            is_node[procs[np.isin(ref[procs], nameless)]] = False
    if (attrs["i"][is_node] < 0).any():
        raise NotCanonical("a node without an i attribute")
    # each element's nearest node ancestor (C and nameless Pr are skipped)
    node_parent = _resolve(parent, is_node, parent)
    # the file each element passes on: its own f unless it is a statement or has none
    own_file = (attrs["f"] >= 0) & (kind != STMT)
    holder = _resolve(np.arange(count), own_file, parent)
    file_ref = np.where(holder >= 0, attrs["f"][np.maximum(holder, 0)], -1)
    line = np.where(attrs["l"] >= 0, attrs["l"], 0)
    call_line = np.where(parent >= 0, line[np.maximum(parent, 0)], 0)
    nodes = np.flatnonzero(is_node)
    position = np.cumsum(is_node) - 1
    node_parent = node_parent[nodes]
    return Tree(nid=attrs["i"][nodes],
                parent=np.where(node_parent >= 0, position[np.maximum(node_parent, 0)], -1),
                tag=np.array(TAG_NAMES, dtype=object)[kind[nodes]],
                n=CodedTexts.of(ref[nodes]), f=CodedTexts.of(file_ref[nodes]), l=line[nodes],
                lm=CodedTexts.of(attrs["lm"][nodes]), call_line=call_line[nodes],
                xml_line=_joined(tokens.line, np.int64)[nodes])


def _joined(parts: List[np.ndarray], dtype) -> np.ndarray:
    """The blocks' arrays as one; the list is emptied (each block freed as soon as copied)."""
    out = np.empty(sum(len(p) for p in parts), dtype=parts[0].dtype if parts else dtype)
    at = 0
    while parts:
        part = parts.pop(0)
        out[at:at + len(part)] = part
        at += len(part)
    return out


def _xml_parents(kind: np.ndarray, depth: np.ndarray, closing: np.ndarray) -> np.ndarray:
    """Each start tag's enclosing start tag (index among start tags, -1 at the top).

    Checks on the way that every end tag closes the element its start tag
    opened. Tags are sorted by the level they open or close (stable, so in
    document order within a level): there an end tag comes right after its
    start tag, and a start tag's parent is the last tag one level up before it.
    """
    level = depth - closing
    del depth
    count = len(level)
    if not count:
        return np.zeros(0, dtype=np.int64)
    if level.min() < 0:
        raise NotCanonical("an end tag closing the section")
    order = np.argsort(level.astype(np.int16) if level.max() < (1 << 15) else level,
                       kind="stable")  # a radix sort for small integers
    ends = np.flatnonzero(closing[order])
    if len(ends):
        opened, end = order[np.maximum(ends - 1, 0)], order[ends]
        if ends[0] == 0 or closing[opened].any() or (kind[opened] != kind[end]).any() \
                or (level[opened] != level[end]).any():
            raise NotCanonical("an end tag that does not match its start tag")
        del opened, end
    del ends
    key = level[order].astype(np.int64) * count + order  # ascending
    starts = np.flatnonzero(~closing)
    wanted = level[starts].astype(np.int64) - 1
    slot = np.searchsorted(key, wanted * count + starts) - 1
    del key, starts
    found = order[np.maximum(slot, 0)]
    del order
    found = np.where((wanted >= 0) & (slot >= 0) & (level[found] == wanted), found, -1)
    del slot, wanted
    position = np.cumsum(~closing) - 1  # each tag's index among the start tags
    return np.where(found >= 0, position[np.maximum(found, 0)], -1)


def _resolve(start: np.ndarray, stop: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """From ``start``, go up the XML parents to the first element where ``stop`` holds (-1: none).

    Pointer jumping: each round doubles the distance covered, so a chain of
    ``d`` elements takes about ``log2(d)`` rounds.
    """
    count = len(parent)
    jump = np.where(stop, np.arange(count), parent)  # one step (stays on a stopping element)
    while True:
        ahead = np.where(jump >= 0, jump[np.maximum(jump, 0)], -1)
        if np.array_equal(ahead, jump):
            break
        jump = ahead
    return np.where(start >= 0, jump[np.maximum(start, 0)], -1)


class CodedTexts(Sequence):
    """Reference texts stored as codes into their distinct texts (the fast route's ``n``/``f``/``lm``).

    ``texts`` holds the distinct texts in first-seen order; code
    ``len(texts)`` stands for an absent reference (None), as in the reader's
    factorisation, which takes the codes as they are.

    Examples
    --------
    >>> refs = CodedTexts.of(np.array([7, -1, 7, 12]))
    >>> list(refs), refs.codes.tolist(), refs.texts
    (['7', None, '7', '12'], [0, 2, 0, 1], ['7', '12'])
    """

    __slots__ = ("codes", "texts")

    def __init__(self, codes: np.ndarray, texts: List[str]) -> None:
        self.codes, self.texts = codes, texts

    @classmethod
    def of(cls, refs: np.ndarray) -> "CodedTexts":
        """From reference numbers (-1: absent)."""
        codes, distinct = pd.factorize(refs)
        absent = distinct < 0
        if absent.any():  # absent takes the last code
            remap = np.empty(len(distinct), dtype=np.int64)
            remap[~absent] = np.arange(len(distinct) - 1)
            remap[absent] = len(distinct) - 1
            codes, distinct = remap[codes], distinct[~absent]
        return cls(codes.astype(np.int64, copy=False), [str(r) for r in distinct.tolist()])

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        code = int(self.codes[k])
        return self.texts[code] if code < len(self.texts) else None

    def __iter__(self):
        table = self.texts + [None]
        return iter([table[c] for c in self.codes.tolist()])
