"""MPI-IO calls in DUMPI traces: which records are IO events, and file handle -> file name.

Every ``MPI_File_*`` call that names a file (a handle or a path) becomes an
IO event besides its ENTER/LEAVE pair: ``fd`` = the DUMPI file handle,
``file`` = the path given to the ``MPI_File_open`` that returned the handle
(``MPI_File_delete``: its own path), ``bytes`` = count x datatype size for
reads and writes (the ``*_begin`` call of a split collective carries them,
its ``*_end`` none), ``offset`` = the explicit offset of ``*_at`` calls and
the target of ``MPI_File_seek*`` (in etype units of the file view, as
recorded). The MPIO request calls (``MPIO_Wait``...) are plain calls.

DUMPI handles are small integers that libdumpi reuses after a close, so a
handle names the file of the latest open that returned it; the mapping
carries over from batch to batch of one rank file (:class:`HandleTable`).

Examples
--------
>>> from graphframe_readers.traces.dumpi.layouts import LABEL
>>> IO_ROLE[LABEL["MPI_File_write_at"]], IO_ROLE[LABEL["MPI_File_open"]]
(('count', 'datatype', 'offset'), (None, None, None))
>>> LABEL["MPI_File_get_errhandler"] in IO_ROLE
False
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from ..events import StringTable
from .layouts import FUNCTIONS, LABEL, LAYOUTS

OPEN = LABEL["MPI_File_open"]
DELETE = LABEL["MPI_File_delete"]


def _role(name: str) -> Tuple[Optional[str], Optional[str], Optional[str]]:
    args = {arg for arg, _, _ in LAYOUTS[LABEL[name]]}
    moves = ("read" in name or "write" in name) and {"count", "datatype"} <= args
    at = "offset" in args and ("_at" in name or "seek" in name)
    return ("count" if moves else None, "datatype" if moves else None, "offset" if at else None)


#: label -> (count argument, datatype argument, offset argument) of each IO call
IO_ROLE: Dict[int, Tuple[Optional[str], Optional[str], Optional[str]]] = {
    LABEL[n]: _role(n) for n in FUNCTIONS
    if n.startswith("MPI_File_") and LABEL[n] in LAYOUTS
    and {"file", "filename"} & {arg for arg, _, _ in LAYOUTS[LABEL[n]]}}

#: boolean lookup by label: is the call an IO event
IS_IO = np.zeros(max(LAYOUTS) + 1, dtype=bool)
IS_IO[list(IO_ROLE)] = True


class HandleTable:
    """One rank file's file handle -> file name (string id), updated batch by batch."""

    def __init__(self, strings: StringTable) -> None:
        self.strings = strings
        self.bound: Dict[int, int] = {}

    def names(self, label: np.ndarray, handle: np.ndarray, slow: Mapping[int, Any]) -> np.ndarray:
        """The ``file`` string id of every record of a batch (``-1``: none or unknown).

        ``label``/``handle`` are per record; ``slow`` maps record index -> the
        decoded :class:`~.records.Record` of variable-length records (every
        ``MPI_File_open``/``MPI_File_delete``, whose path is a string).
        """
        out = np.full(len(label), -1, dtype=np.int32)
        opens = []
        for i in sorted(slow):
            rec = slow[i]
            if rec.label in (OPEN, DELETE):
                out[i] = self.strings.intern(rec.args.get("filename", ""))
                if rec.label == OPEN:
                    opens.append(i)
        open_rows = np.asarray(opens, dtype=np.int64)
        uses = np.flatnonzero(IS_IO[np.minimum(label, len(IS_IO) - 1)] & (handle >= 0)
                              & (label != OPEN) & (label != DELETE))
        for h in np.unique(handle[uses]).tolist():  # one step per distinct handle
            rows = uses[handle[uses] == h]
            own = open_rows[handle[open_rows] == h] if len(open_rows) else open_rows
            k = np.searchsorted(own, rows) - 1
            before = self.bound.get(h, -1)
            out[rows] = np.where(k >= 0, out[own[np.maximum(k, 0)]] if len(own) else -1, before)
        for i in opens:
            self.bound[int(handle[i])] = int(out[i])
        return out


def io_columns(label: np.ndarray, fields: Mapping[str, np.ndarray], sizes: np.ndarray,
               files: HandleTable, slow: Mapping[int, Any]) -> Dict[str, np.ndarray]:
    """Per record: ``bytes``, ``offset``, ``fd`` and ``file`` of IO calls (-1 elsewhere)."""
    n = len(label)
    nbytes = np.full(n, -1, dtype=np.int64)
    offset = np.full(n, -1, dtype=np.int64)
    present = np.flatnonzero((np.bincount(label, minlength=len(IS_IO))[:len(IS_IO)] > 0) & IS_IO)
    for lab in present.tolist():
        count_arg, type_arg, offset_arg = IO_ROLE[lab]
        rows = np.flatnonzero(label == lab)
        if count_arg:
            dt = fields[type_arg][rows]
            dt = np.where((dt >= 0) & (dt < len(sizes) - 1), dt, len(sizes) - 1)
            nbytes[rows] = fields[count_arg][rows] * sizes[dt]
        if offset_arg:
            offset[rows] = fields[offset_arg][rows]
    is_io = IS_IO[np.minimum(label, len(IS_IO) - 1)]
    fd = np.where(is_io, fields["file"], -1)
    return {"bytes": nbytes, "offset": offset, "fd": fd,
            "file": files.names(label, fd, slow)}
