"""Samples of calling contexts -> ENTER/LEAVE events (numpy, no per-sample Python).

A trace line says "from time t on, the thread is in context c". Each
context has a frame path: the chain of its ancestors (itself included)
that are frames (function contexts by default). Between two consecutive
samples the frames below their common prefix are left (innermost first)
and the new ones entered (outermost first), all at the second sample's
time; the last sample's frames are left at the end time.

Examples
--------
>>> import numpy as np
>>> parent = np.array([-1, 0, 1, 0])      # 0 -> 1 -> 2, 0 -> 3
>>> depth = np.array([0, 1, 2, 1])
>>> paths, plen = frame_paths(parent, depth, np.array([True, True, True, True]))
>>> paths.tolist(), plen.tolist()
([[0, -1, -1], [0, 1, -1], [0, 1, 2], [0, 3, -1]], [1, 2, 3, 2])
>>> kind, time, node = sample_events(np.array([10, 20, 30]), np.array([2, 2, 3]), paths, plen, 40)
>>> list(zip(kind.tolist(), time.tolist(), node.tolist()))
[(0, 10, 0), (0, 10, 1), (0, 10, 2), (1, 30, 2), (1, 30, 1), (0, 30, 3), (1, 40, 3), (1, 40, 0)]
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

from ..events import Kind


def frame_paths(parent: np.ndarray, depth: np.ndarray,
                is_frame: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per context, its frame path (``-1`` padded rows) and the path length.

    ``depth`` is not needed (kept for callers): each context's nearest frame at
    or above it is found by pointer doubling (a few passes for any depth), then
    the paths are filled one frame level at a time (as many passes as the
    longest path has frames).
    """
    n = len(parent)
    if not n:
        return np.full((0, 1), -1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    parent = np.asarray(parent, dtype=np.int64)
    is_frame = np.asarray(is_frame, dtype=bool)
    # position n stands for "no context" (a root's parent): it points to itself
    up = np.append(np.where(is_frame, np.arange(n), np.where(parent >= 0, parent, n)), n)
    while True:  # up[c]: a frame at or above c, or n; doubling until every c has its own
        nxt = up[up]
        if np.array_equal(nxt, up):
            break
        up = nxt
    above = np.append(up[np.where(parent >= 0, parent, n)], n)  # nearest frame above c
    levels = []
    cur = up[:n]
    while True:  # the frames of each path, innermost first
        live = cur < n
        if not live.any():
            break
        levels.append(np.where(live, cur, -1))
        cur = above[cur]
    plen = np.zeros(n, dtype=np.int64)
    for frames in levels:
        plen += frames >= 0
    paths = np.full((n, max(len(levels), 1)), -1, dtype=np.int64)
    for i, frames in enumerate(levels):
        has = np.flatnonzero(frames >= 0)
        paths[has, plen[has] - 1 - i] = frames[has]
    return paths, plen


def sample_events(times: np.ndarray, nodes: np.ndarray, paths: np.ndarray, plen: np.ndarray,
                  end_time: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(kind, time, node)`` of the ENTER/LEAVE events of one trace line.

    ``nodes[i]`` is the context of sample ``i`` (-1: the root, no frames).
    """
    times = np.asarray(times, dtype=np.int64)
    m = len(times)
    if m == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty.astype(np.uint8), empty, empty
    # node -1 (HPCToolkit's context 0, the root) has no frames; a virtual empty
    # sample after the last one closes every frame at end_time
    lengths = np.append(plen, 0)
    cur = np.append(nodes, -1)
    cur_len = np.append(lengths[nodes], 0)
    prev = np.append(-1, nodes)
    prev_len = np.append(0, lengths[nodes])
    at = np.append(times, max(int(end_time), int(times[-1])))
    width = paths.shape[1]
    padded = np.vstack([paths, np.full((1, width), -1, dtype=np.int64)])  # row -1: empty
    a, b = padded[prev], padded[cur]
    lim = np.minimum(prev_len, cur_len)
    same = (a == b) & (np.arange(width) < lim[:, None])
    common = np.argmin(np.hstack([same, np.zeros((m + 1, 1), bool)]), axis=1)
    n_leave, n_enter = prev_len - common, cur_len - common
    per = n_leave + n_enter
    sample = np.repeat(np.arange(m + 1), per)
    offset = np.arange(len(sample)) - np.repeat(np.cumsum(per) - per, per)
    leave = offset < n_leave[sample]
    level = np.where(leave, prev_len[sample] - 1 - offset,
                     common[sample] + offset - n_leave[sample])
    node = np.where(leave, a[sample, np.maximum(level, 0)], b[sample, np.maximum(level, 0)])
    kind = np.where(leave, Kind.LEAVE, Kind.ENTER).astype(np.uint8)
    return kind, at[sample], node
