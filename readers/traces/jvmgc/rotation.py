"""Rotated logs: the parts of one log, in order, read as one source.

HotSpot's ``-Xlog:...:file=gc.log::filecount=5`` keeps ``gc.log`` and
numbered parts ``gc.log.0``, ``gc.log.1``...; other set-ups name them
``gc.log``, ``gc.log.1``... A log's parts share its *stem* (the name without
the trailing ``.N``) and are read in the order: the bare name, then ``.0``,
``.1``... (the order the issue of the GCGC datasets uses: ``ZGC.log.0`` then
``ZGC.log.1``).

Examples
--------
>>> [(stem, [p.split("/")[-1] for p in parts]) for stem, parts in
...  group_logs(["a/ZGC.log.1", "a/G1.log", "a/ZGC.log.0"])]
[('G1.log', ['G1.log']), ('ZGC.log', ['ZGC.log.0', 'ZGC.log.1'])]
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple

from ..sources import BLOCK_SIZE, ByteSource, FileSource, PathArg

_PART = re.compile(r"^(?P<stem>.+?)\.(?P<n>\d+)$")


def stem_of(path: PathArg) -> Tuple[str, int]:
    """(stem, part number; -1 for the bare name) of a log file name.

    >>> stem_of("/x/gc.log.3"), stem_of("gc.log")
    (('gc.log', 3), ('gc.log', -1))
    """
    name = Path(os.fspath(path)).name
    m = _PART.match(name)
    if m and not m.group("stem").endswith(".log") and "." not in m.group("stem"):
        return name, -1
    return (m.group("stem"), int(m.group("n"))) if m else (name, -1)


def group_logs(paths: Sequence[PathArg]) -> List[Tuple[str, List[str]]]:
    """Paths grouped into logs (stem -> ordered parts), logs sorted by stem."""
    logs = {}
    for p in paths:
        stem, n = stem_of(p)
        key = (os.path.dirname(os.fspath(p)), stem)
        logs.setdefault(key, []).append((n, os.fspath(p)))
    return [(stem, [p for _, p in sorted(parts)]) for (_, stem), parts in sorted(logs.items())]


class RotatedSource(ByteSource):
    """The parts of one rotated log, read one after the other.

    The decoder reads ``parts`` itself (line numbers restart in each part
    and messages name the part); ``blocks()`` gives the bytes of all parts
    in order for other consumers.
    """

    seekable = False

    def __init__(self, parts: Sequence[PathArg], *, label: str = "",
                 block_size: int = BLOCK_SIZE) -> None:
        self.parts: List[ByteSource] = [p if isinstance(p, ByteSource) else
                                        FileSource(p, block_size=block_size) for p in parts]
        self.name = label or (self.parts[0].name if self.parts else "<no parts>")
        self.label = label
        self.block_size = int(block_size)

    def blocks(self, start: int = 0) -> Iterator[bytes]:
        for part in self.parts:
            yield from part.blocks()

    def size(self):
        sizes = [p.size() for p in self.parts]
        return None if any(s is None for s in sizes) else sum(sizes)
