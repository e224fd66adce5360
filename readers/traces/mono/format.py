"""Constants of the Mono log profiler's ``.mlpd`` format (data versions 13-17).

Numbers only: the event type codes (low 4 bits of an event's first byte),
the extended-info codes (high 4 bits), the metadata kinds and the runtime
enumerations the events carry, with the names ``mprof-report`` prints for
them. The layout of each event is described in ``docs/readers/mono.md``;
the authoritative description is the comment block of the Mono runtime's
``profiler/log.h``.

Examples
--------
>>> hex(LOG_HEADER_ID), hex(BUF_ID), BUFFER_HEADER_SIZE
('0x4d505a01', '0x4d504c01', 48)
>>> GC_EVENT_NAMES[0], CLAUSE_NAMES[2], MONITOR_NAMES[1]
('start', 'finally', 'contended')
"""

from __future__ import annotations

#: First four bytes of a file (little-endian) and of every buffer.
LOG_HEADER_ID = 0x4D505A01
BUF_ID = 0x4D504C01
#: Buffer header: id, length (4 bytes each), time base, pointer base,
#: object base, thread id, method base (8 bytes each).
BUFFER_HEADER_SIZE = 48
#: Data versions this decoder reads.
MIN_DATA_VERSION = 13
MAX_DATA_VERSION = 17

# event types (low nibble of the event byte)
TYPE_ALLOC = 0
TYPE_GC = 1
TYPE_METADATA = 2
TYPE_METHOD = 3
TYPE_EXCEPTION = 4
TYPE_MONITOR = 5
TYPE_HEAP = 6
TYPE_SAMPLE = 7
TYPE_RUNTIME = 8
TYPE_COVERAGE = 9     # data versions 13-15 only
TYPE_META = 10

# extended info (high nibble), per type
ALLOC_BT = 0x10
GC_EVENT, GC_RESIZE, GC_MOVE = 0x10, 0x20, 0x30
GC_HANDLE_CREATED, GC_HANDLE_DESTROYED = 0x40, 0x50
GC_HANDLE_CREATED_BT, GC_HANDLE_DESTROYED_BT = 0x60, 0x70
GC_FINALIZE_START, GC_FINALIZE_END = 0x80, 0x90
GC_FINALIZE_OBJECT_START, GC_FINALIZE_OBJECT_END = 0xA0, 0xB0
END_LOAD, END_UNLOAD = 0x20, 0x40
METHOD_LEAVE, METHOD_ENTER, METHOD_EXC_LEAVE, METHOD_JIT = 0x10, 0x20, 0x30, 0x40
EXCEPTION_CLAUSE = 0x10
EXCEPTION_BT = 0x80
MONITOR_BT = 0x80
HEAP_START, HEAP_END, HEAP_OBJECT, HEAP_ROOT = 0x00, 0x10, 0x20, 0x30
HEAP_ROOT_REGISTER, HEAP_ROOT_UNREGISTER = 0x40, 0x50
SAMPLE_HIT, SAMPLE_USYM, SAMPLE_UBIN = 0x00, 0x10, 0x20
SAMPLE_COUNTERS_DESC, SAMPLE_COUNTERS = 0x30, 0x40
RUNTIME_JITHELPER = 0x10
META_SYNC_POINT, META_AOT_ID = 0x00, 0x10
COVERAGE_ASSEMBLY, COVERAGE_METHOD, COVERAGE_STATEMENT, COVERAGE_CLASS = 0x00, 0x10, 0x20, 0x30

# metadata kinds (the byte after the time of a TYPE_METADATA event)
META_CLASS, META_IMAGE, META_ASSEMBLY, META_DOMAIN = 1, 2, 3, 4
META_THREAD, META_CONTEXT, META_VTABLE = 5, 6, 7
METADATA_KIND_NAMES = {1: "class", 2: "image", 3: "assembly", 4: "domain", 5: "thread",
                       6: "context", 7: "vtable"}

#: MonoProfilerGCEvent values -> mprof-report's words
GC_EVENT_START, GC_EVENT_END = 0, 5
GC_EVENT_NAMES = {0: "start", 1: "mark start", 2: "mark end", 3: "reclaim start",
                  4: "reclaim end", 5: "end", 6: "pre stop", 7: "post stop",
                  8: "pre start", 9: "post start", 10: "pre stop lock",
                  11: "post start unlock"}
#: MonoExceptionEnum clause kinds
CLAUSE_NAMES = {0: "catch", 1: "filter", 2: "finally", 4: "fault"}
#: MonoProfilerMonitorEvent
MONITOR_CONTENTION, MONITOR_DONE, MONITOR_FAIL = 1, 2, 3
MONITOR_NAMES = {1: "contended", 2: "acquired", 3: "not taken"}
#: MonoGCHandleType
HANDLE_NAMES = {0: "weak", 1: "weaktrack", 2: "normal", 3: "pinned"}
#: MonoProfilerSyncPointType
SYNC_POINT_NAMES = {0: "periodic", 1: "world stop", 2: "world start"}
#: MonoGCRootSource (root register events)
ROOT_SOURCE_NAMES = {0: "external", 1: "stack", 2: "finalizer queue", 3: "static",
                     4: "thread static", 5: "context static", 6: "gc handle", 7: "jit",
                     8: "threading", 9: "domain", 10: "reflection", 11: "marshal",
                     12: "thread pool", 13: "debugger", 14: "handle", 15: "ephemeron",
                     16: "toggleref"}
#: MonoProfilerCodeBufferType from data version 14 on (version 13 numbers them one higher)
CODE_BUFFER_NAMES = {0: "method", 1: "method trampoline", 2: "unbox trampoline",
                     3: "imt trampoline", 4: "generics trampoline", 5: "specific trampoline",
                     6: "misc helper", 7: "monitor/lock", 8: "delegate invoke",
                     9: "exception handling"}
CODE_BUFFER_SPECIFIC_TRAMPOLINE = 5
#: sample types of data version 13 (later versions: always cycles)
SAMPLE_TYPE_NAMES = {1: "cycles", 2: "instructions retired", 3: "cache misses",
                     4: "cache references", 5: "executed branches", 6: "unpredicted branches"}

# runtime counters (mono-counters.h)
COUNTER_INT, COUNTER_UINT, COUNTER_WORD, COUNTER_LONG = 0, 1, 2, 3
COUNTER_ULONG, COUNTER_DOUBLE, COUNTER_STRING, COUNTER_TIME_INTERVAL = 4, 5, 6, 7
COUNTER_PERFCOUNTERS = 1 << 15
COUNTER_UNIT_TIME = 2 << 24
COUNTER_SECTION_NAMES = {1 << 8: "Mono JIT", 1 << 9: "Mono GC", 1 << 10: "Mono Metadata",
                         1 << 11: "Mono Generics", 1 << 12: "Mono Security",
                         1 << 13: "Mono Runtime", 1 << 14: "Mono System",
                         1 << 16: "Mono Profiler"}
COUNTER_TYPE_NAMES = {0: "Int", 1: "UInt", 2: "Word", 3: "Long", 4: "ULong", 5: "Double",
                      6: "String", 7: "Time Interval"}
COUNTER_UNIT_NAMES = {0: "Raw", 1 << 24: "Bytes", 2 << 24: "Time", 3 << 24: "Count",
                      4 << 24: "Percentage"}
COUNTER_VARIANCE_NAMES = {1 << 28: "Monotonic", 1 << 29: "Constant", 1 << 30: "Variable"}
