"""Events that graphframe's writer made from typed rows, read back into their kind.

``TraceFrame.to_chrome`` (:mod:`.writer`) writes SEND/RECV/IO/RMA... rows as
``i`` events, and ENTER/LEAVE rows with attribute values as ``B``/``E``
events, whose ``args`` begin with ``{"gf.kind": "``: the kind's name, then
the row's attribute columns (:data:`graphframe_readers.traces.ATTRIBUTES`),
and the row's own ``args`` text under ``gf.args``. :func:`typed_events` finds
and checks them, :func:`restore_args` puts their ``gf.args`` text back as
their ``args``, and :func:`typed_columns` makes the attribute columns.

Examples
--------
>>> from graphframe_readers.traces.chrome.members import member_spans
>>> from graphframe_readers.traces.chrome.scan import scan_events
>>> buf = b'{"ph": "i", "ts": 1, "args": {"gf.kind": "send", "peer": 1, "gf.args": "x"}}]'
>>> scan = scan_events(buf, "t.json", 1, False)
>>> spans = member_spans(scan.a, scan, "t.json", 1)
>>> ph = np.array([ord("i")], dtype=np.uint8)  # the events' phases
>>> typed = typed_events(scan.a, buf, ph, spans["args"], "t.json", 1, scan)
>>> kind, members = typed[0]
>>> kind.name, members
('SEND', {'peer': 1, 'gf.args': 'x'})
>>> args = np.array(['{"gf.kind": ...}'], dtype=object)
>>> restore_args(typed, args)
>>> args.tolist(), members
(['x'], {'peer': 1})
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ...errors import ReadError
from ..events import ATTRIBUTES, KIND_NAMES, Kind, StringTable
from .members import Span, args_json
from .writer import ARGS_KEY, KIND_KEY

#: how the args of an event written from a SEND/IO/RMA... row begin (see .writer)
_TYPED = np.frombuffer(b'{"' + KIND_KEY.encode() + b'": "', dtype=np.uint8)
_KIND_OF = {name: Kind(code) for code, name in enumerate(KIND_NAMES)}

#: event index -> (its kind, its other ``args`` members)
Typed = Dict[int, Tuple[Kind, Dict[str, Any]]]


def typed_events(a: np.ndarray, buf: bytes, ph: np.ndarray, span: Span, source: str,
                 base: int, scan: Any) -> Typed:
    """Events written by ``to_chrome`` from SEND/RECV/IO/RMA... rows: ``i`` events
    whose ``args`` start with ``{"gf.kind": "``: event index -> parsed args."""
    sel, vs, ve = span
    width = len(_TYPED)
    p = ph[sel]
    cand = ((p == ord("i")) | (p == ord("B")) | (p == ord("E"))) & (ve - vs > width)
    if not cand.any():
        return {}
    idx = np.flatnonzero(cand)
    head = a[vs[idx][:, None] + np.arange(width)]
    idx = idx[(head == _TYPED).all(axis=1)]
    out = {}
    for i, s, e in zip(sel[idx].tolist(), vs[idx].tolist(), ve[idx].tolist()):
        members = args_json(buf[s:e].decode("utf-8", "replace"), source, base, scan, i)
        label = members.pop(KIND_KEY)
        kind = _KIND_OF.get(label) if isinstance(label, str) else None
        expect = {ord("B"): Kind.ENTER, ord("E"): Kind.LEAVE}.get(int(ph[i]))
        if kind is None or (kind == expect if expect is not None
                            else kind in (Kind.ENTER, Kind.LEAVE)) is (expect is None):
            raise ReadError(source, f"'gf.kind' {label!r} does not fit a {chr(ph[i])!r} event",
                            position=f"byte {base + int(scan.starts[i])}",
                            expected="enter on B, leave on E, another kind name on i")
        bad = [k for k, v in members.items() if not _typed_value_ok(k, v)]
        if bad:
            raise ReadError(source, f"'gf.kind' event member {bad[0]!r} is not an attribute "
                            "column or has a value of the wrong type",
                            position=f"byte {base + int(scan.starts[i])}",
                            expected="attribute columns of graphframe_readers.traces.ATTRIBUTES: "
                            "integers, 'file' and 'gf.args' strings, or null")
        out[i] = (kind, members)
    return out


def restore_args(typed: Typed, args: Optional[np.ndarray]) -> None:
    """Take the ``gf.args`` member out of each typed event's members and, unless the
    args are not kept (``args`` None), make it the event's ``args`` text."""
    if typed and args is not None:
        for i, (_, members) in typed.items():
            args[i] = members.pop(ARGS_KEY, None)
    else:
        for _, members in typed.values():
            members.pop(ARGS_KEY, None)


def typed_columns(typed: np.ndarray, strings: StringTable) -> Dict[str, np.ndarray]:
    """Attribute columns from the parsed ``gf.kind`` args (None elsewhere)."""
    cols: Dict[str, np.ndarray] = {}
    for i in np.flatnonzero(np.not_equal(typed, None)).tolist():
        for key, value in typed[i].items():
            col = cols.get(key)
            if col is None:
                dtype, fill = ATTRIBUTES[key]
                col = cols[key] = np.full(len(typed), fill, dtype=dtype)
            if value is None:
                continue
            col[i] = strings.intern(value) if key == "file" else value
    return cols


def _typed_value_ok(key: str, value: Any) -> bool:
    """Whether ``key: value`` of a ``gf.kind`` event fits its attribute column."""
    if value is None:
        return key in ATTRIBUTES or key == ARGS_KEY
    if key in ("file", ARGS_KEY):
        return isinstance(value, str)
    if key not in ATTRIBUTES or isinstance(value, bool) or key == "args":
        return False
    if key == "value":
        return isinstance(value, (int, float))
    return isinstance(value, int) and -(1 << 63) <= value < (1 << 63)
