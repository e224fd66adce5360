"""The object model of a Mono log: what :class:`~.model.ModelBuilder` builds.

:class:`MonoModel` holds the metadata (threads, images, assemblies, classes,
vtables, methods with their JIT names, domains, contexts, counters, unmanaged
symbols and binaries) and mprof-report's aggregates (calls per method,
allocations per class and backtrace, GC, exceptions, monitors, heapshots,
samples, the call tree's sums); plain dicts and lists, picklable.

Examples
--------
>>> m = MonoModel(classes={0x50: "A.Node"}, methods={0x700: "A:Main ()"})
>>> m.class_name(0x50), m.class_name(0x58), m.method_name(0), pointer(0x7f0c)
('A.Node', 'unresolved class 0x58', 'unknown method (nil)', '0x7f0c')
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .blocks import MlpdHeader

Trace = Tuple[int, ...]


def pointer(value: int) -> str:
    """A pointer as C's ``%p`` prints it (``(nil)`` for 0).

    Examples
    --------
    >>> pointer(0), pointer(0x7f0c)
    ('(nil)', '0x7f0c')
    """
    return "(nil)" if value == 0 else f"0x{value & ((1 << 64) - 1):x}"


@dataclass
class HeapShot:
    """One heapshot: its time and, per class pointer, object count and bytes."""

    time: int
    count: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    bytes: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    roots: int = 0


@dataclass
class MonoModel:
    """What a Mono log describes, and mprof-report's statistics (see the module docs)."""

    header: Optional[MlpdHeader] = None
    source: str = ""
    first_time: Optional[int] = None          # time base of the first buffer (mprof's start)
    buffers: int = 0
    events: int = 0
    # metadata
    threads: Dict[int, str] = field(default_factory=dict)        # creation order
    images: Dict[int, str] = field(default_factory=dict)
    assemblies: Dict[int, str] = field(default_factory=dict)
    classes: Dict[int, str] = field(default_factory=dict)
    vtable_class: Dict[int, int] = field(default_factory=dict)
    methods: Dict[int, str] = field(default_factory=dict)
    method_code: Dict[int, Tuple[int, int]] = field(default_factory=dict)   # code, size
    domains: Dict[int, Optional[str]] = field(default_factory=dict)
    contexts: Dict[int, int] = field(default_factory=dict)
    jit_helpers: int = 0
    jit_helpers_size: int = 0
    # calls
    method_calls: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    method_total: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    method_self: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    unmatched_leaves: int = 0
    unmatched: List[Tuple[int, int]] = field(default_factory=list)
    # allocations: per class pointer; per (class, backtrace) bytes and count
    alloc_count: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    alloc_bytes: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    alloc_traces: Dict[Tuple[int, Trace], List[int]] = field(default_factory=dict)
    #: allocations without a backtrace, by (class, call-path node) of the emulated stack
    alloc_paths: Dict[Tuple[int, int], List[int]] = field(default_factory=dict)
    # GC
    gc_resizes: int = 0
    max_heap: int = 0
    moves: int = 0
    gc_count: List[int] = field(default_factory=lambda: [0, 0, 0])
    gc_total: List[int] = field(default_factory=lambda: [0, 0, 0])
    gc_max: List[int] = field(default_factory=lambda: [0, 0, 0])
    handles: Dict[int, List[int]] = field(default_factory=dict)   # type -> created, destroyed, live, max
    finalized: int = 0
    # exceptions and monitors
    throws: int = 0
    throw_traces: Dict[Trace, int] = field(default_factory=lambda: defaultdict(int))
    #: throws without a backtrace, by call-path node of the emulated stack
    throw_paths: Dict[int, int] = field(default_factory=dict)
    #: class pointer of the thrown object (from its allocation event; 0: not seen) -> throws
    throw_types: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    clauses: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    clause_methods: Dict[Tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))
    monitor_events: List[int] = field(default_factory=lambda: [0, 0, 0])  # contended, acquired, failed
    monitors: Dict[int, List[int]] = field(default_factory=dict)   # obj -> contentions, wait, max
    # heapshots
    heapshots: List[HeapShot] = field(default_factory=list)
    # samples
    sample_type: Optional[int] = None
    sample_ips: Dict[int, int] = field(default_factory=lambda: defaultdict(int))
    #: (sampled thread, instruction pointers, backtrace) -> samples
    sample_traces: Dict[tuple, int] = field(default_factory=lambda: defaultdict(int))
    #: calling-context tree (ModelBuilder(tree=True)): node -> parent, method; and
    #: (node, thread) -> [calls, inclusive ns, exclusive ns, allocations, bytes allocated]
    tree_parent: List[int] = field(default_factory=list)
    tree_method: List[int] = field(default_factory=list)
    tree_calls: Dict[Tuple[int, int], List[int]] = field(default_factory=dict)
    usymbols: List[Tuple[int, int, str]] = field(default_factory=list)
    ubinaries: List[Tuple[int, int, str]] = field(default_factory=list)
    # counters: index -> description; values as (time, index, value)
    counters: Dict[int, dict] = field(default_factory=dict)
    counter_values: List[Tuple[int, int, Any]] = field(default_factory=list)
    sync_points: int = 0
    aot_id: Optional[str] = None
    coverage: List[Tuple[str, tuple]] = field(default_factory=list)
    kind_counts: Dict[str, int] = field(default_factory=lambda: defaultdict(int))

    # ---------------------------------------------------------------- names
    def class_name(self, klass: int) -> str:
        """A class's name, or mprof-report's placeholder."""
        name = self.classes.get(klass)
        return name if name is not None else f"unresolved class {pointer(klass)}"

    def method_name(self, method: int) -> str:
        """A method's name (from its JIT event), or mprof-report's placeholder."""
        name = self.methods.get(method)
        return name if name is not None else f"unknown method {pointer(method)}"
