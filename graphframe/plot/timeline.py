"""Timeline of a trace: one lane per rank (and thread), calls as boxes over time.

A call (an ``enter`` row of :class:`graphframe.traces.TraceFrame`'s events)
is a box from its start to its end; within a lane, depth 0 is at the top and
each nesting level is one sub-row below it. Colour is the function: the
``colors`` functions with the largest total exclusive time get their own
colour (``tab20``), every other function is grey ("other"). All boxes are
one ``PolyCollection`` built with numpy, so long traces cost one artist.

:func:`timeline_data` computes the boxes without matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

import numpy as np
import pandas as pd

from . import _mpl
from ._sources import ArgumentError

#: Colour of functions outside the top ``colors``.
OTHER_COLOR = "#bbbbbb"
#: Share of a lane's height the boxes fill (the rest separates lanes).
LANE_FILL = 0.85


@dataclass(frozen=True)
class Timeline:
    """Boxes of a timeline, one per call.

    Attributes
    ----------
    start, width : numpy.ndarray
        Seconds since the trace's first event, and duration in seconds.
    lane, depth : numpy.ndarray
        Lane index (into ``lanes``) and nesting depth of each call.
    name : numpy.ndarray
        Function of each call (object array of str).
    color_index : numpy.ndarray
        Index into ``colored`` of each call's function, -1 for "other".
    lanes : list of tuple
        ``(rank, thread)`` of each lane, in order.
    colored : list of str
        Functions with their own colour, largest total exclusive time first.
    levels : int
        Depth levels drawn (sub-rows per lane).
    labels : list of str
        Label of each lane: ``rank R: <thread name>`` when the trace's definitions name
        the thread (Nsight's ``cuda-cloverleaf``, ``GPU 0 / stream 7``), else
        ``rank R`` or ``rank R.T``.
    """

    start: np.ndarray
    width: np.ndarray
    lane: np.ndarray
    depth: np.ndarray
    name: np.ndarray
    color_index: np.ndarray
    lanes: List[tuple]
    colored: List[str]
    levels: int
    labels: List[str] = field(default_factory=list)


def timeline_data(trace: Any, *, ranks: Optional[Sequence[int]] = None,
                  max_depth: Optional[int] = None, colors: int = 12) -> Timeline:
    """The boxes of :func:`timeline` (see the module docs).

    Parameters
    ----------
    trace : TraceFrame
    ranks : sequence of int, optional
        Lanes of these ranks only (default all).
    max_depth : int, optional
        Calls nested deeper than this are left out (default: all).
    colors : int
        Functions with their own colour.

    Examples
    --------
    >>> from graphframe_readers.traces import EventBatch, Kind, StringTable
    >>> from graphframe_readers.traces.table import TableBuilder
    >>> from graphframe.traces import TraceFrame
    >>> t = StringTable(["main", "MPI_Send"])
    >>> E, L = Kind.ENTER, Kind.LEAVE
    >>> h = TableBuilder()
    >>> h.on_batch(EventBatch.build(t, kind=[E, E, L, L], time=[0, 2_000, 5_000, 9_000],
    ...            rank=0, name=[0, 1, 1, 0]))
    >>> h.on_end()
    >>> d = timeline_data(TraceFrame(h.result(), h.definitions))
    >>> d.name.tolist(), (d.start * 1e6).round(3).tolist(), (d.width * 1e6).round(3).tolist()
    (['main', 'MPI_Send'], [0.0, 2.0], [9.0, 3.0])
    >>> d.depth.tolist(), d.lanes, d.colored
    ([0, 1], [(0, 0)], ['main', 'MPI_Send'])
    """
    events = getattr(trace, "events", None)
    if not isinstance(events, pd.DataFrame) or "kind" not in events.columns:
        raise ArgumentError(f"trace={type(trace).__name__}: give a graphframe TraceFrame "
                            "(graphframe.read_trace)")
    if isinstance(colors, bool) or not isinstance(colors, (int, np.integer)) or colors < 0:
        raise ArgumentError(f"colors={colors!r}: give a whole number >= 0")
    calls = events[np.asarray(events["kind"] == "enter")]
    if ranks is not None:
        wanted = [int(r) for r in ranks]
        have = set(events["rank"].unique().tolist())
        missing = [r for r in wanted if r not in have]
        if missing:
            raise ArgumentError(f"ranks {missing} are not in this trace; its ranks are "
                                f"{', '.join(map(str, sorted(have)))}")
        calls = calls[calls["rank"].isin(wanted).to_numpy()]
    if max_depth is not None:
        calls = calls[calls["depth"].to_numpy() <= int(max_depth)]
    if not len(calls):
        raise ArgumentError("nothing to draw: the trace (selection) has no calls")
    t0 = int(events["time"].min())
    start = (calls["time"].to_numpy(dtype=np.int64) - t0) / 1e9
    width = np.nan_to_num(calls["duration"].to_numpy(dtype=np.float64)) / 1e9
    stream = calls["rank"].to_numpy(dtype=np.int64), calls["thread"].to_numpy(dtype=np.int64)
    pairs, lane = np.unique(np.stack(stream, axis=1), axis=0, return_inverse=True)
    name = calls["name"].astype(str).to_numpy(dtype=object)
    excl = pd.Series(np.nan_to_num(calls["exclusive"].to_numpy(dtype=np.float64)))
    total = excl.groupby(name, sort=True).sum()
    ranked = total.index[np.lexsort((np.arange(len(total)), -total.to_numpy()))]
    colored = [str(n) for n in ranked[:int(colors)]]
    lookup = pd.Index(colored)
    depth = calls["depth"].to_numpy(dtype=np.int64)
    lanes = [tuple(map(int, p)) for p in pairs]
    return Timeline(start, width, np.asarray(lane).reshape(-1), depth, name,
                    lookup.get_indexer(name), lanes, colored, int(depth.max()) + 1,
                    lane_labels(lanes, getattr(trace, "definitions", None)))


def lane_labels(lanes: Sequence[tuple], definitions: Any = None) -> List[str]:
    """``rank R: <thread name>`` for lanes whose thread the definitions name, else
    ``rank R`` (one thread per rank) or ``rank R.T``.

    Examples
    --------
    >>> from graphframe_readers.traces import Definitions
    >>> lane_labels([(0, 0), (0, 3)], Definitions(threads={(0, 3): {"name": "GPU 0 / stream 7"}}))
    ['rank 0.0', 'rank 0: GPU 0 / stream 7']
    """
    threads = getattr(definitions, "threads", None) or {}
    several = len({t for _, t in lanes}) > 1
    out = []
    for r, t in lanes:
        name = (threads.get((r, t)) or {}).get("name")
        out.append(f"rank {r}: {name}" if name else f"rank {r}" + (f".{t}" if several else ""))
    return out


def timeline(trace: Any, *, ranks: Optional[Sequence[int]] = None,
             max_depth: Optional[int] = None, colors: int = 12, ax: Any = None,
             cmap: str = "tab20") -> Any:
    """Draw a trace as a timeline: ranks (threads) x time, coloured by function.

    Parameters
    ----------
    trace : TraceFrame
    ranks, max_depth, colors
        See :func:`timeline_data`.
    ax : matplotlib.axes.Axes, optional
    cmap : str
        A qualitative colormap for the coloured functions.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[0]`` holds the boxes in the order of :func:`timeline_data`
        (lane ``i`` spans y from ``i`` down to ``i + 0.85``, depth below depth).

    Examples
    --------
    >>> import graphframe
    >>> ax = timeline(graphframe.read_trace("trace.json"), max_depth=3)  # doctest: +SKIP
    """
    d = timeline_data(trace, ranks=ranks, max_depth=max_depth, colors=colors)
    mpl = _mpl.require("matplotlib")
    collections = _mpl.require("matplotlib.collections")
    patches = _mpl.require("matplotlib.patches")
    if cmap not in mpl.colormaps:
        raise ArgumentError(f"cmap={cmap!r} is not a matplotlib colormap; for example tab20, "
                            "tab10")
    palette = mpl.colormaps[cmap].resampled(max(len(d.colored), 1))
    colours = np.vstack([palette(np.arange(len(d.colored))),
                         [mpl.colors.to_rgba(OTHER_COLOR)]]) if d.colored else \
        np.array([mpl.colors.to_rgba(OTHER_COLOR)])
    face = colours[np.where(d.color_index >= 0, d.color_index, len(d.colored))]
    sub = LANE_FILL / d.levels
    y0 = d.lane + d.depth * sub
    x0, x1, y1 = d.start, d.start + d.width, y0 + sub
    verts = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1),
                      np.stack([x1, y1], 1), np.stack([x0, y1], 1)], axis=1)
    with _mpl.axes(ax, figsize=(12.0, 1.5 + 0.5 * min(len(d.lanes), 32))) as a:
        a.add_collection(collections.PolyCollection(verts, facecolors=face,
                                                    edgecolors="none"))
        a.set_xlim(0.0, float(max(x1.max(), 1e-12)))
        a.set_ylim(len(d.lanes), 0.0)
        a.set_yticks(np.arange(len(d.lanes)) + LANE_FILL / 2)
        a.set_yticklabels(d.labels or lane_labels(d.lanes), fontsize=8)
        a.set_xlabel("time (s) since the first event")
        handles = [patches.Patch(color=colours[i], label=n) for i, n in enumerate(d.colored)]
        if (d.color_index < 0).any():
            handles.append(patches.Patch(color=OTHER_COLOR, label="other"))
        a.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        return a
