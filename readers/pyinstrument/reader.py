"""pyinstrument output: JSON trees (``pyinstrument -r json``, pyinstrument 3-5)
and raw sessions (``pyinstrument -r session``, see
:mod:`graphframe_readers.pyinstrument.session`).

The document holds session facts (``start_time``, ``duration``,
``sample_count``, ``program`` or ``target_description``, ``cpu_time``) and a
tree of frames under ``root_frame``; each frame has ``function``,
``file_path_short``, ``file_path``, ``line_no``, ``time`` (inclusive seconds),
``is_application_code``, ``children`` and, in newer versions, ``await_time``
and ``class_name``. Trees are walked with an explicit stack and the JSON is
loaded by :func:`graphframe_readers.common.jsonfile.load_json`, so depth is unlimited.

Columns: ``name`` (function), ``file`` (``file_path_short``), ``line``,
``time`` (exclusive = frame time minus its children's), ``time (inc)``
(the frame's ``time``), ``is_application_code``, then ``file_path`` and,
when the file has them, ``class_name`` and ``await time``/``await time (inc)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import numpy as np

from ..builder import ProfileBuilder
from ..common.jsonfile import as_document, is_json_number
from ..common.source import read_source
from ..errors import ReadError, brief
from ..profile import RawProfile
from ..registry import FormatInfo, looks_like_json
from .session import is_session, parse_session

_INT64_MAX = 2**63 - 1
_SESSION_KEYS = ("start_time", "duration", "sample_count", "program", "target_description",
                 "cpu_time", "sys_path", "sys_prefixes")


def read_pyinstrument(path: Any) -> RawProfile:
    """Read pyinstrument JSON: a rendered tree (``-r json``) or a session (``-r session``).

    Parameters
    ----------
    path : str, path-like or file-like
        The JSON file, or an open text or binary stream of it.

    Returns
    -------
    RawProfile
        See :func:`parse_pyinstrument`.

    Examples
    --------
    >>> import json, os, tempfile
    >>> leaf = {"function": "work", "file_path_short": "app.py", "file_path": "/src/app.py",
    ...         "line_no": 7, "time": 0.75, "is_application_code": True, "children": []}
    >>> root = dict(leaf, function="<module>", line_no=1, time=1.0, children=[leaf])
    >>> p = os.path.join(tempfile.mkdtemp(), "session.json")
    >>> with open(p, "w") as f:
    ...     json.dump({"duration": 1.0, "root_frame": root}, f)
    >>> raw = read_pyinstrument(p)
    >>> raw.nodes["name"].tolist(), raw.metrics[["time", "time (inc)"]].values.tolist()
    (['<module>', 'work'], [[0.25, 1.0], [0.75, 0.75]])
    """
    data, source = read_source(path)
    return parse_pyinstrument(data, source=source)


def parse_pyinstrument(doc: Any, source: Any = None) -> RawProfile:
    """Decode pyinstrument JSON (text, bytes or the loaded dict): a tree or a session.

    Parameters
    ----------
    doc : dict, str or bytes
        ``pyinstrument -r json`` output (``root_frame``: a tree of frames) or
        a saved session (``frame_records``: stacks of samples; see
        :func:`graphframe_readers.pyinstrument.session.parse_session`).
    source : any, optional
        Names the input in errors.

    Examples
    --------
    >>> leaf = {"function": "work", "file_path_short": "app.py", "line_no": 7, "time": 0.75}
    >>> doc = {"root_frame": dict(leaf, function="main", line_no=1, time=1.0, children=[leaf])}
    >>> parse_pyinstrument(doc).metrics[["time", "time (inc)"]].values.tolist()
    [[0.25, 1.0], [0.75, 0.75]]
    >>> session = {"frame_records": [[["main\\x00app.py\\x001"], 0.25],
    ...                              [["main\\x00app.py\\x001", "work\\x00app.py\\x007"], 0.75]]}
    >>> parse_pyinstrument(session).metrics[["time", "time (inc)"]].values.tolist()
    [[0.25, 1.0], [0.75, 0.75]]
    """
    doc = as_document(doc, source)
    if is_session(doc):
        return parse_session(doc, source)
    if not isinstance(doc, dict) or "root_frame" not in doc:
        raise ReadError(source, f"the document is a {type(doc).__name__}"
                        + (" with neither 'root_frame' nor 'frame_records'"
                           if isinstance(doc, dict) else ""),
                        position="top level",
                        expected="pyinstrument JSON: a rendered tree with a 'root_frame' "
                        "(pyinstrument -r json) or a session with 'frame_records' "
                        "(pyinstrument -r session)")
    root = doc["root_frame"]
    if root is None:
        raise ReadError(source, "the session has no frames ('root_frame' is null)",
                        position="root_frame", expected="a profiled session with samples")
    walk = _Walk(source)
    walk.run(root)
    metadata = {k: doc[k] for k in _SESSION_KEYS if k in doc and not isinstance(doc[k], (dict, list))}
    metadata["format"] = "pyinstrument"
    return walk.build(metadata)


class _Walk:
    """Flattens the frame tree in pre-order with an explicit stack."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.parent: List[int] = []
        self.slot: List[int] = []  # position among the parent's children (errors)
        self.cols: Dict[str, List[Any]] = {k: [] for k in (
            "name", "file", "line", "time", "app", "file_path", "class_name", "await")}

    def run(self, root: Any) -> None:
        stack = [(root, -1, 0)]
        cols = self.cols
        while stack:
            frame, parent, slot = stack.pop()
            me = len(self.parent)
            self.parent.append(parent)
            self.slot.append(slot)
            if not isinstance(frame, dict):
                raise self.error(me, f"a frame is a {type(frame).__name__}", "a frame object")
            name = frame.get("function")
            if not isinstance(name, str):
                raise self.error(me, "the frame has no 'function' name", "a string 'function'")
            time = self.seconds(me, frame.get("time"), "time")
            line = frame.get("line_no")
            if line is not None and not (isinstance(line, int) and not isinstance(line, bool)
                                         and 0 <= line <= _INT64_MAX):
                raise self.error(me, f"'line_no' is {brief(line)}",
                                 f"an integer line number from 0 to {_INT64_MAX}")
            await_time = frame.get("await_time")
            if await_time is not None:
                await_time = self.seconds(me, await_time, "await_time")
            cols["name"].append(name)
            cols["file"].append(frame.get("file_path_short"))
            cols["line"].append(-1 if line is None else line)
            cols["time"].append(time)
            cols["app"].append(frame.get("is_application_code"))
            cols["file_path"].append(frame.get("file_path"))
            cols["class_name"].append(frame.get("class_name"))
            cols["await"].append(np.nan if await_time is None else await_time)
            children = frame.get("children", [])
            if not isinstance(children, list):
                raise self.error(me, "'children' is not a list", "a list of frames")
            for pos in range(len(children) - 1, -1, -1):
                stack.append((children[pos], me, pos))

    def seconds(self, node: int, value: Any, key: str) -> float:
        if not is_json_number(value):
            raise self.error(node, f"{key!r} is {brief(value)}", "a number of seconds")
        try:
            return float(value)
        except OverflowError as exc:
            raise self.error(node, f"{key!r} ({brief(value)}) is too large for a float",
                             "a number of seconds") from exc

    def error(self, node: int, problem: str, expected: str) -> ReadError:
        parts = []
        while node >= 0 and self.parent[node] >= 0:
            parts.append(f".children[{self.slot[node]}]")
            node = self.parent[node]
        return ReadError(self.source, problem, position="root_frame" + "".join(reversed(parts)),
                         expected=expected)

    def build(self, metadata: Dict[str, Any]) -> RawProfile:
        cols = self.cols
        parent = np.asarray(self.parent, dtype=np.int64)
        n = len(parent)
        inc = np.asarray(cols["time"], dtype=float)
        has_parent = parent >= 0
        exc = inc - np.bincount(parent[has_parent], weights=inc[has_parent], minlength=n)
        names = np.array(cols["name"], dtype=object)
        line = np.asarray(cols["line"], dtype=np.int64)
        values: Dict[str, Any] = {
            "file": np.array(cols["file"], dtype=object),
            "line": line if (line >= 0).all() else np.where(line >= 0, line, np.nan),
            "time": exc,
            "time (inc)": inc,
            "is_application_code": _flags(cols["app"]),
            "file_path": np.array(cols["file_path"], dtype=object),
        }
        if any(c is not None for c in cols["class_name"]):
            values["class_name"] = np.array(cols["class_name"], dtype=object)
        exc_m, inc_m, pairs = ["time"], ["time (inc)"], {"time": "time (inc)"}
        awaits = np.asarray(cols["await"], dtype=float)
        if not np.isnan(awaits).all():
            known = np.nan_to_num(awaits)
            values["await time"] = awaits - np.bincount(
                parent[has_parent], weights=known[has_parent], minlength=n)
            values["await time (inc)"] = awaits
            exc_m.append("await time")
            inc_m.append("await time (inc)")
            pairs["await time"] = "await time (inc)"
        builder = ProfileBuilder(self.source)
        nodes = builder.add_nodes(parent, {"type": np.full(n, "function", dtype=object),
                                           "name": names}, columns={"name": names})
        builder.add_rows(nodes, values)
        return builder.build(exc_metrics=exc_m, inc_metrics=inc_m, inclusive_of=pairs,
                             default_metric="time", metadata=metadata,
                             columns=["name", "file", "line", "time", "time (inc)",
                                      "is_application_code"])




def _sniff(path: Path, head: bytes) -> bool:
    # sessions: version 4 writes "frame_records" first, version 5 after
    # "start_call_stack" (which only sessions have)
    return looks_like_json(head, b"{") and (b'"root_frame"' in head or b'"frame_records"' in head
                                            or b'"start_call_stack"' in head)


FORMAT = FormatInfo(
    name="pyinstrument",
    read=read_pyinstrument,
    sniff=_sniff,
    description="pyinstrument JSON (pyinstrument -r json, or a -r session .pyisession)",
    suffixes=(".json", ".pyisession"),
)


def _flags(values: List[Any]) -> np.ndarray:
    """``is_application_code`` as Hatchet has it: a bool column when every frame says
    True or False, else (a frame without the key) the values as objects.

    Examples
    --------
    >>> _flags([True, False]).dtype, _flags([True, None]).dtype
    (dtype('bool'), dtype('O'))
    """
    if all(isinstance(v, (bool, np.bool_)) for v in values):
        return np.array(values, dtype=bool)
    return np.array(values, dtype=object)
