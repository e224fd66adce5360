"""Layer 4: the call tree of a Mono log as a profile (``graphframe.read("app.mlpd")``).

From enter/leave events (the ``calls`` option): one node per method call
path, shared by the threads, with per (node, thread) ``calls``, ``time
(inc)`` and ``time`` (seconds; self time as mprof-report computes it, the
inclusive time minus the inclusive time of the calls made), and when the log
has allocations, ``allocs`` and ``alloc bytes``: the allocations made while
that call path was the innermost open frame (exclusive values). From a sampling
log (no enter/leave events): one node per frame path of the samples'
backtraces (outermost first), ending with the sampled instruction's
function when the backtrace does not already end there - a managed method,
an unmanaged symbol, a binary, or ``(unresolved)`` - with ``samples (inc)``
and ``samples`` per (node, thread); frames are named as mprof-report names
them. Events are never kept: memory grows with the tree, not the log.

Examples
--------
>>> import os, tempfile
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> w = MlpdWriter()
>>> w.buffer(thread=1, events=[w.jit(0, 0x10, 0x9000, 8, "A:Main ()"),
...     w.jit(0, 0x20, 0x9100, 8, "A:Work ()"), w.enter(10, 0x10), w.enter(20, 0x20),
...     w.leave(50, 0x20), w.enter(60, 0x20), w.leave(70, 0x20), w.leave(100, 0x10)])
>>> p = w.write(os.path.join(tempfile.mkdtemp(), "app.mlpd"))
>>> raw = read_mono_tree(p)
>>> raw.nodes["name"].tolist(), raw.metrics["calls"].tolist()
(['A:Main ()', 'A:Work ()'], [1, 2])
>>> [round(t * 1e9) for t in raw.metrics["time (inc)"]], [round(t * 1e9) for t in raw.metrics["time"]]
([90, 40], [50, 40])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ...errors import ArgumentError, ReadError
from ...profile import RawProfile
from ...registry import FormatInfo
from ..sources import FileSource
from .handler import run
from .model import ModelBuilder, MonoModel, pointer
from .sniff import sniff_mlpd
from .summary import ip_names


def read_mono_tree(path: Any, kind: Optional[str] = None) -> RawProfile:
    """The call tree (or sample tree) of a Mono log file as a RawProfile.

    Parameters
    ----------
    path : str or path-like
        An ``.mlpd`` file (gzip-compressed or not).
    kind : {"calls", "samples"}, optional
        Which tree; by default the call tree when the log has method
        enter/leave events, else the sample tree.
    """
    model = run(FileSource(path), ModelBuilder(traces=False, tree=True))
    return tree_profile(model, kind)


def tree_profile(model: MonoModel, kind: Optional[str] = None) -> RawProfile:
    """The tree of a model built by ``ModelBuilder(tree=True)`` (see the module docs)."""
    if kind not in (None, "calls", "samples"):
        raise ArgumentError(f"kind must be 'calls' or 'samples', not {kind!r}")
    has_calls = bool(model.tree_calls)
    has_samples = bool(model.sample_traces)
    if kind is None:
        kind = "calls" if has_calls or not has_samples else "samples"
    if kind == "calls" and not has_calls:
        raise ReadError(model.source or "<mlpd>", "the log has no method enter/leave events",
                        expected="a log recorded with the 'calls' option (or kind='samples')")
    if kind == "samples" and not has_samples:
        raise ReadError(model.source or "<mlpd>", "the log has no statistical samples",
                        expected="a log recorded with the 'sample' option (or kind='calls')")
    return _calls_profile(model) if kind == "calls" else _samples_profile(model)


def _metadata(model: MonoModel, tree: str) -> Dict[str, Any]:
    meta: Dict[str, Any] = {"source": "mono-mlpd", "tree": tree}
    if model.header is not None:
        meta.update({"data_version": model.header.data_version,
                     "arguments": model.header.args, "pid": model.header.pid})
    meta["threads"] = {pointer(t): name for t, name in model.threads.items()}
    return meta


def _calls_profile(model: MonoModel) -> RawProfile:
    parent = np.asarray(model.tree_parent, dtype=np.int64)
    names = np.array([model.method_name(m) for m in model.tree_method], dtype=object)
    keys = sorted(model.tree_calls)
    node = np.array([k[0] for k in keys], dtype=np.int64)
    thread = np.array([k[1] for k in keys], dtype=np.int64)
    vals = np.array([model.tree_calls[k] for k in keys], dtype=np.int64).reshape(-1, 5)
    nodes = {"node": np.arange(len(parent)), "parent": parent, "name": names}
    metrics = {"node": node, "thread": thread, "calls": vals[:, 0],
               "time (inc)": vals[:, 1] / 1e9, "time": vals[:, 2] / 1e9}
    exc, columns = ["time", "calls"], ["name", "time (inc)", "time", "calls"]
    if vals[:, 3].any():     # allocations, by the call path open when they happened
        metrics["allocs"] = vals[:, 3]
        metrics["alloc bytes"] = vals[:, 4]
        exc += ["allocs", "alloc bytes"]
        columns += ["allocs", "alloc bytes"]
    return RawProfile(nodes=nodes, metrics=metrics, index_levels=("thread",),
                      exc_metrics=tuple(exc), inc_metrics=("time (inc)",),
                      inclusive_of={"time": "time (inc)"}, default_metric="time",
                      metadata={**_metadata(model, "calls"), "time_unit": "s"},
                      columns=tuple(columns))


def _samples_profile(model: MonoModel) -> RawProfile:
    stacks = list(model.sample_traces.items())
    leaf_ips = sorted({ips[0] for (_, ips, _), _ in stacks if ips})
    resolved = dict(zip(leaf_ips, ip_names(model, np.array(leaf_ips, dtype=np.int64))))
    ids: Dict[Tuple[int, str], int] = {}
    parent: List[int] = []
    names: List[str] = []
    inc: Dict[Tuple[int, int], int] = {}
    exc: Dict[Tuple[int, int], int] = {}
    for (thread, ips, bt), count in stacks:
        frames = [model.method_name(m) for m in reversed(bt)]
        if ips:
            kind, name, method = resolved[ips[0]]
            if not (kind == "managed" and bt and bt[0] == method):
                frames.append(name)
        if not frames:
            frames = ["(unresolved)"]
        at = -1
        for name in frames:
            key = (at, name)
            node = ids.get(key)
            if node is None:
                node = ids[key] = len(parent)
                parent.append(at)
                names.append(name)
            inc[node, thread] = inc.get((node, thread), 0) + count
            at = node
        exc[at, thread] = exc.get((at, thread), 0) + count
    keys = sorted(inc)
    nodes = {"node": np.arange(len(parent)), "parent": np.asarray(parent, dtype=np.int64),
             "name": np.asarray(names, dtype=object)}
    metrics = {"node": np.array([k[0] for k in keys], dtype=np.int64),
               "thread": np.array([k[1] for k in keys], dtype=np.int64),
               "samples (inc)": np.array([inc[k] for k in keys], dtype=np.int64),
               "samples": np.array([exc.get(k, 0) for k in keys], dtype=np.int64)}
    return RawProfile(nodes=nodes, metrics=metrics, index_levels=("thread",),
                      exc_metrics=("samples",), inc_metrics=("samples (inc)",),
                      inclusive_of={"samples": "samples (inc)"}, default_metric="samples",
                      metadata=_metadata(model, "samples"),
                      columns=("name", "samples (inc)", "samples"))


def _sniff(path: Path, head: bytes) -> bool:
    return sniff_mlpd(path, head)


FORMAT = FormatInfo(
    name="mono-mlpd",
    read=read_mono_tree,
    sniff=_sniff,
    description="Mono log profiler .mlpd (call tree from enter/leave events, or sample tree)",
)
