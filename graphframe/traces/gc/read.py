"""Reading JVM GC logs into a TraceFrame whose ``gc`` view holds GCGC's analyses."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from graphframe_readers.traces import decode
from graphframe_readers.traces.jvmgc.table import GcTableBuilder


def read_gc(path: Any, *, labels: Optional[Sequence[str]] = None, **options: Any):
    """A TraceFrame of one log, a list of logs or a folder of logs (``format="jvm-gc"``).

    Rotated parts (``gc.log.0``, ``gc.log.1``...) read as one log; each log is
    labelled by its file name (the stem of rotated parts) unless ``labels``
    (one per log, in the order the logs are read: sorted by name) says otherwise.
    """
    from ..frame import TraceFrame
    builder = GcTableBuilder()
    if labels is not None:
        options["labels"] = list(labels)
    events = decode(path, builder, "jvm-gc", **options)
    return TraceFrame(events, builder.definitions)
