"""pyarrow arrays and scalars made from numpy buffers, without pyarrow's pandas layer.

``pa.array``, ``pa.scalar`` and a plain Python value handed to a compute
function (``pc.equal(text, "")``) all go through pyarrow's pandas layer,
whose first use in a process imports ``pyarrow.pandas_compat`` and parses
pandas' version (about 2.5 ms here, a tenth of a small log's read). The
readers build what they hand to pyarrow from numpy buffers instead
(:func:`indices`, :func:`mask`, :func:`texts`) and pass the scalars below,
made the same way (the GC decoder; :mod:`graphframe_readers.pandas_text`).

Examples
--------
>>> import numpy as np, pyarrow.compute as pc
>>> t = texts(["a", None, "bc"])
>>> t.to_pylist(), t.take(indices(np.array([2, 0]))).to_pylist()
(['a', None, 'bc'], ['bc', 'a'])
>>> t.filter(mask(np.array([True, False, True]))).to_pylist()
['a', 'bc']
>>> pc.equal(t, EMPTY).to_pylist()
[False, None, False]
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import pyarrow as pa

__all__ = ["indices", "mask", "texts", "integer", "EMPTY", "NULL_TEXT", "FALSE"]


def indices(values: np.ndarray) -> pa.Array:
    """An int64 pyarrow array over ``values`` (no nulls)."""
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def mask(values: np.ndarray) -> pa.BooleanArray:
    """A boolean pyarrow array of a numpy bool array (no nulls)."""
    values = np.asarray(values, dtype=bool)
    bits = np.packbits(values, bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])


def texts(values: Sequence[Optional[str]]) -> pa.Array:
    """A large-string pyarrow array of Python strings (``None``: null)."""
    encoded = [b"" if v is None else v.encode("utf-8") for v in values]
    n = len(encoded)
    offsets = np.zeros(n + 1, np.int64)
    if n:
        np.cumsum(np.fromiter(map(len, encoded), np.int64, count=n), out=offsets[1:])
    valid = None
    missing = np.fromiter((v is None for v in values), bool, count=n)
    if missing.any():
        valid = pa.py_buffer(np.packbits(~missing, bitorder="little"))
    return pa.Array.from_buffers(pa.large_string(), n, [valid, pa.py_buffer(offsets),
                                                       pa.py_buffer(b"".join(encoded))])


def integer(value: int, dtype: type = np.int64) -> pa.Scalar:
    """An integer pyarrow scalar of the numpy type ``dtype`` (int32 or int64)."""
    buf = np.array([value], dtype=dtype)
    return pa.Array.from_buffers(pa.from_numpy_dtype(buf.dtype), 1, [None, pa.py_buffer(buf)])[0]


#: the empty string, a null string and False as pyarrow scalars
EMPTY = texts([""])[0]
NULL_TEXT = texts([None])[0]
FALSE = mask(np.zeros(1, bool))[0]
