"""One big GC log decoded in byte ranges by threads or worker processes.

The first block is parsed first (it holds the JVM's set-up lines:
decorators, collector, region size, the date origin); the rest of the file
is cut into byte ranges at line ends, each parsed from a copy of the state
after that block (:func:`fresh`): by threads of this process (the default
for big files, see :func:`default_threads`: numpy and pyarrow release the
GIL in their loops) or by worker processes (``read_trace(path, jobs=N)``).
The ranges' event columns are then delivered in file order as if one
thread had read the file: line numbers made absolute, counts and unparsed
examples merged, and a JDK 11 safepoint whose ``Entering safepoint region``
or ``Application time`` line fell in an earlier range gets that name and
time since the last one.

A range was parsed speculatively, from the state after the first block; the
state one thread would have had at its start is known once the ranges
before it are merged. When a fact the parse reads differs (the collector,
the region size, the date origin, the decorators) or a title learnt in an
earlier range would have made one of its start lines understood, the range
is parsed again from that state: the result is always the one-thread read's.
A file smaller than :data:`MIN_BYTES`, a rotated log or a followed file is
read by one thread.
"""

from __future__ import annotations

import copy
import math
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from ..events import StringTable
from ..handler import EventHandler
from ..sources import ByteSource, FileSource
from .batch import build_batch
from .lines import split
from .memory import no_huge_pages
from .parse import BlockParser
from .state import LogState, Unparsed
from .titles import EVENT_TYPES

#: files smaller than this are read by one thread
MIN_BYTES = 16 << 20
#: files from this size are read by threads by default (:func:`default_threads`)
THREAD_BYTES = 32 << 20
#: byte ranges per thread (more ranges than threads even out the threads' shares)
RANGES_PER_THREAD = 2
_SAFEPOINT = EVENT_TYPES.index("safepoint")

#: what one range gives back: (event columns per block, end state, lines, start lines
#: whose titles were not recognised)
Result = Tuple[List[Dict[str, np.ndarray]], LogState, int, Set[str]]


def default_threads(size: int) -> int:
    """Threads a GC log of ``size`` bytes is decoded with when nothing is asked: two (at most
    the usable CPUs) from :data:`THREAD_BYTES` on, else one; one inside a worker process
    (an Ensemble's or Dask's worker: its siblings use the other CPUs).

    >>> default_threads(1 << 20)
    1
    """
    if size < THREAD_BYTES or multiprocessing.current_process().daemon \
            or multiprocessing.parent_process() is not None:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - depends on the platform
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus))


def _clean(data: bytes) -> bytes:
    if data.isascii():
        return data
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8")


def _cut_before(fh: Any, pos: int) -> int:
    """The offset just after the last newline before ``pos`` (0 when there is none): where
    one thread reading blocks from offset 0 has cut its lines when it reaches ``pos``."""
    end = pos
    while end > 0:
        lo = max(0, end - (1 << 16))
        fh.seek(lo)
        i = fh.read(end - lo).rfind(b"\n")
        if i >= 0:
            return lo + i + 1
        end = lo
    return 0


def _work(path: str, lo: int, hi: int, state: LogState, name: str, last: bool,
          block_size: int) -> Result:
    """Parse ``[lo, hi)`` of the file (see :data:`Result`), in the blocks one thread
    reading from offset 0 parses: reads end at multiples of ``block_size`` (a start line
    is recognised by a title logged later in its block, so blocks must not move)."""
    parser = BlockParser(state, name)
    parser.unrecognised = set()
    chunks = []
    carry = b""
    with open(path, "rb") as fh:
        fh.seek(lo)
        pos = lo
        while pos < hi:
            block = fh.read(min((pos // block_size + 1) * block_size, hi) - pos)
            if not block:
                break
            pos += len(block)
            data = carry + block if carry else block
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            carry = data[cut + 1:]
            if data.isascii():  # the lines up to the last newline, not copied
                blk = split(data, cut + 1)
            else:
                blk = split(_clean(data[:cut + 1]))
            cols = parser.parse(blk)
            if len(cols["line"]):
                chunks.append(cols)
    if carry:
        cols = parser.parse(split(_clean(carry)), last=last)
        if len(cols["line"]):
            chunks.append(cols)
    return chunks, parser.state, parser.line_base, parser.unrecognised


def fresh(state: LogState) -> LogState:
    """A copy of ``state`` for a range: the facts the parse reads kept; counts, examples,
    the carried safepoint name and time, and the facts it only writes (version, heap size)
    empty, so that what the range found is told apart from what came before."""
    out = copy.copy(state)
    out.duration_titles = set(state.duration_titles)
    out.counts = {k: 0 for k in state.counts}
    out.unparsed = Unparsed(limit=state.unparsed.limit)
    out.safepoint_name, out.app_time, out.safepoint_seen = "", math.nan, False
    out.version, out.heap_max = "", math.nan
    out.generational_zgc = out.truncated_last_line = False
    return out


def _same(a: float, b: float) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a)
                      and math.isnan(b))


def _valid(start: LogState, now: LogState, unrecognised: Set[str]) -> bool:
    """Whether a range parsed from ``start`` gives what a parse from ``now`` (the state
    one thread would have had there) gives."""
    if start.layout != now.layout or start.collector != now.collector or \
            start.date_origin != now.date_origin or \
            not _same(start.region_size, now.region_size):
        return False
    learnt = now.duration_titles - start.duration_titles
    return not (learnt and unrecognised & learnt)


def decode_ranges(decoder: Any, source: ByteSource, handler: EventHandler, jobs: int,
                  threads: bool) -> bool:
    """Decode one log file in ``jobs`` ranges (threads or processes); False (nothing
    done) when the file is not one to cut (see the module docs)."""
    path = getattr(source, "path", None)
    if type(source) is not FileSource or path is None or (source.size() or 0) < MIN_BYTES \
            or jobs < 2:
        return False
    size = source.size()
    state = LogState()
    strings = StringTable()
    parser = BlockParser(state, source.name)
    block = source.block_size
    parts = jobs * RANGES_PER_THREAD if threads else jobs
    with no_huge_pages():
        with open(path, "rb") as fh:
            first = fh.read(block)
            start = first.rfind(b"\n") + 1
            if not start or start >= size:  # a first line longer than a block; one block
                return False
            # the ranges start where one thread would cut: after the last newline before
            # a multiple of the block size
            blocks = -(-size // block)
            bounds = sorted({start, size} | {
                max(start, _cut_before(fh, block * (blocks * j // parts)))
                for j in range(1, parts)})
        label, rank = decoder._label_rank(source)
        cols = parser.parse(split(_clean(first[:start])))
        del first
        if len(cols["line"]):
            handler.on_batch(build_batch(strings, cols, label, rank))
        ranges = [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        if ranges:
            begin = fresh(state)
            pool: Executor = ThreadPoolExecutor(jobs) if threads else \
                ProcessPoolExecutor(max_workers=min(jobs, len(ranges)))
            with pool:
                futures = [pool.submit(_work, path, a, b, fresh(begin), source.name,
                                       i == len(ranges) - 1, block)
                           for i, (a, b) in enumerate(ranges)]
                for i, (a, b) in enumerate(ranges):
                    result: Result = futures[i].result()  # the first error, in file order
                    futures[i] = None  # its columns are freed once delivered
                    if not _valid(begin, state, result[3]):  # parsed again, from the state
                        result = _work(path, a, b, fresh(state), source.name,
                                       i == len(ranges) - 1, block)
                    _deliver(result, state, parser, strings, handler, label, rank)
    decoder._finish(source, [source], state, handler, label, rank)
    return True


def _deliver(result: Result, state: LogState, parser: BlockParser, strings: StringTable,
             handler: EventHandler, label: str, rank: int) -> None:
    chunks, part, lines, _ = result
    while chunks:
        cols = chunks.pop(0)
        cols["line"] = cols["line"] + parser.line_base
        _carry_safepoints(cols, state)
        handler.on_batch(build_batch(strings, cols, label, rank))
    _merge(state, part, parser.line_base)
    parser.line_base += lines


def decode_parallel(decoder: Any, source: ByteSource, handler: EventHandler, jobs: int) -> None:
    """One big log file with ``jobs`` worker processes (``read_trace(path, jobs=N)``)."""
    if not decode_ranges(decoder, source, handler, jobs, threads=False):
        decoder.decode(source, handler, threads=1)


def _carry_safepoints(cols: Dict[str, np.ndarray], state: LogState) -> None:
    """A JDK 11 safepoint whose ``Entering safepoint region`` or ``Application time``
    line fell in the range before gets that name and time since the last one."""
    sp = cols["event_type"] == _SAFEPOINT
    at = cols.get("at_safepoint")  # (absent: no JDK 17+ safepoint in the block)
    if at is not None:
        sp &= np.isnan(at)
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
    """``state`` (the one-thread state before the range) after the range (``part``)."""
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
    # facts the parse reads: the range started from them, so its end state is the one
    state.layout, state.collector = part.layout, part.collector
    state.region_size, state.date_origin = part.region_size, part.date_origin
    # facts it only writes: the first version, the last heap size
    state.version = state.version or part.version
    if not math.isnan(part.heap_max):
        state.heap_max = part.heap_max
    if part.safepoint_name:
        state.safepoint_name = part.safepoint_name
    if part.safepoint_seen:  # else the time carried before the range still waits
        state.app_time = part.app_time
    state.safepoint_seen |= part.safepoint_seen
