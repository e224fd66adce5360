"""``perf script`` output (Linux perf's samples as text) as a calling-context tree.

Each sample's frames, innermost first, are reversed into a path from the root:
the command (``comm``) is the root (as ``stackcollapse-perf`` does), then the
outermost frame down to the one the sample hit. Equal paths are one node, so
the result is a tree (recursion is a chain of nodes, as in every
calling-context tree), built with one numpy step per stack depth.

Frames: the symbol without its ``+0xOFFSET`` (an unknown symbol is named by its
address, as gprof2dot does, so two unknown places stay apart), and its DSO.
Columns:

``name``, ``module``, ``dso``
    The function (the command for a root), the DSO's base name and its path.
``<event>``, ``<event> (inc)``
    Per event name (``cpu-clock``, ``cycles:u``, ``sched:sched_switch``...): the
    samples that hit the node itself, and those in its subtree.
``<event> period``, ``<event> period (inc)``
    The same for the sum of the samples' periods (when the headers show them).

With ``per_thread=True`` the rows are per thread id (index level ``thread``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .script import header_frame, split_lines, symbol_names

__all__ = ["parse_perf_script", "read_perf_script"]

INT = np.int64


def read_perf_script(path: Any, per_thread: bool = False) -> RawProfile:
    """Read ``perf script`` output (``perf record -g ...; perf script > out.perf``).

    Parameters
    ----------
    path : str, path-like or file-like
        The text file, or an open stream of it.
    per_thread : bool
        One row per node and thread id (index level ``thread``) instead of one
        per node.

    Returns
    -------
    RawProfile
        See :func:`parse_perf_script`.

    Examples
    --------
    >>> import io
    >>> text = (b"prog 7  1.000001:    1000 cpu-clock: \\n"
    ...         b"\\t  1192 leaf+0x29 (/opt/prog)\\n\\t  1260 main+0x20 (/opt/prog)\\n\\n"
    ...         b"prog 7  1.000002:    1000 cpu-clock: \\n"
    ...         b"\\t  1260 main+0x24 (/opt/prog)\\n\\n")
    >>> raw = read_perf_script(io.BytesIO(text))
    >>> raw.metrics[["name", "cpu-clock", "cpu-clock (inc)", "cpu-clock period"]].values.tolist()
    [['prog', 0, 2, 0], ['main', 1, 2, 1000], ['leaf', 1, 1, 1000]]
    """
    data, source = read_source(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    return parse_perf_script(data, source=source, per_thread=per_thread)


def parse_perf_script(data: bytes, source: Any = None, per_thread: bool = False
                      ) -> RawProfile:
    """Decode ``perf script`` output (bytes or str); see :func:`read_perf_script`.

    Raises
    ------
    ReadError
        At the line of a header or frame that cannot be read, a frame before any
        header, and when the text does not end with a line break (perf ends its
        output with one: the file was cut inside a line).

    Examples
    --------
    >>> parse_perf_script(b"prog 7 1.0: 1 cycles:\\n\\t 11 main (/a)\\n\\tgarbage\\n", "p.txt")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: p.txt: line 3: cannot read the line 'garbage' (expected a frame line: a tab, the address, the symbol[+0xOFFSET], '(DSO)')
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data.strip():
        raise ReadError(source, "the file is empty", position="line 1",
                        expected="perf script output")
    if data[-1:] != b"\n":
        last = data.count(b"\n") + 1
        raise ReadError(source, "the text ends inside a line: the file is truncated",
                        position=f"line {last}",
                        expected="perf script output, which ends with a line break")
    lines = split_lines(data, source)
    if not lines.headers:
        raise ReadError(source, "no sample header was found", position="line 1",
                        expected="perf script output: " + "sample headers and frames")
    return _build(lines, source, per_thread)


def _build(lines, source: Any, per_thread: bool) -> RawProfile:
    h = list(zip(*lines.headers))  # comm, pid, tid, cpu, time, period, event, rest
    n_samples = len(lines.headers)
    comm = list(h[0])
    tid = np.array([t or p for p, t in zip(h[1], h[2])], dtype=object).astype(INT)
    events, event_of = np.unique(np.array(h[6], dtype=object), return_inverse=True)
    first_seen = np.argsort(np.unique(event_of, return_index=True)[1], kind="stable")
    event_names = [str(e) for e in events[first_seen]]  # in order of first appearance
    rank = np.empty(len(events), dtype=INT)
    rank[first_seen] = np.arange(len(events), dtype=INT)
    event_of = rank[event_of.ravel()]
    has_period = any(h[5])
    period = np.array([int(p) if p else 0 for p in h[5]], dtype=INT)

    # frames: from the frame lines, and the one frame of headers without a call chain
    sample = lines.frame_sample
    frames = lines.frames
    counted = np.bincount(sample, minlength=n_samples)
    lone = [(k, header_frame(r)) for k, r in enumerate(h[7]) if r and not counted[k]]
    lone = [(k, f) for k, f in lone if f is not None]
    if lone:
        sample = np.concatenate([sample, np.array([k for k, _ in lone], dtype=INT)])
        frames = list(frames) + [f for _, f in lone]
        order = np.argsort(sample, kind="stable")
        sample = sample[order]
        frames = [frames[k] for k in order.tolist()]
    addresses = [f[0] for f in frames]
    names = symbol_names([f[1] for f in frames], addresses)
    dsos = [f[2] for f in frames]
    name_code, name_values = pd.factorize(np.array(names, dtype=object), sort=False)
    dso_code, dso_values = pd.factorize(np.array(dsos, dtype=object), sort=False)
    pair = name_code.astype(INT) * max(len(dso_values), 1) + dso_code
    fkey, pair_values = pd.factorize(pair, sort=False)  # functions: (name, dso)
    func_name = np.asarray(name_values, dtype=object)[pair_values // max(len(dso_values), 1)]
    func_dso = np.asarray(dso_values, dtype=object)[pair_values % max(len(dso_values), 1)]
    ckey, comms = pd.factorize(np.array(comm, dtype=object), sort=False)
    parent, node_func, node_is_root, depth, leaf = _tree(
        sample, np.asarray(fkey, dtype=INT), np.asarray(ckey, dtype=INT), n_samples)
    n = len(parent)
    comms = np.asarray(comms, dtype=object)
    name = np.where(node_is_root, comms[np.where(node_is_root, node_func, 0)],
                    func_name[np.where(node_is_root, 0, node_func)] if len(func_name)
                    else None).astype(object)
    dso = np.where(node_is_root, None, func_dso[np.where(node_is_root, 0, node_func)]
                   if len(func_dso) else None).astype(object)
    base = {d: os.path.basename(d) for d in set(dso.tolist()) if d is not None}
    module = np.array([base.get(d) for d in dso.tolist()], dtype=object)

    threads = np.unique(tid) if per_thread else np.zeros(1, dtype=INT)
    t_of = np.searchsorted(threads, tid) if per_thread else np.zeros(n_samples, dtype=INT)
    nt, ne = len(threads), len(event_names)
    row = leaf * nt + t_of
    samples = np.zeros((n * nt, ne), dtype=INT)
    np.add.at(samples, (row, event_of), 1)
    periods = np.zeros((n * nt, ne), dtype=INT)
    np.add.at(periods, (row, event_of), period)
    inc_samples = _inclusive(samples, parent, depth, nt)
    inc_periods = _inclusive(periods, parent, depth, nt)

    b = ProfileBuilder(source, index_levels=("thread",) if per_thread else ())
    kind = np.where(node_is_root, "process", "function").astype(object)
    ids = b.add_nodes(parent, {"type": kind, "name": name, "module": module},
                      columns={"name": name})
    cols: Dict[str, Any] = {"name": np.repeat(name, nt), "module": np.repeat(module, nt),
                            "dso": np.repeat(dso, nt)}
    exc: List[str] = []
    inc: List[str] = []
    for j, e in enumerate(event_names):
        cols[f"{e} (inc)"] = inc_samples[:, j]
        cols[e] = samples[:, j]
        exc.append(e)
        inc.append(f"{e} (inc)")
        if has_period:
            cols[f"{e} period (inc)"] = inc_periods[:, j]
            cols[f"{e} period"] = periods[:, j]
            exc.append(f"{e} period")
            inc.append(f"{e} period (inc)")
    levels = {"thread": np.tile(threads, n)} if per_thread else {}
    b.add_rows(np.repeat(ids, nt), cols, **levels)
    times = [float(t) for t in h[4] if t]
    meta: Dict[str, Any] = {
        "format": "perf-script", "events": event_names, "samples": n_samples,
        "samples_per_event": dict(zip(event_names, np.bincount(event_of, minlength=ne)
                                      .tolist())),
        "commands": [str(c) for c in comms], "threads": sorted(set(tid.tolist())),
        "samples_without_frames": int((np.bincount(sample, minlength=n_samples) == 0).sum())}
    if times:
        meta["first_time"], meta["last_time"] = min(times), max(times)
    return b.build(exc_metrics=exc, inc_metrics=inc, inclusive_of=dict(zip(exc, inc)),
                   default_metric=exc[0], metadata=meta,
                   columns=["name", "module", "dso"] + [c for pair in zip(inc, exc)
                                                         for c in pair])


def _tree(sample: np.ndarray, func: np.ndarray, comm: np.ndarray, n_samples: int):
    """Nodes of the calling-context tree: parent, function (or command for a root),
    root flag, depth; and the leaf node of every sample. One numpy step per depth:
    the key of a node is (parent node, function); nodes are numbered depth by depth."""
    length = np.bincount(sample, minlength=n_samples).astype(INT)
    first = np.cumsum(length) - length
    position = np.arange(len(sample), dtype=INT) - first[sample]  # 0 = innermost
    depth = length[sample] - position                            # 1 = outermost
    # roots: one per command
    roots, root_first = np.unique(comm, return_index=True)
    order = np.argsort(root_first, kind="stable")
    root_node = np.empty(len(roots), dtype=INT)
    root_node[order] = np.arange(len(roots), dtype=INT)
    cur = root_node[np.searchsorted(roots, comm)]
    parent: List[np.ndarray] = [np.full(len(roots), -1, dtype=INT)]
    node_func: List[np.ndarray] = [roots[order]]
    is_root: List[np.ndarray] = [np.ones(len(roots), dtype=bool)]
    node_depth: List[np.ndarray] = [np.zeros(len(roots), dtype=INT)]
    count = len(roots)
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[by_depth], np.arange(1, int(depth.max(initial=0)) + 2))
    nf = int(func.max(initial=0)) + 1
    for d in range(len(bounds) - 1):
        rows = by_depth[bounds[d]:bounds[d + 1]]   # the frames at depth d + 1, by sample
        s = sample[rows]
        key = cur[s] * nf + func[rows]
        uniq, first_at, inverse = np.unique(key, return_index=True, return_inverse=True)
        rank = np.empty(len(uniq), dtype=INT)
        rank[np.argsort(first_at, kind="stable")] = np.arange(len(uniq), dtype=INT)
        new_ids = count + rank
        by_rank = np.argsort(rank, kind="stable")
        parent.append(uniq[by_rank] // nf)
        node_func.append(uniq[by_rank] % nf)
        is_root.append(np.zeros(len(uniq), dtype=bool))
        node_depth.append(np.full(len(uniq), d + 1, dtype=INT))
        cur[s] = new_ids[inverse.ravel()]
        count += len(uniq)
    return (np.concatenate(parent), np.concatenate(node_func), np.concatenate(is_root),
            np.concatenate(node_depth), cur)


def _inclusive(values: np.ndarray, parent: np.ndarray, depth: np.ndarray, nt: int
               ) -> np.ndarray:
    """Subtree sums of per-(node, thread) rows: from the deepest level up, each
    level added into its parents (one vectorised step per depth)."""
    n = len(parent)
    inc = values.reshape(n, nt, -1).copy()
    order = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2))
    for d in range(int(depth.max(initial=0)), 0, -1):
        nodes = order[bounds[d]:bounds[d + 1]]
        np.add.at(inc, parent[nodes], inc[nodes])
    return inc.reshape(n * nt, -1)


_HEAD = re.compile(rb"\A(?:#[^\n]*\n|[ \t]*\n)*[ \t]*\S[^\n]*?[ \t]\d+(?:/\d+)?(?:[ \t]+\[\d+\])?"
                   rb"(?:[ \t]+\d+\.\d+:)?(?:[ \t]+\d+)?[ \t]+\S+:(?:[ \t][^\n]*)?\n"
                   rb"(?:\t[ \t]*[0-9a-fA-F]+[ \t]|\n|[ \t]*\S)")


def sniff_perf_script(path: Path, head: bytes) -> bool:
    """True for ``perf script`` output: a sample header (``comm pid time: period
    event:``), then a tab-indented frame, an empty line or the next sample.

    Examples
    --------
    >>> sniff_perf_script(Path("perf.txt"), b"prog 23036  2600.255198:    1001001  cpu-clock: \\n"
    ...                   b"\\t            1192 leaf+0x29 (/tmp/perfw/prog)\\n")
    True
    >>> sniff_perf_script(Path("x"), b"Flat profile:\\n\\nEach sample counts as 0.01 seconds.\\n")
    False
    """
    return bool(_HEAD.match(head))


FORMAT = FormatInfo(
    name="perf-script",
    read=read_perf_script,
    sniff=sniff_perf_script,
    description="Linux perf samples as text (perf script; call chains with perf record -g)",
)
