"""What a Recorder call means: file descriptor, file, bytes, offset, message peer.

Recorder logs each argument as text in the C signature's order (pointers as
``%p``; a ``FILE*`` as its descriptor number) and the return value as
``res`` (the new descriptor of ``open``/``fopen``/``dup``...). The tables
below say which argument holds what; :func:`interpret` walks one rank's
calls in file order (the order in which they returned), keeps the
descriptor -> file table (0/1/2 are stdin/stdout/stderr; ``open``-like
calls bind ``res`` to their path; ``dup``/``fdopen`` copy a binding) and
fills the event attribute columns.

Examples
--------
>>> c = interpret(["open", "write", "MPI_Send"], [0, 1, 2],
...               [["/tmp/a", "66", "436"], ["3", "%p", "8"],
...                ["%p", "4", "MPI_INT", "1", "7", "MPI_COMM_WORLD"]],
...               [3, 0, 0])
>>> c["fd"].tolist(), c["file"], c["bytes"].tolist(), c["peer"].tolist()
([3, 3, -1], ['/tmp/a', '/tmp/a', None], [-1, 8, 16], [-1, -1, 1])
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..events import Kind

# name -> (fd arg, path arg, bytes arg(s), offset arg, how res binds a descriptor)
IO_ARGS: Dict[str, tuple] = {}
for _names, _spec in (
    (("open", "open64", "creat", "creat64", "fopen", "fopen64"), (None, 0, None, None, "path")),
    (("close", "fclose", "fsync", "fdatasync", "ftell", "ftello", "ftruncate", "vfprintf",
      "fcntl"), (0, None, None, None, None)),
    (("write", "read", "readv", "writev"), (0, None, 2, None, None)),
    (("pwrite", "pwrite64", "pread", "pread64"), (0, None, 2, 3, None)),
    (("lseek", "lseek64", "fseek", "fseeko"), (0, None, None, "seek", None)),
    (("fwrite", "fread"), (3, None, (1, 2), None, None)),
    (("mmap", "mmap64"), (4, None, None, 5, None)),
    (("__fxstat", "__fxstat64"), (1, None, None, None, None)),
    (("__xstat", "__xstat64", "__lxstat", "__lxstat64", "faccessat", "mknodat",
      "readlinkat"), (None, 1, None, None, None)),
    (("mkdir", "rmdir", "chdir", "link", "unlink", "symlink", "readlink", "rename", "chmod",
      "chown", "lchown", "utime", "opendir", "mknod", "mkfifo", "access", "remove",
      "truncate"), (None, 0, None, None, None)),
    (("dup", "dup2", "fdopen", "fileno"), (0, None, None, None, "dup")),
    (("MPI_File_open",), (None, 1, None, None, None)),
):
    for _name in _names:
        IO_ARGS[_name] = _spec

# name -> (kind, count arg, datatype arg, peer/root arg, tag arg, comm arg)
MPI_ARGS: Dict[str, tuple] = {}
for _names, _spec in (
    (("MPI_Send", "MPI_Ssend", "MPI_Isend", "MPI_Rsend", "MPI_Bsend"),
     (Kind.SEND, 1, 2, 3, 4, 5)),
    (("MPI_Recv", "MPI_Irecv"), (Kind.RECV, 1, 2, 3, 4, 5)),
    (("MPI_Bcast", "MPI_Ibcast"), (Kind.COLLECTIVE, 1, 2, 3, None, 4)),
    (("MPI_Reduce", "MPI_Ireduce"), (Kind.COLLECTIVE, 2, 3, 5, None, 6)),
    (("MPI_Allreduce",), (Kind.COLLECTIVE, 2, 3, None, None, 5)),
    (("MPI_Barrier",), (Kind.COLLECTIVE, None, None, None, None, 0)),
    (("MPI_Gather", "MPI_Scatter", "MPI_Igather", "MPI_Iscatter"),
     (Kind.COLLECTIVE, 1, 2, 6, None, 7)),
    (("MPI_Allgather", "MPI_Alltoall", "MPI_Ialltoall"), (Kind.COLLECTIVE, 1, 2, None, None, 6)),
):
    for _name in _names:
        MPI_ARGS[_name] = _spec

#: sizes of the predefined MPI datatypes (bytes are unknown for others)
DATATYPE_SIZE = {
    "MPI_CHAR": 1, "MPI_SIGNED_CHAR": 1, "MPI_UNSIGNED_CHAR": 1, "MPI_BYTE": 1,
    "MPI_C_BOOL": 1, "MPI_INT8_T": 1, "MPI_UINT8_T": 1, "MPI_SHORT": 2,
    "MPI_UNSIGNED_SHORT": 2, "MPI_INT16_T": 2, "MPI_UINT16_T": 2, "MPI_INT": 4,
    "MPI_UNSIGNED": 4, "MPI_INT32_T": 4, "MPI_UINT32_T": 4, "MPI_FLOAT": 4,
    "MPI_LONG": 8, "MPI_UNSIGNED_LONG": 8, "MPI_LONG_LONG": 8, "MPI_LONG_LONG_INT": 8,
    "MPI_UNSIGNED_LONG_LONG": 8, "MPI_INT64_T": 8, "MPI_UINT64_T": 8, "MPI_DOUBLE": 8,
    "MPI_2INT": 8, "MPI_LONG_DOUBLE": 16,
}
#: communicators Recorder names instead of numbering
COMM_IDS = {"MPI_COMM_WORLD": 0, "MPI_COMM_SELF": 1}
STANDARD_FILES = {0: "stdin", 1: "stdout", 2: "stderr"}


def layer(name: str) -> str:
    """The I/O stack layer of a Recorder function: posix, mpiio, mpi or hdf5."""
    if name.startswith("MPI_File"):
        return "mpiio"
    if name.startswith(("MPI_", "PMPI_")):
        return "mpi"
    if name.startswith("H5"):
        return "hdf5"
    return "posix"


def _int(text: Optional[str]) -> int:
    try:
        return int(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return -1


def _arg(args: Sequence[str], index: Optional[int]) -> Optional[str]:
    return args[index] if index is not None and index < len(args) else None


def interpret(names: Sequence[str], func: Sequence[int], args: Sequence[Sequence[str]],
              res: Sequence[int]) -> Dict[str, Any]:
    """Per-call ``kind`` (data event or -1), ``fd``, ``file``, ``bytes``, ``offset``,
    ``peer``, ``tag`` and ``comm`` for one rank's calls in file order."""
    n = len(func)
    cols = {c: np.full(n, -1, dtype=np.int64)
            for c in ("kind", "fd", "bytes", "offset", "peer", "tag", "comm")}
    files: List[Optional[str]] = [None] * n
    table: Dict[int, str] = dict(STANDARD_FILES)
    layers = [layer(nm) for nm in names]
    for i in range(n):
        name, a = names[func[i]], args[i]
        spec = IO_ARGS.get(name)
        if spec is not None or layers[func[i]] in ("posix", "mpiio", "hdf5"):
            cols["kind"][i] = Kind.IO
            if spec is not None:
                files[i] = _io_call(spec, a, int(res[i]), table, cols, i)
            continue
        mpi = MPI_ARGS.get(name)
        if mpi is not None:
            _mpi_call(mpi, a, cols, i)
    out: Dict[str, Any] = dict(cols)
    out["file"] = files
    return out


def _io_call(spec: tuple, a: Sequence[str], res: int, table: Dict[int, str],
             cols: Dict[str, np.ndarray], i: int) -> Optional[str]:
    fd_arg, path_arg, nbytes, offset, binds = spec
    path = _arg(a, path_arg)
    fd = _int(_arg(a, fd_arg))
    if binds == "path" and path is not None:
        fd = res
        if res >= 0:
            table[res] = path
    elif binds == "dup":
        source = table.get(fd)
        if source is not None and res >= 0:
            table[res] = source
    cols["fd"][i] = fd
    if isinstance(nbytes, tuple):
        size, count = _int(_arg(a, nbytes[0])), _int(_arg(a, nbytes[1]))
        cols["bytes"][i] = size * count if size >= 0 and count >= 0 else -1
    elif nbytes is not None:
        cols["bytes"][i] = _int(_arg(a, nbytes))
    if offset == "seek":
        if _arg(a, 2) == "0":  # SEEK_SET: the argument is the new position
            cols["offset"][i] = _int(_arg(a, 1))
    elif offset is not None:
        cols["offset"][i] = _int(_arg(a, offset))
    if path is not None:
        return path
    return table.get(fd) if fd >= 0 else None


def _mpi_call(spec: tuple, a: Sequence[str], cols: Dict[str, np.ndarray], i: int) -> None:
    kind, count, dtype, peer, tag, comm = spec
    cols["kind"][i] = kind
    n, size = _int(_arg(a, count)), DATATYPE_SIZE.get(_arg(a, dtype) or "", -1)
    if n >= 0 and size >= 0:
        cols["bytes"][i] = n * size
    cols["peer"][i] = _int(_arg(a, peer))
    cols["tag"][i] = _int(_arg(a, tag))
    text = _arg(a, comm)
    cols["comm"][i] = COMM_IDS.get(text, _int(text)) if text is not None else -1
