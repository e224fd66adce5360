"""Regular expressions over arrays: pyarrow (RE2) for large arrays, Python's ``re`` for small.

pyarrow compiles the expression on every call, a fixed cost that dominates
for the few lines of a small log (or the few header lines of a big one);
below :data:`SMALL` rows the expression runs with Python's ``re`` (compiled
once and cached) instead. Both give the same results for the expressions of
:mod:`.shapes` (search semantics; a group that did not take part is an
empty string or null, which the callers treat alike).

Examples
--------
>>> import pyarrow as pa
>>> text = pa.array(["GC(1) x", "y"])
>>> match(text, r"^GC\\(").tolist()
[True, False]
>>> extract(text, r"^GC\\((?P<n>\\d+)\\)").to_pylist()
[{'n': '1'}, None]
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...arrow_values import FALSE, mask, texts

#: arrays shorter than this use Python's re
SMALL = 256


@lru_cache(maxsize=256)
def compiled(pattern: str) -> "re.Pattern[str]":
    return re.compile(pattern)


def precompile(*patterns: str) -> None:
    """Compile expressions for Python's ``re`` now (at import), not in the first read."""
    for pattern in patterns:
        compiled(pattern)


def match(text: pa.Array, pattern: str) -> np.ndarray:
    """Per row: the expression matches somewhere (bool numpy array; null rows False)."""
    if len(text) < SMALL:
        rx = compiled(pattern)
        return np.fromiter((s is not None and rx.search(s) is not None
                            for s in text.to_pylist()), dtype=bool, count=len(text))
    return pc.fill_null(pc.match_substring_regex(text, pattern), FALSE).to_numpy(
        zero_copy_only=False)


def extract(text: pa.Array, pattern: str) -> pa.StructArray:
    """The named groups per row as a struct array (null where the expression does not match)."""
    if len(text) < SMALL:
        rx = compiled(pattern)
        names = list(rx.groupindex)
        found = [rx.search(s) if s is not None else None for s in text.to_pylist()]
        n = len(found)
        # every group's values in one array (group after group), sliced per group
        numbers = [rx.groupindex[name] - 1 for name in names]
        groups = [m.groups() if m else (None,) * rx.groups for m in found]
        values = texts([row[g] for g in numbers for row in groups])
        fields = [values.slice(g * n, n) for g in range(len(names))]
        missing = mask(np.fromiter((m is None for m in found), bool, count=n))
        return pa.StructArray.from_arrays(fields, names, mask=missing)
    return pc.extract_regex(text, pattern)
