"""Writing an events table as Chrome trace-event JSON (opens in Perfetto and speedscope).

Matched ENTER/LEAVE pairs become ``X`` events (``dur``), open ENTERs ``B``
and lone LEAVEs ``E``; INSTANT -> ``i`` (thread scope), COUNTER -> ``C``
(its ``args``, else ``{name: value}``); the other kinds (send, recv, io...)
become ``i`` events with ``cat`` = the kind and their attributes in
``args``. Rank and thread names go out as ``M`` events. Times are written
as µs with three decimals from the integer ns, so reading the file back
gives the same times. One event per line, in table order.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Mapping, Optional

import numpy as np
import pandas as pd

_SKIP = {"time", "kind", "name", "rank", "thread", "match", "depth", "parent",
         "duration", "exclusive", "args", "value", "end"}


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
    >>> ev = pd.DataFrame({"time": [1000, 3500], "kind": ["enter", "leave"],
    ...                    "name": ["main", "main"], "rank": [0, 0], "thread": [0, 0],
    ...                    "match": [1, 0]})
    >>> p = write_chrome(os.path.join(tempfile.mkdtemp(), "t.json"), ev)
    >>> print(open(p).read().splitlines()[1])
    {"ph": "X", "name": "main", "pid": 0, "tid": 0, "ts": 1.000, "dur": 2.500}
    """
    path = os.fspath(path)
    time = events["time"].to_numpy(np.int64)
    kind = events["kind"].astype(str).to_numpy()
    names = events["name"].astype(object).to_numpy()
    rank = events["rank"].to_numpy(np.int64)
    thread = events["thread"].to_numpy(np.int64)
    match = events["match"].to_numpy(np.int64) if "match" in events else np.full(len(time), -1)
    args = events["args"].to_numpy(object) if "args" in events else np.full(len(time), None)
    value = events["value"].to_numpy(np.float64) if "value" in events else None
    extra = [c for c in events.columns if c not in _SKIP]
    extra_vals = {c: events[c].astype(object).to_numpy() for c in extra}
    qnames: Dict[Any, str] = {}

    def qn(name: Any) -> str:
        q = qnames.get(name)
        if q is None:
            q = qnames[name] = "" if name is None or name != name else \
                f'"name": {json.dumps(str(name))}, '
        return q

    lines = []
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
        if k == "enter":
            if match[i] >= 0:
                dur = int(time[match[i]]) - int(time[i])
                lines.append(head % "X" + f', "dur": {_us(dur)}{tail}}}')
            else:
                lines.append(head % "B" + tail + "}")
        elif k == "leave":
            if match[i] < 0:
                lines.append(head % "E" + tail + "}")
        elif k == "instant":
            lines.append(head % "i" + ', "s": "t"' + tail + "}")
        elif k == "counter":
            if a is None:
                key = "value" if names[i] is None or names[i] != names[i] else str(names[i])
                tail = f', "args": {json.dumps({key: float(value[i])})}'
            lines.append(head % "C" + tail + "}")
        else:
            attrs = {c: _plain(extra_vals[c][i]) for c in extra}
            attrs = {c: v for c, v in attrs.items() if v is not None and v != -1}
            lines.append(head % "i" + f', "s": "t", "cat": "{k}", "args": {json.dumps(attrs)}}}')
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[\n" + ",\n".join(lines) + "\n]\n")
    return path


def _meta(what: str, rank: int, thread: int, name: Any) -> str:
    return (f'{{"ph": "M", "name": "{what}", "pid": {rank}, "tid": {thread}, '
            f'"args": {{"name": {json.dumps(str(name))}}}}}')


def _plain(v: Any) -> Any:
    if v is None or (isinstance(v, float) and v != v):
        return None
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v if isinstance(v, (int, float, str)) else str(v)
