"""One big GC log decoded by several worker processes (``read_trace(path, jobs=N)``).

The first block is parsed here (it holds the JVM's set-up lines: decorators,
collector, region size, the date origin); the rest of the file is cut into
``jobs`` byte ranges at line ends, each parsed by a worker from a copy of
that state; the workers' event columns come back in file order and are
delivered as if one process had read the file: line numbers are made
absolute, the counts and unparsed examples merged, and a JDK 11 safepoint
whose ``Entering safepoint region`` line fell in the range before gets that
name. A file smaller than :data:`MIN_BYTES`, a rotated log or a followed
file is read in this process.
"""

from __future__ import annotations

import copy
import math
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Dict, List, Tuple

import numpy as np

from ..events import StringTable
from ..handler import EventHandler
from ..sources import BLOCK_SIZE, ByteSource, FileSource
from .batch import build_batch
from .lines import split
from .parse import BlockParser
from .state import LogState, Unparsed
from .titles import EVENT_TYPES

#: files smaller than this are read in one process
MIN_BYTES = 16 << 20
_SAFEPOINT = EVENT_TYPES.index("safepoint")


def _clean(data: bytes) -> bytes:
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8")


def _line_end(fh: Any, pos: int, size: int) -> int:
    """The offset just after the first newline at or after ``pos`` (or ``size``)."""
    fh.seek(pos)
    while pos < size:
        chunk = fh.read(1 << 16)
        if not chunk:
            break
        i = chunk.find(b"\n")
        if i >= 0:
            return pos + i + 1
        pos += len(chunk)
    return size


def _work(path: str, lo: int, hi: int, state: LogState, name: str, last: bool,
          block_size: int) -> Tuple[List[Dict[str, np.ndarray]], LogState, int]:
    """Parse ``[lo, hi)`` of the file: (event columns per block, state, lines)."""
    parser = BlockParser(state, name)
    chunks = []
    carry = b""
    with open(path, "rb") as fh:
        fh.seek(lo)
        pos = lo
        while pos < hi:
            block = fh.read(min(block_size, hi - pos))
            if not block:
                break
            pos += len(block)
            data = carry + block if carry else block
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            carry = data[cut + 1:]
            cols = parser.parse(split(_clean(data[:cut + 1])))
            if len(cols["line"]):
                chunks.append(cols)
    if carry:
        cols = parser.parse(split(_clean(carry)), last=last)
        if len(cols["line"]):
            chunks.append(cols)
    return chunks, parser.state, parser.line_base


def _fresh(state: LogState) -> LogState:
    """A copy of ``state`` for a worker: set-up facts kept, counts and examples empty."""
    out = copy.deepcopy(state)
    out.counts = {k: 0 for k in state.counts}
    out.unparsed = Unparsed(limit=state.unparsed.limit)
    out.safepoint_name, out.app_time = "", math.nan
    return out


def decode_parallel(decoder: Any, source: ByteSource, handler: EventHandler, jobs: int) -> None:
    """See the module docs; ``decoder`` is the JvmGcDecoder."""
    path = getattr(source, "path", None)
    if type(source) is not FileSource or path is None or (source.size() or 0) < MIN_BYTES \
            or jobs < 2:
        decoder.decode(source, handler)
        return
    size = source.size()
    state = LogState()
    strings = StringTable()
    label, rank = decoder._label_rank(source)
    parser = BlockParser(state, source.name)
    block = min(source.block_size, BLOCK_SIZE)
    with open(path, "rb") as fh:
        first = fh.read(block)
        start = first.rfind(b"\n") + 1 or len(first)
        bounds = [start]
        for j in range(1, jobs):
            bounds.append(max(bounds[-1], _line_end(fh, start + (size - start) * j // jobs,
                                                    size)))
        bounds.append(size)
    cols = parser.parse(split(_clean(first[:start])), last=start >= size)
    if len(cols["line"]):
        handler.on_batch(build_batch(strings, cols, label, rank))
    ranges = [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    if ranges:
        with ProcessPoolExecutor(max_workers=len(ranges)) as pool:
            futures = [pool.submit(_work, path, a, b, _fresh(state), source.name,
                                   i == len(ranges) - 1, source.block_size)
                       for i, (a, b) in enumerate(ranges)]
            results = [f.result() for f in futures]  # the first error, in file order
        for chunks, part, lines in results:
            _merge(state, part, parser.line_base)
            for cols in chunks:
                cols["line"] = cols["line"] + parser.line_base
                _carry_safepoints(cols, state)
                handler.on_batch(build_batch(strings, cols, label, rank))
            if part.safepoint_name:
                state.safepoint_name = part.safepoint_name
            if not math.isnan(part.app_time) or part.counts.get("gc_lines", 0):
                state.app_time = part.app_time
            parser.line_base += lines
    decoder._finish(source, [source], state, handler, label, rank)


def _carry_safepoints(cols: Dict[str, np.ndarray], state: LogState) -> None:
    """A JDK 11 safepoint whose ``Entering safepoint region`` or ``Application time``
    line fell in the range before gets that name and time since the last one."""
    sp = (cols["event_type"] == _SAFEPOINT) & np.isnan(cols["at_safepoint"])
    if not sp.any():
        return
    unnamed = sp & np.array([n is None for n in cols["name"]])
    if unnamed.any() and state.safepoint_name:
        cols["name"] = cols["name"].copy()
        cols["name"][unnamed] = state.safepoint_name
    first = np.flatnonzero(sp)[0]
    if math.isnan(cols["time_since_last"][first]) and not math.isnan(state.app_time):
        cols["time_since_last"][first] = state.app_time
    state.app_time = math.nan


def _merge(state: LogState, part: LogState, line_base: int) -> None:
    for k, v in part.counts.items():
        state.counts[k] = state.counts.get(k, 0) + v
    u, pu = state.unparsed, part.unparsed
    u.count += pu.count
    u.gc_count += pu.gc_count
    room = u.limit - len(u.examples)
    u.examples.extend((n, line + line_base, text) for n, line, text in pu.examples[:room])
    state.duration_titles |= part.duration_titles
    state.generational_zgc |= part.generational_zgc
    state.truncated_last_line |= part.truncated_last_line
    for attr in ("collector", "version"):
        if not getattr(state, attr) and getattr(part, attr):
            setattr(state, attr, getattr(part, attr))
    for attr in ("region_size", "heap_max"):
        if math.isnan(getattr(state, attr)) and not math.isnan(getattr(part, attr)):
            setattr(state, attr, getattr(part, attr))
    if state.layout is None:
        state.layout = part.layout
    if state.date_origin is None:
        state.date_origin = part.date_origin
