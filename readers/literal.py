"""Hatchet's literal format: a list of nested dicts.

Each node is ``{"frame": {...}, "metrics": {...}, "children": [...]}`` with
optional ``"name"`` (display name when the frame has none) and
``"attributes"`` (non-metric columns). A node that appears at several places
(a DAG or a cycle) carries the same ``metrics["_hatchet_nid"]`` everywhere: the
first occurrence defines it, later ones are references (an extra parent edge;
their children, if any, are added to the shared node).

Metric kinds follow Hatchet: a key containing ``(inc)`` is inclusive, every
other key exclusive; ``X`` pairs with ``X (inc)`` and ``X (exc)`` with ``X``.
Unlike Hatchet, ``_hatchet_nid`` is consumed as the node identity and never
becomes a metric column, and every parent of a shared node is recorded.
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from .builder import ProfileBuilder
from .errors import ReadError
from .jsonfile import load_json
from .profile import RawProfile
from .progress import Progress, ProgressArg
from .registry import FormatInfo, looks_like_json

NID_KEY = "_hatchet_nid"


def read_literal(path: Any, progress: ProgressArg = None) -> RawProfile:
    """Read a literal (list of nested node dicts) stored as JSON.

    ``progress`` (see :mod:`readers.progress`) reports nodes as they are
    decoded, out of the file's count of ``"frame"`` keys.

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "lit.json")
    >>> with open(p, "w") as f:
    ...     json.dump([{"frame": {"name": "a"}, "metrics": {"time": 2.0},
    ...                 "children": [{"frame": {"name": "b"},
    ...                               "metrics": {"time": 1.0}}]}], f)
    >>> raw = read_literal(p)
    >>> list(raw.nodes["name"]), raw.exc_metrics
    (['a', 'b'], ('time',))
    """
    if progress is None or progress is False:
        return parse_literal(load_json(path), source=path)
    report = Progress(progress, _frame_count(path), "nodes of the literal")
    report.start()
    roots = load_json(path)
    if not isinstance(roots, (list, tuple)):
        return parse_literal(roots, source=path)
    raw = _LiteralParser(path, report).parse(roots)
    report.finish()
    return raw


def _frame_count(path: Any) -> int:
    """How many ``"frame"`` keys the file holds: the node count, for progress reports."""
    try:
        with open(path, "rb") as fh:
            return fh.read().count(b'"frame"')
    except OSError as exc:
        raise ReadError(path, f"cannot read the file: {exc.strerror}") from exc


def parse_literal(roots: Any, source: Any = None) -> RawProfile:
    """Decode a literal already loaded into Python objects.

    Raises :class:`ReadError` naming the node (as a path such as
    ``[0].children[2]``) when a node lacks ``frame`` or ``metrics`` or a metric
    is not a number.
    """
    if not isinstance(roots, (list, tuple)):
        raise ReadError(source, f"the literal is a {type(roots).__name__}",
                        position="top level", expected="a list of root node dicts")
    return _LiteralParser(source).parse(roots)


class _LiteralParser:
    def __init__(self, source: Any, report: Any = None) -> None:
        self.source = source
        self.report = report
        self.builder = ProfileBuilder(source)
        self.metric_names: Dict[str, None] = {}
        self.attribute_names: Dict[str, None] = {}
        self.by_nid: Dict[Any, int] = {}
        # for error positions: (parent item index, child position) per item
        self.trail: List[Tuple[int, int]] = []

    def parse(self, roots: Sequence[Any]) -> RawProfile:
        # explicit stack of (node dict, parent local id, trail index)
        stack = [(d, -1, self._trail(-1, i)) for i, d in reversed(list(enumerate(roots)))]
        done = 0
        while stack:
            item, parent, where = stack.pop()
            node = self._visit(item, parent, where)
            done += 1
            if self.report is not None and not done % 8192:
                self.report.step(8192)
            children = item.get("children") or []
            if not isinstance(children, list):
                raise self._error(where, "'children' is not a list", "a list of node dicts")
            for pos in range(len(children) - 1, -1, -1):
                stack.append((children[pos], node, self._trail(where, pos)))
        return self._build()

    def _trail(self, parent_where: int, pos: int) -> int:
        self.trail.append((parent_where, pos))
        return len(self.trail) - 1

    def _position(self, where: int) -> str:
        parts = []
        while where >= 0:
            parent, pos = self.trail[where]
            parts.append(f"[{pos}]" if parent < 0 else f".children[{pos}]")
            where = parent
        return "".join(reversed(parts))

    def _error(self, where: int, problem: str, expected: str) -> ReadError:
        return ReadError(self.source, problem, position=self._position(where), expected=expected)

    def _visit(self, item: Any, parent: int, where: int) -> int:
        if not isinstance(item, dict):
            raise self._error(where, f"a node is a {type(item).__name__}", "a dict")
        frame = item.get("frame")
        if not isinstance(frame, dict) or not frame:
            raise self._error(where, "the node has no 'frame'" if frame is None
                              else "'frame' is not a non-empty dict",
                              "a 'frame' dict of node attributes")
        metrics = item.get("metrics")
        if not isinstance(metrics, dict):
            raise self._error(where, "the node has no 'metrics'" if metrics is None
                              else "'metrics' is not a dict", "a 'metrics' dict")
        nid = metrics.get(NID_KEY)
        if nid is not None and nid in self.by_nid:
            shared = self.by_nid[nid]
            if parent >= 0:
                self.builder.add_edge(parent, shared)
            return shared
        values = self._metric_values(metrics, where)
        name = frame.get("name")
        if name is None:
            name = item.get("name")
        if name is None:
            raise self._error(where, "the node has no name", "frame['name'] or a 'name' key")
        columns: Dict[str, Any] = {"name": name}
        attributes = item.get("attributes") or {}
        if not isinstance(attributes, dict):
            raise self._error(where, "'attributes' is not a dict", "a dict of column values")
        for key, value in attributes.items():
            self.attribute_names.setdefault(key)
            columns[key] = value
        node = self.builder.add_node(dict(frame), parent, columns=columns)
        if nid is not None:
            self.by_nid[nid] = node
        self.builder.add_row(node, values)
        return node

    def _metric_values(self, metrics: Dict[str, Any], where: int) -> Dict[str, float]:
        values = {}
        for key, value in metrics.items():
            if key == NID_KEY:
                continue
            if value is None:
                value = math.nan
            elif isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise self._error(where, f"metric {key!r} is not a number: {value!r}",
                                  "a number (or null)")
            self.metric_names.setdefault(key)
            values[key] = float(value)
        return values

    def _build(self) -> RawProfile:
        names = list(self.metric_names)
        inc = [m for m in names if "(inc)" in m]
        exc = [m for m in names if "(inc)" not in m]
        pairs = {}
        for m in exc:
            if f"{m} (inc)" in inc:
                pairs[m] = f"{m} (inc)"
            elif m.endswith(" (exc)") and m[: -len(" (exc)")] in inc:
                pairs[m] = m[: -len(" (exc)")]
        default = "time" if "time" in names else (names[0] if names else None)
        columns = ["name", *names, *[a for a in self.attribute_names if a not in names]]
        return self.builder.build(
            exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
            metadata={"format": "literal"}, columns=columns)


def _sniff(path: Path, head: bytes) -> bool:
    if not looks_like_json(head, b"["):
        return False
    return b'"frame"' in head


FORMAT = FormatInfo(
    name="literal",
    read=read_literal,
    sniff=_sniff,
    description="Hatchet literal: JSON list of nested {frame, metrics, children} dicts",
)
