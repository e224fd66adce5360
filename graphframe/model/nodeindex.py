"""The ``node`` index level: int ids stored, :class:`Node` objects handed out.

Hatchet code reads node objects out of the frame (``index.get_level_values
("node")[0].children``, ``reset_index()["node"]``, groupby keys, the row
``row["node"]`` inside ``apply``). Operations need the int ids at array
speed. The level is therefore a **per-graph subclass of pandas' masked
``IntegerArray``**: pandas keeps its int64 data and its masked Int64 index
engine (hashing, ``loc``, ``get_indexer``, ``groupby`` and ``factorize`` all
run on the int64 buffer), while every scalar the array hands out is a
:class:`Node` of its graph. The graph is a class attribute, so each array
pandas derives with ``type(self)`` (take, slicing, concat, sort) keeps it.

The dtype's ``index_class`` is :class:`NodeIndex`, which turns hand-built
nodes (``Node(Frame(...))`` after ``Graph(roots)``) into their ids when they
are used as keys (``df.loc[node]``, ``df.loc[[n1, n2]]``).

``IntegerArray`` is not public pandas API (stable since pandas 1.0);
``tests/model/test_nodeindex.py`` pins the behaviour relied on, for pandas
2.3 and 3.x. Measurements: ``docs/architecture.md`` ("The node level").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from pandas.core.arrays import IntegerArray  # private: see the module docstring

from ..errors import GraphMismatchError
from .handnode import HandNode
from .node import Node

INT = np.int64
_UNSET = object()


class NodeIndex(pd.Index):
    """Index over a node level; hand-built nodes of its graph work as keys."""

    def get_loc(self, key: Any) -> Any:
        return super().get_loc(self._node_key(key))

    def _maybe_cast_indexer(self, key: Any) -> Any:
        return super()._maybe_cast_indexer(self._node_key(key))

    def _maybe_cast_listlike_indexer(self, target: Any) -> Any:
        if not isinstance(target, pd.Index) or target.dtype == object:
            target = [self._node_key(k) for k in target]
        return super()._maybe_cast_listlike_indexer(target)

    def equals(self, other: Any) -> bool:
        """As pandas' ``equals``, and equal to a plain int index of the same ids."""
        if (isinstance(other, pd.Index) and not isinstance(other, pd.MultiIndex)
                and not isinstance(other, NodeIndex) and other.dtype.kind in "iu"):
            return self.array.equals(other._values)
        return super().equals(other)

    def _node_key(self, key: Any) -> Any:
        if isinstance(key, HandNode) and key._bound_graph is getattr(self.dtype, "graph", None):
            return key._bound_id
        return key


class NodeDtype(pd.Int64Dtype):
    """Int64 whose arrays hand out :class:`Node` objects of one graph (see :func:`node_types`).

    The name stays ``"Int64"``: pandas picks its masked Int64 engine by name.
    """

    graph: Any = None
    _array_type: Any = None

    @classmethod
    def construct_array_type(cls) -> Any:
        return cls._array_type

    @property
    def index_class(self) -> Any:
        return NodeIndex

    def __eq__(self, other: object) -> bool:
        # node levels of any graph and plain Int64 compare equal (as their ids do)
        if isinstance(other, pd.Int64Dtype):
            return True
        return super().__eq__(other)

    __hash__ = pd.Int64Dtype.__hash__

    def __reduce__(self) -> Any:
        return (pd.Int64Dtype, ())


class NodeArray(IntegerArray):
    """Masked int64 node ids whose scalars are :class:`Node` objects (one subclass per graph)."""

    _node_dtype: Any = None

    @property
    def dtype(self) -> Any:
        return self._node_dtype

    def __getitem__(self, item: Any) -> Any:
        out = super().__getitem__(item)
        if isinstance(out, (int, np.integer)):
            return Node(int(out), self._node_dtype.graph)
        return out

    def __iter__(self):
        graph = self._node_dtype.graph
        for i, missing in zip(self._data.tolist(), self._mask.tolist()):
            yield pd.NA if missing else Node(i, graph)

    def _formatter(self, boxed: bool = False) -> Any:
        # printed frames show the ids, as before (a node's frame: str(node))
        return lambda value: "<NA>" if value is pd.NA else str(int(value))

    def tolist(self) -> list:
        return list(self)

    def _nodes(self) -> np.ndarray:
        out = np.empty(len(self), dtype=object)
        out[:] = list(self)
        return out

    def astype(self, dtype: Any, copy: bool = True) -> Any:
        if _is_object(dtype):
            return self._nodes()
        return super().astype(dtype, copy=copy)

    def to_numpy(self, dtype: Any = None, copy: bool = False, na_value: Any = _UNSET) -> np.ndarray:
        if _is_object(dtype):
            return self._nodes()
        if na_value is _UNSET:
            return super().to_numpy(dtype=dtype, copy=copy)
        return super().to_numpy(dtype=dtype, copy=copy, na_value=na_value)

    def equals(self, other: Any) -> bool:
        """Same ids in the same places: node arrays of any graph, plain or masked int arrays."""
        if isinstance(other, IntegerArray):
            data, mask = other._data, other._mask
        elif isinstance(other, np.ndarray) and other.dtype.kind in "iu":
            data, mask = other, np.zeros(len(other), dtype=bool)
        else:
            return False
        return (len(data) == len(self) and bool(np.array_equal(mask, self._mask))
                and bool(np.array_equal(data[~mask], self._data[~self._mask])))

    def __reduce__(self) -> Any:
        return (IntegerArray, (self._data, self._mask))


def _is_object(dtype: Any) -> bool:
    if dtype is None or isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return False
    try:
        return np.dtype(dtype) == object
    except TypeError:
        return False


def node_types(graph: Any) -> Any:
    """The graph's own NodeArray subclass (made once, cached on the graph)."""
    cached = graph._cache.get("node_array_type")
    if cached is None:
        dtype_type = type("NodeDtype", (NodeDtype,), {"graph": graph})
        cached = type("NodeArray", (NodeArray,), {"_node_dtype": dtype_type()})
        dtype_type._array_type = cached
        graph._cache["node_array_type"] = cached
    return cached


def node_array(ids: Any, graph: Any) -> NodeArray:
    """Node ids as the graph's node array (no copy of an int64 array).

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("main", "solve"))
    >>> arr = node_array([0, 1, 1], g)
    >>> arr[1].frame["name"], arr.dtype.name, arr._data.tolist()
    ('solve', 'Int64', [0, 1, 1])
    """
    ids = np.asarray(ids, dtype=INT)
    return node_types(graph)(ids, np.zeros(len(ids), dtype=bool))


def node_ids(values: Any) -> Any:
    """A node level (Index or Series) as plain int64 ids, same name; others unchanged.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> node_ids(GraphFrame.from_lists(("main", "solve")).dataframe.index)
    Index([0, 1], dtype='int64', name='node')
    """
    if not isinstance(values.dtype, NodeDtype):
        return values
    if values.array._mask.any():  # missing nodes (e.g. after a reindex): plain Int64
        return values.astype(pd.Int64Dtype())
    ids = values.array._data
    if isinstance(values, pd.Series):
        return pd.Series(ids, index=values.index, name=values.name, copy=False)
    return pd.Index(ids, name=values.name, copy=False)


def is_node_level(values: Any, graph: Any) -> bool:
    """True when ``values`` (an Index or array) is already ``graph``'s node array."""
    dtype = getattr(values, "dtype", None)
    return isinstance(dtype, NodeDtype) and dtype.graph is graph


def with_node_values(df: pd.DataFrame, graph: Any, name: str = "node") -> pd.DataFrame:
    """``df`` with its ``name`` level as ``graph``'s node array (``df`` itself if it is).

    Costs one pass over the level values (distinct nodes of a MultiIndex),
    no copy of the rows (a shallow copy of the frame with the new index).

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("main", "solve"))
    >>> df = pd.DataFrame({"time": [1.0, 2.0]}, index=pd.Index([0, 1], name="node"))
    >>> out = with_node_values(df, g)
    >>> out.index[1].frame["name"], with_node_values(out, g) is out
    ('solve', True)
    """
    index = df.index
    if isinstance(index, pd.MultiIndex):
        if name not in index.names:
            return df
        i = index.names.index(name)
        level = index.levels[i]
        if is_node_level(level, graph):
            return df
        new_index = index.set_levels(node_array(_ids(level), graph), level=i,
                                     verify_integrity=False)
    else:
        if index.name != name or is_node_level(index, graph):
            return df
        new_index = NodeIndex(node_array(_ids(index), graph), name=name)
    out = df.copy(deep=False)
    out.index = new_index
    return out


def _ids(values: pd.Index) -> np.ndarray:
    if values.dtype == object:
        raise GraphMismatchError("the 'node' level holds objects that are not node ids")
    if values.hasnans:
        raise GraphMismatchError("the 'node' level has missing values")
    return np.asarray(values, dtype=INT)


def ids_from_node_objects(df: pd.DataFrame, graph: Any, name: str = "node") -> pd.DataFrame:
    """``df`` with a ``name`` level of node objects (hand-built or array Nodes) as int ids.

    One lookup per distinct node; the rows are mapped with one vectorised
    take (``df`` itself when the level is not of object dtype). Row order is
    kept.

    Examples
    --------
    >>> from graphframe import Graph, Node, Frame
    >>> root = Node.from_lists(["main", "solve"])
    >>> g = Graph([root])
    >>> df = pd.DataFrame({"time": [1.0, 2.0]},
    ...                   index=pd.Index([root.children[0], root], name="node", dtype=object))
    >>> ids_from_node_objects(df, g).index.tolist()
    [1, 0]
    """
    index = df.index
    multi = isinstance(index, pd.MultiIndex)
    level = index.levels[index.names.index(name)] if multi else index
    if not (level.dtype == object or pd.api.types.is_string_dtype(level.dtype)):
        return df
    if multi:
        i = index.names.index(name)
        codes = np.asarray(index.codes[i])
        uniques = level
    else:
        codes, uniques = pd.factorize(index.to_numpy(dtype=object), use_na_sentinel=True)
    ids = _lookup_ids(uniques, graph)
    if (codes < 0).any():
        raise GraphMismatchError("the 'node' level has missing values")
    if multi:
        order = np.argsort(ids, kind="stable")
        rank = np.empty(len(ids), dtype=INT)
        rank[order] = np.arange(len(ids), dtype=INT)
        new_index = index.set_levels(ids[order], level=i, verify_integrity=False)
        new_index = new_index.set_codes(rank[codes], level=i, verify_integrity=False)
    else:
        new_index = pd.Index(ids[codes], name=name)
    out = df.copy(deep=False)
    out.index = new_index
    return out


def _lookup_ids(uniques: Any, graph: Any) -> np.ndarray:
    hand_ids = graph._cache.get("hand_ids", {})
    out = np.empty(len(uniques), dtype=INT)
    for k, value in enumerate(uniques):
        if isinstance(value, HandNode):
            found = hand_ids.get(id(value))
            if found is None:
                raise GraphMismatchError(f"node {value!r} in the dataframe is not a node of the "
                                         f"graph (build the graph from it: Graph(roots))")
            out[k] = found
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            out[k] = int(value)
        else:
            raise GraphMismatchError(f"the 'node' level holds {value!r}, not a node")
    if len(np.unique(out)) != len(out):
        raise GraphMismatchError("the 'node' level holds two objects for the same node")
    return out
