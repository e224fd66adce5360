"""Recorder 2.4/2.5 grammars (``<rank>.cfg``): the order of a rank's records.

Recorder compresses the sequence of call-signature ids of a rank with
Sequitur into a context-free grammar. Layout (little-endian int32)::

    rules
    rules x { rule id, symbols, symbols x { value, repetitions } }

A value ``>= 0`` is a terminal (a call-signature id of the ``.cst``); a
negative value is another rule. The start rule is ``-1``; the records are
its expansion, each symbol repeated ``repetitions`` times.

:func:`expand` works rule by rule, children before parents (an explicit
stack, no recursion), building each rule's expansion once with numpy
(``repeat``/``tile``/``concatenate``): the Python work is one step per
grammar symbol, the records themselves are only touched by numpy. A rule
that refers to itself (directly or not), a missing rule, or an expansion
beyond ``limit`` records is a ReadError.

Examples
--------
>>> g = np.array([2, -1, 2, -2, 3, 4, 1, -2, 2, 0, 1, 1, 2], dtype="<i4").tobytes()
>>> expand(parse_cfg(g, "0.cfg"), "0.cfg").tolist()
[0, 1, 1, 0, 1, 1, 0, 1, 1, 4]
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from ...errors import ReadError

#: the start rule's id
START = -1
#: refuse grammars that expand beyond this many records (a corrupted repetition count)
LIMIT = 1 << 34

Rules = Dict[int, Tuple[np.ndarray, np.ndarray]]


def parse_cfg(data: bytes, name: str) -> Rules:
    """Rule id -> (symbol values, repetitions) of a ``.cfg`` file."""
    if len(data) % 4:
        raise ReadError(name, f"{len(data)} bytes is not a whole number of int32 values",
                        position=f"byte {len(data) - len(data) % 4}",
                        expected="int32 values (truncated file?)")
    ints = np.frombuffer(data, dtype="<i4").astype(np.int64)
    if not len(ints):
        raise ReadError(name, "the file is empty", position="byte 0",
                        expected="an int32 number of rules")
    count = int(ints[0])
    rules: Rules = {}
    pos = 1
    for index in range(max(count, 0)):
        where = f"byte {4 * pos} (rule {index} of {count})"
        if pos + 2 > len(ints):
            raise ReadError(name, "the file ends inside a rule header", position=where,
                            expected="a rule id and its number of symbols")
        rule, symbols = int(ints[pos]), int(ints[pos + 1])
        body = ints[pos + 2:pos + 2 + 2 * symbols]
        if symbols < 0 or len(body) != 2 * symbols:
            raise ReadError(name, f"rule {rule} announces {symbols} symbols",
                            position=where, expected="as many (value, repetitions) pairs "
                            "as announced (truncated file?)")
        if rule >= 0 or rule in rules:
            raise ReadError(name, f"rule id {rule} is not negative or is repeated",
                            position=where, expected="a new negative rule id")
        values, reps = body[0::2], body[1::2]
        if symbols and reps.min() < 1:
            raise ReadError(name, f"rule {rule} repeats a symbol {int(reps.min())} times",
                            position=where, expected="repetitions of at least 1")
        rules[rule] = (values, reps)
        pos += 2 + 2 * symbols
    if count < 0 or pos != len(ints):
        raise ReadError(name, f"{count} rules announced, {4 * (len(ints) - pos)} bytes "
                        "left after them", position=f"byte {4 * min(pos, len(ints))}",
                        expected="the end of the file after the last rule")
    if count and START not in rules:
        raise ReadError(name, "the grammar has no start rule", position="byte 4",
                        expected=f"a rule with id {START}")
    return rules


def _walk(rules: Rules, name: str) -> List[int]:
    """The rules reachable from the start rule, children before parents (ReadError on a
    missing rule or a cycle); an explicit stack, no recursion."""
    order: List[int] = []
    done = set()
    onstack = {START}
    stack = [START]
    while stack:
        rule = stack[-1]
        values = rules[rule][0]
        pending = None
        for v in np.unique(values[values < 0]).tolist():
            if v in done:
                continue
            if v not in rules:
                raise ReadError(name, f"rule {rule} refers to rule {v}, which is not defined",
                                expected="every rule a grammar uses defined in the file")
            if v in onstack:
                raise ReadError(name, f"rule {v} contains itself (through rule {rule})",
                                expected="a grammar without cycles (corrupted file?)")
            pending = v
            break
        if pending is not None:
            stack.append(pending)
            onstack.add(pending)
            continue
        order.append(rule)
        done.add(rule)
        stack.pop()
        onstack.discard(rule)
    return order


def expanded_length(rules: Rules, name: str) -> int:
    """How many records the start rule expands to, without expanding it.

    >>> expanded_length({-1: (np.array([-2, 4]), np.array([3, 1])),
    ...                  -2: (np.array([0, 1]), np.array([1, 2]))}, "0.cfg")
    10
    """
    if not rules:
        return 0
    length: Dict[int, int] = {}
    for rule in _walk(rules, name):
        values, reps = rules[rule]
        sizes = [1 if v >= 0 else length[v] for v in values.tolist()]
        length[rule] = int(sum(s * r for s, r in zip(sizes, reps.tolist())))
    return length[START]


def expand(rules: Rules, name: str, *, limit: int = LIMIT) -> np.ndarray:
    """The terminal sequence of the start rule (int64; empty for an empty grammar).
    More than ``limit`` records is a ReadError, checked before anything is expanded."""
    if not rules:
        return np.zeros(0, dtype=np.int64)
    total = expanded_length(rules, name)
    if total > limit:
        raise ReadError(name, f"the grammar expands to {total} records",
                        expected=f"at most {limit} records (corrupted repetition count?)")
    done: Dict[int, np.ndarray] = {}
    for rule in _walk(rules, name):
        values, reps = rules[rule]
        done[rule] = _body(values, reps, done)
    return done[START]


def _body(values: np.ndarray, reps: np.ndarray, done: Dict[int, np.ndarray]) -> np.ndarray:
    if (values >= 0).all():  # the common case: a run of terminals
        return np.repeat(values, reps)
    parts = []
    for value, rep in zip(values.tolist(), reps.tolist()):
        parts.append(np.full(rep, value, dtype=np.int64) if value >= 0
                     else np.tile(done[value], rep))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
