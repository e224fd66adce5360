"""SST DUMPI -> event batches: our own decoder of the binary format (no C library).

Each record (one MPI call) becomes an ENTER at its wall start and a LEAVE at
its wall end named after the call, plus, for calls that move data, a SEND,
RECV, COLLECTIVE, RMA or RMA_SYNC event at the start (``end`` = the call's
end): ``bytes`` = count x the datatype's size from the file's size table,
``peer`` = destination / source / root / target as recorded (ranks of the
call's communicator), ``tag``, ``comm``, ``request``, ``window``. MPI-IO
calls (``MPI_File_*``) give an IO event with the file handle (``fd``), the
file name of the open that returned the handle (``file``), ``bytes`` and
``offset`` (see :mod:`.mpiio`). User
function enter/exit records (``-finstrument-functions``) become
ENTER/LEAVE named from the file's address table.

Speed: record boundaries need one short Python step per record (the format
has no lengths; a table gives the length of every (function, mask) whose
layout is fixed); fields are then gathered with numpy for all records of a
layout at once. Records whose length depends on their data (arrays,
statuses) go through :func:`.records.parse_record`.

Options: ``args=True`` adds each call's arguments as ``args`` text
(``name=value`` lines; slow); ``batch_records`` bounds a batch.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import Any, Dict, List

from ...errors import MissingMembersError, ReadError
from ..decoder import Decoder
from ..handler import EventHandler
from ..sources import ByteSource, FileSource, rank_of, rank_sources
from ..text import decode_text
from .magic import MAGIC

#: Bytes read at a time from a DUMPI file (memory stays flat whatever the file size).
_BLOCK = 1 << 20
#: The largest .meta file read (a few lines of key=value in practice).
_META_BYTES = 1 << 20


class DumpiDecoder(Decoder):
    """SST DUMPI: one binary file per rank plus a ``.meta`` file."""

    format_name = "dumpi"
    description = "SST DUMPI MPI traces (.meta + one .bin per rank)"

    def __init__(self, *, args: bool = False, batch_records: int = 500_000) -> None:
        super().__init__(args=args, batch_records=batch_records)

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if head.startswith(MAGIC):
            return True
        if path.is_dir():
            return any(p.suffix == ".meta" for p in path.iterdir())
        return path.suffix == ".meta" and b"fileprefix=" in head

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        if isinstance(path, (list, tuple)) or isinstance(path, ByteSource):
            return super().sources(path)
        p = Path(os.fspath(path))
        if p.is_dir():
            metas = sorted(p.glob("*.meta"))
            if not metas:
                raise ReadError(p, "no .meta file in the directory", expected="a DUMPI .meta file")
            p = metas[0]
        if p.suffix != ".meta":
            return [FileSource(p, rank=rank_of(p), block_size=_BLOCK)]
        meta = read_meta(p)
        prefix = meta.get("fileprefix")
        if not prefix:
            raise ReadError(p, "the .meta file names no fileprefix", position="the whole file",
                            expected="a line fileprefix=<name of the rank files>")
        try:
            nprocs = int(meta.get("numprocs", "0"))
        except ValueError:
            raise ReadError(p, f"numprocs is not a number: {meta['numprocs'][:40]!r}",
                            position="the numprocs line", expected="numprocs=<ranks>") from None
        files = sorted(p.parent.glob(f"{glob.escape(prefix)}-*.bin"))
        if "numprocs" not in meta:
            nprocs = len(files)
        sources = rank_sources(files, block_size=_BLOCK)
        have = {s.rank for s in sources}
        absent = {f"rank {r}": str(p.parent / f"{prefix}-{r:04d}.bin") for r in range(nprocs)
                  if r not in have}
        if absent:
            raise MissingMembersError(p, absent, declared=f"numprocs={nprocs}",
                                      present=[s for s in sources if s.rank < nprocs])
        extra = [s.name for s in sources if s.rank >= nprocs]
        if extra:
            raise ReadError(extra[0], f"a rank file beyond numprocs={nprocs}",
                            expected=f"ranks 0 to {nprocs - 1} (the .meta file {p.name})")
        return sources

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        from .run import DumpiRun  # the record tables load with the first decode, not to sniff
        DumpiRun(source, handler, self.options).run()


def read_meta(path: Path) -> Dict[str, str]:
    """The ``key=value`` lines of a DUMPI ``.meta`` file (UTF-8, at most 1 MiB).

    Examples
    --------
    >>> import os, tempfile
    >>> p = Path(tempfile.mkdtemp()) / "t.meta"
    >>> _ = p.write_bytes(b"numprocs=2\\nfileprefix=t\\n")
    >>> read_meta(p)
    {'numprocs': '2', 'fileprefix': 't'}
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(_META_BYTES + 1)
    except OSError as exc:
        raise ReadError(path, f"cannot read the file: {exc.strerror}") from exc
    if len(data) > _META_BYTES:
        raise ReadError(path, f"the .meta file is larger than {_META_BYTES >> 20} MiB",
                        position=f"byte {_META_BYTES}", expected="a DUMPI .meta file")
    lines = decode_text(data, str(path)).splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)
