"""speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json).

The profile is written as a *sampled* profile: one sample per node with a
value, whose stack is the node's call path (frame indices, root first) and
whose weight is the node's self value: an inclusive metric is replaced by
its exclusive partner or by exclusive values derived from it, with an
:class:`~graphframe.render.weights.ExportNote` (see
:mod:`graphframe.render.weights`), so the profile reproduces the call tree
exactly in every speedscope view and ``endValue`` is the run's total. As for
folded stacks, a node with several parents appears once, under the path it
was first discovered by. Frames are shared: one entry per distinct (name,
file, line); ``file`` and ``line`` come from the frame or, when the frame
has none, from the node's ``file``/``line`` dataframe columns (HPCToolkit,
Caliper sampling, cProfile, pyinstrument, TAU). The unit is the metric's
(:func:`graphframe.render.units.metric_unit`) unless one is given.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .._version import __version__
from ..model.dataframe import level_ids
from ..model.fields import GraphFrameLike
from ..model.frame import is_missing
from ..model.nodevalues import display_names, first_row_objects
from .units import UNITS, unit_of
from .weights import self_weights

SCHEMA = "https://www.speedscope.app/file-format-schema.json"


def render_speedscope(gf: GraphFrameLike, metric: Optional[str] = None, name: str = "name",
                      rank: Optional[int] = None, thread: Optional[int] = None, aggregate: Optional[str] = None,
                      all_ranks: bool = False, unit: Optional[str] = None,
                      title: Optional[str] = None) -> str:
    """speedscope JSON text of ``gf``.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Sample weights (default ``gf.default_metric``); an inclusive metric
        is replaced by its exclusive values (see the module docs).
    name : str
        Column used as frame names.
    rank, thread : int, optional
        Row used per node when neither ``aggregate`` nor ``all_ranks`` is set.
        Default: the lowest the data has (a file of rank 1 alone shows rank 1).
    aggregate : {"sum", "mean", "min", "max"}, optional
        One profile combining all ranks/threads of each node.
    all_ranks : bool
        One profile per (rank, thread) instead (speedscope lets you switch).
    unit : str, optional
        One of speedscope's units (``"none"``, ``"seconds"``, ...); default:
        the metric's unit as its name and source format tell it.
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
    if unit is not None and unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; choose one of {', '.join(UNITS)}")
    weights = self_weights(gf, metric, what="speedscope")
    if unit is None:
        unit = unit_of(gf, weights.metric)
    frames, frame_of = _frames(gf, name)
    stacks = _stacks(gf.graph.parent, frame_of)
    profiles = []
    if all_ranks:
        for label, r, t in _rank_thread_pairs(gf):
            profiles.append(_profile(label, weights.values(r, t), stacks, unit))
    else:
        values = weights.values(rank, thread, aggregate)
        label = f"{weights.label} ({aggregate} over ranks)" if aggregate else weights.label
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
    files = _frame_or_column(gf, "file")
    lines = _frame_or_column(gf, "line")
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


def _frame_or_column(gf: GraphFrameLike, key: str) -> List[Any]:
    """Per node: the frame's ``key``, else the ``key`` column of the node's first row."""
    n = gf.graph.num_nodes
    attrs = gf.graph.attrs
    values = attrs[key].to_numpy(dtype=object) if key in attrs.columns else np.full(n, None)
    if key in gf.dataframe.columns:
        missing = np.array([is_missing(v) for v in values.tolist()], dtype=bool)
        if missing.any():
            column, has = first_row_objects(gf, key)
            take = missing & has
            values[take] = column[take]
    return values.tolist()


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
    # speedscope lines count from 1; HPCToolkit writes 0 for "no line"
    return int(number) if number.is_integer() and number >= 1 else None


