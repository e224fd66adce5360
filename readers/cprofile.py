"""cProfile / profile statistics (pstats files) written by Python 3.

A pstats file is ``marshal.dumps`` of a dict::

    {(file, line, function): (cc, nc, tt, ct, callers), ...}
    callers = {(file, line, function): (nc, cc, tt, ct) or nc, ...}

``cc`` counts primitive (non-recursive) calls, ``nc`` all calls, ``tt`` is the
time spent in the function itself and ``ct`` the cumulative time including
callees (recursion counted once). Each function becomes one node; each caller
record an edge, so the result is a call graph (recursion is a cycle, never an
endless chain; see :mod:`readers.callgraph` for the choice of roots).

Columns (Hatchet's names): ``file``, ``line``, ``name``, ``numcalls`` (=
``cc``, primitive calls), ``nativecalls`` (= ``nc``, all calls), ``time
(inc)`` (= ``ct``, inclusive), ``time`` (= ``tt``, exclusive), and
``caller_calls``: per node ``((caller, calls), ...)`` with each caller
written as pstats prints it (``file:line(function)``) and the number of calls
on that edge.

marshal is only used because pstats files *are* marshal data: the bytes go
through :func:`marshal.loads` inside a guard that turns every failure into
:class:`~readers.errors.ReadError`, and the decoded object's shape is
checked before any value is used. Python 2 pstats files (Python 2's marshal
format) cannot be decoded by Python 3 and are reported as such.
"""

from __future__ import annotations

import marshal
import math
import numbers
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

from .builder import ProfileBuilder
from .callgraph import parents_from_edges
from .errors import ReadError
from .profile import RawProfile
from .registry import FormatInfo

_EXPECTED = "a pstats file written by Python 3 (python -m cProfile -o FILE, or Stats.dump_stats)"
_FLAG_REF = 0x80
Key = Tuple[str, int, str]


def read_cprofile(path: Any) -> RawProfile:
    """Read a pstats file (``python -m cProfile -o FILE`` / ``Stats.dump_stats``).

    Examples
    --------
    >>> import cProfile, os, tempfile
    >>> def fib(n):
    ...     return n if n < 2 else fib(n - 1) + fib(n - 2)
    >>> prof = cProfile.Profile()
    >>> _ = prof.runcall(fib, 5)
    >>> p = os.path.join(tempfile.mkdtemp(), "fib.pstats")
    >>> prof.dump_stats(p)
    >>> raw = read_cprofile(p)
    >>> fib_id = raw.nodes.loc[raw.nodes["name"] == "fib", "node"].iloc[0]
    >>> row = raw.metrics[raw.metrics["node"] == fib_id]
    >>> int(row["numcalls"].iloc[0]), int(row["nativecalls"].iloc[0])
    (1, 15)
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ReadError(path, f"cannot read the file: {exc.strerror}") from exc
    return parse_pstats_bytes(data, source=path)


def parse_pstats_bytes(data: bytes, source: Any = None) -> RawProfile:
    """Decode the bytes of a pstats file (see :func:`read_cprofile`)."""
    stats = _unmarshal(data, source)
    return parse_stats(stats, source)


def _unmarshal(data: bytes, source: Any) -> Dict[Any, Any]:
    if not data:
        raise ReadError(source, "the file is empty", position="byte 0", expected=_EXPECTED)
    # Python 2 wrote the first key as a plain 3-tuple ('(' + int32 3); Python 3
    # writes a small tuple (')' + one byte, maybe with the reference flag)
    python2 = data[:6] == b"{(\x03\x00\x00\x00"
    try:
        stats = marshal.loads(data)
    except (ValueError, EOFError, TypeError) as exc:
        if python2:
            raise _python2(source) from exc
        raise ReadError(source, f"the marshal data cannot be decoded ({exc})",
                        position=f"marshal stream of {len(data)} bytes",
                        expected=_EXPECTED) from exc
    if not isinstance(stats, dict):
        raise ReadError(source, f"the marshal data holds a {type(stats).__name__}",
                        position="top level", expected="a dict of function statistics")
    if any(isinstance(k, tuple) and k and isinstance(k[0], bytes) for k in stats):
        raise _python2(source)
    return stats


def _python2(source: Any) -> ReadError:
    return ReadError(source, "this pstats file was written by Python 2; Python 2's marshal "
                     "format is not supported (Python 3 cannot decode it)",
                     position="byte 0", expected=_EXPECTED + "; re-create the profile with "
                     "Python 3")


def parse_stats(stats: Dict[Any, Any], source: Any = None) -> RawProfile:
    """Build the call graph from a decoded pstats dict (``pstats.Stats(...).stats``).

    Raises :class:`ReadError` naming the record when an entry has the wrong
    shape.
    """
    keys: List[Key] = []
    index: Dict[Key, int] = {}
    values: List[Tuple[float, float, float, float]] = []
    callers_of: List[Dict[Any, Any]] = []
    for pos, (key, value) in enumerate(stats.items()):
        _check_key(key, source, f"record {pos}")
        value = _check_value(value, source, f"record {pos} ({_label(key)})")
        index[key] = len(keys)
        keys.append(key)
        values.append(value[:4])
        callers_of.append(value[4])
    src: List[int] = []
    dst: List[int] = []
    edge_calls: List[float] = []
    for pos, callers in enumerate(callers_of):
        where = f"record {pos} ({_label(keys[pos])}) callers"
        for caller, edge in callers.items():
            _check_key(caller, source, where)
            if caller not in index:  # a caller without its own record
                index[caller] = len(keys)
                keys.append(caller)
                values.append((math.nan,) * 4)
            src.append(index[caller])
            dst.append(pos)
            edge_calls.append(_edge_calls(edge, source, where))
    if not keys:
        raise ReadError(source, "the statistics are empty", position="top level",
                        expected="at least one profiled function")
    return _build(keys, np.array(values, dtype=float), src, dst, edge_calls, source)


def _build(keys: List[Key], values: np.ndarray, src: List[int], dst: List[int],
           edge_calls: List[float], source: Any) -> RawProfile:
    n = len(keys)
    parent, extra_src, extra_dst = parents_from_edges(n, src, dst, values[:, 3])
    names = np.array([k[2] for k in keys], dtype=object)
    labels = [_label(k) for k in keys]
    incoming: List[List[Tuple[str, Any]]] = [[] for _ in range(n)]
    for s, d, c in zip(src, dst, edge_calls):
        incoming[d].append((labels[s], None if math.isnan(c) else int(c)))
    caller_calls = np.empty(n, dtype=object)
    caller_calls[:] = [tuple(x) for x in incoming]
    builder = ProfileBuilder(source)
    nodes = builder.add_nodes(parent, {"type": np.full(n, "function", dtype=object),
                                       "name": names}, columns={"name": names})
    builder.add_edges(extra_src, extra_dst)
    builder.add_rows(nodes, {
        "file": np.array([k[0] for k in keys], dtype=object),
        "line": np.array([k[1] for k in keys], dtype=np.int64),
        "numcalls": _counts(values[:, 0]),
        "nativecalls": _counts(values[:, 1]),
        "time (inc)": values[:, 3],
        "time": values[:, 2],
        "caller_calls": caller_calls,
    })
    return builder.build(
        exc_metrics=["time"], inc_metrics=["time (inc)"], inclusive_of={"time": "time (inc)"},
        default_metric="time", metadata={"format": "cprofile"},
        columns=["file", "line", "name", "numcalls", "nativecalls", "time (inc)", "time",
                 "caller_calls"])


def _counts(values: np.ndarray) -> np.ndarray:
    if np.isnan(values).any():
        return values
    return values.astype(np.int64)


def _check_key(key: Any, source: Any, where: str) -> None:
    if not (isinstance(key, tuple) and len(key) == 3 and isinstance(key[0], str)
            and isinstance(key[1], int) and not isinstance(key[1], bool)
            and isinstance(key[2], str)):
        raise ReadError(source, f"a function key is {_short(key)}", position=where,
                        expected="a (file, line, function name) tuple")


def _check_value(value: Any, source: Any, where: str) -> tuple:
    if not (isinstance(value, tuple) and len(value) == 5 and isinstance(value[4], dict)
            and all(_is_number(v) for v in value[:4])):
        raise ReadError(source, f"the statistics are {_short(value)}", position=where,
                        expected="(primitive calls, calls, self time, cumulative time, callers)")
    return tuple(float(v) for v in value[:4]) + (value[4],)


def _edge_calls(edge: Any, source: Any, where: str) -> float:
    if _is_number(edge):  # the pure-Python profile module stores a call count
        return float(edge)
    if isinstance(edge, tuple) and len(edge) == 4 and all(_is_number(v) for v in edge):
        return float(edge[0])
    raise ReadError(source, f"a caller record is {_short(edge)}", position=where,
                    expected="(calls, primitive calls, self time, cumulative time)")


def _is_number(v: Any) -> bool:
    t = type(v)
    return t is float or t is int or (t is not bool and isinstance(v, numbers.Real))


def _label(key: Key) -> str:
    file, line, name = key
    if file == "~" and line == 0:
        return name
    return f"{file}:{line}({name})"


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 80 else text[:77] + "..."


def _sniff(path: Path, head: bytes) -> bool:
    if len(head) < 2 or head[0] & ~_FLAG_REF != ord("{"):
        return False
    return head[1] & ~_FLAG_REF in (ord("("), ord(")"), ord("0"))


FORMAT = FormatInfo(
    name="cprofile",
    read=read_cprofile,
    sniff=_sniff,
    description="cProfile/profile statistics (pstats marshal file, Python 3)",
)
