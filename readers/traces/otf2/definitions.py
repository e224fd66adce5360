"""OTF2 global definitions -> :class:`~readers.traces.Definitions` and lookup tables.

Reads the anchor file's definitions with the ``otf2`` package (an optional
dependency: ``pip install graphframe[otf2]``). Ranks are location groups
(``MPI Rank 3``), threads the locations of a group in definition order;
communicator members are translated to world ranks where the group lists
locations.

Examples
--------
>>> ticks_to_ns(np.array([3, 7]), 2)
array([1500000000, 3500000000])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions


def import_otf2() -> Tuple[Any, Any]:
    """The ``otf2`` package and its low-level ``_otf2`` bindings (ImportError with a hint)."""
    try:  # optional dependency, imported where used
        import _otf2
        import otf2
    except ImportError as exc:
        raise ImportError("reading OTF2 traces needs the otf2 package: "
                          "pip install 'graphframe[otf2]'") from exc
    return otf2, _otf2


@dataclass
class Tables:
    """What the event decoder needs from the definitions."""

    resolution: int
    region_names: Dict[int, str]
    #: location ref -> (rank, thread, number of events)
    locations: Dict[int, Tuple[int, int, int]]
    #: comm ref -> world ranks in communicator rank order (empty: unknown)
    comm_ranks: Dict[int, np.ndarray] = field(default_factory=dict)
    definitions: Definitions = field(default_factory=Definitions)


def ticks_to_ns(ticks: np.ndarray, resolution: int) -> np.ndarray:
    """Timer ticks -> ns without overflow or float rounding (exact below 2**63 ns)."""
    ticks = np.asarray(ticks, dtype=np.int64)
    if resolution == 1_000_000_000:
        return ticks
    whole, part = np.divmod(ticks, resolution)
    return whole * 1_000_000_000 + part * 1_000_000_000 // resolution


def read_tables(reader: Any, anchor: str) -> Tables:
    """Tables and Definitions from an open ``otf2.reader.Reader``."""
    defs = reader.definitions
    if defs.clock_properties is None:
        raise ReadError(anchor, "the trace has no clock properties definition",
                        expected="an OTF2 ClockProperties definition")
    resolution = int(defs.clock_properties.timer_resolution)
    out = Definitions(metadata={"format": "otf2", "timer_resolution": resolution,
                                "global_offset": int(defs.clock_properties.global_offset)})
    group_rank: Dict[int, int] = {}
    for group in defs.location_groups:
        group_rank[group._ref] = len(group_rank)
        out.ranks[group_rank[group._ref]] = {"name": group.name}
    locations: Dict[int, Tuple[int, int, int]] = {}
    per_group: Dict[int, int] = {}
    for loc in defs.locations:
        rank = group_rank.get(loc.group._ref, -1)
        thread = per_group.get(rank, 0)
        per_group[rank] = thread + 1
        locations[loc._ref] = (rank, thread, int(loc.number_of_events))
        out.threads[(rank, thread)] = {"name": loc.name}
    names: Dict[int, str] = {}
    for region in defs.regions:
        names[region._ref] = region.name
        out.regions.setdefault(region.name, {
            "file": region.source_file or "", "line": int(region.begin_line_number or 0),
            "kind": str(region.paradigm).split(".")[-1].lower(),
            "role": str(region.region_role).split(".")[-1].lower()})
    comm_ranks: Dict[int, np.ndarray] = {}
    for comm in defs.comms:
        members = _world_ranks(comm, locations)
        comm_ranks[comm._ref] = members
        out.communicators[comm._ref] = {"name": comm.name, "ranks": members.tolist()}
    return Tables(resolution, names, locations, comm_ranks, out)


def _world_ranks(comm: Any, locations: Dict[int, Tuple[int, int, int]]) -> np.ndarray:
    group = getattr(comm, "group", None)
    ranks: List[int] = []
    for member in (group.members if group is not None else ()):
        ref = getattr(member, "_ref", None)
        if ref is None or ref not in locations:
            return np.zeros(0, dtype=np.int64)
        ranks.append(locations[ref][0])
    return np.asarray(ranks, dtype=np.int64)
