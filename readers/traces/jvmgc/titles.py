"""What a GC phase line's title says: event type, name, cause, generation.

A title is the text of a line between ``GC(n)`` (and a generational ZGC
``Y:``/``O:`` prefix) and its heap figures or duration, e.g. ``Pause Young
(Normal) (G1 Evacuation Pause)``. Titles repeat, so each distinct title is
described once (plain Python over the distinct values).

- ``name``: the text before the first parenthesised group (``Pause Young``);
  a trailing ``:`` is dropped (``Pre Evacuate Collection Set``);
- ``info``: the parenthesised groups as logged (``(Normal) (G1 Evacuation
  Pause)``), GCGC's *AdditionalEventInfo*;
- ``cause``: the last group when it names a cause (``G1 Evacuation Pause``,
  ``System.gc()``, ``Allocation Failure``, ``Proactive``); groups that only
  qualify the phase (``Normal``, ``Mixed``, ``unload classes``, ``Major``...)
  or list times (``0.123s, 0.456s``) are not causes;
- ``event_type``: ``pause`` (the name starts with ``Pause``), ``concurrent``
  (``Concurrent``), ``collection`` (a whole collection: ``Garbage
  Collection``, ``Major Collection``, ``Minor Collection``, generational
  ZGC's ``Young Generation``/``Old Generation``, any name ending in
  ``Collection``), else ``phase`` (a step inside a pause or cycle:
  ``Pre Evacuate Collection Set``, ``Phase 1: Mark live objects``);
- ``generation``: ``young``, ``old``, ``mixed``, ``full`` or ``""``
  (:func:`generation`).

Examples
--------
>>> describe("Pause Young (Normal) (G1 Evacuation Pause)")
('pause', 'Pause Young', 'G1 Evacuation Pause', '(Normal) (G1 Evacuation Pause)', 'young')
>>> describe("Pause Full (System.gc())")[1:3], describe("Concurrent Mark (0.123s, 0.456s)")[2]
(('Pause Full', 'System.gc()'), '')
>>> describe("Pre Evacuate Collection Set:")[:2], describe("Major Collection (Warmup)")[0]
(('phase', 'Pre Evacuate Collection Set'), 'collection')
>>> describe("Pause Young (Mixed) (G1 Evacuation Pause)")[4], describe("Pause Remark", "G1")[4]
('mixed', 'old')
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, Tuple

#: event types, in code order (the ``event_type`` column's categories)
EVENT_TYPES = ("pause", "concurrent", "phase", "collection", "safepoint", "heap",
               "metaspace", "codecache")
#: generations, in code order ("" = not known)
GENERATIONS = ("", "young", "old", "mixed", "full")

#: parenthesised groups that qualify a phase rather than give its cause
QUALIFIERS = frozenset({
    "normal", "mixed", "concurrent start", "prepare mixed", "young", "old", "major", "minor",
    "unload classes", "process weakrefs", "update refs", "unload classes, process weakrefs",
    "initial mark", "remark", "cleanup", "start", "end", "concurrent", "full",
    "young gen", "old gen", "degenerated", "during evacuation", "during marking",
})
_TIMES = re.compile(r"^[\d.]+\s*m?s(?:,\s*[\d.]+\s*m?s)*$")
#: phases of an old-generation (concurrent) cycle of G1 and CMS
OLD_CYCLE = re.compile(
    r"^(?:Pause (?:Remark|Cleanup|Initial Mark)|Concurrent (?:Mark|Cycle|Preclean|"
    r"Abortable Preclean|Sweep|Reset|Clear Claimed Marks|Scan Root Regions|"
    r"Rebuild Remembered Sets|Cleanup for Next Mark|Create Live Data|Complete Cleanup|"
    r"Undo Cycle|Mark Abort))")
#: collectors with a young and an old generation where cycle phases are "old"
GENERATIONAL = ("G1", "CMS", "Concurrent Mark Sweep")


def split_groups(title: str) -> Tuple[str, List[str]]:
    """The name and the parenthesised groups at the end of ``title`` (nesting kept).

    >>> split_groups("Pause Full (System.gc())")
    ('Pause Full', ['System.gc()'])
    """
    text = title.rstrip().rstrip(":").rstrip()
    groups: List[str] = []
    end = len(text)
    while end and text[end - 1] == ")":
        depth, i = 0, end - 1
        while i >= 0:
            if text[i] == ")":
                depth += 1
            elif text[i] == "(":
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        if i < 0 or (i > 0 and text[i - 1] != " "):
            break
        groups.insert(0, text[i + 1:end - 1])
        end = i - 1 if i > 0 else 0
    return text[:end].rstrip(), groups


def event_type(name: str) -> str:
    """``pause``, ``concurrent``, ``collection`` or ``phase`` from a phase name."""
    if name.startswith("Pause"):
        return "pause"
    if name.startswith("Concurrent"):
        return "concurrent"
    if name.endswith("Collection") or name in ("Young Generation", "Old Generation"):
        return "collection"
    return "phase"


def generation(name: str, groups: List[str], collector: str = "") -> str:
    """young / old / mixed / full / "" from a phase name and its groups."""
    words = name.split()
    lowered = {g.lower() for g in groups}
    if "mixed" in lowered:
        return "mixed"
    if "Full" in words or name.startswith("Major"):
        return "full"
    if "Young" in words or name.startswith("Minor") or "Incremental" in words \
            or "young" in lowered:
        return "young"
    if name.startswith("Old") or "old" in lowered:
        return "old"
    if any(collector.startswith(c) for c in GENERATIONAL if collector) and OLD_CYCLE.match(name):
        return "old"
    return ""


def cause_of(groups: List[str]) -> str:
    """The last group when it names a cause, else ``""``."""
    if not groups:
        return ""
    last = groups[-1].strip()
    if last.lower() in QUALIFIERS or _TIMES.match(last):
        return ""
    return last


@lru_cache(maxsize=65536)
def describe(title: str, collector: str = "") -> Tuple[str, str, str, str, str]:
    """(event_type, name, cause, info, generation) of one title."""
    name, groups = split_groups(title)
    info = " ".join(f"({g})" for g in groups)
    etype = event_type(name)
    cause = cause_of(groups) if etype != "phase" else ""
    return etype, name, cause, info, generation(name, groups, collector)


#: words a start line (``GC(3) Pause Young (Normal) (G1 Evacuation Pause)``,
#: logged before the phase ends) begins with
START_WORDS = re.compile(
    r"^(?:Pause |Concurrent |Garbage Collection|Major Collection|Minor Collection|"
    r"Young Generation|Old Generation|Phase \d|Marking Phase|Summary Phase|Compaction Phase|"
    r"Adjust Roots|Post Compact|Rendezvous|Pre Evacuate|Evacuate|Post Evacuate|Merge Heap|"
    r"Prepare|Mark |Other)")
