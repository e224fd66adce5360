"""Composing many profiles into one union graph and one sparse dataframe, in one pass.

Never pairwise unions: every profile's nodes are concatenated into one set of
arrays and call paths are interned once for all of them:

1. frames are interned to integer ids over all profiles at once (per frame
   attribute, the distinct values of every profile are factorised together,
   then the attribute codes are combined into one key per node);
2. call paths are interned level by level from the roots: a node's path id is
   the id of ``(path id of its parent, frame id)`` (plus its occurrence among
   equal siblings of one profile, so duplicate siblings stay distinct as in
   Hatchet's union), found with one hash factorisation per depth level;
3. the union graph is built from one representative node per path, ids in
   pre-order (:meth:`graphframe.Graph.build`): siblings in first-seen order
   when every profile's order is meaningful (Caliper), else in frame order;
4. metric rows are re-keyed to union ids and sorted by
   ``(node, profile, rank, thread)`` by sorting *segments* (one per profile
   node), never the rows themselves.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from ._internal import Graph, frame_from_columns
from .columns import concat_column, index_from_arrays
from .tables import Coded, ProfileTables

INT = np.int64


def compose(parts: Sequence[ProfileTables]) -> Dict[str, Any]:
    """Union graph, sparse dataframe and per-profile counts of ``parts``.

    Returns a dict with ``graph``, ``dataframe`` (indexed by ``node``,
    ``profile`` then the union of the profiles' levels), ``levels``,
    ``num_nodes`` / ``num_rows`` per profile and ``node_of`` (the union id of
    every node of every profile, concatenated).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble.tables import tables_from_graphframe
    >>> a = tables_from_graphframe(GraphFrame.from_lists(("main", "solve")))
    >>> b = tables_from_graphframe(GraphFrame.from_lists(("main", "io")))
    >>> out = compose([a, b])
    >>> out["graph"].num_nodes, out["dataframe"].index.tolist()
    (3, [(0, 0), (0, 1), (1, 1), (2, 0)])
    """
    sizes = np.array([t.num_nodes for t in parts], dtype=INT)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    n = int(offsets[-1])
    parent = np.concatenate([np.where(t.parent >= 0, t.parent + offsets[i], -1)
                             for i, t in enumerate(parts)]) if parts else np.zeros(0, INT)
    profile_of_node = np.repeat(np.arange(len(parts), dtype=INT), sizes)
    depth = forest_depth(parent)
    frame_cols, frame_codes = intern_frame_columns(parts, n)
    frame_id = combine_codes(frame_codes)
    occurrence = sibling_occurrence(parent, frame_id, profile_of_node)
    path, k = intern_paths(parent, frame_id, depth, occurrence)
    rep = np.full(k, n, dtype=INT)
    np.minimum.at(rep, path, np.arange(n, dtype=INT))
    rep_parent = np.where(parent[rep] >= 0, path[np.maximum(parent[rep], 0)], -1)
    attrs = pd.DataFrame({c: _values_at(frame_cols[c], frame_codes[i], rep)
                          for i, c in enumerate(frame_cols)})
    ordered = bool(parts) and all(t.ordered for t in parts)
    graph, order = Graph.build(attrs, rep_parent, ordered=ordered,
                               sibling_key=np.arange(k, dtype=INT) if ordered else None)
    new_id = np.empty(k, dtype=INT)
    new_id[order] = np.arange(k, dtype=INT)
    node_of = new_id[path]
    dataframe, levels = _dataframe(parts, node_of, offsets)
    return dict(graph=graph, dataframe=dataframe, levels=levels, node_of=node_of,
                num_nodes=sizes, num_rows=np.array([t.num_rows for t in parts], dtype=INT))


# ----------------------------------------------------------------- structure
def forest_depth(parent: np.ndarray) -> np.ndarray:
    """Depth of every node of a forest by pointer jumping (O(n log depth)).

    Examples
    --------
    >>> forest_depth(np.array([-1, 0, 1, -1, 3])).tolist()
    [0, 1, 2, 0, 1]
    """
    depth = (parent >= 0).astype(INT)
    jump = parent.copy()
    while True:
        active = np.flatnonzero(jump >= 0)
        if not len(active):
            return depth
        target = jump[active]
        depth[active] += depth[target]
        jump[active] = jump[target]


def by_level(depth: np.ndarray) -> List[np.ndarray]:
    """Node positions grouped by depth, shallowest first (ascending within a level)."""
    if not len(depth):
        return []
    order = np.argsort(depth, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(depth))])
    return [order[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def intern_paths(parent: np.ndarray, frame_id: np.ndarray, depth: np.ndarray,
                 occurrence: np.ndarray) -> Tuple[np.ndarray, int]:
    """Path id of every node (``0..k-1``, first-seen order within each level) and ``k``.

    Examples
    --------
    >>> parent = np.array([-1, 0, -1, 2, 2])      # two profiles: a->b and a->{b, c}
    >>> frame = np.array([0, 1, 0, 1, 2])
    >>> intern_paths(parent, frame, forest_depth(parent), np.zeros(5, dtype=np.int64))
    (array([0, 1, 0, 1, 2]), 3)
    """
    n = len(parent)
    path = np.full(n, -1, dtype=INT)
    n_frames = int(frame_id.max()) + 1 if n else 1
    n_occ = int(occurrence.max()) + 1 if n else 1
    next_id = 0
    for level in by_level(depth):
        par = parent[level]
        parent_path = np.where(par >= 0, path[np.maximum(par, 0)], -1) + 1
        if (next_id + 1) * n_frames * n_occ < 1 << 62:
            key = (parent_path * n_frames + frame_id[level]) * n_occ + occurrence[level]
        else:  # too wide for one integer: combine in two factorisations
            first = pd.factorize(parent_path * n_frames + frame_id[level])[0].astype(INT)
            key = first * n_occ + occurrence[level]
        codes, uniques = pd.factorize(key)
        path[level] = codes + next_id
        next_id += len(uniques)
    return path, next_id


def sibling_occurrence(parent: np.ndarray, frame_id: np.ndarray,
                       profile: np.ndarray) -> np.ndarray:
    """0 for the first node of a profile with a given (parent, frame), 1 for the second...

    Examples
    --------
    >>> sibling_occurrence(np.array([-1, 0, 0, -1]), np.array([0, 1, 1, 0]),
    ...                    np.array([0, 0, 0, 1])).tolist()
    [0, 0, 1, 0]
    """
    n = len(parent)
    if not n:
        return np.zeros(0, dtype=INT)
    group = np.where(parent >= 0, parent, -1 - profile)  # roots: one group per profile
    n_frames = int(frame_id.max()) + 1
    key = (group + len(profile) + 1) * n_frames + frame_id
    codes, uniques = pd.factorize(key)
    if len(uniques) == n:
        return np.zeros(n, dtype=INT)
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    start = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    first = np.repeat(start, np.diff(np.r_[start, n]))
    occ = np.empty(n, dtype=INT)
    occ[order] = np.arange(n, dtype=INT) - first
    return occ


# -------------------------------------------------------------------- frames
def intern_frame_columns(parts: Sequence[ProfileTables], n: int
                         ) -> Tuple[Dict[str, np.ndarray], List[np.ndarray]]:
    """Per frame attribute: the distinct values over all profiles and every node's code.

    Returns ``(uniques by attribute, [codes per attribute])``; code ``-1``
    means the attribute is absent from that node's frame.
    """
    names: List[str] = []
    for t in parts:
        names += [c for c in t.frames if c not in names]
    uniques: Dict[str, np.ndarray] = {}
    codes: List[np.ndarray] = []
    for name in names:
        column = [t.frames.get(name) for t in parts]
        sizes = [t.num_nodes for t in parts]
        values, joined = join_coded(column, sizes)
        uniques[name] = values
        codes.append(joined)
    return uniques, codes


def join_coded(column: Sequence[Any], sizes: Sequence[int]) -> Tuple[np.ndarray, np.ndarray]:
    """Global ``(uniques, codes)`` from per-profile :class:`Coded` parts (None: all missing)."""
    present = [c for c in column if c is not None]
    if present:
        all_uniques = np.concatenate([c.uniques for c in present])
        glob_codes, glob_uniques = pd.factorize(pd.Series(all_uniques, dtype=object),
                                                use_na_sentinel=True)
    else:
        glob_codes, glob_uniques = np.zeros(0, dtype=INT), np.zeros(0, dtype=object)
    out = []
    start = 0
    for c, size in zip(column, sizes):
        if c is None:
            out.append(np.full(size, -1, dtype=INT))
            continue
        table = np.append(glob_codes[start:start + len(c.uniques)], -1).astype(INT)
        out.append(table[c.codes])
        start += len(c.uniques)
    values = np.empty(len(glob_uniques), dtype=object)
    values[:] = list(glob_uniques)
    return values, (np.concatenate(out) if out else np.zeros(0, dtype=INT))


def combine_codes(codes: List[np.ndarray]) -> np.ndarray:
    """One dense id per distinct combination of attribute codes (first-seen order)."""
    if not codes:
        return np.zeros(0, dtype=INT)
    key = codes[0] + 1
    span = int(key.max()) + 1 if len(key) else 1
    for c in codes[1:]:
        size = int(c.max()) + 2 if len(c) else 1
        if span * size >= 1 << 62:
            key = pd.factorize(key)[0].astype(INT)
            span = int(key.max()) + 1
        key = key * size + (c + 1)
        span *= size
    return pd.factorize(key)[0].astype(INT)


def _values_at(uniques: np.ndarray, codes: np.ndarray, rows: np.ndarray) -> np.ndarray:
    table = np.append(uniques, None)
    return table[codes[rows]]


# ---------------------------------------------------------------- dataframe
def _dataframe(parts: Sequence[ProfileTables], node_of: np.ndarray,
               offsets: np.ndarray) -> Tuple[pd.DataFrame, List[str]]:
    levels: List[str] = []
    for t in parts:
        levels += [lv for lv in t.levels if lv not in levels]
    rows = np.array([t.num_rows for t in parts], dtype=INT)
    order, node, profile = _row_order(parts, node_of, offsets)
    level_values = []
    for lv in levels:
        values = np.concatenate([t.levels.get(lv, np.zeros(t.num_rows, dtype=np.int32))
                                 for t in parts]) if parts else np.zeros(0, np.int32)
        level_values.append(values[order])
        del values
    index = index_from_arrays([node, profile] + level_values, ["node", "profile"] + levels)
    del node, profile, level_values  # at 10^8 rows each is 400-800 MB
    names: List[str] = []
    for t in parts:
        names += [c for c in t.column_order if c not in names]
    data = {}
    for name in names:
        pieces = [_row_values(t, name) for t in parts]
        data[name] = concat_column(pieces, rows, order)
    return frame_from_columns(data, index), levels


def _row_values(t: ProfileTables, name: str) -> Any:
    if name in t.columns:
        return t.columns[name]
    if name in t.node_columns:
        values = t.node_columns[name]
        return values.take(t.row_node) if isinstance(values, Coded) else values[t.row_node]
    return None


def _row_order(parts: Sequence[ProfileTables], node_of: np.ndarray, offsets: np.ndarray
               ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Order of the concatenated rows by (union node, profile, levels), with the sorted
    rows' nodes and profiles (int32 where they fit).

    Each profile's rows are sorted by (node position, levels), so the rows of
    one profile node form a contiguous segment; segments are sorted by
    ``(union node, profile)`` and expanded.
    """
    seg_node, seg_start, seg_len, seg_profile = [], [], [], []
    row_offset = 0
    for p, t in enumerate(parts):
        rn = t.row_node
        if len(rn):
            starts = np.flatnonzero(np.r_[True, rn[1:] != rn[:-1]])
            seg_start.append(starts + row_offset)
            seg_len.append(np.diff(np.r_[starts, len(rn)]))
            seg_node.append(node_of[rn[starts] + offsets[p]])
            seg_profile.append(np.full(len(starts), p, dtype=INT))
        row_offset += len(rn)
    if not seg_node:
        empty = np.zeros(0, dtype=INT)
        return empty, empty, empty
    s_node = np.concatenate(seg_node)
    s_start = np.concatenate(seg_start)
    s_len = np.concatenate(seg_len)
    s_prof = np.concatenate(seg_profile)
    seg_order = np.argsort(s_node * max(len(parts), 1) + s_prof, kind="stable")
    s_start, s_len = s_start[seg_order], s_len[seg_order]
    s_node, s_prof = s_node[seg_order], s_prof[seg_order]
    total = int(s_len.sum())
    out_start = np.concatenate([[0], np.cumsum(s_len)[:-1]])
    order = np.repeat(s_start - out_start, s_len)
    order += np.arange(total, dtype=INT)
    small = np.int32 if max(int(s_node.max()), len(parts)) < (1 << 31) else INT
    return order, np.repeat(s_node.astype(small), s_len), np.repeat(s_prof.astype(small), s_len)
