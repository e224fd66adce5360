"""The event kinds of the Mono log and the fields each carries.

Every kind has one handler method, ``on_<kind>(thread, time, *fields)``
(:class:`~graphframe_readers.traces.mono.handler.MonoHandler`), called with
the buffer's thread id, the event's time in nanoseconds (the log's clock)
and the fields listed in :data:`KINDS`, in that order. Pointers are
absolute (buffer bases added, method pointers accumulated), object
addresses are real addresses (the log stores them divided by 8), a
``backtrace`` is a tuple of method pointers in the order the profiler writes
them: outermost frame first for allocations, throws, monitors and GC handles,
innermost first for samples.

Examples
--------
>>> KINDS["alloc"]
('vtable', 'obj', 'size', 'backtrace')
>>> method_name("alloc"), len(KINDS) >= 40
('on_alloc', True)
"""

from __future__ import annotations

from typing import Dict, Tuple

#: kind -> field names (after ``thread`` and ``time``)
KINDS: Dict[str, Tuple[str, ...]] = {
    # metadata (action: "load", "unload", or "name" for the naming events)
    "image": ("image", "name", "mvid", "action"),
    "assembly": ("assembly", "image", "name", "action"),
    "class": ("klass", "image", "name", "action"),
    "vtable": ("vtable", "domain", "klass", "action"),
    "domain": ("domain", "name", "action"),
    "context": ("context", "domain", "action"),
    "thread_info": ("thread_id", "name", "action"),
    # methods
    "jit": ("method", "code", "size", "name"),
    "enter": ("method",),
    "leave": ("method",),
    "exc_leave": ("method",),
    # allocation and GC (alloc/heap_object ``vtable``: a class pointer before version 15)
    "alloc": ("vtable", "obj", "size", "backtrace"),
    "gc": ("event", "generation"),
    "gc_resize": ("heap_size",),
    "gc_moves": ("moves",),
    "gc_handle_created": ("handle_type", "handle", "obj", "backtrace"),
    "gc_handle_destroyed": ("handle_type", "handle", "backtrace"),
    "finalize_begin": (),
    "finalize_end": (),
    "finalize_object_begin": ("obj",),
    "finalize_object_end": ("obj",),
    # heapshots (heap_roots: (address, obj) pairs from version 15, before:
    # (obj, root_type, extra) triples)
    "heap_begin": (),
    "heap_end": (),
    "heap_object": ("obj", "vtable", "size", "generation", "refs"),
    "heap_roots": ("roots",),
    "heap_root_register": ("address", "size", "source", "key", "name"),
    "heap_root_unregister": ("address",),
    # monitors and exceptions
    "monitor": ("event", "obj", "backtrace"),
    "throw": ("obj", "backtrace"),
    "clause": ("clause_type", "clause_index", "method", "obj"),
    # runtime, samples, counters
    "jit_helper": ("helper_type", "code", "size", "name"),
    "sample": ("sampled_thread", "ips", "backtrace", "sample_type"),
    "unmanaged_symbol": ("address", "size", "name"),
    "unmanaged_binary": ("address", "offset", "size", "name"),
    "counter_descriptions": ("counters",),
    "counters": ("values",),
    "sync_point": ("sync_type",),
    "aot_id": ("aot_id",),
    # coverage (data versions 13-15)
    "coverage_assembly": ("name", "guid", "filename", "methods", "fully_covered",
                          "partially_covered"),
    "coverage_method": ("assembly", "klass", "name", "signature", "filename", "token",
                        "method_id", "length"),
    "coverage_statement": ("method_id", "offset", "counter", "line", "column"),
    "coverage_class": ("assembly", "klass", "methods", "fully_covered", "partially_covered"),
}

#: kind -> position in KINDS (the ``kind`` codes of decoded buffers)
KIND_CODES: Dict[str, int] = {k: i for i, k in enumerate(KINDS)}
KIND_LIST = tuple(KINDS)


def method_name(kind: str) -> str:
    """The handler method that receives events of ``kind``."""
    return "on_" + kind
