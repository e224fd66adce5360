"""SST DUMPI binary traces (decoder filled in by a later commit)."""

from __future__ import annotations

from pathlib import Path

from .decoder import Decoder

#: The 8 bytes every DUMPI trace file starts with.
MAGIC = b"\xff\xaa\xddDUMPI"


class DumpiDecoder(Decoder):
    """SST DUMPI: one binary file per rank plus a ``.meta`` file."""

    format_name = "dumpi"
    description = "SST DUMPI MPI traces (.meta + one .bin per rank)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if head.startswith(MAGIC):
            return True
        return path.suffix == ".meta" and b"fileprefix=" in head


DECODER = DumpiDecoder
