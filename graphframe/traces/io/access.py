"""What counts as a file access: the data operations, or every call naming a file.

A call names a file when its ``file`` is known (Recorder: its path argument
or the descriptor/stream/handle it uses; DUMPI/OTF2: the MPI-IO handle's
file). The I/O analyses count, by default, only the **data operations**,
the calls that open, close, move data in, position or flush a file (as
prismio, the reference analysis of Recorder traces, does):

- POSIX: ``open``/``open64``/``creat``/``creat64``/``close``,
  ``read``/``write``/``pread``/``pwrite`` (and ``64`` forms)/``readv``/``writev``,
  ``lseek``/``lseek64``, ``fsync``/``fdatasync``;
- stdio: ``fopen``/``fopen64``/``fdopen``/``fclose``, ``fread``/``fwrite``,
  ``fseek``/``fseeko``, ``fprintf``/``vfprintf`` (and ``fputs``/``fgets``... where traced);
- MPI-IO: ``MPI_File_open``/``close``/``sync``, every ``MPI_File_[i]read*`` /
  ``[i]write*`` (``_at``, ``_all``, ``_shared``, ``_ordered``, split
  collectives), ``MPI_File_seek``/``seek_shared``.

Metadata calls that name a file (``stat``, ``access``, ``unlink``,
``ftruncate``, ``mmap``, ``fcntl``, ``ftell``, ``MPI_File_set_view``...) are
not accesses by default; ``calls="all"`` counts every call naming a file.

Examples
--------
>>> is_data_operation(["write", "pwrite64", "fstat", "MPI_File_write_at_all", "ftell"]).tolist()
[True, True, False, True, False]
"""

from __future__ import annotations

import re
from typing import Iterable

import numpy as np

#: the two access definitions: ``calls=`` of the I/O analyses
ACCESS_DEFINITIONS = ("data", "all")

_POSIX = {"open", "open64", "creat", "creat64", "close", "read", "write", "pread", "pwrite",
          "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
          "pwritev2", "lseek", "lseek64", "fsync", "fdatasync"}
_STDIO = {"fopen", "fopen64", "fdopen", "freopen", "fclose", "fread", "fwrite", "fseek",
          "fseeko", "fseeko64", "fprintf", "vfprintf", "fputs", "fgets", "fputc", "fgetc",
          "getc", "putc", "fscanf", "vfscanf", "fflush"}
#: every function name counted as a data operation outside MPI-IO (see the module docs)
DATA_OPERATIONS = frozenset(_POSIX | _STDIO)
_MPIIO = re.compile(r"^P?MPI_File_(open|close|sync|i?(read|write)\w*|seek(_shared)?)$")


def is_data_operation(names: Iterable[str]) -> np.ndarray:
    """Per function name, whether it is a data operation (bool array)."""
    names = [str(n) for n in names]
    memo = {n: (n in DATA_OPERATIONS or bool(_MPIIO.match(n))) for n in set(names)}
    return np.fromiter((memo[n] for n in names), dtype=bool, count=len(names))


def check_calls(calls: str) -> str:
    """Validate an access definition (``"data"`` or ``"all"``)."""
    if calls not in ACCESS_DEFINITIONS:
        raise ValueError(f"calls={calls!r}: use 'data' (the data operations) or 'all' "
                         "(every call naming a file)")
    return calls
