"""Hatchet's column types for a GraphFrame's dataframe (``graphframe.options.hatchet_compat``).

graphframe stores text columns as its ``text`` dtype (a 4-byte code per row,
:mod:`graphframe.model.text`) and keeps the narrow integer types its readers
produce. Hatchet code that asserts or branches on dtypes expects Hatchet's:
``object`` for every text column, and the integer type each Hatchet reader
gives its columns. :func:`hatchet_column_types` converts a dataframe to
those; the GraphFrame constructor calls it while the setting is on.

The ``node`` level stays graphframe's int-backed node array (lookups at int64
speed). What Hatchet code observes of it is the column ``reset_index`` makes:
in Hatchet an ``object`` column of nodes. :class:`HatchetFrame`, the dataframe
class a GraphFrame holds while the setting is on, gives that: its
``reset_index`` turns node columns into ``object`` columns of :class:`Node`
objects, and its ``set_index`` turns them back into the node level.

Integer columns per source format (``metadata["format"]``), as Hatchet's
readers make them:

========================  ==========================  ==========================
format                    columns                     Hatchet's dtype
========================  ==========================  ==========================
``hpctoolkit``            ``nid``, ``line``           ``int64``
``caliper`` (``.cali``)   ``nid``                     ``Int64`` (nullable)
========================  ==========================  ==========================
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Mapping, Optional

import numpy as np
import pandas as pd

from .node import Node
from .nodeindex import NodeDtype, node_array
from .dataframe import with_columns
from .textarray import TextDtype

#: source format -> column -> the dtype Hatchet's reader gives it
READER_TYPES: Dict[str, Dict[str, Any]] = {
    "hpctoolkit": {"nid": np.dtype(np.int64), "line": np.dtype(np.int64)},
    "caliper": {"nid": pd.Int64Dtype()},
}


def hatchet_column_types(df: pd.DataFrame, fmt: Optional[str] = None) -> pd.DataFrame:
    """``df`` with Hatchet's column types: text columns as ``object``, and the integer
    columns of ``fmt``'s reader as in :data:`READER_TYPES`; ``df`` itself when nothing
    changes (otherwise a shallow copy with the converted columns).

    Examples
    --------
    >>> from graphframe.model.text import as_text
    >>> df = pd.DataFrame({"name": as_text(pd.Series(["main", "solve"])),
    ...                    "nid": np.array([0, 1], dtype=np.int32), "time": [1.0, 2.0]})
    >>> out = hatchet_column_types(df, "hpctoolkit")
    >>> [str(t) for t in out.dtypes], out["name"].tolist()
    (['object', 'int64', 'float64'], ['main', 'solve'])
    >>> hatchet_column_types(out, "hpctoolkit") is out
    True
    """
    wanted: Mapping[str, Any] = READER_TYPES.get(fmt or "", {})
    changes: Dict[Any, Any] = {}
    for i, (column, dtype) in enumerate(df.dtypes.items()):
        if isinstance(dtype, TextDtype):
            changes[i] = df.iloc[:, i].astype(object)
        elif column in wanted and dtype != wanted[column] and dtype.kind in "iu":
            changes[i] = df.iloc[:, i].astype(wanted[column])
    return with_columns(df, changes)


class HatchetFrame(pd.DataFrame):
    """A DataFrame whose ``reset_index`` gives node columns Hatchet's ``object`` dtype.

    ``reset_index`` (returned or ``inplace``) turns every column of node ids
    into an ``object`` column of :class:`Node` objects, as Hatchet's frame
    has; ``set_index`` on such a column gives the node level back (int ids
    with nodes handed out), so operations on the GraphFrame keep their speed.
    Everything else is pandas' DataFrame; frames derived from it (``copy``,
    ``groupby(...).sum()``...) are HatchetFrames too.

    Examples
    --------
    >>> from graphframe import GraphFrame, options
    >>> with options.hatchet_compatible():
    ...     gf = GraphFrame.from_lists(("main", "solve"))
    >>> flat = gf.dataframe.reset_index()
    >>> str(flat["node"].dtype), flat["node"][1].frame["name"]
    ('object', 'solve')
    >>> str(flat.set_index("node").index.dtype)
    'Int64'
    """

    @property
    def _constructor(self) -> Any:
        return HatchetFrame

    def reset_index(self, *args: Any, **kwargs: Any) -> Any:
        out = _passing_warnings(super().reset_index, args, kwargs)
        target = self if out is None else out
        for i, dtype in enumerate(list(target.dtypes)):
            if isinstance(dtype, NodeDtype):
                target.isetitem(i, target.iloc[:, i].astype(object))
        return out

    def set_index(self, *args: Any, **kwargs: Any) -> Any:
        graph = _graph_of_node_column(self)  # read before pandas turns the nodes into a level
        out = _passing_warnings(super().set_index, args, kwargs)
        target = self if out is None else out
        index = None if graph is None else _as_node_level(target.index, graph)
        if index is not None:
            target.index = index
        return out


def _passing_warnings(method: Any, args: Any, kwargs: Any) -> Any:
    """``method(*args, **kwargs)``, its warnings (pandas' ``inplace`` deprecation) issued
    again for the line that called the HatchetFrame method, as pandas issues them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = method(*args, **kwargs)
    for w in caught:
        warnings.warn(w.message, w.category, stacklevel=3)
    return out


def _graph_of_node_column(df: pd.DataFrame) -> Any:
    """The graph of the :class:`Node` objects in ``df``'s ``node`` column (None if none)."""
    if "node" not in df.columns or not len(df):
        return None
    column = df["node"]
    if isinstance(column, pd.DataFrame) or column.dtype != object:
        return None
    first = column.iloc[0]
    return first._graph if type(first) is Node else None


def _as_node_level(index: pd.Index, graph: Any) -> Optional[pd.Index]:
    """``index`` with its ``node`` level (the ids of ``graph``'s nodes, as objects or
    ints) as the node array; None when there is no such level or it holds other values."""
    if "node" not in index.names:
        return None
    multi = isinstance(index, pd.MultiIndex)
    at = index.names.index("node")
    level = index.levels[at] if multi else index
    if isinstance(level.dtype, NodeDtype) or not len(level):
        return None
    try:
        ids = np.asarray(level, dtype=np.int64)
    except (TypeError, ValueError):
        return None
    if ids.min() < 0 or ids.max() >= graph.num_nodes:
        return None
    nodes = node_array(ids, graph)
    if multi:
        return index.set_levels(nodes, level=at, verify_integrity=False)
    return pd.Index(nodes, name="node")


def as_hatchet_frame(df: pd.DataFrame, fmt: Optional[str] = None) -> pd.DataFrame:
    """``df`` with Hatchet's column types (:func:`hatchet_column_types`), as a
    :class:`HatchetFrame` (sharing ``df``'s data).

    Examples
    --------
    >>> out = as_hatchet_frame(pd.DataFrame({"t": [1.0]}))
    >>> type(out).__name__, as_hatchet_frame(out) is out
    ('HatchetFrame', True)
    """
    out = hatchet_column_types(df, fmt)
    return out if isinstance(out, HatchetFrame) else HatchetFrame(out, copy=False)


def plain_frame(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as a plain pandas DataFrame (sharing its data) when it is a :class:`HatchetFrame`.

    A Thicket's frames keep Hatchet's column types but are plain DataFrames: their
    ``reset_index`` gives the ``Int64`` node column (see ``docs/guide/coming-from-hatchet.md``).

    Examples
    --------
    >>> type(plain_frame(as_hatchet_frame(pd.DataFrame({"t": [1.0]})))).__name__
    'DataFrame'
    """
    return pd.DataFrame(df, copy=False) if isinstance(df, HatchetFrame) else df
