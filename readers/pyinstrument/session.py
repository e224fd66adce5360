"""pyinstrument session files (``pyinstrument -r session``, ``.pyisession``).

A session is what pyinstrument saves before any processing (pyinstrument 4
and 5; ``Session.save`` / ``Session.to_json``)::

    {"start_time": ..., "duration": ..., "sample_count": ...,
     "start_call_stack": [...], "target_description": ..., "cpu_time": ...,
     ["min_interval", "max_interval", "sys_path", "sys_prefixes" (version 5)]
     "frame_records": [[[frame, frame, ...], seconds], ...]}

Each record is one sample: the call stack from the outermost frame (often a
thread frame ``MainThread\\x00<thread>\\x00<id>``) to the innermost, and the
time it stands for. A frame is ``function\\x00file\\x00first line``, then
optional attributes each introduced by ``\\x01``: ``c<class name>``,
``l<current line>``, ``h<1 if __tracebackhide__>``. Synthetic frames such as
``[await]`` and ``[out-of-context]`` have no file or line.

The call tree has one node per call path of frame identifiers (the records
of one path are added up, as pyinstrument's tree does); no processor is
applied (pyinstrument's renderers hide library frames, remove its own
frames, group...), so the tree is the raw sampled one. Columns: ``name``
(function), ``file`` (the path as recorded), ``line`` (the function's first
line; NaN for synthetic frames), ``time`` (exclusive: the samples ending at
the node), ``time (inc)``, and ``class_name`` when any frame has one (the
class seen for the most time at that node).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.jsonfile import is_json_number
from ..errors import ReadError, brief
from ..profile import RawProfile

SESSION_KEYS = ("start_time", "duration", "sample_count", "target_description", "cpu_time",
                "min_interval", "max_interval")
_INT64_MAX = 2**63 - 1


def is_session(doc: Any) -> bool:
    """True for a pyinstrument session document (it has ``frame_records``)."""
    return isinstance(doc, dict) and "frame_records" in doc


def parse_session(doc: Dict[str, Any], source: Any = None) -> RawProfile:
    """Build the call tree of a pyinstrument session already loaded from JSON.

    Parameters
    ----------
    doc : dict
        The session object, with ``frame_records``.
    source : any, optional
        Names the input in errors.

    Examples
    --------
    >>> main, work = "main\\x00app.py\\x001", "work\\x00app.py\\x009\\x01cWorker\\x01l10"
    >>> doc = {"duration": 0.004, "frame_records": [
    ...     [[main], 0.001], [[main, work], 0.002], [[main, work], 0.001]]}
    >>> raw = parse_session(doc, "s.pyisession")
    >>> raw.nodes["name"].tolist()
    ['main', 'work']
    >>> raw.metrics[["time", "time (inc)"]].values.tolist()
    [[0.001, 0.004], [0.003, 0.003]]
    >>> raw.metrics["class_name"].iloc[1]
    'Worker'

    """
    records = doc.get("frame_records")
    if not isinstance(records, list):
        raise ReadError(source, f"'frame_records' is a {type(records).__name__}",
                        position="frame_records", expected="a list of [stack, seconds] samples")
    tree = _Tree(source)
    for k, record in enumerate(records):
        tree.add(record, k)
    if not tree.parent:
        raise ReadError(source, "the session has no samples ('frame_records' is empty)",
                        position="frame_records", expected="a profiled session with samples")
    metadata = {key: doc[key] for key in SESSION_KEYS
                if key in doc and not isinstance(doc[key], (dict, list))}
    metadata["format"] = "pyinstrument-session"
    return tree.build(metadata)


class _Tree:
    """Interns call paths; sums each sample's time into its innermost node."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.ids: Dict[Tuple[int, str], int] = {}
        self.parent: List[int] = []
        self.depth: List[int] = []
        self.ident: List[str] = []
        self.exc: List[float] = []
        self.classes: Dict[Tuple[int, str], float] = {}

    def add(self, record: Any, k: int) -> None:
        where = f"frame_records[{k}]"
        if not (isinstance(record, list) and len(record) == 2 and isinstance(record[0], list)):
            raise ReadError(self.source, f"the sample is {brief(record)}", position=where,
                            expected="[[frame, ...], seconds]")
        stack, seconds = record
        if not is_json_number(seconds):
            raise ReadError(self.source, f"the sample's time is {brief(seconds)}",
                            position=f"{where}[1]", expected="a number of seconds")
        try:
            seconds = float(seconds)
        except OverflowError as exc:
            raise ReadError(self.source, f"the sample's time ({brief(seconds)}) is too large",
                            position=f"{where}[1]", expected="a number of seconds") from exc
        if not stack:
            raise ReadError(self.source, "the sample has an empty stack",
                            position=f"{where}[0]", expected="at least one frame")
        node = -1
        ids = self.ids
        for d, info in enumerate(stack):
            if not isinstance(info, str):
                raise ReadError(self.source, f"a frame is {brief(info)}",
                                position=f"{where}[0][{d}]",
                                expected="a frame string 'function\\x00file\\x00line'")
            cut = info.find("\x01")
            ident = info if cut < 0 else info[:cut]
            child = ids.get((node, ident))
            if child is None:
                child = len(self.parent)
                ids[(node, ident)] = child
                self.parent.append(node)
                self.depth.append(d)
                self.ident.append(ident)
                self.exc.append(0.0)
            node = child
            if cut >= 0 and "\x01c" in info:
                for attr in info[cut + 1:].split("\x01"):
                    if attr[:1] == "c":
                        key = (node, attr[1:])
                        self.classes[key] = self.classes.get(key, 0.0) + seconds
        self.exc[node] += seconds

    def build(self, metadata: Dict[str, Any]) -> RawProfile:
        n = len(self.parent)
        parent = np.asarray(self.parent, dtype=np.int64)
        depth = np.asarray(self.depth, dtype=np.int64)
        exc = np.asarray(self.exc, dtype=float)
        inc = exc.copy()
        for d in range(int(depth.max()), 0, -1):  # children before parents, a level at a time
            level = np.flatnonzero(depth == d)
            np.add.at(inc, parent[level], inc[level])
        names, files, lines = self._frames()
        values: Dict[str, Any] = {"file": files, "line": lines, "time": exc, "time (inc)": inc}
        if self.classes:
            values["class_name"] = self._class_names(n)
        builder = ProfileBuilder(self.source)
        nodes = builder.add_nodes(parent, {"type": np.full(n, "function", dtype=object),
                                           "name": names}, columns={"name": names})
        builder.add_rows(nodes, values)
        return builder.build(exc_metrics=["time"], inc_metrics=["time (inc)"],
                             inclusive_of={"time": "time (inc)"}, default_metric="time",
                             metadata=metadata,
                             columns=["name", "file", "line", "time", "time (inc)"])

    def _frames(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        names: List[str] = []
        files: List[Optional[str]] = []
        lines: List[Optional[int]] = []
        for node, ident in enumerate(self.ident):
            parts = ident.split("\x00")
            names.append(parts[0])
            files.append(parts[1] if len(parts) > 1 else None)
            lines.append(self._line(parts[2], node) if len(parts) > 2 else None)
        if any(v is None for v in lines):  # synthetic frames: no line
            line = np.array([math.nan if v is None else float(v) for v in lines])
        else:
            line = np.array(lines, dtype=np.int64)
        return np.array(names, dtype=object), np.array(files, dtype=object), line

    def _line(self, text: str, node: int) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if not 0 <= value <= _INT64_MAX:
            raise ReadError(self.source, f"the line number {text[:40]!r} of frame "
                            f"{self.ident[node].split(chr(0))[0]!r} is not valid",
                            position=f"call path {self._path(node)}",
                            expected=f"a line number from 0 to {_INT64_MAX}")
        return value

    def _path(self, node: int) -> str:
        names = []
        while node >= 0:
            names.append(self.ident[node].split("\x00")[0])
            node = self.parent[node]
        return " > ".join(reversed(names))

    def _class_names(self, n: int) -> np.ndarray:
        best: Dict[int, Tuple[float, str]] = {}
        for (node, name), seconds in self.classes.items():  # first seen wins ties
            if node not in best or seconds > best[node][0]:
                best[node] = (seconds, name)
        out = np.full(n, None, dtype=object)
        for node, (_, name) in best.items():
            out[node] = name
        return out


