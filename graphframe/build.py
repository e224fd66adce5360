"""Turning a RawProfile into the parts of a GraphFrame (the one place it happens)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from readers import RawProfile
from readers.profile import NODE, PARENT

from . import structure as st
from .build_grid import find_grid, grid_columns, grid_index
from .categories import as_categorical
from .graph import Graph

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
    ids = raw.nodes[NODE].to_numpy().astype(INT, copy=False)
    lookup = _IdLookup(ids)
    parent = lookup(raw.nodes[PARENT].to_numpy().astype(INT, copy=False))
    extra = child_order = None
    if raw.edges is not None and len(raw.edges):
        extra = (lookup(raw.edges[PARENT].to_numpy()), lookup(raw.edges["child"].to_numpy()))
        if "order" in raw.edges.columns:
            keys = raw.edges["order"].to_numpy().astype(INT, copy=False)
            child_order = (2 * ids, 2 * keys + 1)
    attrs = raw.nodes[list(raw.frame_columns)]
    graph, order = Graph.build(attrs, parent, extra, ordered=raw.ordered,
                               child_order=child_order)
    del attrs, parent, extra, child_order
    new_id = st.invert(order, len(order))
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
        if not self.identity:
            self.order = np.argsort(ids, kind="stable")
            self.sorted = ids[self.order]

    def __call__(self, refs: np.ndarray) -> np.ndarray:
        refs = np.asarray(refs, dtype=INT)
        if self.identity:
            return refs.copy()
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
    """A raw column as the dataframe holds it: ``type``, ``file`` and ``module`` as
    Categorical (:mod:`graphframe.categories`), other text via :func:`shared_strings`."""
    compact = as_categorical(values)
    return compact if compact is not values else shared_strings(values)


#: pandas 3 stores text columns as ``str`` (pandas 2: object arrays, left as they are)
INFER_STRING = pd.Series(["text"]).dtype != object


def shared_strings(values: pd.Series) -> pd.Series:
    """Text as pandas' ``str`` dtype with Python storage, one object per distinct value,
    so that spreading it over rows (one row per node and rank) copies 8-byte references.

    With pyarrow storage, pandas 3's default, every row holds its own copy of
    the bytes: at a million nodes x 16 ranks a name or file column takes
    300-400 MB instead of 128 MB, and every ``take`` of it (filter, squash,
    unify) is several times slower. The dtype is still ``str`` (same methods,
    same missing value); columns of other dtypes are returned unchanged. Every
    dataframe :func:`parts_from_raw` builds holds its text this way (``type``,
    ``file`` and ``module`` as categoricals, see :func:`prepare_column`),
    whatever the reader, so frames from different sources compare equal.

    Examples
    --------
    >>> s = shared_strings(pd.Series(["main", "solve", "main"], dtype=pd.StringDtype("pyarrow")))
    >>> s.dtype.storage, s.tolist(), s[0] is s[2]
    ('python', ['main', 'solve', 'main'], True)
    """
    dtype = values.dtype
    if dtype == object and INFER_STRING and len(values) \
            and pd.api.types.infer_dtype(values, skipna=True) == "string":
        dtype = pd.StringDtype("pyarrow", na_value=np.nan)  # what pandas would make of it
    elif not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return values
    na_value = getattr(dtype, "na_value", pd.NA)
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    objects = np.append(np.asarray(uniques, dtype=object), na_value)  # code -1 -> missing
    text = pd.array(objects[codes], dtype=pd.StringDtype("python", na_value=na_value))
    return pd.Series(text, index=values.index, name=values.name, copy=False)


def level_ids(index: pd.Index, name: str = NODE) -> np.ndarray:
    """Values of one index level as an int64 array, fast (level values taken by codes).

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(3, 0), (3, 1), (5, 0)], names=["node", "rank"])
    >>> level_ids(idx).tolist()
    [3, 3, 5]
    """
    if isinstance(index, pd.MultiIndex):
        i = index.names.index(name)
        return np.asarray(index.levels[i], dtype=INT)[np.asarray(index.codes[i])]
    if index.name != name:
        raise KeyError(f"the index has no level {name!r}")
    return np.asarray(index, dtype=INT)


def node_id_range(index: pd.Index, name: str = NODE) -> Tuple[int, int]:
    """Smallest and largest value of one (non-empty) index level, without materialising it.

    For a MultiIndex whose level values are sorted (as every index built
    here is), the extremes are the values at the extreme codes.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(3, 0), (3, 1), (5, 0)], names=["node", "rank"])
    >>> node_id_range(idx)
    (3, 5)
    """
    if isinstance(index, pd.MultiIndex):
        i = index.names.index(name)
        values = np.asarray(index.levels[i])
        codes = np.asarray(index.codes[i])
        if values.dtype.kind in "iu" and len(values) and bool(np.all(values[1:] > values[:-1])):
            lo, hi = int(codes.min()), int(codes.max())
            if lo >= 0:
                return int(values[lo]), int(values[hi])
    values = level_ids(index, name)
    return int(values.min()), int(values.max())


def index_arrays(index: pd.Index) -> List[np.ndarray]:
    """Each index level as a plain array (via level codes: no Index objects)."""
    if isinstance(index, pd.MultiIndex):
        out = []
        for level, codes in zip(index.levels, index.codes):
            values = np.asarray(level)
            codes = np.asarray(codes)
            taken = values[codes]
            if (codes < 0).any():  # missing labels
                taken = np.where(codes < 0, None, taken.astype(object))
            out.append(taken)
        return out
    return [np.asarray(index)]


def take_rows(df: pd.DataFrame, order: Optional[np.ndarray]) -> Dict[Any, Any]:
    """Column data of ``df`` in row ``order`` (None: as is, see :func:`column_data`),
    without the index; pass it to :func:`frame_from_columns`."""
    out: Dict[Any, Any] = {}
    for col in df.columns:
        series = df[col]
        if order is None:
            out[col] = column_data(series)
        elif isinstance(series.dtype, np.dtype):
            out[col] = series.to_numpy()[order]
        else:
            out[col] = series.array.take(order)
    return out


COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


def private_copy(df: pd.DataFrame) -> pd.DataFrame:
    """A copy that changes to it can never reach ``df``.

    With copy-on-write (pandas 3) that is a shallow copy: data is copied only
    when one side is modified. On pandas 2 it is a deep copy.
    """
    return df.copy(deep=not COPY_ON_WRITE)


def frame_from_columns(columns: Dict[Any, Any], index: pd.Index) -> pd.DataFrame:
    """A DataFrame from column arrays (or Series from :func:`column_data`) and an index.

    Arrays are not copied where pandas allows; a Series is given ``index``
    (never aligned on its own index) and, with copy-on-write, shared lazily.
    """
    data = {k: v.set_axis(index) if isinstance(v, pd.Series) else v for k, v in columns.items()}
    return pd.DataFrame(data, index=index, copy=False)


def _take(values: pd.Series, positions, shared: bool) -> Any:
    if positions is None:
        return column_data(values, shared)
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "biufc":
        return values.to_numpy()[positions]
    return values.array.take(positions)  # the array, not the Series: no index is taken


def column_data(values: pd.Series, shared: bool = True) -> Any:
    """A column's data for a new frame: writable, and never writable through ``values``.

    With copy-on-write (pandas 3) the Series itself is returned, so the new
    frame shares it lazily: the first write copies while ``values``' frame is
    alive and happens in place once it is gone. On pandas 2 the array is
    copied when ``shared`` (someone else holds ``values``). Arrays that are
    read-only at the source (e.g. ``np.frombuffer`` views a reader made) are
    copied in any case, since nobody could ever write to them.

    Examples
    --------
    >>> src = pd.Series(np.frombuffer(np.arange(3.0).tobytes()))
    >>> df = frame_from_columns({"t": column_data(src)}, pd.RangeIndex(3))
    >>> df.loc[0, "t"] = 5.0
    >>> df["t"].tolist(), src.tolist()
    ([5.0, 1.0, 2.0], [0.0, 1.0, 2.0])
    """
    if isinstance(values.dtype, np.dtype):
        base = np.asarray(values.array)
        if not base.flags.writeable:
            return base.copy()
        if COPY_ON_WRITE:
            return values
        return base.copy() if shared else base
    if COPY_ON_WRITE:
        return values
    return values.array.copy() if shared else values.array


def _column_order(raw: RawProfile, present: List[str]) -> List[str]:
    if raw.columns:
        first = [c for c in raw.columns if c in present]
    else:
        first = [c for c in raw.metric_columns if c in present]
    return first + [c for c in present if c not in first]


def sort_rows(keys: Sequence[np.ndarray]):
    """Row order sorting by ``keys`` (first key primary); None if already sorted.

    Uses a counting placement when the combined key space is small (no
    comparison sort) and a stable ``lexsort`` otherwise.
    """
    n = len(keys[0])
    if n == 0:
        return None
    combined = None
    span = 1
    codes = []
    for k in keys:
        lo, hi = int(k.min()), int(k.max())
        codes.append(k - lo)
        span *= hi - lo + 1
    if span < 1 << 62:
        combined = codes[0].astype(INT)
        for k, c in zip(keys[1:], codes[1:]):
            combined = combined * (int(k.max()) - int(k.min()) + 1) + c
        if n < 2 or bool(np.all(combined[1:] >= combined[:-1])):
            return None
        if span <= 4 * n + 1024:
            counts = np.bincount(combined, minlength=span)
            if counts.max() <= 1:
                rank = np.cumsum(counts) - 1
                order = np.empty(n, dtype=INT)
                order[rank[combined]] = np.arange(n, dtype=INT)
                return order
        return np.argsort(combined, kind="stable")
    return np.lexsort(list(reversed(list(keys))))


def make_index(arrays: Sequence[np.ndarray], names: Sequence[str]) -> pd.Index:
    """An Index (one level) or MultiIndex built from integer arrays.

    Builds level values and codes directly (no factorisation): sorted arrays
    are deduplicated in one pass, small-range arrays with a presence table.
    """
    if len(arrays) == 1:
        return pd.Index(np.asarray(arrays[0], dtype=INT), name=names[0])
    level_values, codes = [], []
    for arr in arrays:
        uniq, code = int_codes(np.asarray(arr, dtype=INT))
        level_values.append(uniq)
        codes.append(code)
    return pd.MultiIndex(levels=level_values, codes=codes, names=list(names),
                         verify_integrity=False)


def int_codes(arr: np.ndarray):
    """``(sorted unique values, code of each element)`` for an integer array."""
    if not len(arr):
        return arr[:0], arr[:0]
    if len(arr) > 1 and bool(np.all(arr[1:] >= arr[:-1])):
        new = np.empty(len(arr), dtype=bool)
        new[0] = True
        np.not_equal(arr[1:], arr[:-1], out=new[1:])
        return arr[new], np.cumsum(new) - 1
    lo, hi = int(arr.min()), int(arr.max())
    if hi - lo < 4 * len(arr) + 1024:
        present = np.zeros(hi - lo + 1, dtype=bool)
        present[arr - lo] = True
        table = np.cumsum(present) - 1
        return np.flatnonzero(present) + lo, table[arr - lo]
    uniq, inverse = np.unique(arr, return_inverse=True)
    return uniq, inverse.reshape(-1)
