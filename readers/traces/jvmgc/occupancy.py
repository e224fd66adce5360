"""Occupancy lines: heap, metaspace and code-cache figures (``Metaspace: 3821K used, ...``,
`` ZHeap used 46M, capacity 256M``, ``CodeHeap 'profiled nmethods': size=...``).

Every such line holds one of :data:`LITERALS`, which :func:`may_be_occupancy`
looks for over an array of messages (a literal search each: memchr-driven,
twice as fast here as one alternation); the candidates are then read with
:data:`.shapes.OCCUPANCY`, over arrays by the parser or, for a few distinct
texts, one text at a time by :func:`occupancy_of` (the same figures).
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa

from . import shapes
from .figures import UNITS
from .regex import compiled, match, precompile
from .titles import EVENT_TYPES

#: words one of which every occupancy line holds
LITERALS = ("used", "Code")
#: the names of metaspace figures
METASPACE = frozenset({"Metaspace", "NonClass", "Class", "Class space", "class space"})
_ETYPE = {t: i for i, t in enumerate(EVENT_TYPES)}
precompile(*LITERALS)


def may_be_occupancy(text: pa.Array) -> np.ndarray:
    """Per row: the message holds a word of every occupancy line (the expression tells).

    >>> from graphframe_readers.arrow_values import texts
    >>> may_be_occupancy(texts(["Metaspace: 3M used", "Pause Young", None])).tolist()
    [True, False, False]
    """
    out = match(text, LITERALS[0])
    for word in LITERALS[1:]:
        out |= match(text, word)
    return out


#: the figures of each alternative of the expression: (name group, used, capacity, kind)
OCCUPANCY_GROUPS = (("m", "mu", "mc", "metaspace"), ("h", "hu", "ht", "heap"),
                    ("g", "gu", "gc", "heap"), (None, "eu", "ec", "heap"),
                    ("ch", "cu", "cs", "codecache"))


def occupancy_of(text: str):
    """``(name, event type code, used bytes, capacity bytes)`` of one occupancy line's
    message, or None when it is not one (:data:`.shapes.OCCUPANCY`, Python's ``re``).

    >>> occupancy_of(" ZHeap           used 1130M, capacity 8192M, max capacity 8192M")
    ('ZHeap', 5, 1184890880.0, 8589934592.0)
    >>> occupancy_of("Metaspace: 3821K used, 4480K committed, 13056K reserved")[0]
    'Metaspace'
    """
    m = compiled(shapes.OCCUPANCY).search(text)
    if m is None:
        return None
    g = m.group
    name, kind, used, capacity = None, "heap", math.nan, math.nan
    for key, used_key, cap_key, what in OCCUPANCY_GROUPS:
        if not g(used_key):
            continue
        if what == "codecache":
            used = float(g(used_key)) * 1024.0
            capacity = float(g(cap_key)) * 1024.0 if g(cap_key) else math.nan
        else:
            used = float(g(used_key)) * UNITS.get(g(used_key + "u"), math.nan)
            capacity = float(g(cap_key)) * UNITS.get(g(cap_key + "u"), math.nan) \
                if g(cap_key) else math.nan
        label = g(key) if key else "Heap"
        if key == "m":
            label = "Metaspace" if label == "Metaspace" else "Class space"
        if what == "codecache":
            label = f"CodeHeap '{label}'"
        name, kind = label, what
    if g("flush"):
        name, kind = "CodeCache flushing", "codecache"
    if isinstance(name, str):
        name = name.strip()
    if name in METASPACE:
        kind = "metaspace"
    return name, _ETYPE[kind], used, capacity
