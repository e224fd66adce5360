"""Writing an events table as Chrome trace-event JSON (opens in Perfetto and speedscope).

ENTER and LEAVE rows become ``B`` and ``E`` events (the reader keeps file
order at equal times, so zero-length and nested calls come back exactly as
they were); INSTANT -> ``i`` (thread scope), COUNTER -> ``C`` (its
``args``, else ``{name: value}``); the other kinds (send, recv, io...)
become ``i`` events with ``cat`` = the kind and ``args`` = ``{"gf.kind":
kind, <attribute column>: value...}`` (values that are not absent), which
the reader turns back into that kind and those columns; an ENTER/LEAVE row
with attribute values (Recorder's ``fd``...) gets the same ``args``. A first
``M`` event ``gf.columns`` lists the table's attribute columns. An ``args``
text that is not a JSON object (DUMPI's ``name=value`` lines) goes out as a
string under ``gf.args`` in such an ``args``, so the file is always valid
JSON and the text comes back unchanged.
Rank and thread names go out as ``M`` events. Times are written as µs with
three decimals from the integer ns, so reading the file back gives the same
times. One event per line, in table order: read -> write -> read gives the
same events table.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Mapping, Optional

import numpy as np
import pandas as pd

from ..events import ATTRIBUTES

_SKIP = {"time", "kind", "name", "rank", "thread", "match", "depth", "parent",
         "duration", "exclusive", "args", "value"}

#: The ``args`` key that marks an event written from a SEND/RECV/IO/RMA... row
#: (or an ENTER/LEAVE row with attribute values).
KIND_KEY = "gf.kind"
#: The ``M`` event listing the table's attribute columns (the reader gives its
#: batches exactly these columns).
COLUMNS_KEY = "gf.columns"
#: With ``gf.kind``: the row's ``args`` text (kept as a string when it is not a JSON
#: object, e.g. DUMPI's ``name=value`` lines).
ARGS_KEY = "gf.args"


def _us(ns: int) -> str:
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return f"{sign}{ns // 1000}.{ns % 1000:03d}"


def write_chrome(path: Any, events: pd.DataFrame,
                 ranks: Optional[Mapping[int, Mapping[str, Any]]] = None,
                 threads: Optional[Mapping[tuple, Mapping[str, Any]]] = None) -> str:
    """Write ``events`` (an events table) to ``path``; returns the path.

    Examples
    --------
    >>> import os, tempfile
    >>> ev = pd.DataFrame({"time": [1000, 2000, 3500], "kind": ["enter", "send", "leave"],
    ...                    "name": ["main", "main", "main"], "rank": [0, 0, 0],
    ...                    "thread": [0, 0, 0], "match": [2, -1, 0], "peer": [-1, 1, -1]})
    >>> p = write_chrome(os.path.join(tempfile.mkdtemp(), "t.json"), ev)
    >>> for line in open(p).read().splitlines()[2:5]:
    ...     print(line)
    {"ph": "B", "name": "main", "pid": 0, "tid": 0, "ts": 1.000},
    {"ph": "i", "name": "main", "pid": 0, "tid": 0, "ts": 2.000, "s": "t", "cat": "send", "args": {"gf.kind": "send", "peer": 1}},
    {"ph": "E", "name": "main", "pid": 0, "tid": 0, "ts": 3.500}
    """
    path = os.fspath(path)
    time = events["time"].to_numpy(np.int64)
    kind = events["kind"].astype(str).to_numpy()
    names = events["name"].astype(object).to_numpy()
    rank = events["rank"].to_numpy(np.int64)
    thread = events["thread"].to_numpy(np.int64)
    args = events["args"].to_numpy(object) if "args" in events else np.full(len(time), None)
    value = events["value"].to_numpy(np.float64) if "value" in events else None
    extra = [c for c in ATTRIBUTES if c in events.columns and c not in _SKIP]
    extra_vals = {c: events[c].astype(object).to_numpy() for c in extra}
    qnames: Dict[Any, str] = {}

    def qn(name: Any) -> str:
        q = qnames.get(name)
        if q is None:
            q = qnames[name] = "" if name is None or name != name else \
                f'"name": {json.dumps(str(name))}, '
        return q

    lines = [_meta(COLUMNS_KEY, 0, 0, [c for c in ATTRIBUTES if c in events.columns],
                   member="columns")]
    for (r, t), entry in sorted((threads or {}).items()):
        if "name" in entry:
            lines.append(_meta("thread_name", r, t, entry["name"]))
    for r, entry in sorted((ranks or {}).items()):
        if "name" in entry:
            lines.append(_meta("process_name", r, 0, entry["name"]))
    for i in range(len(time)):
        k = kind[i]
        head = f'{{"ph": "%s", {qn(names[i])}"pid": {rank[i]}, "tid": {thread[i]}, "ts": {_us(int(time[i]))}'
        a = args[i]
        if not isinstance(a, str):
            a = None
        tail = f', "args": {a}' if a is not None else ""
        if k in ("enter", "leave", "instant"):
            attrs = _attrs(extra, extra_vals, i) if extra else {}
            if attrs or (a is not None and not _json_object(a)):
                if a is not None:
                    attrs[ARGS_KEY] = a
                tail = f', "args": {json.dumps({KIND_KEY: k, **attrs})}'
        if k == "enter":
            lines.append(head % "B" + tail + "}")
        elif k == "leave":
            lines.append(head % "E" + tail + "}")
        elif k == "instant":
            lines.append(head % "i" + ', "s": "t"' + tail + "}")
        elif k == "counter":
            if a is None:
                key = "value" if names[i] is None or names[i] != names[i] else str(names[i])
                tail = f', "args": {json.dumps({key: float(value[i])})}'
            lines.append(head % "C" + tail + "}")
        else:
            attrs = {KIND_KEY: k, **_attrs(extra, extra_vals, i)}
            if a is not None:
                attrs[ARGS_KEY] = a
            lines.append(head % "i" + f', "s": "t", "cat": "{k}", "args": {json.dumps(attrs)}}}')
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[\n" + ",\n".join(lines) + "\n]\n")
    return path


def _meta(what: str, rank: int, thread: int, name: Any, member: str = "name") -> str:
    value = name if member == "columns" else str(name)
    return (f'{{"ph": "M", "name": "{what}", "pid": {rank}, "tid": {thread}, '
            f'"args": {{"{member}": {json.dumps(value)}}}}}')


def _json_object(text: str) -> bool:
    """Whether ``text`` is a JSON object (written as is into ``args``)."""
    if not text.lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _attrs(extra: list, values: Dict[str, np.ndarray], i: int) -> Dict[str, Any]:
    """The attribute values of row ``i`` that are not "absent" (-1, NaN, None)."""
    out = {}
    for c in extra:
        v = _plain(values[c][i])
        if v is not None and v != -1:
            out[c] = v
    return out


def _plain(v: Any) -> Any:
    if v is None or (isinstance(v, float) and v != v):
        return None
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v if isinstance(v, (int, float, str)) else str(v)
