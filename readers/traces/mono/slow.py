"""The events read one at a time: those with strings or a layout that depends on values.

Metadata (classes, images, assemblies, domains, contexts, threads, vtables),
JIT compilations, JIT helpers, unmanaged symbols and binaries, counter
descriptions and values, GC root registrations, the AOT id, version-13 root
reports and the coverage events of data versions 13-15. These are few
(hundreds to thousands per log), so a plain per-event reader is used; each
returns where the event ends. An event byte no layout knows is a
:class:`~graphframe_readers.ReadError` naming it.

Examples
--------
>>> uleb(bytes([0xE5, 0x8E, 0x26]), 0), sleb(bytes([0x7F]), 0)
((624485, 3), (-1, 1))
"""

from __future__ import annotations

import struct
from typing import Any, List, Tuple

from . import format as F
from .leb128 import MAX_LEB_BYTES

_MASK = (1 << 64) - 1


def uleb(data: bytes, pos: int) -> Tuple[int, int]:
    """(value, end) of the unsigned LEB128 value at ``pos``; IndexError past the data."""
    result = shift = 0
    start = pos
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            break
        shift += 7
        if pos - start >= MAX_LEB_BYTES:
            raise ValueError("LEB128 value longer than 10 bytes")
    return result & _MASK, pos


def sleb(data: bytes, pos: int) -> Tuple[int, int]:
    """(value, end) of the signed LEB128 value at ``pos``."""
    value, end = uleb(data, pos)
    bits = 7 * (end - pos)
    if data[end - 1] & 0x40 and bits < 64:
        value -= 1 << bits
    elif value >= 1 << 63:
        value -= 1 << 64
    return value, end


class _Bad(Exception):
    """A value the format does not define (an unknown metadata kind, counter type)."""


def _signed(value: int) -> int:
    value &= _MASK
    return value - (1 << 64) if value >= 1 << 63 else value


class SlowReader:
    """Reads string-carrying events for one buffer's decoder (see module docs)."""

    def __init__(self, dec: Any) -> None:
        self.dec = dec
        self.data = dec.data
        self.version = dec.version
        self.records: List[Tuple[int, str, Any]] = []
        self.method_pos: List[int] = []
        self.method_delta: List[int] = []
        self._method_slots: List[Tuple[int, int]] = []   # (record index, field index)

    # ------------------------------------------------------------ primitives
    def _u(self) -> int:
        value, self.p = uleb(self.data, self.p)
        return value

    def _s(self) -> int:
        value, self.p = sleb(self.data, self.p)
        return value

    def _byte(self) -> int:
        value = self.data[self.p]
        self.p += 1
        return value

    def _str(self) -> str:
        end = self.data.index(b"\0", self.p)
        text = self.data[self.p:end].decode("utf-8", "replace")
        self.p = end + 1
        return text

    def _ptr(self) -> int:
        return _signed(self.ptr_base + self._s())

    def _obj(self) -> int:
        return _signed((self.obj_base + self._s()) << 3)

    # ------------------------------------------------------------ entry
    def read(self, start: int) -> int:
        """Read the event at ``start``; returns its end."""
        code = self.data[start]
        buf = self.dec.buffer_of(start)
        raw = self.dec.raws[buf]
        self.ptr_base, self.obj_base = raw.ptr_base, raw.obj_base
        self.p = start + 1
        try:
            self._u()    # time: read again, with every event's, by the buffer decoder
            kind, fields = self._event(code)
        except _Bad as exc:
            raise self.dec.error(start, f"{exc} (corrupt data)",
                                 expected="a value the format defines") from exc
        except (IndexError, ValueError) as exc:
            what = "a LEB128 value longer than 10 bytes" if "LEB128" in str(exc) else \
                "the event runs past the end of its buffer"
            raise self.dec.error(start, f"{what} (corrupt or truncated data)",
                                 expected="a complete event") from exc
        if kind is None:
            raise self.dec.error(start, f"unknown event kind 0x{code:02x} (type {code & 0xF}, "
                                 f"extended info 0x{code & 0xF0:02x}) in data version "
                                 f"{self.version}",
                                 expected="an event kind of the Mono log format")
        self.records.append((start, kind, fields))
        return self.p

    def index_records(self, starts: Any) -> None:
        """Replace each record's byte offset by its event index (``starts``: sorted)."""
        if self.records:
            where = starts.searchsorted([r[0] for r in self.records]).tolist()
            self.records = [(i, k, f) for i, (_, k, f) in zip(where, self.records)]

    def set_methods(self, absolute: Any) -> None:
        """Put the resolved method pointers into the records that hold one."""
        for (rec, field), value in zip(self._method_slots, absolute.tolist()):
            index, kind, fields = self.records[rec]
            fields = list(fields)
            fields[field] = value
            self.records[rec] = (index, kind, tuple(fields))

    def _method(self, field: int) -> int:
        pos = self.p
        delta = self._s()
        self.method_pos.append(pos)
        self.method_delta.append(delta)
        self._method_slots.append((len(self.records), field))
        return 0

    # ------------------------------------------------------------ layouts
    def _event(self, code: int):
        etype, sub = code & 0xF, code & 0xF0
        v = self.version
        if etype == F.TYPE_METADATA and sub in (0, F.END_LOAD, F.END_UNLOAD):
            return self._metadata(sub)
        if code == F.TYPE_METHOD | F.METHOD_JIT:
            method = self._method(0)
            code_addr = self._ptr()
            size = self._u()
            return "jit", (method, code_addr, size, self._str())
        if code == F.TYPE_RUNTIME | F.RUNTIME_JITHELPER:
            htype = self._byte() - (1 if v == 13 else 0)   # version 13 numbered from 1
            code_addr = self._ptr()
            size = self._u()
            name = self._str() if htype == F.CODE_BUFFER_SPECIFIC_TRAMPOLINE else \
                F.CODE_BUFFER_NAMES.get(htype, "unspecified")
            return "jit_helper", (htype, code_addr, size, name)
        if code == F.TYPE_SAMPLE | F.SAMPLE_USYM:
            return "unmanaged_symbol", (self._ptr(), self._u(), self._str())
        if code == F.TYPE_SAMPLE | F.SAMPLE_UBIN and v <= 15:
            addr = self._s()
            if v > 13:
                addr = _signed(self.ptr_base + addr)
            return "unmanaged_binary", (addr, self._u(), self._u(), self._str())
        if code == F.TYPE_SAMPLE | F.SAMPLE_COUNTERS_DESC:
            return "counter_descriptions", (self._counter_descriptions(),)
        if code == F.TYPE_SAMPLE | F.SAMPLE_COUNTERS:
            return "counters", (self._counter_values(),)
        if code == F.TYPE_HEAP | F.HEAP_ROOT_REGISTER and v >= 15:
            addr, size, source, key = self._ptr(), self._u(), self._byte(), self._ptr()
            return "heap_root_register", (addr, size, source, key, self._str())
        if code == F.TYPE_HEAP | F.HEAP_ROOT and v == 13:
            num = self._u()
            self._u()   # number of collections, unused
            roots = tuple((self._obj(), self._byte(), self._u()) for _ in range(num))
            return "heap_roots", (roots,)
        if code == F.TYPE_META | F.META_AOT_ID and v >= 16:
            return "aot_id", (self._str(),)
        if etype == F.TYPE_COVERAGE and v <= 15:
            return self._coverage(sub)
        return None, None

    def _metadata(self, sub: int):
        mtype = self._byte()
        pointer = self._ptr()
        action = {0: "name", F.END_LOAD: "load", F.END_UNLOAD: "unload"}[sub]
        v = self.version
        if mtype == F.META_CLASS:
            image = self._ptr()
            return "class", (pointer, image, self._str(), action)
        if mtype == F.META_IMAGE:
            name = self._str()
            mvid = self._str() if v >= 16 else ""
            return "image", (pointer, name, mvid, action)
        if mtype == F.META_ASSEMBLY:
            image = self._ptr() if v >= 14 else 0
            return "assembly", (pointer, image, self._str(), action)
        if mtype == F.META_DOMAIN:
            name = self._str() if sub == 0 else ""
            return "domain", (pointer, name, action)
        if mtype == F.META_CONTEXT:
            return "context", (pointer, self._ptr(), action)
        if mtype == F.META_THREAD:
            name = self._str() if sub == 0 else ""
            return "thread_info", (pointer, name, action)
        if mtype == F.META_VTABLE and v >= 15:
            domain = self._ptr()
            return "vtable", (pointer, domain, self._ptr(), action)
        raise _Bad(f"unknown metadata kind {mtype}")

    def _counter_descriptions(self) -> tuple:
        out = []
        small = self.version in (13, 14)
        for _ in range(self._u()):
            section = self._u()
            section_name = self._str() if section == F.COUNTER_PERFCOUNTERS else \
                F.COUNTER_SECTION_NAMES.get(section, "<unknown>")
            name = self._str()
            if small:
                ctype, unit, variance = self._byte(), self._byte(), self._byte()
            else:
                ctype, unit, variance = self._u(), self._u(), self._u()
            out.append({"section": section_name, "name": name, "type": ctype, "unit": unit,
                        "variance": variance, "index": self._u()})
        return tuple(out)

    def _counter_values(self) -> tuple:
        out = []
        small = self.version in (13, 14)
        while True:
            index = self._u()
            if index == 0:
                return tuple(out)
            ctype = self._byte() if small else self._u()
            if ctype in (F.COUNTER_INT, F.COUNTER_LONG, F.COUNTER_WORD, F.COUNTER_TIME_INTERVAL):
                value: Any = self._s()
            elif ctype in (F.COUNTER_UINT, F.COUNTER_ULONG):
                value = self._u()
            elif ctype == F.COUNTER_DOUBLE:
                if self.p + 8 > len(self.data):
                    raise IndexError("double past the end")
                value = struct.unpack_from("<d", self.data, self.p)[0]
                self.p += 8
            elif ctype == F.COUNTER_STRING:
                value = self._str() if self._byte() else None
            else:
                raise _Bad(f"unknown counter type {ctype}")
            out.append((index, ctype, value))

    def _coverage(self, sub: int):
        if sub == F.COVERAGE_ASSEMBLY:
            return "coverage_assembly", (self._str(), self._str(), self._str(), self._u(),
                                         self._u(), self._u())
        if sub == F.COVERAGE_METHOD:
            return "coverage_method", (self._str(), self._str(), self._str(), self._str(),
                                       self._str(), self._u(), self._u(), self._u())
        if sub == F.COVERAGE_STATEMENT:
            return "coverage_statement", tuple(self._u() for _ in range(5))
        if sub == F.COVERAGE_CLASS:
            return "coverage_class", (self._str(), self._str(), self._u(), self._u(),
                                      self._u())
        return None, None
