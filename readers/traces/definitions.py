"""Definitions: what a trace declares besides its events (ranks, threads, regions...).

A decoder calls ``handler.on_definitions(defs)`` with a :class:`Definitions`
holding what it has learnt so far (it may call it several times: Chrome
metadata events appear anywhere in the stream; DUMPI's header comes after
the events). Handlers merge what they receive with :meth:`Definitions.update`;
later values for the same key win.

Tables (all plain dicts, keys are ints or strings, values are dicts of
JSON-like values):

``ranks``          rank -> ``{"name": str, "host": str, ...}``
``threads``        (rank, thread) -> ``{"name": str, ...}``
``regions``        region name -> ``{"file": str, "line": int, "module": str,
                   "kind": "function" | "mpi" | "io" | ...}``; these become
                   frame attributes of call-tree nodes (only ``file``,
                   ``line``, ``module`` and ``type``)
``communicators``  comm id -> ``{"name": str, "ranks": [world ranks in
                   communicator rank order]}``
``windows``        window id -> ``{"comm": comm id, ...}``
``metadata``       anything else: ``format``, ``version``, ``host``,
                   ``start_time`` (ns), per-format details

Examples
--------
>>> d = Definitions(ranks={0: {"name": "rank 0"}})
>>> _ = d.update(Definitions(ranks={0: {"host": "n1"}}, metadata={"format": "dumpi"}))
>>> d.ranks, d.metadata
({0: {'name': 'rank 0', 'host': 'n1'}}, {'format': 'dumpi'})
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Dict, Hashable


@dataclass
class Definitions:
    """Named tables a trace defines (see the module docs)."""

    ranks: Dict[int, Dict[str, Any]] = field(default_factory=dict)
    threads: Dict[tuple, Dict[str, Any]] = field(default_factory=dict)
    regions: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    communicators: Dict[int, Dict[str, Any]] = field(default_factory=dict)
    windows: Dict[int, Dict[str, Any]] = field(default_factory=dict)
    metadata: Dict[str, Any] = field(default_factory=dict)

    def update(self, other: "Definitions") -> "Definitions":
        """Merge ``other`` into this one (per key, entry dicts are merged); returns self."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.name == "metadata":
                mine.update(theirs)
                continue
            if not mine:  # the common first merge: copy the entries at once
                mine.update({key: dict(entry) for key, entry in theirs.items()})
                continue
            for key, entry in theirs.items():
                _merge_entry(mine, key, entry)
        return self

    def copy(self) -> "Definitions":
        """A deep-enough copy (new dicts per entry)."""
        return Definitions().update(self)

    def is_empty(self) -> bool:
        """True when no table has an entry."""
        return not any(getattr(self, f.name) for f in fields(self))


def _merge_entry(table: Dict[Hashable, Dict[str, Any]], key: Hashable,
                 entry: Dict[str, Any]) -> None:
    current = table.get(key)
    if current is None:
        table[key] = dict(entry)
    else:
        current.update(entry)
