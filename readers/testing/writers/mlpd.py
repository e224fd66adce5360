"""A small writer of Mono log profiler files (``.mlpd``), for tests and benchmarks.

:class:`MlpdWriter` builds events for any data version 13-17 (each event
method returns a list of typed parts; :meth:`MlpdWriter.buffer` encodes
them with the format's deltas: times against the previous event, pointers
against the buffer's bases, method pointers against the previous method
pointer). :func:`write_calls_log` writes a large, valid calls log fast by
repeating a few generated buffers (benchmarks: decoding speed, bounded
memory of the call tree).

Examples
--------
>>> w = MlpdWriter(version=17, args="log:calls")
>>> w.buffer(thread=1, time_base=100, events=[
...     w.jit(time=100, method=0x5000, code=0x9000, size=16, name="A:f ()"),
...     w.enter(time=110, method=0x5000), w.leave(time=150, method=0x5000)])
>>> data = w.getvalue()
>>> data[:4], len(data)
(b'\\x01ZPM', 143)
"""

from __future__ import annotations

import gzip
import os
import struct
from typing import Any, Iterable, List, Optional, Sequence, Tuple

Part = Tuple[str, Any]
Event = List[Part]

_LOG_HEADER_ID = 0x4D505A01
_BUF_ID = 0x4D504C01


def uleb(value: int) -> bytes:
    """Unsigned LEB128 encoding.

    Examples
    --------
    >>> uleb(624485).hex()
    'e58e26'
    """
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sleb(value: int) -> bytes:
    """Signed LEB128 encoding.

    Examples
    --------
    >>> sleb(-1).hex(), sleb(63).hex(), sleb(64).hex()
    ('7f', '3f', 'c000')
    """
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


class MlpdWriter:
    """Builds an ``.mlpd`` file in memory (see the module docs).

    Parameters
    ----------
    version : int
        Data version 13-17 (event layouts follow it).
    major, minor : int
        Log profiler version in the header (3.0 writes the ns startup time).
    args, arch, os_name : str
        The header's strings.
    """

    def __init__(self, version: int = 17, *, major: int = 3, minor: int = 0,
                 args: str = "log:test", arch: str = "x86-64", os_name: str = "linux",
                 startup_ms: int = 1_700_000_000_000, pid: int = 4242, port: int = 0,
                 timer_overhead: int = 20) -> None:
        self.version = version
        head = struct.pack("<IBBBBQ", _LOG_HEADER_ID, major, minor, version, 8, startup_ms)
        if major >= 3:
            head += struct.pack("<Q", 1000)
        head += struct.pack("<IIIH", timer_overhead, 0, pid, port)
        for text in (args, arch, os_name):
            raw = text.encode() + b"\0"
            head += struct.pack("<I", len(raw)) + raw
        self.parts: List[bytes] = [head]

    # ------------------------------------------------------------ output
    def getvalue(self) -> bytes:
        """The file's bytes."""
        return b"".join(self.parts)

    def write(self, path: Any, *, compress: bool = False) -> str:
        """Write the file (gzip-compressed with ``compress``); returns the path."""
        path = os.fspath(path)
        data = self.getvalue()
        with (gzip.open(path, "wb") if compress else open(path, "wb")) as fh:
            fh.write(data)
        return path

    def buffer(self, thread: int, events: Iterable[Event], *, time_base: Optional[int] = None,
               ptr_base: int = 0, obj_base: int = 0, method_base: int = 0) -> None:
        """Append one buffer holding ``events`` (in order) of ``thread``."""
        events = list(events)
        if time_base is None:
            time_base = min((p[1] for e in events for p in e if p[0] == "time"), default=0)
        data = encode_events(events, time_base=time_base, ptr_base=ptr_base,
                             obj_base=obj_base, method_base=method_base)
        self.parts.append(struct.pack("<IIqqqqq", _BUF_ID, len(data), time_base, ptr_base,
                                      obj_base, thread, method_base) + data)

    # ------------------------------------------------------------ events
    def _ev(self, code: int, time: int, *parts: Part) -> Event:
        return [("byte", code), ("time", time), *parts]

    def _bt(self, backtrace: Optional[Sequence[int]]) -> List[Part]:
        return [("uleb", len(backtrace))] + [("method", m) for m in backtrace] \
            if backtrace is not None else []

    def image(self, time: int, image: int, name: str, mvid: str = "", unload: bool = False):
        """Image load (or unload) metadata."""
        parts: List[Part] = [("byte", 2), ("ptr", image), ("str", name)]
        if self.version >= 16:
            parts.append(("str", mvid))
        return self._ev(0x42 if unload else 0x22, time, *parts)

    def assembly(self, time: int, assembly: int, image: int, name: str):
        """Assembly load metadata."""
        parts: List[Part] = [("byte", 3), ("ptr", assembly)]
        if self.version >= 14:
            parts.append(("ptr", image))
        return self._ev(0x22, time, *parts, ("str", name))

    def klass(self, time: int, klass: int, image: int, name: str):
        """Class load metadata."""
        return self._ev(0x22, time, ("byte", 1), ("ptr", klass), ("ptr", image), ("str", name))

    def vtable(self, time: int, vtable: int, domain: int, klass: int):
        """VTable load metadata (data version 15 on)."""
        return self._ev(0x22, time, ("byte", 7), ("ptr", vtable), ("ptr", domain),
                        ("ptr", klass))

    def domain(self, time: int, domain: int, name: Optional[str] = None, unload: bool = False):
        """Domain load/unload, or naming when ``name`` is given."""
        if name is not None:
            return self._ev(0x02, time, ("byte", 4), ("ptr", domain), ("str", name))
        return self._ev(0x42 if unload else 0x22, time, ("byte", 4), ("ptr", domain))

    def context(self, time: int, context: int, domain: int, unload: bool = False):
        """Remoting context load/unload."""
        return self._ev(0x42 if unload else 0x22, time, ("byte", 6), ("ptr", context),
                        ("ptr", domain))

    def thread(self, time: int, thread: int, name: Optional[str] = None, unload: bool = False):
        """Thread start/end, or naming when ``name`` is given."""
        if name is not None:
            return self._ev(0x02, time, ("byte", 5), ("ptr", thread), ("str", name))
        return self._ev(0x42 if unload else 0x22, time, ("byte", 5), ("ptr", thread))

    def jit(self, time: int, method: int, code: int, size: int, name: str):
        """A method compiled (its name)."""
        return self._ev(0x43, time, ("method", method), ("ptr", code), ("uleb", size),
                        ("str", name))

    def enter(self, time: int, method: int):
        """Method entry."""
        return self._ev(0x23, time, ("method", method))

    def leave(self, time: int, method: int, exception: bool = False):
        """Method exit (through an exception with ``exception``)."""
        return self._ev(0x33 if exception else 0x13, time, ("method", method))

    def alloc(self, time: int, vtable: int, obj: int, size: int,
              backtrace: Optional[Sequence[int]] = None):
        """An allocation (``vtable``: a class pointer before data version 15)."""
        return self._ev(0x10 if backtrace is not None else 0x00, time, ("ptr", vtable),
                        ("obj", obj), ("uleb", size), *self._bt(backtrace))

    def gc_event(self, time: int, event: int, generation: int):
        """A GC phase event (MonoProfilerGCEvent)."""
        return self._ev(0x11, time, ("byte", event), ("byte", generation))

    def gc_resize(self, time: int, size: int):
        """Heap resized."""
        return self._ev(0x21, time, ("uleb", size))

    def gc_moves(self, time: int, moves: Sequence[Tuple[int, int]]):
        """Objects moved: (old, new) address pairs."""
        flat = [("obj", a) for pair in moves for a in pair]
        return self._ev(0x31, time, ("uleb", 2 * len(moves)), *flat)

    def gc_handle_created(self, time: int, handle_type: int, handle: int, obj: int,
                          backtrace: Optional[Sequence[int]] = None):
        """GC handle created."""
        return self._ev(0x61 if backtrace is not None else 0x41, time, ("uleb", handle_type),
                        ("uleb", handle), ("obj", obj), *self._bt(backtrace))

    def gc_handle_destroyed(self, time: int, handle_type: int, handle: int,
                            backtrace: Optional[Sequence[int]] = None):
        """GC handle destroyed."""
        return self._ev(0x71 if backtrace is not None else 0x51, time, ("uleb", handle_type),
                        ("uleb", handle), *self._bt(backtrace))

    def finalize(self, time: int, end: bool = False, obj: Optional[int] = None):
        """Finalizer queue begin/end, or one object's finalization when ``obj`` is given."""
        if obj is not None:
            return self._ev(0xB1 if end else 0xA1, time, ("obj", obj))
        return self._ev(0x91 if end else 0x81, time)

    def heap(self, time: int, end: bool = False):
        """Heapshot begin (or end)."""
        return self._ev(0x16 if end else 0x06, time)

    def heap_object(self, time: int, obj: int, vtable: int, size: int, generation: int = 0,
                    refs: Sequence[Tuple[int, int]] = ()):
        """An object of a heapshot with its (offset, object) references."""
        parts: List[Part] = [("obj", obj), ("ptr", vtable), ("uleb", size)]
        if self.version >= 16:
            parts.append(("byte", generation))
        parts.append(("uleb", len(refs)))
        last = 0
        for offset, ref in refs:
            parts += [("uleb", offset - last), ("obj", ref)]
            last = offset
        return self._ev(0x26, time, *parts)

    def heap_roots(self, time: int, roots: Sequence[Tuple[int, ...]]):
        """Heap roots: (address, object) from version 15, (object, type, extra) before."""
        v = self.version
        if v >= 15:
            parts: List[Part] = [("uleb", len(roots))]
            for address, obj in roots:
                parts += [("ptr", address), ("obj", obj)]
        else:
            parts = [("uleb", len(roots)), ("uleb", 0)]
            for obj, rtype, extra in roots:
                parts += [("obj", obj), ("byte" if v == 13 else "uleb", rtype), ("uleb", extra)]
        return self._ev(0x36, time, *parts)

    def root_register(self, time: int, address: int, size: int, source: int, key: int,
                      name: str):
        """A GC root region registered (version 15 on)."""
        return self._ev(0x46, time, ("ptr", address), ("uleb", size), ("byte", source),
                        ("ptr", key), ("str", name))

    def root_unregister(self, time: int, address: int):
        """A GC root region unregistered (version 15 on)."""
        return self._ev(0x56, time, ("ptr", address))

    def monitor(self, time: int, event: int, obj: int, backtrace: Optional[Sequence[int]] = None):
        """Monitor contention (1), acquired (2) or failed (3)."""
        bt = 0x80 if backtrace is not None else 0
        if self.version == 13:
            return self._ev(0x05 | bt | event << 4, time, ("obj", obj), *self._bt(backtrace))
        return self._ev(0x05 | bt, time, ("byte", event), ("obj", obj), *self._bt(backtrace))

    def throw(self, time: int, obj: int, backtrace: Optional[Sequence[int]] = None):
        """An exception thrown."""
        return self._ev(0x84 if backtrace is not None else 0x04, time, ("obj", obj),
                        *self._bt(backtrace))

    def clause(self, time: int, clause_type: int, index: int, method: int, obj: int = 0):
        """An exception clause run (catch 0, filter 1, finally 2, fault 4)."""
        parts: List[Part] = [("byte", clause_type), ("uleb", index), ("method", method)]
        if self.version >= 14:
            parts.append(("obj", obj))
        return self._ev(0x14, time, *parts)

    def jit_helper(self, time: int, helper_type: int, code: int, size: int, name: str = ""):
        """A JIT helper or trampoline (type in the version-14 numbering)."""
        raw = helper_type + (1 if self.version == 13 else 0)
        parts: List[Part] = [("byte", raw), ("ptr", code), ("uleb", size)]
        if helper_type == 5:
            parts.append(("str", name))
        return self._ev(0x18, time, *parts)

    def sample(self, time: int, thread: int, ips: Sequence[int], backtrace: Sequence[int],
               sample_type: int = 1):
        """A statistical sample: instruction pointers and managed frames."""
        parts: List[Part] = [("byte", sample_type)] if self.version == 13 else []
        parts += [("ptr", thread), ("uleb", len(ips))] + [("ptr", ip) for ip in ips]
        parts += self._bt(backtrace)
        return self._ev(0x07, time, *parts)

    def unmanaged_symbol(self, time: int, address: int, size: int, name: str):
        """An unmanaged symbol (sample resolution)."""
        return self._ev(0x17, time, ("ptr", address), ("uleb", size), ("str", name))

    def unmanaged_binary(self, time: int, address: int, offset: int, size: int, name: str):
        """An unmanaged binary mapping (versions 13-15)."""
        addr: Part = ("ptr", address) if self.version > 13 else ("sleb", address)
        return self._ev(0x27, time, addr, ("uleb", offset), ("uleb", size), ("str", name))

    def counter_descriptions(self, time: int, counters: Sequence[dict]):
        """Counter descriptions: dicts with section, name, type, unit, variance, index."""
        small = self.version in (13, 14)
        parts: List[Part] = [("uleb", len(counters))]
        for c in counters:
            parts.append(("uleb", c["section"]))
            if c["section"] == 1 << 15:
                parts.append(("str", c.get("section_name", "")))
            parts.append(("str", c["name"]))
            for key in ("type", "unit", "variance"):
                parts.append(("byte" if small else "uleb", c[key]))
            parts.append(("uleb", c["index"]))
        return self._ev(0x37, time, *parts)

    def counters(self, time: int, values: Sequence[Tuple[int, int, Any]]):
        """Counter values (index, type, encoded value: the delta for integer types)."""
        small = self.version in (13, 14)
        parts: List[Part] = []
        for index, ctype, value in values:
            parts += [("uleb", index), ("byte" if small else "uleb", ctype)]
            if ctype in (0, 2, 3, 7):
                parts.append(("sleb", value))
            elif ctype in (1, 4):
                parts.append(("uleb", value))
            elif ctype == 5:
                parts.append(("raw", struct.pack("<d", value)))
            elif value is None:
                parts.append(("byte", 0))
            else:
                parts += [("byte", 1), ("str", value)]
        parts.append(("uleb", 0))
        return self._ev(0x47, time, *parts)

    def sync_point(self, time: int, kind: int):
        """A sync point (periodic 0, world stop 1, world start 2)."""
        return self._ev(0x0A, time, ("byte", kind))

    def aot_id(self, time: int, aot_id: str):
        """The runtime's AOT id (version 16 on)."""
        return self._ev(0x1A, time, ("str", aot_id))

    def coverage(self, time: int, sub: int, *values: Any):
        """A coverage event of versions 13-15 (``sub``: 0x00 assembly, 0x10 method,
        0x20 statement, 0x30 class; strings and integers in the format's order)."""
        parts: List[Part] = [("str", v) if isinstance(v, str) else ("uleb", v) for v in values]
        return self._ev(0x09 | sub, time, *parts)


def encode_events(events: Iterable[Event], *, time_base: int, ptr_base: int = 0,
                  obj_base: int = 0, method_base: int = 0) -> bytes:
    """The bytes of a buffer's events (deltas against the given bases).

    Examples
    --------
    >>> w = MlpdWriter()
    >>> encode_events([w.enter(time=5, method=0x10)], time_base=0).hex()
    '230510'
    """
    out = bytearray()
    last_time, last_method = time_base, method_base
    for event in events:
        for kind, value in event:
            if kind == "byte":
                out.append(value)
            elif kind == "time":
                out += uleb(value - last_time)
                last_time = value
            elif kind == "uleb":
                out += uleb(value)
            elif kind == "sleb":
                out += sleb(value)
            elif kind == "ptr":
                out += sleb(value - ptr_base)
            elif kind == "obj":
                out += sleb((value >> 3) - obj_base)
            elif kind == "method":
                out += sleb(value - last_method)
                last_method = value
            elif kind == "str":
                out += value.encode() + b"\0"
            elif kind == "raw":
                out += value
            else:
                raise ValueError(f"unknown part {kind!r}")
    return bytes(out)


def write_calls_log(path: Any, size: int, *, threads: int = 2, seed: int = 0,
                    version: int = 17) -> str:
    """Write a valid calls + allocations log of about ``size`` bytes; returns the path.

    A few buffers are generated (recursive call trees of 12 methods with
    allocations carrying backtraces, balanced within each buffer) and then
    repeated with increasing time bases, so a 500 MB log is written in
    seconds. Method names come from JIT events in the first buffer.

    Examples
    --------
    >>> import os, tempfile
    >>> p = write_calls_log(os.path.join(tempfile.mkdtemp(), "big.mlpd"), 200_000)
    >>> 150_000 < os.path.getsize(p) < 260_000
    True
    """
    import random

    rng = random.Random(seed)
    w = MlpdWriter(version=version, args="log:calls,alloc,generated")
    methods = [0x7F00_0000_1000 + 0x40 * i for i in range(12)]
    vtables = [0x5600_0000_2000 + 0x80 * i for i in range(4)]
    meta = [w.klass(0, 0x5600_0001_0000 + i, 0x5600_0009_0000, f"Gen.Class{i}")
            for i in range(4)]
    meta += [w.vtable(0, vt, 0, 0x5600_0001_0000 + i) for i, vt in enumerate(vtables)]
    meta += [w.jit(0, m, 0x7F10_0000_0000 + 0x400 * i, 0x300, f"Gen.Work:M{i} (int)")
             for i, m in enumerate(methods)]
    w.buffer(thread=0x7F00_AAAA_0000, time_base=0, events=meta)
    templates = []
    for t in range(8):
        events: List[Event] = []
        clock = [0]

        def tick(step: int = 0) -> int:
            clock[0] += rng.randint(20, 400) if not step else step
            return clock[0]

        def call(depth: int, stack: List[int]) -> None:
            m = methods[rng.randrange(len(methods))]
            events.append(w.enter(tick(), m))
            stack.append(m)
            for _ in range(rng.randint(0, 3) if depth < 6 else 0):
                if rng.random() < 0.3:
                    events.append(w.alloc(tick(), vtables[rng.randrange(4)],
                                          0x7E00_0000_0000 + 8 * rng.randrange(1 << 20),
                                          rng.choice((24, 32, 40, 168)),
                                          backtrace=stack[-8:]))   # outermost first
                call(depth + 1, stack)
            stack.pop()
            events.append(w.leave(tick(), m))

        while len(events) < 4000:
            call(0, [])
        templates.append((encode_events(events, time_base=0), clock[0]))
    threads_ids = [0x7F00_BBBB_0000 + 0x1000 * i for i in range(threads)]
    written = len(w.getvalue())
    with open(os.fspath(path), "wb") as fh:
        fh.write(w.getvalue())
        time_base = 1_000_000
        i = 0
        while written < size:
            data, span = templates[i % len(templates)]
            head = struct.pack("<IIqqqqq", _BUF_ID, len(data), time_base, 0, 0,
                               threads_ids[i % threads], 0)
            fh.write(head + data)
            written += len(head) + len(data)
            time_base += span + 1000
            i += 1
    return os.fspath(path)
