"""speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json).

The profile is written as a *sampled* profile: one sample per node with a
value, whose stack is the node's call path (frame indices, root first) and
whose weight is the node's value. With an exclusive metric this reproduces
the call tree exactly in every speedscope view. As for folded stacks, a node
with several parents appears once, under the path it was first discovered by.
Frames are shared: one entry per distinct (name, file, line).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..model.frame import is_missing
from .._version import __version__
from ..model.dataframe import level_ids
from ..model.nodevalues import check_metric, display_names, node_values

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
UNITS = ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes")


def render_speedscope(gf: GraphFrameLike, metric: Optional[str] = None, name: str = "name",
                      rank: Optional[int] = None, thread: Optional[int] = None, aggregate: Optional[str] = None,
                      all_ranks: bool = False, unit: str = "none",
                      title: Optional[str] = None) -> str:
    """speedscope JSON text of ``gf``.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Sample weights (default ``gf.default_metric``; use an exclusive metric).
    name : str
        Column used as frame names.
    rank, thread : int, optional
        Row used per node when neither ``aggregate`` nor ``all_ranks`` is set.
        Default: the lowest the data has (a file of rank 1 alone shows rank 1).
    aggregate : {"sum", "mean", "min", "max"}, optional
        One profile combining all ranks/threads of each node.
    all_ranks : bool
        One profile per (rank, thread) instead (speedscope lets you switch).
    unit : str
        One of speedscope's units (``"none"``, ``"seconds"``, ...).
    title : str, optional
        Name shown by speedscope (default: the metadata's ``source``).

    Examples
    --------
    >>> import json
    >>> from graphframe import GraphFrame
    >>> doc = json.loads(render_speedscope(GraphFrame.from_lists(("main", "solve"))))
    >>> doc["shared"]["frames"]
    [{'name': 'main'}, {'name': 'solve'}]
    >>> p = doc["profiles"][0]
    >>> p["samples"], p["weights"], p["endValue"]
    ([[0], [0, 1]], [1.0, 1.0], 2.0)
    """
    metric = check_metric(gf, metric)
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; choose one of {', '.join(UNITS)}")
    frames, frame_of = _frames(gf, name)
    stacks = _stacks(gf.graph.parent, frame_of)
    profiles = []
    if all_ranks:
        for label, r, t in _rank_thread_pairs(gf):
            values = node_values(gf, metric, rank=r, thread=t)
            profiles.append(_profile(label, values, stacks, unit))
    else:
        values = node_values(gf, metric, rank=rank, thread=thread, aggregate=aggregate)
        label = f"{metric} ({aggregate} over ranks)" if aggregate else str(metric)
        profiles.append(_profile(label, values, stacks, unit))
    doc = {
        "$schema": SCHEMA,
        "shared": {"frames": frames},
        "profiles": profiles,
        "name": title if title is not None else str(gf.metadata.get("source", "graphframe")),
        "activeProfileIndex": 0,
        "exporter": f"graphframe {__version__}",
    }
    return json.dumps(doc)


def _frames(gf: GraphFrameLike, name: str) -> Tuple[List[Dict[str, Any]], List[int]]:
    names = display_names(gf, name)
    attrs = gf.graph.attrs
    files = attrs["file"].tolist() if "file" in attrs.columns else [None] * len(names)
    lines = attrs["line"].tolist() if "line" in attrs.columns else [None] * len(names)
    index: Dict[Tuple[Any, Any, Any], int] = {}
    frames: List[Dict[str, Any]] = []
    frame_of: List[int] = []
    for label, file, line in zip(names, files, lines):
        file = None if is_missing(file) else str(file)
        line = _line_number(line)
        key = (label, file, line)
        if key not in index:
            index[key] = len(frames)
            entry: Dict[str, Any] = {"name": label}
            if file is not None:
                entry["file"] = file
            if line is not None:
                entry["line"] = line
            frames.append(entry)
        frame_of.append(index[key])
    return frames, frame_of


def _stacks(parent: np.ndarray, frame_of: List[int]) -> List[List[int]]:
    stacks: List[List[int]] = [[]] * len(frame_of)
    for v, (p, f) in enumerate(zip(parent.tolist(), frame_of)):
        stacks[v] = [f] if p < 0 else stacks[p] + [f]
    return stacks


def _profile(label: str, values: np.ndarray, stacks: List[List[int]], unit: str) -> Dict[str, Any]:
    keep = np.isfinite(values) & (values != 0)
    picked = np.flatnonzero(keep).tolist()
    weights = values[keep].tolist()
    return {"type": "sampled", "name": label, "unit": unit, "startValue": 0,
            "endValue": float(sum(weights)), "samples": [stacks[v] for v in picked],
            "weights": weights}
from ..model.fields import GraphFrameLike


def _rank_thread_pairs(gf: GraphFrameLike) -> List[Tuple[str, int, int]]:
    index = gf.dataframe.index
    names = list(index.names)
    ranks = np.unique(level_ids(index, "rank")).tolist() if "rank" in names else [0]
    threads = np.unique(level_ids(index, "thread")).tolist() if "thread" in names else [0]
    out = []
    for r in ranks:
        for t in threads:
            parts = (["rank %d" % r] if "rank" in names else []) + (
                ["thread %d" % t] if "thread" in names else [])
            out.append((" ".join(parts) or "profile", r, t))
    return out


def _line_number(value: Any) -> Optional[int]:
    if is_missing(value):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number.is_integer() else None


