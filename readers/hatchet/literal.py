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
(``node`` and ``parent`` are reserved); metric values are numbers, booleans or
null, or strings: as in Hatchet's example literals (``"module": "main"``), a key
whose values are text becomes a text column in its place among the metrics
(not declared as a metric, so never summed; a key with numbers at some nodes
and text at others is an error). Numeric columns get Hatchet's types: int64 when
every node has an integer (uint64 beyond int64), float64 with a float or a
missing value, bool for booleans; booleans next to numbers, a boolean some node
lacks and integers that fit no 64-bit type are errors (Hatchet: object columns);
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

The walk and the node checks are in :mod:`graphframe_readers.hatchet.literal_parser`,
the metric kinds in :mod:`graphframe_readers.hatchet.literal_metric_kinds`; this
module reads files and is the format's entry in the registry.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..common.jsonfile import as_document
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..progress import Progress, ProgressArg
from ..registry import FormatInfo, looks_like_json
from .literal_metric_kinds import DECLARATIONS_KEY, literal_declarations
from .literal_parser import (NID_KEY, RESERVED_COLUMNS, RESERVED_FRAME_KEYS, LiteralParser,
                             LiteralWarning)

__all__ = ["DECLARATIONS_KEY", "FORMAT", "LiteralWarning", "NID_KEY", "RESERVED_COLUMNS",
           "RESERVED_FRAME_KEYS", "literal_declarations", "parse_literal", "read_literal"]


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
    raw = LiteralParser(source, report).parse(roots)
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
    return LiteralParser(source).parse(roots)


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
    suffixes=(".json",),
)

