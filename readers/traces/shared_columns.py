"""Numpy columns sent between processes through a shared-memory file, not a pipe.

A worker process that returns large arrays through ``pickle`` copies them
into the pickle, the pipe copies them to the parent, which copies them out
of the pickle again. :func:`share` instead writes the numeric arrays of a
dict of columns into one file (under ``/dev/shm`` where it exists: memory,
not disk) and returns a small :class:`Shared` that pickles cheaply;
:func:`load` maps the file, gives the columns as read-only views of the
mapping and removes the file name at once (the mapping stays valid until
the views are gone). Object arrays and None travel in the pickle as usual.

Examples
--------
>>> import numpy as np
>>> shared = share({"start": np.arange(3), "name": np.array([1, 2, 3], np.int32),
...                 "fd": None, "args": np.array(["a", None, "b"], dtype=object)})
>>> cols = load(shared)
>>> cols["start"].tolist(), cols["name"].dtype.name, cols["fd"], cols["args"].tolist()
([0, 1, 2], 'int32', None, ['a', None, 'b'])
>>> os.path.exists(shared.path)
False
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

#: where the files go: memory-backed where the system has it
_DIRECTORY = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) \
    else None


@dataclass
class Parts:
    """One column given as consecutive arrays, shared as one array of ``dtype``."""

    dtype: np.dtype
    arrays: List[np.ndarray]


@dataclass
class Shared:
    """A dict of columns whose numeric arrays are in the file ``path``."""

    path: str
    #: key -> (dtype string, offset, length) of the arrays in the file
    layout: Dict[str, Tuple[str, int, int]] = field(default_factory=dict)
    #: the other values (None, object arrays), as they are
    rest: Dict[str, Any] = field(default_factory=dict)
    #: the keys in their order
    keys: List[str] = field(default_factory=list)


def share(columns: Dict[str, Any]) -> Shared:
    """Write the numeric arrays of ``columns`` to a new shared file (see the module docs);
    a :class:`Parts` value is written as the one array its parts make."""
    fd, path = tempfile.mkstemp(prefix="graphframe-columns-", dir=_DIRECTORY)
    out = Shared(path, keys=list(columns))
    offset = 0
    try:
        with os.fdopen(fd, "wb") as fh:
            for key, value in columns.items():
                if isinstance(value, np.ndarray) and value.dtype.kind in "iufb":
                    value = Parts(value.dtype, [value])
                if not isinstance(value, Parts):
                    out.rest[key] = value
                    continue
                length = 0
                for part in value.arrays:
                    data = np.ascontiguousarray(part, dtype=value.dtype)
                    fh.write(memoryview(data).cast("B"))
                    length += len(data)
                out.layout[key] = (np.dtype(value.dtype).str, offset, length)
                offset += length * np.dtype(value.dtype).itemsize
    except BaseException:
        os.unlink(path)
        raise
    return out


def load(shared: Shared) -> Dict[str, Optional[np.ndarray]]:
    """The columns of :func:`share`, the arrays as read-only views of the mapped file
    (whose name is removed)."""
    try:
        size = os.path.getsize(shared.path)
        mapped = np.memmap(shared.path, dtype=np.uint8, mode="r") if size else \
            np.zeros(0, dtype=np.uint8)
    finally:
        os.unlink(shared.path)
    out: Dict[str, Optional[np.ndarray]] = {}
    for key in shared.keys:
        if key in shared.layout:
            dtype, offset, length = shared.layout[key]
            out[key] = np.frombuffer(mapped, dtype=np.dtype(dtype), count=length, offset=offset)
        else:
            out[key] = shared.rest[key]
    return out
