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

import posixpath
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
      "truncate", "stat", "stat64", "lstat", "lstat64"), (None, 0, None, None, None)),
    (("fstat", "fstat64"), (0, None, None, None, None)),
    (("dup", "dup2", "fdopen", "fileno"), (0, None, None, None, "dup")),
    (("MPI_File_open",), (None, 1, None, None, "handle")),
    (("MPI_File_close", "MPI_File_sync", "MPI_File_set_size", "MPI_File_get_size",
      "MPI_File_set_view", "MPI_File_preallocate"), (0, None, None, None, None)),
    (("MPI_File_read_at", "MPI_File_read_at_all", "MPI_File_write_at",
      "MPI_File_write_at_all", "MPI_File_iread_at", "MPI_File_iwrite_at",
      "MPI_File_read_at_all_begin", "MPI_File_write_at_all_begin"),
     (0, None, (3, 4), 1, None)),
    (("MPI_File_read", "MPI_File_read_all", "MPI_File_write", "MPI_File_write_all",
      "MPI_File_iread", "MPI_File_iwrite", "MPI_File_read_shared", "MPI_File_write_shared",
      "MPI_File_iread_shared", "MPI_File_iwrite_shared", "MPI_File_read_ordered",
      "MPI_File_write_ordered", "MPI_File_read_all_begin", "MPI_File_write_all_begin",
      "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin"),
     (0, None, (2, 3), None, None)),
    (("MPI_File_seek", "MPI_File_seek_shared"), (0, None, None, "seek", None)),
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


#: whence values that make a seek's offset the new position
SEEK_SET = ("0", "SEEK_SET", "MPI_SEEK_SET")
#: argument text that names no file
NO_NAME = ("%p", "", "???", "(nil)")


def describe(name: str, args: Sequence[str]) -> Dict[str, Any]:
    """What one call says on its own (no descriptor table): ``kind``, the text of its
    descriptor argument (``handle``), ``path``, ``bytes``, ``offset``, ``peer``,
    ``tag``, ``comm`` and how its result binds a descriptor (``binds``).

    >>> d = describe("MPI_File_write_at", ["0-0", "8192", "%p", "4096", "MPI_CHAR", "x"])
    >>> d["handle"], d["bytes"], d["offset"]
    ('0-0', 4096, 8192)
    """
    out: Dict[str, Any] = {"kind": -1, "handle": None, "path": None, "bytes": -1,
                           "offset": -1, "peer": -1, "tag": -1, "comm": -1, "binds": None}
    spec = IO_ARGS.get(name)
    if spec is None and layer(name) in ("posix", "mpiio", "hdf5"):
        out["kind"] = Kind.IO
        return out
    if spec is not None:
        fd_arg, path_arg, nbytes, offset, binds = spec
        out.update(kind=Kind.IO, handle=_arg(args, fd_arg), path=_arg(args, path_arg),
                   binds=binds)
        if isinstance(nbytes, tuple):
            a, b = _arg(args, nbytes[0]), _arg(args, nbytes[1])
            size = DATATYPE_SIZE.get(b or "", -1) if name.startswith("MPI_") else _int(b)
            count = _int(a)
            out["bytes"] = size * count if size >= 0 and count >= 0 else -1
        elif nbytes is not None:
            out["bytes"] = _int(_arg(args, nbytes))
        if offset == "seek":
            if _arg(args, 2) in SEEK_SET:
                out["offset"] = _int(_arg(args, 1))
        elif offset is not None:
            out["offset"] = _int(_arg(args, offset))
        return out
    mpi = MPI_ARGS.get(name)
    if mpi is not None:
        kind, count, dtype, peer, tag, comm = mpi
        out["kind"] = kind
        n, size = _int(_arg(args, count)), DATATYPE_SIZE.get(_arg(args, dtype) or "", -1)
        if n >= 0 and size >= 0:
            out["bytes"] = n * size
        out["peer"] = _int(_arg(args, peer))
        out["tag"] = _int(_arg(args, tag))
        text = _arg(args, comm)
        out["comm"] = COMM_IDS.get(text, _int(text)) if text is not None else -1
    return out


class Files:
    """File identity: relative names resolved against the working directory.

    ``cwd`` is the working directory the trace records (a ``chdir`` call to an
    absolute path) or the one the user gives; until one is known a relative
    name is kept as recorded and listed in :attr:`relative` (flagged).

    >>> f = Files("/run")
    >>> f.name("out/a.dat"), f.name("/abs/b"), f.name("stdout")
    ('/run/out/a.dat', '/abs/b', 'stdout')
    >>> g = Files(None); g.name("testFile"), sorted(g.relative)
    ('testFile', ['testFile'])
    """

    def __init__(self, cwd: Optional[str] = None) -> None:
        self.cwd = cwd
        self.relative: set = set()

    def name(self, text: Optional[str]) -> Optional[str]:
        """The identity of a recorded file name (None for no name)."""
        if text is None or text in NO_NAME:
            return None
        if text.startswith("/") or text in STANDARD_FILES.values():
            return text
        if text.startswith("???/"):  # Recorder could not tell its working directory
            self.relative.add(text)
            return text
        if self.cwd is not None:
            return posixpath.normpath(posixpath.join(self.cwd, text))
        self.relative.add(text)
        return text

    def chdir(self, text: Optional[str]) -> None:
        """Follow a recorded ``chdir``."""
        target = self.name(text)
        if target is not None and target.startswith("/"):
            self.cwd = target


def interpret(names: Sequence[str], func: Sequence[int], args: Sequence[Sequence[str]],
              res: Sequence[int], files: Optional[Files] = None) -> Dict[str, Any]:
    """Per-call ``kind`` (data event or -1), ``fd``, ``file``, ``bytes``, ``offset``,
    ``peer``, ``tag`` and ``comm`` for one rank's calls in file order (Recorder 2.2:
    descriptors resolved through the rank's descriptor table)."""
    n = len(func)
    files = files if files is not None else Files()
    cols = {c: np.full(n, -1, dtype=np.int64)
            for c in ("kind", "fd", "bytes", "offset", "peer", "tag", "comm")}
    out_files: List[Optional[str]] = [None] * n
    table: Dict[int, Optional[str]] = dict(STANDARD_FILES)
    handles: Dict[str, Optional[str]] = {}
    cache: Dict[tuple, Dict[str, Any]] = {}
    for i in range(n):
        name, a = names[func[i]], args[i]
        key = (func[i], tuple(a))
        d = cache.get(key)
        if d is None:
            d = cache[key] = describe(name, a)
        for c in ("kind", "bytes", "offset", "peer", "tag", "comm"):
            cols[c][i] = d[c]
        if d["kind"] != Kind.IO:
            continue
        if name == "chdir":
            files.chdir(d["path"])
        path = files.name(d["path"])
        handle, fd, file = d["handle"], -1, None
        if handle is not None:
            fd = _int(handle)
            if fd >= 0 or handle.lstrip("-").isdigit():
                file = table.get(fd)
            elif handle in handles:
                file = handles[handle]
            else:
                file = files.name(handle)
        binds, r = d["binds"], int(res[i])
        if binds == "path" and path is not None:
            fd = r
            if r >= 0:
                table[r] = path
        elif binds == "dup" and r >= 0 and file is not None:
            table[r] = file
        elif binds == "handle":
            handles[_arg(a, 4) or ""] = path
        cols["fd"][i] = fd
        out_files[i] = path if path is not None else file
    out: Dict[str, Any] = dict(cols)
    out["file"] = out_files
    return out


def interpret_signatures(names: Sequence[str], func: np.ndarray, args: Sequence[Sequence[str]],
                         terminal: np.ndarray, files: Optional[Files] = None) -> Dict[str, Any]:
    """The columns of :func:`interpret` for Recorder 2.4/2.5 records.

    These traces name files in place of descriptors, so each distinct call
    signature is described once and its records take its values; only MPI-IO
    file handles (``0-0``) are resolved per record, to the file of the
    latest ``MPI_File_open`` that returned the handle (``searchsorted``).
    ``fd`` is -1: the format does not keep descriptors or return values.
    Files come as ``file_index`` (per record, -1 for none) into ``file_names``.

    >>> c = interpret_signatures(["MPI_File_open", "MPI_File_sync", "write"],
    ...     np.array([0, 1, 2]), [["C", "/d/f", "9", "%p", "0-0"], ["0-0"], ["/d/g", "%p", "8"]],
    ...     np.array([2, 0, 1, 1]))
    >>> c["file_names"], c["file_index"].tolist(), c["bytes"].tolist()
    (['/d/f', '/d/g'], [1, 0, 0, 0], [8, -1, -1, -1])
    """
    files = files if files is not None else Files()
    m = len(func)
    sig = {c: np.full(m, -1, dtype=np.int64)
           for c in ("kind", "bytes", "offset", "peer", "tag", "comm")}
    sig_file: List[Optional[str]] = [None] * m
    sig_handle: List[Optional[str]] = [None] * m
    binds: Dict[int, str] = {}   # signature -> the MPI handle its open returns
    for t in range(m):
        f = int(func[t])
        name = names[f] if 0 <= f < len(names) else ""
        d = describe(name, args[t])
        for c in sig:
            sig[c][t] = d[c]
        if d["kind"] != Kind.IO:
            continue
        path = files.name(d["path"])
        handle = d["handle"]
        if d["binds"] == "handle":
            binds[t] = _arg(args[t], 4) or ""
        if path is None and handle is not None and name.startswith("MPI_File"):
            sig_handle[t] = handle
        elif path is None and handle is not None:
            path = files.name(handle)
        sig_file[t] = path
    cols: Dict[str, Any] = {c: v[terminal] for c, v in sig.items()}
    cols["fd"] = np.full(len(terminal), -1, dtype=np.int64)
    names_list = sorted({f for f in sig_file if f is not None})
    index = {f: i for i, f in enumerate(names_list)}
    sig_idx = np.array([index[f] if f is not None else -1 for f in sig_file] + [-1],
                       dtype=np.int64)
    records = sig_idx[terminal]
    for handle in sorted({h for h in sig_handle if h is not None}):
        users = [t for t in range(m) if sig_handle[t] == handle]
        opens = [t for t, h in binds.items() if h == handle]
        rows = np.flatnonzero(np.isin(terminal, users))
        at = np.flatnonzero(np.isin(terminal, opens))
        if not len(at):
            continue
        k = np.searchsorted(at, rows, side="right") - 1
        records[rows] = np.where(k >= 0, records[at][np.maximum(k, 0)], -1)
    cols["file_index"] = records
    cols["file_names"] = names_list
    return cols
