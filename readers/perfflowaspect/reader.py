"""PerfFlowAspect ``.pfw`` traces as a profile: one node per call (Hatchet's layout).

A ``.pfw`` file is Chrome trace-event JSON (compact ``X`` or verbose ``B``/``E``
events, often an unterminated array while the program runs). Hatchet's
``from_perfflowaspect`` makes every call its own node; so does this reader, by
decoding the events with the Chrome decoder into the events table
(:class:`~graphframe_readers.traces.table.TableBuilder`) and turning it into a
RawProfile (:func:`~graphframe_readers.traces.calls.call_tree_profile`).

It is an ordinary registered profile format: ``graphframe.read("run.pfw")``
gives the per-call tree (``read_trace`` gives the events), and
``GraphFrame.from_perfflowaspect`` is this reader under Hatchet's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..profile import RawProfile
from ..registry import FormatInfo

#: The file-name ending PerfFlowAspect writes.
SUFFIX = ".pfw"


def read_perfflowaspect(path: Any, scan_cpu_mem: bool = False) -> RawProfile:
    """Read a PerfFlowAspect trace: one node per call, as Hatchet does.

    Parameters
    ----------
    path : str or path-like
        A ``.pfw`` file (Chrome trace events).
    scan_cpu_mem : bool
        Add ``usage_memory`` and ``usage_cpu`` (the ``C`` events at each call's
        start), Hatchet's option of the same name.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "perfflow.pfw")
    >>> _ = open(p, "w").write('[{"name": "bar", "pid": 7, "tid": 7, "ts": 20, "dur": 30, "ph": "X"},'
    ...                        '{"name": "foo", "pid": 7, "tid": 7, "ts": 10, "dur": 80, "ph": "X"},')
    >>> read_perfflowaspect(p).nodes["name"].tolist()
    ['foo', 'bar']
    """
    # on first use: the trace layers load only when a trace is read
    from ..traces.calls import call_tree_profile
    from ..traces.registry import decode
    from ..traces.table import TableBuilder

    events = decode(path, TableBuilder(), "chrome")
    return call_tree_profile(events, path, counters=scan_cpu_mem)


def _sniff(path: Path, head: bytes) -> bool:
    if path.suffix.lower() != SUFFIX or path.is_dir():
        return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text[:1] in (b"[", b"{")


FORMAT = FormatInfo(
    name="perfflowaspect",
    read=read_perfflowaspect,
    sniff=_sniff,
    description="PerfFlowAspect trace (.pfw, Chrome trace events), one node per call as Hatchet",
    suffixes=(SUFFIX,),
)
