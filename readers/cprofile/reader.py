"""cProfile / profile statistics (pstats files) written by Python 3.

A pstats file is ``marshal.dumps`` of a dict::

    {(file, line, function): (cc, nc, tt, ct, callers), ...}
    callers = {(file, line, function): (nc, cc, tt, ct) or nc, ...}

``cc`` counts primitive (non-recursive) calls, ``nc`` all calls, ``tt`` is the
time spent in the function itself and ``ct`` the cumulative time including
callees (recursion counted once). Each function becomes one node; each caller
record an edge, so the result is a call graph (recursion is a cycle, never an
endless chain; see :mod:`graphframe_readers.common.callgraph` for the choice of roots).

Columns (Hatchet's names): ``file``, ``line``, ``name``, ``numcalls`` (=
``cc``, primitive calls), ``nativecalls`` (= ``nc``, all calls), ``time
(inc)`` (= ``ct``, inclusive), ``time`` (= ``tt``, exclusive), and
``caller_calls``: per node ``((caller, calls), ...)`` with each caller
written as pstats prints it (``file:line(function)``) and the number of calls
on that edge.

marshal is only used because pstats files *are* marshal data: the bytes are
first walked by :func:`graphframe_readers.cprofile.marshal_check.check_marshal` (every size
must fit in the file, no code objects, back-references only to finished
objects; the first flaw is reported with its byte offset), then go through
:func:`marshal.loads` inside a guard that turns every failure into
:class:`~graphframe_readers.errors.ReadError`, and the decoded object's shape is checked
record by record before any value is used; counts must be integers that fit
in 64 bits. Python 2 pstats files (Python 2's marshal format) cannot be
decoded by Python 3 and are reported as such.
"""

from __future__ import annotations

import marshal
import math
import numbers
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.callgraph import parents_from_edges
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .marshal_check import check_marshal

_EXPECTED = "a pstats file written by Python 3 (python -m cProfile -o FILE, or Stats.dump_stats)"
_FLAG_REF = 0x80
_INT64_MAX = 2**63 - 1
Key = Tuple[str, int, str]


def read_cprofile(path: Any) -> RawProfile:
    """Read a pstats file (``python -m cProfile -o FILE`` / ``Stats.dump_stats``).

    Parameters
    ----------
    path : str, path-like or file-like
        The file, or an open binary stream of it.

    Returns
    -------
    RawProfile
        See :func:`parse_cprofile`.

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
    data, source = read_source(path)
    if isinstance(data, str):
        raise ReadError(source, "the stream gives text; pstats files are binary",
                        expected="a file path or a binary stream (open(path, 'rb'))")
    return parse_cprofile(data, source=source)


def parse_cprofile(data: bytes, source: Any = None) -> RawProfile:
    """Decode the bytes of a pstats file (see :func:`read_cprofile`).

    Parameters
    ----------
    data : bytes
        The file's content: marshal data of the statistics dict.
    source : any, optional
        Names the input in errors.

    Raises
    ------
    ReadError
        Corrupted marshal data (at the byte offset of the first flaw), a
        Python 2 file, or statistics of the wrong shape (at the record).

    Examples
    --------
    >>> import marshal
    >>> data = marshal.dumps({("app.py", 3, "work"): (2, 5, 0.5, 0.75, {})})
    >>> raw = parse_cprofile(data, "app.pstats")
    >>> raw.metrics[["numcalls", "nativecalls", "time", "time (inc)"]].values.tolist()
    [[2.0, 5.0, 0.5, 0.75]]
    >>> parse_pstats_bytes(data[:9], "cut.pstats")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: cut.pstats: byte 3 of 9: the marshal data is corrupt: the data ends inside a string (expected a pstats file written by Python 3 (python -m cProfile -o FILE, or Stats.dump_stats))
    """
    stats = _unmarshal(data, source)
    return parse_stats(stats, source)


def _unmarshal(data: bytes, source: Any) -> Dict[Any, Any]:
    if not data:
        raise ReadError(source, "the file is empty", position="byte 0", expected=_EXPECTED)
    # Python 2 wrote the first key as a plain 3-tuple ('(' + int32 3); Python 3
    # writes a small tuple (')' + one byte, maybe with the reference flag)
    python2 = data[:6] == b"{(\x03\x00\x00\x00"
    flaw = check_marshal(data)
    if flaw is not None:
        if python2:
            raise _python2(source)
        offset, problem = flaw
        raise ReadError(source, f"the marshal data is corrupt: {problem}",
                        position=f"byte {offset} of {len(data)}", expected=_EXPECTED)
    try:
        stats = marshal.loads(data)
    except (ValueError, EOFError, TypeError, MemoryError) as exc:
        raise ReadError(source, f"the marshal data cannot be decoded ({exc})",
                        position=f"position unknown in {len(data)} bytes (marshal gives none)",
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


#: The name this function had before the readers were split into packages.
parse_pstats_bytes = parse_cprofile


def parse_stats(stats: Dict[Any, Any], source: Any = None) -> RawProfile:
    """Build the call graph from a decoded pstats dict (``pstats.Stats(...).stats``).

    Parameters
    ----------
    stats : dict
        ``{(file, line, function): (cc, nc, tt, ct, callers)}`` as pstats
        holds it.
    source : any, optional
        Names the input in errors.

    Raises
    ------
    ReadError
        Naming the record (``record K (file:line(function))``) when an entry
        has the wrong shape or a count that is not a whole number fitting in
        64 bits.

    Examples
    --------
    >>> stats = {("app.py", 1, "main"): (1, 1, 0.25, 1.0, {}),
    ...          ("app.py", 9, "work"): (3, 3, 0.75, 0.75, {("app.py", 1, "main"): (3, 3, 0.75, 0.75)})}
    >>> raw = parse_stats(stats, "app.pstats")
    >>> raw.metrics[["nativecalls", "time", "time (inc)", "caller_calls"]].values.tolist()
    [[1, 0.25, 1.0, ()], [3, 0.75, 0.75, (('app.py:1(main)', 3),)]]
    """
    keys: List[Key] = []
    index: Dict[Key, int] = {}
    counts: List[Tuple[Optional[int], Optional[int]]] = []
    times: List[Tuple[float, float]] = []
    callers_of: List[Dict[Any, Any]] = []
    for pos, (key, value) in enumerate(stats.items()):
        _check_key(key, source, f"record {pos}")
        cc, nc, tt, ct, callers = _check_value(value, source, f"record {pos} ({_label(key)})")
        index[key] = len(keys)
        keys.append(key)
        counts.append((cc, nc))
        times.append((tt, ct))
        callers_of.append(callers)
    src: List[int] = []
    dst: List[int] = []
    edge_calls: List[int] = []
    for pos, callers in enumerate(callers_of):
        where = f"record {pos} ({_label(keys[pos])}) callers"
        for caller, edge in callers.items():
            _check_key(caller, source, where)
            if caller not in index:  # a caller without its own record
                index[caller] = len(keys)
                keys.append(caller)
                counts.append((None, None))
                times.append((math.nan, math.nan))
            src.append(index[caller])
            dst.append(pos)
            edge_calls.append(_edge_calls(edge, source, where))
    if not keys:
        raise ReadError(source, "the statistics are empty", position="top level",
                        expected="at least one profiled function")
    return _build(keys, counts, np.array(times, dtype=float), src, dst, edge_calls, source)


def _build(keys: List[Key], counts: List[Tuple[Optional[int], Optional[int]]],
           times: np.ndarray, src: List[int], dst: List[int], edge_calls: List[int],
           source: Any) -> RawProfile:
    n = len(keys)
    parent, extra_src, extra_dst = parents_from_edges(n, src, dst, times[:, 1])
    names = np.array([k[2] for k in keys], dtype=object)
    labels = [_label(k) for k in keys]
    incoming: List[List[Tuple[str, int]]] = [[] for _ in range(n)]
    for s, d, c in zip(src, dst, edge_calls):
        incoming[d].append((labels[s], c))
    caller_calls = np.empty(n, dtype=object)
    caller_calls[:] = [tuple(x) for x in incoming]
    builder = ProfileBuilder(source)
    nodes = builder.add_nodes(parent, {"type": np.full(n, "function", dtype=object),
                                       "name": names}, columns={"name": names})
    builder.add_edges(extra_src, extra_dst)
    builder.add_rows(nodes, {
        "file": np.array([k[0] for k in keys], dtype=object),
        "line": np.array([k[1] for k in keys], dtype=np.int64),
        "numcalls": _counts([c[0] for c in counts]),
        "nativecalls": _counts([c[1] for c in counts]),
        "time (inc)": times[:, 1],
        "time": times[:, 0],
        "caller_calls": caller_calls,
    })
    return builder.build(
        exc_metrics=["time"], inc_metrics=["time (inc)"], inclusive_of={"time": "time (inc)"},
        default_metric="time", metadata={"format": "cprofile"},
        aggregations={"numcalls": "sum", "nativecalls": "sum"},  # counts add up on merges
        columns=["file", "line", "name", "numcalls", "nativecalls", "time (inc)", "time",
                 "caller_calls"])


def _counts(values: List[Optional[int]]) -> np.ndarray:
    """int64 (validated to fit), or float with NaN when a caller has no record."""
    if any(v is None for v in values):
        return np.array([math.nan if v is None else float(v) for v in values])
    return np.array(values, dtype=np.int64)


def _check_key(key: Any, source: Any, where: str) -> None:
    if not (isinstance(key, tuple) and len(key) == 3 and isinstance(key[0], str)
            and isinstance(key[1], int) and not isinstance(key[1], bool)
            and isinstance(key[2], str)):
        raise ReadError(source, f"a function key is {_short(key)}", position=where,
                        expected="a (file, line, function name) tuple")
    if not 0 <= key[1] <= _INT64_MAX:
        raise ReadError(source, f"the line number {key[1]} of {key[2]!r} is out of range",
                        position=where, expected=f"a line number from 0 to {_INT64_MAX}")


def _check_value(value: Any, source: Any, where: str) -> tuple:
    if not (isinstance(value, tuple) and len(value) == 5 and isinstance(value[4], dict)
            and all(_is_number(v) for v in value[:4])):
        raise ReadError(source, f"the statistics are {_short(value)}", position=where,
                        expected="(primitive calls, calls, self time, cumulative time, callers)")
    cc = _count(value[0], source, where, "the primitive call count")
    nc = _count(value[1], source, where, "the call count")
    tt = _seconds(value[2], source, where, "the self time")
    ct = _seconds(value[3], source, where, "the cumulative time")
    return cc, nc, tt, ct, value[4]


def _count(v: Any, source: Any, where: str, what: str) -> int:
    """A call count as a Python int; whole numbers from 0 to 2**63 - 1 only."""
    whole = isinstance(v, int) or (isinstance(v, float) and v.is_integer())
    if not whole or not 0 <= v <= _INT64_MAX:
        raise ReadError(source, f"{what} is {_short(v)}", position=where,
                        expected=f"a whole number from 0 to {_INT64_MAX}")
    return int(v)


def _seconds(v: Any, source: Any, where: str, what: str) -> float:
    try:
        return float(v)
    except OverflowError as exc:
        raise ReadError(source, f"{what} ({_short(v)}) is too large for a float",
                        position=where, expected="a number of seconds") from exc


def _edge_calls(edge: Any, source: Any, where: str) -> int:
    if _is_number(edge):  # the pure-Python profile module stores a call count
        return _count(edge, source, where, "a caller's call count")
    if isinstance(edge, tuple) and len(edge) == 4 and all(_is_number(v) for v in edge):
        return _count(edge[0], source, where, "a caller's call count")
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
    suffixes=(".pstats", ".prof"),
)
