"""HpctoolkitTraceDecoder: HPCToolkit ``trace.db`` with ``meta.db`` (call paths) and
``profile.db`` (which rank/thread each trace line is).

A database folder (or its ``trace.db``) is the trace; one byte source per
rank, so ``jobs=`` reads ranks in parallel. Each trace line becomes the
ENTER/LEAVE events of its frames (:mod:`.frames`): option ``frames``
``"functions"`` (default: function contexts, the way a calling-context
tree of functions reads) or ``"all"`` (every context: entry points,
functions, loops, lines, instructions, named as the HPCToolkit profile
reader names them). Samples are ns since the epoch; the last sample of a
line lasts until the end of the trace (the trace headers' largest
timestamp). Rank and thread come from each profile's identifier tuple
(``RANK`` and ``THREAD``; 0 when absent).

Examples
--------
>>> import graphframe_readers.traces as rt
>>> "hpctoolkit-trace" in rt.trace_formats()
True
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

import numpy as np

from ...errors import ReadError
from ..decoder import Decoder
from ..definitions import Definitions
from ..events import EventBatch, StringTable
from ..handler import EventHandler
from ..sources import ByteSource, FileSource

if TYPE_CHECKING:
    from .tracedb import TraceDb

# The meta.db, profile.db and trace.db decoders (and their dataclass-free records) are
# imported by the functions that decode: recognising another trace format, which asks
# this decoder's sniff on the way, does not pay for importing them (~5 ms).

MAGIC = b"HPCTOOLKITtrce"


def database(path: Any) -> Path:
    """The database folder of ``path`` (the folder or its ``trace.db``).

    >>> database("/no/such/db/trace.db").as_posix()
    '/no/such/db'
    """
    p = Path(os.fspath(path))
    return p if p.is_dir() else p.parent


def trace_file(path: Any) -> Path:
    """The ``trace.db`` of ``path``: the database folder's, or the file given, which must
    then be a ``trace.db`` (never another file of its folder)."""
    p = Path(os.fspath(path))
    if p.is_dir():
        return p / "trace.db"
    try:
        with open(p, "rb") as fh:
            head = fh.read(len(MAGIC))
    except OSError as exc:
        raise ReadError(p, f"cannot open the file: {exc.strerror}") from exc
    if head != MAGIC:
        raise ReadError(p, "not an HPCToolkit trace.db", position="byte 0",
                        expected=f"the magic {MAGIC.decode()!r} (or the database folder)")
    return p


class HpctoolkitTraceDecoder(Decoder):
    """HPCToolkit ``trace.db`` (+ ``meta.db``, ``profile.db``); option ``frames``."""

    format_name = "hpctoolkit-trace"
    description = "HPCToolkit trace.db (database folder with meta.db and profile.db)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if path.is_dir():
            return (path / "trace.db").is_file() and (path / "meta.db").is_file()
        return head.startswith(MAGIC)

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        if isinstance(path, ByteSource) or isinstance(path, (list, tuple)):
            return super().sources(path)
        from .tracedb import read_trace_db

        file = trace_file(path)
        trace = read_trace_db(file)
        ids = _identities(file.parent)
        ranks = sorted({ids.get(line.profile, (0, 0))[0] for line in trace.lines})
        return [FileSource(file, rank=r) for r in ranks]

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        from .frames import sample_events
        from .tracedb import read_trace_db

        file = trace_file(source.name)
        folder = file.parent
        trace = read_trace_db(file)
        ids = _identities(folder)
        mode = self.options.get("frames", "functions")
        if mode not in ("functions", "all"):
            raise ValueError(f"frames={mode!r}: expected 'functions' or 'all'")
        tree, is_frame, paths, plen, lookup = _frames(folder / "meta.db", mode)
        strings = StringTable()
        name_ids = strings.intern_many(tree["name"].tolist())
        handler.on_definitions(_definitions(tree, is_frame, ids, trace))
        for line in trace.lines:
            rank, thread = ids.get(line.profile, (0, 0))
            if source.rank is not None and rank != source.rank:
                continue
            samples = trace.samples(line)
            nodes = _positions(samples["ctx"], lookup, trace, line)
            kind, time, node = sample_events(samples["time"].astype(np.int64), nodes, paths,
                                             plen, trace.time_end)
            if len(kind):
                handler.on_batch(EventBatch.build(strings, kind=kind, time=time, rank=rank,
                                                  thread=thread, name=name_ids[node],
                                                  source=source.name))


def _identities(folder: Path) -> Dict[int, Tuple[int, int]]:
    """profile index -> (rank, thread) from ``profile.db`` and ``meta.db``'s id kinds."""
    key = _stamp(folder / "meta.db") + _stamp(folder / "profile.db")
    if key not in _CACHE:
        kinds = _meta(folder / "meta.db", False).id_kinds  # the decode's meta.db: the
        # identifier kinds do not depend on how context nodes are labelled
        out = {}
        from .hpctoolkit import ProfileDb, identity_table

        for row in identity_table(ProfileDb(folder / "profile.db"), kinds):
            out[row["profile"]] = (row.get("rank", 0), row.get("thread", 0))
        _remember(key, out)
    return dict(_CACHE[key])


#: (file, inode, mtime, size)... -> what was decoded from it, for the last few databases
#: (a trace of n ranks decodes meta.db once, not 2n + 1 times)
_CACHE: "OrderedDict[tuple, Any]" = OrderedDict()


def _stamp(path: Path) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return (str(path), None)  # the reader raises its own error
    return (str(path), st.st_ino, st.st_mtime_ns, st.st_size)


def _remember(key: tuple, value: Any) -> None:
    _CACHE[key] = value
    while len(_CACHE) > 8:
        _CACHE.popitem(last=False)


def _meta(path: Path, label_function_nodes: bool) -> Any:
    """``read_meta_db(path, label_function_nodes=...)``, decoded once per process while the
    file is unchanged (callers do not modify it)."""
    from .hpctoolkit import read_meta_db

    key = _stamp(path) + (label_function_nodes,)
    if key[1] is None:
        return read_meta_db(path, label_function_nodes=label_function_nodes)
    if key not in _CACHE:
        _remember(key, read_meta_db(path, label_function_nodes=label_function_nodes))
    return _CACHE[key]


def _frames(meta_path: Path, mode: str) -> Tuple[Dict[str, np.ndarray], np.ndarray,
                                                  np.ndarray, np.ndarray, np.ndarray]:
    """The context tree's arrays, which contexts are frames, their frame paths and the
    context-id lookup, computed once per database and ``frames`` mode (every rank's
    decode uses them; callers do not modify them)."""
    key = ("frames",) + _stamp(meta_path) + (mode,)
    if key[2] is not None and key in _CACHE:
        return _CACHE[key]
    from .frames import frame_paths
    from .hpctoolkit import tree_arrays

    tree = tree_arrays(_meta(meta_path, False).tree)
    is_frame = tree["kind"] == "function" if mode == "functions" \
        else np.ones(len(tree["kind"]), dtype=bool)
    paths, plen = frame_paths(tree["parent"], tree["depth"], is_frame)
    out = (tree, is_frame, paths, plen, _ctx_lookup(tree["ctx_id"]))
    if key[2] is not None:
        _remember(key, out)
    return out


def _ctx_lookup(ctx_id: np.ndarray) -> np.ndarray:
    lookup = np.full(int(ctx_id.max()) + 2 if len(ctx_id) else 1, -1, dtype=np.int64)
    lookup[ctx_id] = np.arange(len(ctx_id))
    return lookup


def _positions(ctx: np.ndarray, lookup: np.ndarray, trace: TraceDb, line: Any) -> np.ndarray:
    ctx = ctx.astype(np.int64)
    inside = ctx < len(lookup) - 1
    pos = np.where(inside, lookup[np.where(inside, ctx, -1)], -1)
    bad = np.nonzero((pos < 0) & (ctx != 0))[0]  # context 0 is the root: no frames
    if len(bad):
        from .tracedb import SAMPLE

        k = int(bad[0])
        raise trace.db.error(line.start + SAMPLE.itemsize * k + 8,
                             f"sample {k} of profile {line.profile} names context {int(ctx[k])}, "
                             "which meta.db does not define", "a context id of meta.db")
    return pos


def _definitions(tree: Dict[str, np.ndarray], is_frame: np.ndarray,
                 ids: Dict[int, Tuple[int, int]], trace: TraceDb) -> Definitions:
    defs = Definitions(metadata={"format": "hpctoolkit-trace", "start_time": trace.time_begin,
                                 "end_time": trace.time_end})
    for k in np.nonzero(is_frame)[0].tolist():
        defs.regions.setdefault(tree["name"][k], {
            "file": tree["file"][k] or "", "line": int(tree["line"][k]),
            "module": tree["module"][k] or "", "kind": tree["kind"][k]})
    for rank, thread in sorted(set(ids.values())):
        defs.ranks.setdefault(rank, {"name": f"rank {rank}"})
        defs.threads[(rank, thread)] = {"name": f"thread {thread}"}
    return defs


DECODER = HpctoolkitTraceDecoder
