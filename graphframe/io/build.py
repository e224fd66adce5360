"""Turning a RawProfile into the parts of a GraphFrame (the one place it happens)."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pandas as pd

from graphframe_readers import RawProfile
from graphframe_readers.heap import release_free_heap
from graphframe_readers.profile import NODE, PARENT, id_table

from ..kernels import structure as st
from ..model.dataframe import column_data, frame_from_columns, make_index, sort_rows
from ..model.graph import Graph
from ..model.text import as_text
from .grid import find_grid, grid_columns, grid_index

INT = np.int64


def parts_from_raw(raw: RawProfile, private: bool = False,
                   consume: bool = False) -> Dict[str, Any]:
    """Graph, dataframe and metric declarations built from ``raw``.

    Node ids are renumbered into graphframe's pre-order; the dataframe is
    indexed by ``node`` (then the profile's index levels) and sorted. When
    ``raw.edges`` has an ``order`` column, every node's children keep the
    source's order: a first-parent edge is placed by its child's local id, an
    extra edge by its ``order`` value (a first-parent edge first on a tie).

    The dataframe's arrays are always writable. Columns already in order are
    not copied: with copy-on-write (pandas 3) they are shared lazily with
    ``raw`` (a write copies while ``raw`` is alive); on pandas 2 they are
    copied unless ``private`` says that nobody else holds ``raw``.

    ``consume=True`` (implies ``private``) is for a caller that owns ``raw``
    (``graphframe.read`` and the reader constructors): each column of
    ``raw.metrics`` is deleted as soon as it has been copied into the
    dataframe, so a large read never holds the raw values and the finished
    columns in full at once. ``raw`` must not be used afterwards.
    """
    if not raw.validated:  # readers validate when they build; never twice
        raw.validate()
    if consume:  # the reader's node-sized temporaries are freed: give their pages back
        release_free_heap(len(raw.nodes))
    ids = raw.nodes[NODE].to_numpy().astype(INT, copy=False)
    lookup = _IdLookup(ids)
    parent = lookup(raw.nodes[PARENT].to_numpy().astype(INT, copy=False))
    extra = child_order = None
    if raw.edges is not None and (len(raw.edges) or "order" in raw.edges.columns):
        # (an empty table with ``order`` still asks for first-parent edges in id order)
        extra = (lookup(raw.edges[PARENT].to_numpy()), lookup(raw.edges["child"].to_numpy()))
        if "order" in raw.edges.columns:
            keys = raw.edges["order"].to_numpy().astype(INT, copy=False)
            child_order = (2 * ids, 2 * keys + 1)
    attrs = raw.nodes[list(raw.frame_columns)]
    graph, order = Graph.build(attrs, parent, extra, ordered=raw.ordered,
                               child_order=child_order, keep_root_order=True)
    del attrs, parent, extra, child_order, ids
    new_id = st.invert(order, len(order))
    del order
    dataframe = _dataframe(raw, lookup, new_id, shared=not (private or consume),
                           consume=consume)
    return dict(
        graph=graph,
        dataframe=dataframe,
        exc_metrics=list(raw.exc_metrics),
        inc_metrics=list(raw.inc_metrics),
        default_metric=raw.default_metric,
        metadata=dict(raw.metadata),
        inclusive_of=dict(raw.inclusive_of),
        aggregations=dict(raw.aggregations),
    )


class _IdLookup:
    """Maps reader-local ids to row positions (-1 stays -1)."""

    def __init__(self, ids: np.ndarray) -> None:
        self.identity = np.array_equal(ids, np.arange(len(ids)))
        self.table = None if self.identity else id_table(ids)
        if not self.identity and self.table is None:
            self.order = np.argsort(ids, kind="stable")
            self.sorted = ids[self.order]

    def __call__(self, refs: np.ndarray) -> np.ndarray:
        refs = np.asarray(refs, dtype=INT)
        if self.identity:
            return refs.copy()
        if self.table is not None:  # (validated: every reference is -1 or an id)
            return np.where(refs < 0, -1, self.table[np.maximum(refs, 0)])
        pos = self.order[np.searchsorted(self.sorted, np.maximum(refs, self.sorted[0]))]
        return np.where(refs < 0, -1, pos)


def _dataframe(raw: RawProfile, lookup: _IdLookup, new_id: np.ndarray,
               shared: bool, consume: bool = False) -> pd.DataFrame:
    m = raw.metrics
    levels = list(raw.index_levels)
    node_columns = _node_columns(raw)
    if consume:  # the graph has its own frames: the raw node tables are no longer needed
        for table in (raw.nodes, raw.node_columns):
            for col in dict.fromkeys(table.columns if table is not None else ()):
                del table[col]  # every column of that name (names are deduplicated)
    grid = find_grid(m, levels, lookup, new_id)
    if consume:  # the graph build's temporaries likewise, before the row-sized columns
        release_free_heap(len(new_id))
    if grid is not None:  # one block of rows per rank: no row-sized index arrays
        index = grid_index(grid, [NODE] + levels)
        columns = grid_columns(raw, grid, levels, node_columns, consume, prepare_column)
        del node_columns
        ordered = {c: columns.pop(c) for c in _column_order(raw, list(columns))}
        return frame_from_columns(ordered, index)
    row_pos = lookup(m[NODE].to_numpy())
    node = new_id[row_pos]
    level_values = [m[lv].to_numpy().astype(INT, copy=False) for lv in levels]
    order = sort_rows([node, *level_values])
    node_sorted = node if order is None else node[order]
    index = make_index([node_sorted] + [v if order is None else v[order]
                                        for v in level_values], [NODE] + levels)
    # per-row temporaries are freed as soon as they are used: at a million nodes
    # x 16 ranks each is 128 MB, and the column copies below are the peak
    del node, level_values, node_sorted
    pos_sorted = row_pos if order is None else row_pos[order]
    del row_pos
    columns: Dict[str, Any] = {}
    for col in list(m.columns):
        if col == NODE or col in levels:
            continue
        columns[col] = _take(prepare_column(m[col]), order, shared)
        if consume:
            del m[col]
    del order
    for col, values in node_columns.items():
        if col not in columns:
            columns[col] = _take(values, pos_sorted, shared)
    del pos_sorted, node_columns
    ordered = {c: columns.pop(c) for c in _column_order(raw, list(columns))}
    return frame_from_columns(ordered, index)


def _node_columns(raw: RawProfile) -> Dict[str, pd.Series]:
    if raw.node_columns is not None:
        return {c: prepare_column(raw.node_columns[c].reset_index(drop=True))
                for c in raw.node_columns.columns}
    return {"name": prepare_column(raw.nodes["name"].reset_index(drop=True))}


def prepare_column(values: pd.Series) -> pd.Series:
    """A raw column as the dataframe holds it: text (any dtype) as an object column of
    shared Python strings, ``None`` where missing (:mod:`graphframe.model.text`), the
    same for every reader; other columns unchanged."""
    return as_text(values)


def _take(values: pd.Series, positions, shared: bool) -> Any:
    if positions is None:
        return column_data(values, shared)
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "biufc":
        return values.to_numpy()[positions]
    return values.array.take(positions)  # the array, not the Series: no index is taken


def _column_order(raw: RawProfile, present: List[str]) -> List[str]:
    if raw.columns:
        first = [c for c in raw.columns if c in present]
    else:
        first = [c for c in raw.metric_columns if c in present]
    return first + [c for c in present if c not in first]
