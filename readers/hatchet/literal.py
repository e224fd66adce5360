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
becomes a metric column, and every parent of a shared node is recorded. When
the first root carries a ``"graphframe"`` key (written by graphframe's
``to_literal`` only when the naming rule would get them wrong, or for an
ordered graph), it holds the metric declarations: ``exc_metrics``,
``inc_metrics``, ``inclusive_of``, ``default_metric``, and ``ordered`` (true:
siblings and roots keep the literal's order instead of frame order). Hatchet
ignores that key.

Checks (each a :class:`ReadError` naming the node as ``[0].children[2]``):
frames are non-empty dicts of string keys and string/number/boolean values
(``node`` and ``parent`` are reserved); metric values are numbers or null,
or strings: as in Hatchet's example literals (``"module": "main"``), a key
whose values are text becomes a text column in its place among the metrics
(not declared as a metric, so never summed; a key with numbers at some nodes
and text at others is an error);
metric and attribute keys are strings other than ``name`` and ``node``, and
an attribute may not repeat a metric; ``_hatchet_nid`` is an integer; a
reference's frame equals the frame of the node it refers to; a root is never a
reference. A reference whose metrics (or attributes, or name) differ from the
node it refers to is read (the first occurrence defines the node, as in
Hatchet) with a :class:`LiteralWarning` naming both positions.

Child order is kept exactly: reference edges are placed among a parent's
children where they appear (the ``edges`` table carries an ``order`` column,
see :mod:`graphframe_readers.profile`), so ``to_literal`` writes the children back in the
source's order.
"""

from __future__ import annotations

import math
import numbers
import re
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder
from ..common.jsonfile import as_document
from ..common.source import read_source
from ..errors import ReadError, _describe_source as _describe
from ..profile import PARENT, RawProfile
from ..progress import Progress, ProgressArg
from ..registry import FormatInfo, looks_like_json

NID_KEY = "_hatchet_nid"
#: Key of the first root that carries metric declarations (see module docs).
DECLARATIONS_KEY = "graphframe"
#: Frame keys that would collide with the node table's own columns.
RESERVED_FRAME_KEYS = ("node", "parent")
#: Metric / attribute keys that would collide with the dataframe's index or name.
RESERVED_COLUMNS = ("name", "node")


class LiteralWarning(UserWarning):
    """A literal is readable but inconsistent (e.g. a shared node's values differ)."""


def read_literal(path: Any, progress: ProgressArg = None) -> RawProfile:
    """Read a literal (list of nested node dicts) stored as JSON.

    Parameters
    ----------
    path : str, path-like or file-like
        The JSON file, or an open text or binary stream of it.
    progress : bool, str or callable, optional
        Report nodes as they are decoded, out of the text's count of
        ``"frame"`` keys (see :mod:`graphframe_readers.progress`).

    Returns
    -------
    RawProfile

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
    >>> import io
    >>> read_literal(io.StringIO('[{"frame": {"name": "a"}, "metrics": {}}]')).num_nodes
    1
    """
    data, source = read_source(path)
    if progress is None or progress is False:
        return parse_literal(data, source=source)
    frames = data.count(b'"frame"' if isinstance(data, bytes) else '"frame"')
    report = Progress(progress, frames, "nodes of the literal")
    report.start()
    roots = as_document(data, source)
    del data
    if not isinstance(roots, (list, tuple)):
        return parse_literal(roots, source=source)
    raw = _LiteralParser(source, report).parse(roots)
    report.finish()
    return raw


def parse_literal(roots: Any, source: Any = None) -> RawProfile:
    """Decode a literal: its JSON text (``str`` or ``bytes``) or the list of
    root dicts already loaded.

    Parameters
    ----------
    roots : list of dict, str or bytes
        The literal.
    source : any, optional
        Names the input in errors.

    Returns
    -------
    RawProfile

    Raises
    ------
    ReadError
        Naming the node (as a path such as ``[0].children[2]``) for anything
        the module docs list as a check.

    Examples
    --------
    >>> parse_literal('[{"frame": {"name": "a"}, "metrics": {"time": 1.5}}]').metrics["time"].tolist()
    [1.5]
    >>> lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0, "_hatchet_nid": 0},
    ...         "children": [{"frame": {"name": "b"}, "metrics": {"_hatchet_nid": 0}}]}]
    >>> parse_literal(lit)
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: <input>: [0].children[0]: _hatchet_nid 0 refers to the node at [0] whose frame is {'name': 'a'}, but this frame is {'name': 'b'} (expected the same frame at every occurrence of a _hatchet_nid)
    """
    roots = as_document(roots, source)
    if not isinstance(roots, (list, tuple)):
        raise ReadError(source, f"the literal is a {type(roots).__name__}",
                        position="top level", expected="a list of root node dicts")
    return _LiteralParser(source).parse(roots)


class _Defined:
    """What the first occurrence of a ``_hatchet_nid`` defined."""

    __slots__ = ("node", "where", "frame", "values", "attributes", "name")

    def __init__(self, node, where, frame, values, attributes, name) -> None:
        self.node = node
        self.where = where
        self.frame = frame
        self.values = values
        self.attributes = attributes
        self.name = name


class _LiteralParser:
    def __init__(self, source: Any, report: Any = None) -> None:
        self.source = source
        self.report = report
        self.builder = ProfileBuilder(source)
        self.metric_names: Dict[str, None] = {}
        # metric keys holding numbers / text: where each was first seen
        self.numeric_names: Dict[str, int] = {}
        self.text_names: Dict[str, int] = {}
        self.attribute_names: Dict[str, None] = {}
        self.by_nid: Dict[int, _Defined] = {}
        # for error positions: (parent item index, child position) per item
        self.trail: List[Tuple[int, int]] = []
        # every occurrence gets the next number: new nodes use it as their local
        # id, references as the order of their edge among the parent's children
        self.visits = 0
        self.ref_edges: List[Tuple[int, int, int]] = []

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
            children = item.get("children")
            if children is None:
                continue
            if not isinstance(children, list):
                raise self._error(where, "'children' is not a list", "a list of node dicts")
            for pos in range(len(children) - 1, -1, -1):
                stack.append((children[pos], node, self._trail(where, pos)))
        declared = roots[0].get(DECLARATIONS_KEY) if roots and isinstance(roots[0], dict) \
            else None
        return self._build(declared)

    # ----------------------------------------------------------- positions
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

    def _error(self, where: Any, problem: str, expected: str) -> ReadError:
        position = where if isinstance(where, str) else self._position(where)
        return ReadError(self.source, problem, position=position, expected=expected)

    # ---------------------------------------------------------------- nodes
    def _visit(self, item: Any, parent: int, where: int) -> int:
        if not isinstance(item, dict):
            raise self._error(where, f"a node is a {type(item).__name__}", "a dict")
        frame = self._frame(item.get("frame"), where)
        metrics = item.get("metrics")
        if not isinstance(metrics, dict):
            raise self._error(where, "the node has no 'metrics'" if metrics is None
                              else "'metrics' is not a dict", "a 'metrics' dict")
        nid = self._nid(metrics, where)
        values = self._metric_values(metrics, where)
        attributes = self._attributes(item, values, where)
        name = self._name(item, frame, where)
        visit = self.visits
        self.visits += 1
        if nid is not None and nid in self.by_nid:
            return self._reference(self.by_nid[nid], nid, parent, where, visit,
                                   frame, values, attributes, name)
        for key in attributes:
            self.attribute_names.setdefault(key)
        for key in values:
            if key in self.attribute_names:
                raise self._error(where, f"metric {key!r} is also an attribute",
                                  "metric names that are not attribute names")
            self.metric_names.setdefault(key)
        node = self.builder.add_node(frame, parent, columns={"name": name, **attributes},
                                     node_id=visit)
        if nid is not None:
            self.by_nid[nid] = _Defined(node, where, frame, values, attributes, name)
        self.builder.add_row(node, values)
        return node

    def _reference(self, defined: _Defined, nid: int, parent: int, where: int, visit: int,
                   frame: dict, values: dict, attributes: dict, name: Any) -> int:
        if parent < 0:
            raise self._error(where, f"a root repeats _hatchet_nid {nid} of the node at "
                              f"{self._position(defined.where)}",
                              "roots that are not references to other nodes")
        if _normal(frame) != _normal(defined.frame):
            raise self._error(
                where, f"_hatchet_nid {nid} refers to the node at "
                f"{self._position(defined.where)} whose frame is {defined.frame}, "
                f"but this frame is {frame}",
                "the same frame at every occurrence of a _hatchet_nid")
        differ = _differences(defined, values, attributes, name)
        if differ:
            warnings.warn(LiteralWarning(
                f"{_describe(self.source)}: {self._position(where)}: this occurrence of "
                f"_hatchet_nid {nid} has other values than the node at "
                f"{self._position(defined.where)} ({', '.join(differ)}); the first "
                "occurrence defines the node, these values are not read"), stacklevel=5)
        self.ref_edges.append((parent, defined.node, visit))
        return defined.node

    def _frame(self, frame: Any, where: int) -> Dict[str, Any]:
        if not isinstance(frame, dict) or not frame:
            raise self._error(where, "the node has no 'frame'" if frame is None
                              else "'frame' is not a non-empty dict",
                              "a 'frame' dict of node attributes")
        for key, value in frame.items():
            if not isinstance(key, str):
                raise self._error(where, f"frame key {key!r} is not a string", "string keys")
            if key in RESERVED_FRAME_KEYS:
                raise self._error(where, f"frame key {key!r} is reserved",
                                  "frame keys other than " + " and ".join(
                                      repr(k) for k in RESERVED_FRAME_KEYS))
            if not _is_scalar(value) or (isinstance(value, float) and math.isnan(value)):
                raise self._error(where, f"frame[{key!r}] is {_kind(value)}",
                                  "a string, number or boolean")
        return dict(frame)

    def _nid(self, metrics: Dict[Any, Any], where: int) -> Optional[int]:
        nid = metrics.get(NID_KEY)
        if nid is None:
            return None
        if isinstance(nid, float) and nid.is_integer():
            nid = int(nid)
        if isinstance(nid, bool) or not isinstance(nid, numbers.Integral):
            raise self._error(where, f"_hatchet_nid is {nid!r}", "an integer node id")
        nid = int(nid)
        return None if nid == -1 else nid  # Hatchet's "no identity"

    def _metric_values(self, metrics: Dict[Any, Any], where: int) -> Dict[str, Any]:
        values: Dict[str, Any] = {}
        for key, value in metrics.items():
            if key == NID_KEY:
                continue
            self._check_column_key(key, "metric", where)
            if isinstance(value, str):  # text, as in Hatchet's examples: a text column
                if key in self.numeric_names:
                    raise self._mixed(key, where, self.numeric_names[key])
                self.text_names.setdefault(key, where)
                values[key] = value
                continue
            if value is None:
                value = math.nan
            elif isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise self._error(where, f"metric {key!r} is {_kind(value)}: {value!r}",
                                  "a number, a string (a text column) or null")
            elif key in self.text_names:
                raise self._mixed(key, where, self.text_names[key])
            else:
                self.numeric_names.setdefault(key, where)
            values[key] = float(value)
        return values

    def _mixed(self, key: str, where: int, first: int) -> ReadError:
        return self._error(where, f"metric {key!r} holds a number at one node and text at "
                           f"another ({self._position(first)})",
                           "numbers (a metric) or strings (a text column) in every node")

    def _attributes(self, item: Dict[str, Any], values: Dict[str, float],
                    where: int) -> Dict[str, Any]:
        attributes = item.get("attributes")
        if attributes is None:
            return {}
        if not isinstance(attributes, dict):
            raise self._error(where, "'attributes' is not a dict", "a dict of column values")
        for key, value in attributes.items():
            self._check_column_key(key, "attribute", where)
            if key in values or key in self.metric_names:
                raise self._error(where, f"attribute {key!r} is also a metric",
                                  "attribute names that are not metric names")
            if not (value is None or _is_scalar(value) or isinstance(value, list)):
                raise self._error(where, f"attribute {key!r} is {_kind(value)}",
                                  "a string, number, boolean, list or null")
        return dict(attributes)

    def _check_column_key(self, key: Any, what: str, where: int) -> None:
        if not isinstance(key, str):
            raise self._error(where, f"{what} key {key!r} is not a string",
                              f"string {what} names")
        if key in RESERVED_COLUMNS:
            raise self._error(where, f"{_article(what)} {what} is called {key!r}",
                              f"{what} names other than " + " and ".join(
                                  repr(k) for k in RESERVED_COLUMNS))

    def _name(self, item: Dict[str, Any], frame: Dict[str, Any], where: int) -> Any:
        name = item.get("name")
        if name is None:
            name = frame.get("name")
        if name is None:
            raise self._error(where, "the node has no name", "frame['name'] or a 'name' key")
        if not _is_scalar(name):
            raise self._error(where, f"the node's name is {_kind(name)}",
                              "a string or number")
        return name

    # ---------------------------------------------------------------- build
    def _build(self, declared: Any) -> RawProfile:
        names = [m for m in self.metric_names if m not in self.text_names]
        kinds = _declarations(names) if declared is None else \
            self._declared(declared, names)
        exc, inc, pairs, default = kinds
        ordered = bool(declared.get("ordered", False)) if isinstance(declared, dict) else False
        columns = ["name", *self.metric_names, *self.attribute_names]
        raw = self.builder.build(
            exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
            metadata={"format": "literal"}, columns=columns, ordered=ordered)
        if not self.ref_edges:
            return raw
        src, dst, order = (np.asarray(c, dtype=np.int64) for c in zip(*self.ref_edges))
        edges = pd.DataFrame({PARENT: src, "child": dst, "order": order})
        return raw.with_changes(edges=edges).validate(self.source)

    def _declared(self, declared: Any, names: List[str]):
        where = f"[0].{DECLARATIONS_KEY}"
        expected = ("{'exc_metrics': [...], 'inc_metrics': [...], 'inclusive_of': {...}, "
                    "'default_metric': ...} naming metrics of the literal")
        try:
            exc = [str(m) for m in declared["exc_metrics"]]
            inc = [str(m) for m in declared["inc_metrics"]]
            pairs = {str(k): str(v) for k, v in dict(declared.get("inclusive_of", {})).items()}
            default = declared.get("default_metric")
        except (TypeError, KeyError, ValueError, AttributeError) as exc_info:
            raise self._error(where, "the metric declarations are malformed",
                              expected) from exc_info
        unknown = [m for m in exc + inc + list(pairs) + list(pairs.values()) if m not in names]
        if unknown or (default is not None and default not in names):
            raise self._error(where, f"the declarations name {unknown[0] if unknown else default!r}, "
                              "which no node has as a metric", expected)
        rest = [m for m in names if m not in exc and m not in inc]
        auto = _declarations(rest)
        return exc + auto[0], inc + auto[1], pairs, default


def _declarations(names: List[str]):
    """Hatchet's naming rule: ``(inc)`` in the name means inclusive."""
    inc = [m for m in names if "(inc)" in m]
    exc = [m for m in names if "(inc)" not in m]
    pairs = {}
    for m in exc:
        if f"{m} (inc)" in inc:
            pairs[m] = f"{m} (inc)"
        elif m.endswith(" (exc)") and m[: -len(" (exc)")] in inc:
            pairs[m] = m[: -len(" (exc)")]
    default = "time" if "time" in names else (names[0] if names else None)
    return exc, inc, pairs, default


def literal_declarations(metric_names: Sequence[str]) -> Dict[str, Any]:
    """The declarations :func:`parse_literal` derives from metric names alone.

    Examples
    --------
    >>> literal_declarations(["time (inc)", "time", "count"])
    {'exc_metrics': ['time', 'count'], 'inc_metrics': ['time (inc)'], 'inclusive_of': {'time': 'time (inc)'}, 'default_metric': 'time'}
    """
    exc, inc, pairs, default = _declarations(list(metric_names))
    return {"exc_metrics": exc, "inc_metrics": inc, "inclusive_of": pairs,
            "default_metric": default}


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (str, numbers.Real))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return repr(value)
    return f"a {type(value).__name__}"


def _normal(frame: Dict[str, Any]) -> Dict[str, Any]:
    """Hatchet's frame equality: a missing ``type`` is the string ``"None"``."""
    return frame if "type" in frame else {**frame, "type": "None"}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def _differences(defined: _Defined, values: Dict[str, float], attributes: Dict[str, Any],
                 name: Any) -> List[str]:
    out = [f"metric {k!r}: {v!r} vs {defined.values.get(k)!r}" for k, v in values.items()
           if k not in defined.values or not _same(v, defined.values[k])]
    out += [f"attribute {k!r}" for k, v in attributes.items()
            if k not in defined.attributes or not _same(v, defined.attributes[k])]
    if not _same(name, defined.name):
        out.append(f"name {name!r} vs {defined.name!r}")
    return out


# A literal is a JSON list whose first element is a node dict: its first key is
# one of the node keys (a big metrics dict can push "frame" beyond the head)
_FIRST_NODE_KEY = re.compile(rb'^\[\s*\{\s*"(frame|metrics|children|attributes)"\s*:')


def _sniff(path: Path, head: bytes) -> bool:
    if not looks_like_json(head, b"["):
        return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return bool(_FIRST_NODE_KEY.match(text)) or b'"frame"' in head


FORMAT = FormatInfo(
    name="literal",
    read=read_literal,
    sniff=_sniff,
    description="Hatchet literal: JSON list of nested {frame, metrics, children} dicts",
)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
