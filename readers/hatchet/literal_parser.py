"""Decoding the node dicts of a Hatchet literal into a RawProfile.

:class:`LiteralParser` walks the nested ``{frame, metrics, children}`` dicts
with an explicit stack, checks every node (the checks listed in
:mod:`graphframe_readers.hatchet.literal`, each a :class:`ReadError` naming the
node as ``[0].children[2]``), turns repeated ``_hatchet_nid`` occurrences into
extra parent edges placed among the children where they appear, and builds
the profile.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder
from ..errors import ReadError, _describe_source as _describe
from ..profile import PARENT, RawProfile
from .literal_metric_kinds import DECLARATIONS_KEY, metric_kinds

#: The metric key naming a node that appears at several places (consumed, never a metric).
NID_KEY = "_hatchet_nid"
#: Frame keys that would collide with the node table's own columns.
RESERVED_FRAME_KEYS = ("node", "parent")
#: Metric / attribute keys that would collide with the dataframe's index or name.
RESERVED_COLUMNS = ("name", "node")
INT64_MAX = 2 ** 63 - 1
UINT64_MAX = 2 ** 64 - 1


class LiteralWarning(UserWarning):
    """A literal is readable but inconsistent (e.g. a shared node's values differ)."""


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


class LiteralParser:
    """Reads one literal: ``LiteralParser(source).parse(roots)``."""

    def __init__(self, source: Any, report: Any = None) -> None:
        self.source = source
        self.report = report
        self.builder = ProfileBuilder(source)
        self.metric_names: Dict[str, None] = {}
        # metric keys holding numbers / text / booleans: where each was first seen
        self.numeric_names: Dict[str, int] = {}
        self.text_names: Dict[str, int] = {}
        self.bool_names: Dict[str, int] = {}
        # keys holding other Python objects (an object column, as Hatchet keeps them)
        self.object_names: Dict[str, int] = {}
        # integer metrics beyond int64 (uint64 columns) and negative ones: first position
        self.big_ints: Dict[str, int] = {}
        self.negative_ints: Dict[str, int] = {}
        # nodes (not references) holding a value (not null) of each metric key, and
        # where each node was defined (positions of errors found at the end)
        self.present: Dict[str, int] = {}
        self.node_where: List[int] = []
        self.node_values: List[Dict[str, Any]] = []
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
        name = self._name(item, frame, where)
        attributes = self._attributes(item, values, name, where)
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
        for key, value in values.items():
            if not (isinstance(value, float) and math.isnan(value)):
                self.present[key] = self.present.get(key, 0) + 1
        self.node_where.append(where)
        self.node_values.append(values)
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
                values[key] = math.nan
                continue
            if not isinstance(value, (bool, np.bool_, numbers.Real)):
                # any other object (a list, a dict, an instance): kept as it is in an
                # object column, not a metric (Hatchet's dataframe holds it the same way)
                first = self.numeric_names.get(key, self.bool_names.get(key))
                if first is not None:
                    raise self._error(where, f"metric {key!r} is {_kind(value)}: {value!r} "
                                      f"here and a number at {self._position(first)}",
                                      "numbers in every node, or objects in every node")
                self.object_names.setdefault(key, where)
                values[key] = value
                continue
            if isinstance(value, (bool, np.bool_)):
                kind, first = "a boolean", self.numeric_names.get(key)
                self.bool_names.setdefault(key, where)
                value = bool(value)
            elif isinstance(value, numbers.Real):
                kind, first = "a number", self.bool_names.get(key)
                self.numeric_names.setdefault(key, where)
                value = self._integer(key, value, where) if isinstance(
                    value, numbers.Integral) else float(value)
            else:
                raise self._error(where, f"metric {key!r} is {_kind(value)}: {value!r}",
                                  "a number, a boolean, a string (a text column) or null")
            if key in self.text_names:
                raise self._mixed(key, where, self.text_names[key])
            if key in self.object_names:
                raise self._error(where, f"metric {key!r} is {kind} here and "
                                  f"an object at "
                                  f"{self._position(self.object_names[key])}",
                                  "numbers in every node, or objects in every node")
            if first is not None:
                other = "a number" if kind == "a boolean" else "a boolean"
                raise self._error(where, f"metric {key!r} is {kind} here and {other} at "
                                  f"{self._position(first)}",
                                  "numbers or booleans (a flag) in every node, not both")
            values[key] = value
        return values

    def _integer(self, key: str, value: Any, where: int) -> int:
        """An integer metric value: int64 columns, uint64 when larger (as pandas
        infers for Hatchet); beyond 64 bits it is an error."""
        value = int(value)
        if value < 0:
            self.negative_ints.setdefault(key, where)
        elif value > INT64_MAX:
            if value > UINT64_MAX:
                raise self._error(where, f"metric {key!r} is {value}, which needs more than "
                                  "64 bits", "an integer from -2**63 to 2**64 - 1 or a float")
            self.big_ints.setdefault(key, where)
        return value

    def _check_column_types(self) -> None:
        """Errors only visible once every node is read: a boolean metric some node lacks,
        integers beyond int64 next to negative ones (neither has a numpy dtype; Hatchet
        makes an ``object`` column of them)."""
        nodes = len(self.node_where)
        for key, where in self.bool_names.items():
            if self.present.get(key, 0) < nodes:
                lacking = self._first_without(key)
                raise self._error(lacking, f"metric {key!r} is a boolean at "
                                  f"{self._position(where)} but this node has no value",
                                  "a value at every node for a boolean metric")
        for key, where in self.big_ints.items():
            if key in self.negative_ints:
                raise self._error(where, f"metric {key!r} is larger than 2**63 - 1 here and "
                                  f"negative at {self._position(self.negative_ints[key])}",
                                  "integers that fit one 64-bit type (int64 or uint64)")

    def _first_without(self, key: str) -> int:
        for i, row in enumerate(self.node_values):
            value = row.get(key)
            if value is None or (isinstance(value, float) and math.isnan(value)):
                return self.node_where[i]
        return self.node_where[-1]

    def _mixed(self, key: str, where: int, first: int) -> ReadError:
        return self._error(where, f"metric {key!r} holds a number at one node and text at "
                           f"another ({self._position(first)})",
                           "numbers (a metric) or strings (a text column) in every node")

    def _attributes(self, item: Dict[str, Any], values: Dict[str, Any], name: Any,
                    where: int) -> Dict[str, Any]:
        """The node's ``attributes`` as columns. Hatchet's ``to_literal(cat_columns=...)``
        may repeat the name or a metric there: a repeat with the same value (or null)
        says nothing new and is skipped; another value is an error."""
        attributes = item.get("attributes")
        if attributes is None:
            return {}
        if not isinstance(attributes, dict):
            raise self._error(where, "'attributes' is not a dict", "a dict of column values")
        out = {}
        for key, value in attributes.items():
            if not (value is None or _is_scalar(value) or isinstance(value, list)):
                raise self._error(where, f"attribute {key!r} is {_kind(value)}",
                                  "a string, number, boolean, list or null")
            if key == "name" and (value is None or _same(value, name)):
                continue
            if key in values or key in self.metric_names:
                if value is None or _same(_number(value), values.get(key, math.nan)):
                    continue
                raise self._error(where, f"attribute {key!r} is also a metric, with another "
                                  f"value ({value!r}, metric {values.get(key)!r})",
                                  "attribute names that are not metric names, or the "
                                  "metric's value")
            self._check_column_key(key, "attribute", where)
            out[key] = value
        return out

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
        self._check_column_types()
        names = [m for m in self.metric_names
                 if m not in self.text_names and m not in self.object_names]
        exc, inc, pairs, default = metric_kinds(names, declared, self.source)
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


def _number(value: Any) -> Any:
    """A metric value as the parser keeps it (ints, floats, booleans)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return value
    return int(value) if isinstance(value, numbers.Integral) else float(value)


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


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
