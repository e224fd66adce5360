"""JvmGcDecoder: HotSpot unified-logging GC logs (``-Xlog:gc*``) -> GC events.

One source is one log (a :class:`~.rotation.RotatedSource` holds the parts of
a rotated log, read as one: state such as the collector, the region size and
a GC id carry over from part to part). Each part is read block by block;
every block of complete lines is parsed with numpy and pyarrow
(:mod:`.parse`) and delivered as a :class:`~.batch.GcBatch`. The decoder's
findings go to the definitions' metadata: ``format`` (``jvm-gc``), ``log``
(the label), ``parts``, ``decorators``, ``collector``, ``jvm_version``,
``region_size`` and ``heap_max`` (bytes), ``generational_zgc``, ``counts``
(lines, decorated, GC lines, understood GC lines, events, blank lines),
``unparsed`` (count, of which GC lines, first examples with file and line
number), ``understood`` (share of GC lines understood) and
``truncated_last_line``.

A log that understood less than :data:`UNDERSTOOD_WARN` of its GC lines
(lines with ``GC(n)`` or about a safepoint) gets a :class:`GcLogWarning`.
Input with no decorated line (``[0.123s]``, ``[2026-...]`` ...) is a
ReadError naming the file and the first line.

Examples
--------
>>> from graphframe_readers.traces.sources import MemorySource
>>> from graphframe_readers.traces.handler import EventHandler
>>> class Show(EventHandler):
...     def on_batch(self, b):
...         print(b.names().tolist(), b.gc["duration"].tolist(), b.gc["heap_after"].tolist())
>>> log = (b"[0.237s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)\\n"
...        b"[0.240s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) "
...        b"17M->2M(61M) 2.5ms\\n")
>>> JvmGcDecoder().decode(MemorySource(log, name="gc.log"), Show())
['Pause Young'] [0.0025] [2097152.0]
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from typing import Any, List, Optional

from ...errors import ArgumentError, ReadError
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import StringTable
from ..handler import EventHandler
from ..sources import ByteSource, FileSource
from .batch import build_batch
from .lines import is_ascii, read_padded, split
from .memory import no_huge_pages
from .parallel import decode_parallel, decode_ranges, default_threads
from .parse import BlockParser
from .rotation import RotatedSource, group_logs
from .state import LogState

#: a read understanding less than this share of its GC lines warns
UNDERSTOOD_WARN = 0.9

#: bytes read (and parsed) at a time from a log file: a block's temporary arrays then come
#: from memory the process already has (8 MB blocks cost about 20 k page faults per 20 MB
#: read here, 4 MB blocks about 1 k)
BLOCK_SIZE = 4 << 20

#: a decorated GC log line: [time-like decorator](more decorators) then a message
_SNIFF = re.compile(
    rb"^(?:\[[^\]\n]*\])*?\[(?:\d{4}-\d\d-\d\dT[\d:.]+(?:[+-]\d{4}|Z)?|\d+(?:\.\d+)?"
    rb"(?:s|ms|ns))\](?:\[[^\]\n]*\])* ?(?:GC\(\d+\) |Using |Safepoint |Total time for which|"
    rb"Entering safepoint|Application time|Initializing The Z|Version: |Heap |CPUs: |Memory: |"
    rb"Metaspace|CodeHeap|Min heap|Heuristics)", re.M)
#: or any line whose tags are gc or safepoint ones
_SNIFF_TAGS = re.compile(rb"^\[[^\n]*\]\[(?:gc|safepoint)[\w,]*\s*\] ", re.M)


class GcLogWarning(UserWarning):
    """A GC log read that understood too few of its GC lines."""


class JvmGcDecoder(Decoder):
    """HotSpot unified-logging GC logs (JDK 9+), GraalVM native-image GC logs."""

    format_name = "jvm-gc"
    description = "JVM garbage-collection logs (HotSpot -Xlog:gc*, JDK 9+; GraalVM)"

    def __init__(self, *, labels: Any = None, threads: Optional[int] = None) -> None:
        """``labels``: one label per log, in reading order (default: the file names);
        ``threads``: threads that decode one big log file (default: from its size, see
        :func:`.parallel.default_threads`; the table is the same whatever the number)."""
        if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)
                                    or threads < 1):
            raise ArgumentError(f"threads={threads!r}: give a number of threads (1 or more), "
                                "or None for the default (from the file's size)")
        super().__init__(labels=list(labels) if labels is not None else None, threads=threads)

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if not head and path.is_dir():  # a folder of GC logs
            try:
                return bool(log_files(path))
            except ReadError:
                return False
        if not head or b"\x00" in head[:4096]:
            return False
        return _SNIFF.search(head) is not None or _SNIFF_TAGS.search(head) is not None

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        if isinstance(path, ByteSource):
            return [path]
        if isinstance(path, (list, tuple)) and path and isinstance(path[0], ByteSource):
            return list(path)
        files = log_files(path)
        return [RotatedSource(parts, label=stem, block_size=BLOCK_SIZE) if len(parts) > 1
                else FileSource(parts[0], block_size=BLOCK_SIZE)
                for stem, parts in group_logs(files)]

    def decode(self, source: ByteSource, handler: EventHandler,
               threads: Optional[int] = None) -> None:
        threads = threads or self.options.get("threads")
        if threads is None and type(source) is FileSource:
            threads = default_threads(source.size() or 0)
        if (threads or 1) > 1 and decode_ranges(self, source, handler, threads, threads=True):
            return
        parts = list(getattr(source, "parts", [source]))
        state = LogState()
        strings = StringTable()
        label, rank = self._label_rank(source)
        with no_huge_pages():
            for part in parts:
                self._decode_part(part, state, strings, handler, label, rank)
        self._finish(source, parts, state, handler, label, rank)

    def decode_parallel(self, source: ByteSource, handler: EventHandler, jobs: int) -> None:
        """One big log file with ``jobs`` worker processes (``read_trace(path, jobs=2)``);
        the result is the same as :meth:`decode`'s (see :mod:`.parallel`)."""
        decode_parallel(self, source, handler, jobs)

    def _label_rank(self, source: ByteSource):
        label = getattr(source, "label", "") or Path(source.name).name
        # several logs in one read: log i is rank i (a decoder reads its sources in order)
        rank = self.__dict__.setdefault("_logs_read", 0)
        self._logs_read = rank + 1
        labels = self.options.get("labels")
        if labels is not None:
            if rank >= len(labels):
                raise ReadError(source.name, f"no label for log {rank + 1}",
                                expected=f"one label per log ({len(labels)} given)")
            label = str(labels[rank])
        return label, rank

    @staticmethod
    def _finish(source: ByteSource, parts: List[ByteSource], state: LogState,
                handler: EventHandler, label: str, rank: int) -> None:
        if state.layout is None:
            raise ReadError(parts[0].name if parts else source.name,
                            "no line of a unified-logging GC log", position="line 1",
                            expected="lines such as '[0.123s][info][gc] GC(0) Pause Young ...'")
        handler.on_definitions(definitions(state, label, [p.name for p in parts], rank))
        share = understood(state)
        if share < UNDERSTOOD_WARN:
            warnings.warn(f"{source.name}: {share:.0%} of the GC lines were understood "
                          f"({state.unparsed.gc_count} not understood; first examples in "
                          "metadata['unparsed'])", GcLogWarning, stacklevel=4)

    def _decode_part(self, part: ByteSource, state: LogState, strings: StringTable,
                     handler: EventHandler, label: str, rank: int) -> None:
        parser = BlockParser(state, part.name)
        if type(part) is FileSource and self._decode_whole(part, parser, strings, handler,
                                                           label, rank):
            return
        carry = b""
        for block in part.blocks():
            data = carry + block if carry else block
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            carry = data[cut + 1:]
            # the lines up to the last newline, not copied out of ``data``
            data, length = _clean_prefix(data, cut + 1)
            self._deliver(parser, data, length, False, strings, handler, label, rank)
        if carry:
            self._deliver(parser, _clean(carry), len(carry), True, strings, handler, label,
                          rank)

    def _decode_whole(self, part: FileSource, parser: BlockParser, strings: StringTable,
                      handler: EventHandler, label: str, rank: int) -> bool:
        """A file of one block read whole into a padded buffer (:func:`.lines.read_padded`:
        no copy of its bytes for the parser); False (nothing read) for a larger file."""
        try:
            with open(part.path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size > part.block_size:
                    return False
                data, n = read_padded(fh, size)
                rest = fh.read()  # (a file written meanwhile: read to its end, as blocks())
        except OSError as exc:
            raise ReadError(part.path, f"cannot open the file: {exc.strerror}") from exc
        if rest:  # (no padding after these bytes)
            data, n = bytes(data[:n]) + rest, n + len(rest)
        cut = data.rfind(b"\n", 0, n)
        # whole lines of clean text, then zeros
        padded = not rest and cut == n - 1 and is_ascii(data, n)
        if cut >= 0:
            if padded:
                self._deliver(parser, data, n, False, strings, handler, label, rank,
                              padded=True)
            else:
                clean, length = _clean_prefix(bytes(data[:cut + 1]), cut + 1)
                self._deliver(parser, clean, length, False, strings, handler, label, rank)
        carry = bytes(data[cut + 1:n])
        if carry:
            self._deliver(parser, _clean(carry), len(carry), True, strings, handler, label,
                          rank)
        return True

    @staticmethod
    def _deliver(parser: BlockParser, data: bytes, length: int, last: bool,
                 strings: StringTable, handler: EventHandler, label: str, rank: int,
                 padded: bool = False) -> None:
        cols = parser.parse(split(data, length, padded), last=last)
        if len(cols["line"]):
            handler.on_batch(build_batch(strings, cols, label, rank))


def _clean(data: bytes) -> bytes:
    """The bytes as valid UTF-8 (bad bytes replaced; the line then reads as not understood)."""
    if data.isascii():  # the usual case: checked without decoding
        return data
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8")


def _clean_prefix(data: bytes, length: int):
    """``(bytes, length)``: ``data[:length]`` as valid UTF-8, not copied when it is already
    (ASCII, the usual case, is checked over all of ``data``)."""
    if data.isascii():
        return data, length
    clean = _clean(data[:length])
    return clean, len(clean)


def log_files(path: Any) -> List[str]:
    """The files of ``path``: a file, a list of files, or the log files of a folder."""
    if isinstance(path, (list, tuple)):
        out: List[str] = []
        for p in path:
            out.extend(log_files(p))
        return out
    p = os.fspath(path)
    if os.path.isdir(p):
        found = []
        for name in sorted(os.listdir(p)):
            full = os.path.join(p, name)
            if os.path.isfile(full):
                try:
                    with open(full, "rb") as fh:
                        head = fh.read(4096)
                except OSError as exc:
                    raise ReadError(full, f"cannot open the file: {exc.strerror}") from exc
                if JvmGcDecoder.sniff(Path(full), head):
                    found.append(full)
        if not found:
            raise ReadError(p, "the folder holds no GC log", expected="files such as gc.log")
        return found
    return [p]


def understood(state: LogState) -> float:
    """Share of the GC lines understood (1.0 when there are none)."""
    gc = state.counts["gc_lines"]
    return state.counts["gc_understood"] / gc if gc else 1.0


def definitions(state: LogState, label: str, parts: List[str], rank: int = 0) -> Definitions:
    """The metadata of one decoded log."""
    return Definitions(ranks={rank: {"name": label}}, metadata={
        "format": "jvm-gc", "log": label, "rank": rank, "parts": list(parts),
        "decorators": state.layout.describe() if state.layout else "",
        "collector": state.collector or _guess_collector(state),
        "jvm_version": state.version, "region_size": state.region_size,
        "heap_max": state.heap_max, "generational_zgc": state.generational_zgc,
        "counts": dict(state.counts), "unparsed": state.unparsed.as_dict(),
        "understood": understood(state), "truncated_last_line": state.truncated_last_line,
    })


def _guess_collector(state: LogState) -> str:
    titles = " | ".join(sorted(state.duration_titles))
    for needle, name in (("Major Collection", "ZGC"), ("Minor Collection", "ZGC"),
                         ("Garbage Collection (", "ZGC"), ("G1 ", "G1"),
                         ("Pause Init Mark", "Shenandoah"), ("Incremental GC", "GraalVM"),
                         ("Full GC (", "GraalVM")):
        if needle in titles:
            return name
    return ""
