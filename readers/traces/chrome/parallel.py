"""Decoding one Chrome JSON file with several worker processes (``jobs=``).

The main process cuts the byte stream into chunks just before a line that
opens an event (``\\n{``), workers scan and convert their chunk to endpoint
columns (:mod:`.scan`, :class:`.run.ChromeRun`), and the main process puts
the chunks back in file order through the usual :class:`.order.Orderer` and
handler. A cut is only trusted when the chunk before it scanned as complete
events followed by nothing but separators (so each cut is proven to lie
between two events); a chunk that does not, or a worker error, makes the
main process decode the rest of the file itself, which also reports any
real error at its true position. Files without line breaks between events
are decoded in one process.
"""

from __future__ import annotations

import re
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ...errors import ReadError
from ..definitions import Definitions
from ..handler import EventHandler
from ..sources import ByteSource
from .run import ChromeRun
from .scan import scan_events

_CUT = re.compile(rb"\n[ \t]*\{")
#: bytes searched back from a block's end for a cut
_WINDOW = 1 << 16
#: each chunk's endpoints get sequence numbers from chunk index << _SEQ_SHIFT
_SEQ_SHIFT = 36


class _Collect(EventHandler):
    """Keeps what a worker's decoding produces for the main process."""


def _work(options: Dict[str, Any], name: str, chunk: bytes, base: int,
          index: int) -> Optional[Dict[str, Any]]:
    """Scan and convert one chunk; None when it does not end between two events."""
    collect = _Collect()
    run = ChromeRun(options, _Named(name), collect)
    run.seq = index << _SEQ_SHIFT
    parts: List[Dict[str, np.ndarray]] = []
    run.orderer.add = lambda chunk_, position: parts.append(chunk_)  # keep file order
    try:
        scan = scan_events(chunk, name, base, False)
        if scan.closed or chunk[scan.consumed:].strip(b" \t\r\n,"):
            return None  # the last chunk (its trailer is checked in order) or not between events
        if len(scan.starts):
            run._convert(chunk, scan, base)
        scan.raise_error(name, base)
    except ReadError:
        return None
    if run.text_ids:  # string pids/tids are numbered in file order: not per chunk
        return None
    return {"parts": parts, "strings": list(run.strings.strings), "defs": collect.definitions,
            "closed": scan.closed, "position": f"byte {base + int(scan.starts[0])}"
            if len(scan.starts) else f"byte {base}"}


class _Named(ByteSource):
    def __init__(self, name: str) -> None:
        self.name = name


def chunks(buf: bytes, pos: int, blocks: Iterator[bytes]) -> Iterator[Tuple[bytes, int]]:
    """(chunk, file offset) pieces cut before lines that open an event."""
    for block in blocks:
        buf += block
        lo = max(0, len(buf) - _WINDOW)
        cut = None
        for m in _CUT.finditer(buf, lo):
            cut = m.start() + 1
        if cut is None or cut == 0:
            if len(buf) > 64 * _WINDOW and _CUT.search(buf) is None:
                yield buf, pos  # no line breaks: one chunk with all that is left
                buf, pos = b"", pos + len(buf)
            continue
        yield buf[:cut], pos
        buf, pos = buf[cut:], pos + cut
    if buf:
        yield buf, pos


def decode_parallel(run: Any, source: ByteSource, jobs: int) -> None:
    """Decode ``source`` with ``jobs`` worker processes into ``run``'s handler."""
    blocks = run.blocks()
    buf, pos = run._find_array(blocks)
    run.handler.on_definitions(Definitions(metadata={"format": "chrome"}))
    pending: deque = deque()
    pool = ProcessPoolExecutor(max_workers=jobs)
    index = 0
    fallback: Optional[Tuple[bytes, int, int]] = None
    try:
        stream = chunks(buf, pos, blocks)
        for chunk, base in stream:
            pending.append((pool.submit(_work, run.options, run.name, chunk, base, index),
                            chunk, base, index))
            index += 1
            while len(pending) > 2 * jobs or (pending and pending[0][0].done()):
                fallback = _absorb(run, pending)
                if fallback is not None:
                    break
            if fallback is not None:
                break
        while pending and fallback is None:
            fallback = _absorb(run, pending)
        if fallback is not None:
            rest = b"".join([fallback[0]] + [c for _, c, _, _ in pending])
            for fut, _, _, _ in pending:
                fut.cancel()
            pending.clear()
            run.seq = fallback[2] << _SEQ_SHIFT
            # a cut lies after the ',' that ends the chunk before: no separator comes first
            run.stream_from(rest, fallback[1], _rest(stream), continuing=False)
            return
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    run.orderer.finish()


def _rest(stream: Iterator[Tuple[bytes, int]]) -> Iterator[bytes]:
    for chunk, _ in stream:
        yield chunk


def _absorb(run: Any, pending: deque) -> Optional[Tuple[bytes, int, int]]:
    """Feed the oldest chunk's result in order; its (bytes, offset, index) when it must be
    decoded here instead."""
    fut, chunk, base, index = pending.popleft()
    result = fut.result()
    if result is None:
        return chunk, base, index
    if not result["defs"].is_empty():
        run.handler.on_definitions(result["defs"])
    mapping = np.append(run.strings.intern_many(result["strings"]), np.int32(-1))
    for part in result["parts"]:
        local = part["name"]
        part["name"] = mapping[np.where(local < 0, len(mapping) - 1, local)]
        run.orderer.add(part, result["position"])
    if result["closed"]:
        for fut_, _, _, _ in pending:
            fut_.cancel()
        pending.clear()
    return None
