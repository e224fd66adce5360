"""OTF2 global definitions through raw ctypes callbacks (no per-definition Python objects).

The ``otf2`` package builds a registry of Python objects for every global
definition (about 70 µs each: a few hundred regions of Score-P's MPI
wrappers cost tens of milliseconds). This module registers plain
callbacks for the few definition kinds the decoder needs (clock properties,
strings, regions, location groups, locations, groups, communicators) and
keeps their fields as tuples of integers; :func:`read_global` resolves them
into :class:`~.definitions.Tables`.

Communicator members: a ``COMM_LOCATIONS`` group lists location refs (world
ranks in communicator order); a ``COMM_GROUP`` group lists indices into the
``COMM_LOCATIONS`` group of the same paradigm.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions
from .definitions import Tables

GROUP_COMM_LOCATIONS, GROUP_COMM_GROUP = 4, 5


def _plain(ctype: Any) -> Any:
    if ctype is ctypes.c_char_p:
        return ctypes.c_char_p
    if ctype.__name__.startswith("LP_") or ctype is ctypes.c_void_p:
        return ctypes.c_void_p
    for base in ctype.__mro__:
        if base.__module__ == "ctypes" and issubclass(base, ctypes._SimpleCData):
            return base
    return ctype


def _names(prefix: str, enum: str) -> Dict[int, str]:
    """Enum value -> lower-case name, from the ``_otf2`` constants (``PARADIGM_MPI``...)."""
    module = sys.modules["_otf2"]
    table = getattr(getattr(module, enum, None), "_names", None)
    if isinstance(table, dict):  # the enum type's own value -> name table: no scan
        return {int(v): str(n).lower() for v, n in table.items()}
    consts = ((n, getattr(module, n)) for n in dir(module) if n.startswith(prefix))
    return {int(c.value): n[len(prefix):].lower() for n, c in consts
            if type(c).__name__ == enum}


class _Collector:
    """Raw definition records, filled by the callbacks."""

    def __init__(self) -> None:
        self.clock: List[tuple] = []
        self.strings: Dict[int, str] = {}
        self.regions: List[tuple] = []
        self.groups_of_locations: List[tuple] = []
        self.locations: List[tuple] = []
        self.groups: Dict[int, tuple] = {}
        self.comms: List[tuple] = []
        self.metric_members: Dict[int, tuple] = {}
        self.metric_classes: Dict[int, List[int]] = {}
        self.metric_instances: Dict[int, int] = {}

    def callbacks(self) -> List[Tuple[str, Callable, Tuple[int, ...]]]:
        """(definition, function, argument positions kept as pointers)."""
        def string(u, ref, text):
            self.strings[ref] = text.decode("utf-8", "replace") if text else ""
            return 0

        def group(u, ref, name, gtype, paradigm, flags, n, members):
            self.groups[ref] = (name, gtype, paradigm, [members[i] for i in range(n)])
            return 0

        def metric_class(u, ref, n, members, occurrence, kind):
            self.metric_classes[ref] = [members[i] for i in range(n)]
            return 0

        return [
            ("MetricMember", lambda u, ref, name, desc, mtype, mode, vtype, base, exp, unit:
                self.metric_members.__setitem__(ref, (name, desc, mtype, mode, vtype, base,
                                                      exp, unit)) or 0, ()),
            ("MetricClass", metric_class, (3,)),
            ("MetricInstance", lambda u, ref, cls, recorder, scope_type, scope:
                self.metric_instances.__setitem__(ref, cls) or 0, ()),
            ("ClockProperties", lambda u, res, off, length, *rest:
                self.clock.append((res, off, length)) or 0, ()),
            ("String", string, ()),
            ("Region", lambda u, ref, name, canon, desc, role, paradigm, flags, src, begin, end:
                self.regions.append((ref, name, role, paradigm, src, begin)) or 0, ()),
            ("LocationGroup", lambda u, ref, name, gtype, parent, *rest:
                self.groups_of_locations.append((ref, name)) or 0, ()),
            ("Location", lambda u, ref, name, ltype, events, group:
                self.locations.append((ref, name, events, group)) or 0, ()),
            ("Group", group, (7,)),
            ("Comm", lambda u, ref, name, grp, parent, *rest:
                self.comms.append((ref, name, grp)) or 0, ()),
        ]


def read_global(lib: Any, handle: Any, anchor: str) -> Tables:
    """Read the global definitions of an open reader into :class:`Tables`."""
    module = sys.modules["_otf2.GlobalDefReaderCallbacks"]
    got = _Collector()
    defreader = lib.Reader_GetGlobalDefReader(handle)
    cbs = lib.GlobalDefReaderCallbacks_New()
    keep = []
    for name, fn, pointers in got.callbacks():
        proto = getattr(module, f"_GlobalDefReaderCallback_FP_{name}")
        types = [t if i in pointers else _plain(t) for i, t in enumerate(proto._argtypes_)]
        fast = ctypes.CFUNCTYPE(ctypes.c_int, *types)
        setter = module.conf.lib[f"OTF2_GlobalDefReaderCallbacks_Set{name}Callback"]  # a private copy
        setter.argtypes = [ctypes.c_void_p, fast]
        setter.restype = ctypes.c_int
        pointer = fast(fn)
        setter(ctypes.cast(cbs, ctypes.c_void_p), pointer)
        keep.append(pointer)
    lib.Reader_RegisterGlobalDefCallbacks(handle, defreader, cbs, None)
    lib.GlobalDefReaderCallbacks_Delete(cbs)
    read = lib.Reader_ReadAllGlobalDefinitions(handle, defreader)
    lib.Reader_CloseGlobalDefReader(handle, defreader)
    del keep
    announced = lib.Reader_GetNumberOfGlobalDefinitions(handle)
    if isinstance(read, int) and read != announced:
        defs = anchor[:-len(".otf2")] + ".def" if anchor.endswith(".otf2") else anchor
        raise ReadError(defs, f"{read} global definitions, the anchor file {anchor} announces "
                        f"{announced}", position=f"definition {read}",
                        expected="all announced definitions (truncated .def file?)")
    return _tables(got, anchor)


def _tables(got: _Collector, anchor: str) -> Tables:
    if not got.clock:
        raise ReadError(anchor, "the trace has no clock properties definition",
                        expected="an OTF2 ClockProperties definition")
    resolution, offset, _ = got.clock[0]
    text = got.strings.get
    out = Definitions(metadata={"format": "otf2", "timer_resolution": int(resolution),
                                "global_offset": int(offset)})
    group_rank: Dict[int, int] = {}
    for ref, name in got.groups_of_locations:
        group_rank[ref] = len(group_rank)
        out.ranks[group_rank[ref]] = {"name": text(name, "")}
    locations: Dict[int, Tuple[int, int, int]] = {}
    per_group: Dict[int, int] = {}
    for ref, name, events, group in got.locations:
        rank = group_rank.get(group, -1)
        thread = per_group.get(rank, 0)
        per_group[rank] = thread + 1
        locations[ref] = (rank, thread, int(events))
        out.threads[(rank, thread)] = {"name": text(name, "")}
    paradigms = _names("PARADIGM_", "Paradigm")
    roles = _names("REGION_ROLE_", "RegionRole")
    region_names: Dict[int, str] = {}
    for ref, name, role, paradigm, src, begin in got.regions:
        label = region_names[ref] = text(name, f"region {ref}")
        out.regions.setdefault(label, {
            "file": text(src, "") if src != 0xFFFFFFFF else "", "line": int(begin),
            "kind": paradigms.get(paradigm, str(paradigm)), "role": roles.get(role, str(role))})
    comm_ranks: Dict[int, np.ndarray] = {}
    for ref, name, grp in got.comms:
        members = _world_ranks(got.groups, grp, locations)
        comm_ranks[ref] = members
        out.communicators[ref] = {"name": text(name, ""), "ranks": members.tolist()}
    return Tables(int(resolution), region_names, locations, comm_ranks, out,
                  _metrics(got, text, out))


def _metrics(got: _Collector, text: Callable, out: Definitions) -> Dict[int, Tuple[str, ...]]:
    """Metric ref -> member names; each member's unit, description, type and mode go to
    ``metadata["metrics"]`` (name -> dict)."""
    types = _names("METRIC_TYPE_", "MetricType")
    modes = _names("METRIC_", "MetricMode")
    info: Dict[str, dict] = {}
    member_name: Dict[int, str] = {}
    for ref, (name, desc, mtype, mode, vtype, base, exp, unit) in got.metric_members.items():
        label = member_name[ref] = text(name, f"metric {ref}")
        info[label] = {"unit": text(unit, ""), "description": text(desc, ""),
                       "type": types.get(mtype, str(mtype)), "mode": modes.get(mode, str(mode)),
                       "base": "binary" if base == 0 else "decimal", "exponent": int(exp)}
    metrics = {ref: tuple(member_name.get(m, f"metric {m}") for m in members)
               for ref, members in got.metric_classes.items()}
    for ref, cls in got.metric_instances.items():
        metrics[ref] = metrics.get(cls, ())
    if info:
        out.metadata["metrics"] = info
    return metrics


def _world_ranks(groups: Dict[int, tuple], grp: int,
                 locations: Dict[int, Tuple[int, int, int]]) -> np.ndarray:
    entry = groups.get(grp)
    if entry is None:
        return np.zeros(0, dtype=np.int64)
    _, gtype, paradigm, members = entry
    if gtype == GROUP_COMM_GROUP:
        base = next((g for g in groups.values()
                     if g[1] == GROUP_COMM_LOCATIONS and g[2] == paradigm), None)
        if base is None or any(m >= len(base[3]) for m in members):
            return np.zeros(0, dtype=np.int64)
        members = [base[3][m] for m in members]
    elif gtype != GROUP_COMM_LOCATIONS:
        return np.zeros(0, dtype=np.int64)
    if any(m not in locations for m in members):
        return np.zeros(0, dtype=np.int64)
    return np.asarray([locations[m][0] for m in members], dtype=np.int64)
