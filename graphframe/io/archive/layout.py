"""The archive's fixed facts: format name and version, member names, how to recognise one."""

from __future__ import annotations

from typing import Any

import numpy as np

FORMAT_NAME = "graphframe"
FORMAT_VERSION = 1
MANIFEST = "graphframe.json"
SUFFIX = ".gfz"
INT = np.int64
MAGIC = b"PK\x03\x04"

#: Timestamp of every member (the earliest a ZIP file can hold): reproducible bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


# ---------------------------------------------------------------- loading
def is_archive(path: Any) -> bool:
    """True when ``path`` is a file written by :func:`save` (cheap: reads 64 bytes).

    Examples
    --------
    >>> is_archive(__file__)
    False
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return head[:4] == MAGIC and MANIFEST.encode() in head
