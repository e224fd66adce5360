"""Numbers out of pyarrow string columns: plain decimals and sizes with a unit.

Examples
--------
>>> import pyarrow as pa
>>> to_float(pa.array(["1.5", None, "20"])).tolist()
[1.5, nan, 20.0]
>>> sizes(pa.array(["2", "1.5", None]), pa.array(["K", "M", None])).tolist()
[2048.0, 1572864.0, nan]
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...arrow_values import EMPTY, FALSE, NULL_TEXT, integer

#: bytes per unit letter of HotSpot's size figures ("" = bytes)
UNITS = {"B": 1.0, "K": 1024.0, "M": 1024.0 ** 2, "G": 1024.0 ** 3, "T": 1024.0 ** 4, "": 1.0}
#: duration units per second (a duration in seconds = value / this, exactly as written)
DURATION_UNITS = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}


def to_float(values: pa.Array) -> np.ndarray:
    """Decimal strings -> float64 (null -> NaN); the strings were matched as numbers."""
    if len(values) == 0:
        return np.zeros(0)
    out = pc.cast(blank_to_null(values), pa.float64())
    return out.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)


def blank_to_null(values: pa.Array) -> pa.Array:
    """Empty strings (an optional regex group that did not match) -> null."""
    return pc.if_else(pc.equal(values, EMPTY), NULL_TEXT, values)


def present(values: pa.Array) -> np.ndarray:
    """Per row: the string is there and not empty (bool numpy array)."""
    return pc.fill_null(pc.not_equal(values, EMPTY), FALSE).to_numpy(zero_copy_only=False)


def to_int(values: pa.Array, missing: int = -1) -> np.ndarray:
    """Integer strings -> int64 (null -> ``missing``)."""
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64)
    out = pc.fill_null(pc.cast(blank_to_null(values), pa.int64()), integer(missing))
    return out.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)


def scale(units: pa.Array, table: dict) -> np.ndarray:
    """Per row, the factor ``table[unit]`` (a null or unknown unit -> NaN)."""
    if len(units) == 0:
        return np.zeros(0)
    enc = pc.dictionary_encode(units)
    factors = np.array([table.get(u, np.nan) for u in enc.dictionary.to_pylist()] + [np.nan])
    idx = pc.fill_null(enc.indices, integer(len(factors) - 1, np.int32)).to_numpy(
        zero_copy_only=False)
    return factors[idx.astype(np.int64)]


def sizes(values: pa.Array, units: pa.Array) -> np.ndarray:
    """Size figures with their unit letters -> bytes (float64, NaN when absent)."""
    return to_float(values) * scale(units, UNITS) if len(values) else \
        np.zeros(0)


def durations(values: pa.Array, units: pa.Array) -> np.ndarray:
    """Durations with their unit (``ms``, ``s``...) -> seconds (NaN when absent)."""
    return to_float(values) / scale(units, DURATION_UNITS) \
        if len(values) else np.zeros(0)
