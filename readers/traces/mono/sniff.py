"""Recognising a Mono log: its magic number, or a gzip stream whose first bytes hold it.

Examples
--------
>>> import gzip
>>> from pathlib import Path
>>> head = bytes([0x01, 0x5A, 0x50, 0x4D, 3, 0, 17, 8])
>>> sniff_mlpd(Path("x.bin"), head), sniff_mlpd(Path("x.mlpd.gz"), gzip.compress(head))
(True, True)
>>> sniff_mlpd(Path("x.json"), b"[{}]")
False
"""

from __future__ import annotations

import zlib
from pathlib import Path

MAGIC = bytes([0x01, 0x5A, 0x50, 0x4D])     # LOG_HEADER_ID, little-endian


def sniff_mlpd(path: Path, head: bytes) -> bool:
    """True when ``head`` (the first bytes of ``path``) starts a Mono log, plain or gzip."""
    if head[:4] == MAGIC:
        return True
    if head[:2] == b"\x1f\x8b":
        try:
            inflated = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
        except zlib.error:
            return False
        return inflated[:4] == MAGIC
    return False
