"""The compact tables one profile is reduced to before composition.

A worker (a process, a Dask task, or the caller itself) reads one profile and
reduces it to a :class:`ProfileTables`: numpy arrays only, text interned per
profile as ``(codes, uniques)`` pairs (:class:`Coded`). They are small to send
between processes and everything the composer needs:

``parent``
    First parent of every node as a *position* in this profile's node order
    (``-1`` for a root); the node order is the source's (it decides sibling
    order for sources whose order is meaningful, e.g. Caliper).
``frames``
    Frame attribute -> :class:`Coded` per node (code ``-1``: key absent).
``row_node`` / ``levels`` / ``columns``
    One entry per metric row: the node's position, the index levels
    (``rank``, ``thread``) and the metric and attribute columns (numeric
    arrays or :class:`Coded`). Rows are sorted by (node position, levels).
``node_columns``
    Per-node dataframe columns (``name``, ``nid``...), spread over the rows
    by the composer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Tuple

import numpy as np
import pandas as pd

from graphframe_readers import RawProfile
from graphframe_readers.errors import ReadError

from ..errors import ArgumentError
from ._internal import plain_values

INT = np.int64


class Coded(NamedTuple):
    """Interned values: ``uniques[codes]`` (code ``-1`` is a missing value)."""

    codes: np.ndarray
    uniques: np.ndarray

    def __len__(self) -> int:  # type: ignore[override]
        return len(self.codes)

    def take(self, positions: np.ndarray) -> "Coded":
        """The values at ``positions`` (same uniques)."""
        return Coded(self.codes[positions], self.uniques)


@dataclass
class ProfileTables:
    """One profile reduced to arrays (see the module docs)."""

    parent: np.ndarray
    frames: Dict[str, Coded]
    row_node: np.ndarray
    levels: Dict[str, np.ndarray]
    columns: Dict[str, Any]
    node_columns: Dict[str, Any]
    column_order: List[str]
    exc_metrics: Tuple[str, ...] = ()
    inc_metrics: Tuple[str, ...] = ()
    inclusive_of: Dict[str, str] = field(default_factory=dict)
    default_metric: Optional[str] = None
    aggregations: Dict[str, str] = field(default_factory=dict)
    ordered: bool = False
    metadata: Dict[str, Any] = field(default_factory=dict)
    #: the reader's units (``metadata["units"]`` of the profile), kept out of ``metadata``
    units: Dict[str, str] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        """Number of call-path nodes."""
        return len(self.parent)

    @property
    def num_rows(self) -> int:
        """Number of metric rows."""
        return len(self.row_node)


def encode(values: Any) -> Any:
    """A column as a numpy array (numbers, booleans) or :class:`Coded` (anything else).

    Takes numpy arrays, pandas extension arrays, Series, Index or lists.

    Examples
    --------
    >>> encode(pd.Series([1.5, 2.0])).dtype
    dtype('float64')
    >>> c = encode(pd.Series(["a", None, "a"]))
    >>> c.codes.tolist(), c.uniques.tolist()
    ([0, -1, 0], ['a'])
    """
    if isinstance(values, Coded):
        return values
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy() if isinstance(values.dtype, np.dtype) else values.array
    elif not isinstance(values, (np.ndarray, pd.api.extensions.ExtensionArray)):
        values = pd.Series(values)
        values = values.to_numpy() if isinstance(values.dtype, np.dtype) else values.array
    dtype = values.dtype
    if isinstance(dtype, np.dtype):
        if dtype.kind in "biuf":
            return values
    elif isinstance(dtype, pd.CategoricalDtype):
        return Coded(np.asarray(values.codes, dtype=np.int32),
                     np.asarray(dtype.categories, dtype=object))
    elif pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype) \
            and not values.isna().any():
        return values.to_numpy(dtype=np.float64 if dtype.kind == "f" else np.int64)
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    return Coded(codes.astype(np.int32, copy=False), _objects(uniques))


def _objects(uniques: Any) -> np.ndarray:
    """Distinct values as a plain object array of Python scalars."""
    out = np.empty(len(uniques), dtype=object)
    out[:] = [v.item() if isinstance(v, np.generic) else v for v in list(uniques)]
    return out


def decode(values: Any) -> np.ndarray:
    """Inverse of :func:`encode` (an object array for :class:`Coded`, None missing)."""
    if isinstance(values, Coded):
        table = np.append(values.uniques, None)
        return table[values.codes]
    return values


def tables_from_raw(raw: RawProfile, source: Any = None) -> ProfileTables:
    """Reduce a reader's :class:`~graphframe_readers.RawProfile` to :class:`ProfileTables`.

    Raises :class:`~graphframe_readers.errors.ReadError` for a profile whose nodes have
    several parents (an Ensemble composes call trees).

    Examples
    --------
    >>> import graphframe_readers
    >>> b = graphframe_readers.ProfileBuilder("example")
    >>> main = b.add_node({"name": "main"})
    >>> solve = b.add_node({"name": "solve"}, parent=main)
    >>> b.add_row(solve, {"time": 2.0})
    >>> t = tables_from_raw(b.build(exc_metrics=["time"]))
    >>> t.parent.tolist(), t.row_node.tolist(), t.columns["time"].tolist()
    ([-1, 0], [1], [2.0])
    """
    src = source if source is not None else raw.metadata.get("source", "<profile>")
    if not raw.validated:
        raw.validate(src)
    if raw.edges is not None and len(raw.edges):
        raise ReadError(src, f"{len(raw.edges)} nodes have more than one parent",
                        expected="a call tree (an Ensemble composes call paths; read call "
                                 "graphs one at a time with graphframe.read)")
    # the tables' columns as arrays: no DataFrame is built (see RawProfile.table_arrays)
    nodes = raw.table_arrays("nodes")
    m = raw.table_arrays("metrics")
    ids = np.asarray(nodes["node"]).astype(INT, copy=False)
    lookup = _lookup(ids)
    parent = lookup(np.asarray(nodes["parent"]).astype(INT, copy=False))
    frames = {}
    for c in raw.frame_columns:
        value = encode(nodes[c])
        frames[c if isinstance(c, str) else str(c)] = value if isinstance(value, Coded) \
            else _coded_numbers(value)
    row_node = compact_ints(lookup(np.asarray(m["node"]).astype(INT, copy=False)))
    levels = {lv: compact_ints(np.asarray(m[lv])) for lv in raw.index_levels}
    order = _row_order(row_node, list(levels.values()))
    if order is not None:
        row_node = row_node[order]
        levels = {k: v[order] for k, v in levels.items()}
    columns: Dict[str, Any] = {}
    for col, series in m.items():
        if col == "node" or col in raw.index_levels:
            continue
        values = encode(series)
        columns[col] = values if order is None else _take(values, order)
    per_node = raw.table_arrays("node_columns")
    if per_node is not None:
        node_columns = {c: encode(v) for c, v in per_node.items() if c not in columns}
    else:
        node_columns = {} if "name" in columns else {"name": encode(nodes["name"])}
    present = list(columns) + [c for c in node_columns if c not in columns]
    preferred = list(raw.columns) if raw.columns else list(raw.metric_columns)
    column_order = [c for c in preferred if c in present] + \
        [c for c in present if c not in preferred]
    metadata = {k: v for k, v in raw.metadata.items() if k not in ("source", "format", "units")}
    return ProfileTables(
        parent=parent, frames=frames, row_node=row_node, levels=levels, columns=columns,
        node_columns=node_columns, column_order=column_order,
        exc_metrics=tuple(raw.exc_metrics), inc_metrics=tuple(raw.inc_metrics),
        inclusive_of=dict(raw.inclusive_of), default_metric=raw.default_metric,
        aggregations=dict(raw.aggregations), ordered=bool(raw.ordered), metadata=metadata,
        units=mapping_or_empty(_units(raw.metadata)))


def tables_from_graphframe(gf: Any) -> ProfileTables:
    """Reduce a :class:`~graphframe.GraphFrame` to :class:`ProfileTables`.

    The dataframe must be indexed by ``node`` and optionally ``rank`` /
    ``thread`` (integers); graphs with shared nodes are refused.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> t = tables_from_graphframe(GraphFrame.from_lists(("main", "solve")))
    >>> t.parent.tolist(), sorted(t.columns)
    ([-1, 0], ['name', 'time', 'time (inc)'])
    """
    graph = gf.graph
    if not graph.is_forest:
        raise ArgumentError("an Ensemble composes call trees; this GraphFrame's graph has "
                            "nodes with several parents")
    df = gf.dataframe
    names = list(df.index.names)
    if names[0] != "node":
        raise ArgumentError(f"the dataframe index {names} does not start with 'node'")
    frames: Dict[str, Coded] = {}
    for key in graph.attr_names():
        values = pd.Series(graph.attr_values(key), dtype=object)
        frames[str(key)] = encode(values.where(values.notna(), None))
        if not isinstance(frames[str(key)], Coded):
            frames[str(key)] = _coded_numbers(frames[str(key)])
    idx = [plain_values(df.index.get_level_values(i)) for i in range(len(names))]
    row_node = compact_ints(idx[0])
    levels = {str(n): compact_ints(v) for n, v in zip(names[1:], idx[1:])}
    order = _row_order(row_node, list(levels.values()))
    if order is not None:
        row_node = row_node[order]
        levels = {k: v[order] for k, v in levels.items()}
    columns = {}
    for col in df.columns:
        values = encode(df[col])
        columns[col] = values if order is None else _take(values, order)
    return ProfileTables(
        parent=np.asarray(graph.parent, dtype=INT).copy(), frames=frames, row_node=row_node,
        levels=levels, columns=columns, node_columns={}, column_order=list(df.columns),
        exc_metrics=tuple(gf.exc_metrics), inc_metrics=tuple(gf.inc_metrics),
        inclusive_of=dict(gf.inclusive_of), default_metric=gf.default_metric,
        aggregations=dict(gf.aggregations), ordered=bool(graph.ordered),
        metadata={k: v for k, v in gf.metadata.items() if k != "units"},
        units=mapping_or_empty(_units(gf.metadata)))


def compact_ints(values: Any) -> np.ndarray:
    """A new int32 array when the values fit (else int64): half the memory and transfer
    of int64, and never a view that keeps a reader's whole table alive.

    Examples
    --------
    >>> compact_ints(np.array([0, 5], dtype=np.int64)).dtype
    dtype('int32')
    """
    arr = np.asarray(values)
    if arr.dtype.kind not in "iu":
        arr = arr.astype(INT)
    if not len(arr) or (int(arr.min()) >= -(1 << 31) and int(arr.max()) < (1 << 31)):
        return arr.astype(np.int32)
    return arr.astype(INT, copy=True)


def _coded_numbers(values: np.ndarray) -> Coded:
    codes, uniques = pd.factorize(pd.Series(values), use_na_sentinel=True)
    return Coded(codes.astype(np.int32, copy=False), _objects(uniques))


def _take(values: Any, order: np.ndarray) -> Any:
    return values.take(order) if isinstance(values, Coded) else values[order]


def _lookup(ids: np.ndarray):
    """Function mapping local ids to positions in ``ids`` (-1 stays -1)."""
    n = len(ids)
    if n and ids[0] == 0 and ids[-1] == n - 1 and np.array_equal(ids, np.arange(n)):
        return lambda refs: np.asarray(refs, dtype=INT).copy()
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]

    def find(refs: np.ndarray) -> np.ndarray:
        refs = np.asarray(refs, dtype=INT)
        pos = order[np.searchsorted(sorted_ids, np.maximum(refs, sorted_ids[0]))]
        return np.where(refs < 0, -1, pos)
    return find


def _row_order(node: np.ndarray, levels: List[np.ndarray]) -> Optional[np.ndarray]:
    """Row order sorting by (node, levels...); None when already sorted."""
    n = len(node)
    if n < 2:
        return None
    keys = [node] + levels
    key = np.zeros(n, dtype=INT)
    span = 1
    for k in keys:
        lo, hi = int(k.min()), int(k.max())
        size = hi - lo + 1
        if span * size >= 1 << 62:
            return np.lexsort(tuple(reversed(keys)))
        key = key * size + (k - lo)
        span *= size
    if bool(np.all(key[1:] >= key[:-1])):
        return None
    return np.argsort(key, kind="stable")


def merged_declarations(parts: List[ProfileTables]) -> Dict[str, Any]:
    """Union of the metric declarations of all profiles (first-seen order).

    A column declared with different aggregations by two profiles keeps the
    first one's.
    """
    exc: List[str] = []
    inc: List[str] = []
    pairs: Dict[str, str] = {}
    aggregations: Dict[str, str] = {}
    default = None
    for t in parts:
        exc += [m for m in t.exc_metrics if m not in exc]
        inc += [m for m in t.inc_metrics if m not in inc]
        for k, v in t.inclusive_of.items():
            pairs.setdefault(k, v)
        for k, v in t.aggregations.items():
            aggregations.setdefault(k, v)
        if default is None:
            default = t.default_metric
    return dict(exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
                aggregations=aggregations)


def merged_units(parts: List[ProfileTables]) -> Dict[str, str]:
    """The units all profiles that state one agree on, per column (a column two profiles
    give different units has none).

    Examples
    --------
    >>> a = ProfileTables(np.array([-1]), {}, np.array([0]), {}, {}, {}, [],
    ...                   units={"time": "seconds", "n": "bytes"})
    >>> b = ProfileTables(np.array([-1]), {}, np.array([0]), {}, {}, {}, [],
    ...                   units={"time": "seconds", "n": "none"})
    >>> merged_units([a, b])
    {'time': 'seconds'}
    """
    out: Dict[str, Optional[str]] = {}
    for t in parts:
        for column, unit in t.units.items():
            if out.setdefault(column, unit) != unit:
                out[column] = None
    return {c: u for c, u in out.items() if u is not None}


def _units(metadata: Mapping[str, Any]) -> Optional[Mapping[str, Any]]:
    units = metadata.get("units")
    return units if isinstance(units, Mapping) else None


def mapping_or_empty(value: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """``dict(value)`` or ``{}``."""
    return dict(value) if value else {}
