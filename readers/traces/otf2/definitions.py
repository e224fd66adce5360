"""What the OTF2 event decoder needs from the definitions, the optional import, tick -> ns.

The ``otf2`` package is an optional dependency (``pip install graphframe[otf2]``).
:mod:`.globaldefs` fills :class:`Tables`: ranks are location groups
(``MPI Rank 3``), threads the locations of a group in definition order;
communicator members are translated to world ranks.

Examples
--------
>>> ticks_to_ns(np.array([3, 7]), 2)
array([1500000000, 3500000000])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Tuple

import numpy as np

from ..definitions import Definitions


def import_otf2() -> Tuple[Any, Any]:
    """``(None, _otf2)``: the ``otf2`` package's low-level bindings (ImportError with a hint).

    Only the bindings are read through; the package's high-level modules (its
    writer and reader classes, twice the import time of the bindings) are not
    imported.
    """
    try:  # optional dependency, imported where used
        import _otf2
    except ImportError as exc:
        raise ImportError("reading OTF2 traces needs the otf2 package: "
                          "pip install 'graphframe[otf2]'") from exc
    return None, _otf2


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
    #: metric (class or instance) ref -> its members' names, in value order
    metrics: Dict[int, Tuple[str, ...]] = field(default_factory=dict)


def ticks_to_ns(ticks: np.ndarray, resolution: int) -> np.ndarray:
    """Timer ticks -> ns without overflow or float rounding (exact below 2**63 ns)."""
    ticks = np.asarray(ticks, dtype=np.int64)
    if resolution == 1_000_000_000:
        return ticks
    whole, part = np.divmod(ticks, resolution)
    return whole * 1_000_000_000 + part * 1_000_000_000 // resolution
