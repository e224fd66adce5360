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

from typing import Any, Tuple

import numpy as np
import pandas as pd
from pandas.core.algorithms import map_array  # what pandas' own map uses (2.1+)
from pandas.core.arrays import IntegerArray  # private: see the module docstring

from ..errors import GraphMismatchError
from .handgraph import refresh_hand
from .handnode import HandNode
from .node import Node

INT = np.int64
_UNSET = object()
#: groupby operations whose result values are values of the group (nodes stay nodes)
_VALUE_OPS = frozenset({"first", "last", "min", "max", "nth"})


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

    def _format_with_header(self, *, header: list, na_rep: str) -> list:
        # printed as the nodes' frames at full length, as an object index of Hatchet's
        # nodes prints (pandas would cut an extension array's texts at max_colwidth)
        text = self._values._formatter(boxed=False)
        return header + [na_rep if v is pd.NA else text(v) for v in self._values._data_list()]

    def equals(self, other: Any) -> bool:
        """As pandas' ``equals``, and equal to a plain int index of the same ids."""
        if (isinstance(other, pd.Index) and not isinstance(other, pd.MultiIndex)
                and not isinstance(other, NodeIndex) and other.dtype.kind in "iu"):
            return self.array.equals(other._values)
        return super().equals(other)

    def __contains__(self, key: Any) -> bool:
        return super().__contains__(self._node_key(key))

    def _node_key(self, key: Any) -> Any:
        # a hand-built node is the id Graph(roots) gave it, in this graph and in the
        # graphs derived from it (as a node read from a frame is its id)
        if isinstance(key, HandNode):
            return key._key()
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
        # pickled with its graph: the per-graph class is made again on loading
        return (node_dtype, (self.graph,))


class NodeArray(IntegerArray):
    """Masked int64 node ids whose scalars are :class:`Node` objects (one subclass per graph).

    What pandas computes reads the int64 ids (``_data``); what hands values to
    Python code hands :class:`Node` objects: indexing, iteration, ``tolist``,
    ``astype(object)``, ``to_numpy()``/``np.asarray`` (object arrays), and
    ``map`` (so ``Series.apply``/``map``, ``Index.map`` and ``groupby`` by a
    function on pandas 2 and 3 alike). ``astype(str)`` gives each node's frame
    text, as ``str(node)``. Per-row objects are made once per distinct node
    and spread over the rows by position; a function given to ``map`` is
    called once per distinct node.
    """

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
        return iter(self._objects().tolist())

    def _formatter(self, boxed: bool = False) -> Any:
        # printed frames (repr, to_string, to_html, Jupyter) show each node as Hatchet and
        # Thicket do: its frame, str(node); made only when printing, once per node shown
        graph = self._node_dtype.graph
        shown: dict = {}

        def node_text(value: Any) -> str:
            if value is pd.NA or value is None:
                return "<NA>"
            i = int(value)
            if i not in shown:
                shown[i] = str(value) if isinstance(value, Node) else str(Node(i, graph))
            return shown[i]
        return node_text

    def tolist(self) -> list:
        return self._objects().tolist()

    def _data_list(self) -> list:
        """The ids as Python ints (``pd.NA`` where missing): what printing formats."""
        out = self._data.tolist()
        if self._mask.any():
            for i in np.flatnonzero(self._mask).tolist():
                out[i] = pd.NA
        return out

    # ------------------------------------------------ distinct nodes -> rows
    def _distinct(self) -> Tuple[np.ndarray, np.ndarray]:
        """``(ids of the distinct nodes present, ascending; per row the position of its
        node among them, or their count for a missing value)``, in O(rows + nodes)."""
        data, mask = self._data, self._mask
        missing = bool(mask.any())
        ids = data[~mask] if missing else data
        n = self._node_dtype.graph.num_nodes
        if len(ids) and (len(ids) * 8 < n or ids.min() < 0 or ids.max() >= n):
            uniq, inverse = np.unique(ids, return_inverse=True)
        else:
            present = np.zeros(n, dtype=bool)
            present[ids] = True
            uniq = np.flatnonzero(present)
            inverse = (np.cumsum(present) - 1)[ids]
        if not missing:
            return uniq, inverse.reshape(-1)
        rows = np.full(len(data), len(uniq), dtype=np.intp)
        rows[~mask] = inverse.reshape(-1)
        return uniq, rows

    def _spread(self, per_node: Any, na_value: Any) -> np.ndarray:
        """An object array, per row: ``per_node(ids)[k]`` for its node, ``na_value``
        where missing (``per_node`` maps the distinct ids to one value each)."""
        uniq, rows = self._distinct()
        table = np.empty(len(uniq) + 1, dtype=object)
        for k, value in enumerate(per_node(uniq)):  # object slots: no int conversion
            table[k] = value
        table[-1] = na_value
        return table[rows]

    def _objects(self) -> np.ndarray:
        graph = self._node_dtype.graph
        return self._spread(lambda ids: Node.many(ids.tolist(), graph), pd.NA)

    def _nodes(self) -> np.ndarray:
        return self._objects()

    # ---------------------------------------------------------- conversions
    def map(self, mapper: Any, na_action: Any = None) -> Any:
        """Map the nodes (``Series.apply``/``map``, ``Index.map`` and ``groupby`` by a
        function go through here). A function is called once per distinct node
        (and once with ``pd.NA`` for missing values unless ``na_action="ignore"``);
        a dict or Series is looked up by node id."""
        if not callable(mapper) or pd.api.types.is_dict_like(mapper):
            values = self._data if not self._mask.any() else self.to_numpy(dtype=object)
            return map_array(values, mapper, na_action=na_action)
        uniq, rows = self._distinct()
        missing = bool(self._mask.any())
        graph = self._node_dtype.graph
        values = np.empty(len(uniq) + missing, dtype=object)
        for k, node in enumerate(Node.many(uniq.tolist(), graph)):
            values[k] = node
        if missing:
            values[-1] = pd.NA
        kinds = set()

        def call(value: Any) -> Any:  # notes whether every result is a node of this graph
            result = mapper(value)
            kinds.add(type(result) is Node and result._graph is graph)
            return result

        out = map_array(values, call, na_action=na_action)
        if kinds == {True} and not missing and out.dtype.kind == "i":
            return type(self)(out.take(rows), np.zeros(len(rows), dtype=bool))
        return out.take(rows)

    def _groupby_op(self, *, how: str, **kwargs: Any) -> Any:
        # a group's first/last/min/max node is a node (pandas 2 returns plain Int64)
        out = super()._groupby_op(how=how, **kwargs)
        if how in _VALUE_OPS and type(out) is IntegerArray:
            return type(self)(out._data, out._mask)
        return out

    def _cast_pointwise_result(self, values: Any) -> Any:
        # pandas 3's Index.map: a node array from map stays one
        if isinstance(values, NodeArray):
            return values
        return super()._cast_pointwise_result(values)

    @classmethod
    def _from_scalars(cls, scalars: Any, *, dtype: Any) -> "NodeArray":
        # pandas casts a pointwise result (Index.map) back to this type when it is
        # "integer": only node arrays are (ints computed from nodes stay ints)
        if isinstance(scalars, NodeArray):
            return scalars
        raise TypeError("only node arrays are node arrays")

    def astype(self, dtype: Any, copy: bool = True) -> Any:
        if _is_object(dtype):
            return self._objects()
        if _is_text(dtype):
            graph = self._node_dtype.graph
            text = self._spread(lambda ids: [str(graph.frame(i)) for i in ids.tolist()],
                                "<NA>" if isinstance(dtype, np.dtype) else pd.NA)
            if isinstance(dtype, np.dtype):  # pandas keeps numpy text as object
                return text
            return dtype.construct_array_type()._from_sequence(text, dtype=dtype, copy=False)
        return super().astype(dtype, copy=copy)

    def to_numpy(self, dtype: Any = None, copy: bool = False, na_value: Any = _UNSET) -> np.ndarray:
        """Node objects (an object array) unless a numeric ``dtype`` asks for the ids."""
        if dtype is None or _is_object(dtype):
            out = self._objects()
            if na_value is not _UNSET and self._mask.any():
                out[self._mask] = na_value
            return out
        if na_value is _UNSET:
            return super().to_numpy(dtype=dtype, copy=copy)
        return super().to_numpy(dtype=dtype, copy=copy, na_value=na_value)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if dtype is None or _is_object(dtype):
            if copy is False:
                raise ValueError("a node array converts to Node objects: it cannot avoid "
                                 "a copy (use .to_numpy(dtype='int64') for the ids)")
            return self._objects()
        return super().__array__(dtype, copy)

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
        # pickled with its graph; loads as the unpickled graph's node array
        return (_node_array_from_pickle, (self._node_dtype.graph, self._data, self._mask))


def _is_object(dtype: Any) -> bool:
    if dtype is None or isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return False
    try:
        return np.dtype(dtype) == object
    except TypeError:
        return False


def _is_text(dtype: Any) -> bool:
    """numpy ``str`` or pandas' string dtypes (``astype(str)`` on pandas 2 and 3)."""
    if isinstance(dtype, pd.StringDtype):
        return True
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) or dtype is None:
        return False
    try:
        return np.dtype(dtype).kind == "U"
    except TypeError:
        return False


def _node_array_from_pickle(graph: Any, data: np.ndarray, mask: np.ndarray) -> "NodeArray":
    return node_types(graph)(data, mask)


def node_dtype(graph: Any) -> NodeDtype:
    """The dtype of ``graph``'s node arrays.

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("main", "solve"))
    >>> node_dtype(g).graph is g, node_dtype(g) is node_dtype(g)
    (True, True)
    """
    return node_types(graph)._node_dtype


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
    kept. A graph built by hand is walked again first (see
    :meth:`Graph.enumerate_traverse`), so nodes linked after ``Graph(roots)``
    are found.

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
    refresh_hand(graph)  # hand-built nodes linked after Graph(roots) are taken in
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
            if found is None and not hand_ids and value._bound_graph is not None:
                found = value._bound_id  # a graph derived from the node's graph: by id
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
