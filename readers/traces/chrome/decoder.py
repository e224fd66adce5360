"""Chrome / Perfetto trace-event JSON -> event batches, streaming over the file.

Both layouts are read: a JSON array of events (the closing ``]`` may be
missing, as the format allows for traces cut off while being written) and
an object whose ``traceEvents`` member is that array (other members are
skipped). The file is read block by block and each block is scanned with
numpy (:mod:`.scan`); no ``json.load`` of the whole file.

Phases: ``B``/``E`` -> ENTER/LEAVE; ``X`` -> ENTER at ``ts`` and LEAVE at
``ts + dur``; ``i``/``I``/``R``/``n`` and every other event phase -> INSTANT;
``C`` -> one COUNTER per member of ``args`` (``value`` = its number, the
event's ``name`` kept, ``args`` = that one member); ``M`` -> definitions
(``process_name`` -> ``ranks[pid]["name"]``, ``thread_name`` ->
``threads[(pid, tid)]["name"]``, other ``M`` names -> their ``args`` under
that name). ``pid`` -> rank, ``tid`` -> thread (string pids/tids are
numbered from 0 in order of appearance and their text kept as the name);
``ts``/``dur`` (µs) -> ns exactly from the decimal text. ``args`` of other
events is kept as its JSON text (``args=False`` drops it).

Options: ``order`` ("auto", "stream", "sort": see :mod:`.order`),
``sort_limit`` (events held before "auto" streams), ``args``.
"""

from __future__ import annotations

from pathlib import Path

from ..decoder import Decoder
from ..handler import EventHandler
from ..sources import ByteSource
from .parallel import decode_parallel
from .run import ChromeRun


class ChromeDecoder(Decoder):
    """Chrome trace-event JSON: the array form or ``{"traceEvents": [...]}``."""

    format_name = "chrome"
    description = "Chrome/Perfetto trace-event JSON (viztracer, Caliper, PyTorch...)"

    def __init__(self, *, order: str = "auto", sort_limit: int = 250_000,
                 args: bool = True) -> None:
        super().__init__(order=order, sort_limit=sort_limit, args=args)

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if text[:1] == b"{":
            return b'"traceEvents"' in head
        return text[:1] == b"[" and (b'"ph"' in head or text[1:].strip() in (b"", b"]"))

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        ChromeRun(self.options, source, handler).run()

    def decode_parallel(self, source: ByteSource, handler: EventHandler, jobs: int) -> None:
        """One file with ``jobs`` worker processes (see :mod:`.parallel`)."""
        decode_parallel(ChromeRun(self.options, source, handler), source, jobs)


