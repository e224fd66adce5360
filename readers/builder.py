"""ProfileBuilder: the small helper readers use to assemble a RawProfile.

Two paths feed the same tables:

* the row path (``add_node``, ``add_edge``, ``add_row``) for small inputs and
  for formats that arrive one record at a time;
* the bulk path (``add_nodes``, ``add_edges``, ``add_rows``) that takes numpy
  arrays, for large inputs decoded in blocks.

``build`` concatenates everything once and validates the result, so a reader
either returns a complete, consistent profile or raises ``ProfileError``.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

import numpy as np
import pandas as pd

from .columns import Columns
from .profile import NODE, PARENT, RawProfile


class ProfileBuilder:
    """Collects nodes, edges and metric rows, then builds a RawProfile.

    Parameters
    ----------
    source : str, optional
        The file being read; named in every error.
    index_levels : sequence of str
        Row index levels after ``node`` (``("rank",)``, ``("rank", "thread")``).

    Examples
    --------
    >>> b = ProfileBuilder("example", index_levels=("rank",))
    >>> main = b.add_node({"name": "main", "type": "function"})
    >>> solve = b.add_node({"name": "solve", "type": "function"}, parent=main)
    >>> b.add_row(main, {"time": 1.0}, rank=0)
    >>> b.add_row(solve, {"time": 4.0}, rank=0)
    >>> raw = b.build(exc_metrics=["time"], default_metric="time")
    >>> raw.num_nodes, list(raw.metrics.columns)
    (2, ['node', 'rank', 'time'])
    """

    def __init__(self, source: Any = None, index_levels: Sequence[str] = ()) -> None:
        self.source = source
        self.index_levels = tuple(index_levels)
        self._next_id = 0
        self._node_rows: List[Dict[str, Any]] = []
        self._node_col_rows: List[Dict[str, Any]] = []
        self._node_blocks: List[pd.DataFrame] = []
        self._node_col_blocks: List[pd.DataFrame] = []
        self._edges: List[tuple] = []
        self._edge_blocks: List[pd.DataFrame] = []
        self._metric_rows: List[Dict[str, Any]] = []
        self._metric_blocks: List[pd.DataFrame] = []
        self._uses_node_columns = False

    # ------------------------------------------------------------ row path
    def add_node(
        self,
        frame: Mapping[str, Any],
        parent: int = -1,
        *,
        columns: Optional[Mapping[str, Any]] = None,
        node_id: Optional[int] = None,
    ) -> int:
        """Add one node; return its local id.

        ``frame`` holds the frame attributes, ``columns`` optional per-node
        dataframe columns, ``node_id`` a reader-chosen id (default: the next
        free integer).
        """
        nid = self._next_id if node_id is None else int(node_id)
        self._next_id = max(self._next_id, nid + 1)
        row = {NODE: nid, PARENT: -1 if parent is None else int(parent)}
        row.update(frame)
        self._node_rows.append(row)
        if columns is not None:
            self._uses_node_columns = True
        self._node_col_rows.append(dict(columns) if columns is not None else {})
        return nid

    def add_edge(self, parent: int, child: int) -> None:
        """Add an extra parent -> child edge (a second or later parent)."""
        self._edges.append((int(parent), int(child)))

    def add_row(self, node: int, values: Mapping[str, Any], **levels: int) -> None:
        """Add one metric row for ``node`` at the given index levels."""
        row: Dict[str, Any] = {NODE: int(node)}
        for level in self.index_levels:
            row[level] = int(levels.get(level, 0))
        row.update(values)
        self._metric_rows.append(row)

    # ----------------------------------------------------------- bulk path
    def add_nodes(
        self,
        parents: Iterable[int],
        frames: Mapping[str, Sequence[Any]],
        *,
        columns: Optional[Mapping[str, Sequence[Any]]] = None,
        node_ids: Optional[Iterable[int]] = None,
    ) -> np.ndarray:
        """Add a block of nodes from arrays; return their local ids.

        Numpy (or pandas extension) arrays are kept as they are, not copied:
        do not modify them afterwards.
        """
        self._flush_node_rows()
        parents = np.asarray(parents, dtype=np.int64)
        if node_ids is None:
            ids = np.arange(self._next_id, self._next_id + len(parents), dtype=np.int64)
        else:
            ids = np.asarray(node_ids, dtype=np.int64)
        if len(ids):
            self._next_id = max(self._next_id, int(ids.max()) + 1)
        self._node_blocks.append(_block({NODE: ids, PARENT: parents, **dict(frames)}))
        if columns is not None:
            self._uses_node_columns = True
            self._node_col_blocks.append(_block(dict(columns)))
        else:
            self._node_col_blocks.append(pd.DataFrame(index=range(len(ids))))
        return ids

    def add_edges(self, parents: Iterable[int], children: Iterable[int],
                  order: Optional[Iterable[int]] = None) -> None:
        """Add a block of extra edges.

        ``order`` places each edge among its parent's children (the RawProfile
        ``edges.order`` column: compared with the local ids of the children
        reached by first-parent edges). Give it for every block or for none; a
        block with ``order`` and no edges still asks for children by id.
        """
        block = {PARENT: np.asarray(parents, dtype=np.int64),
                 "child": np.asarray(children, dtype=np.int64)}
        if order is not None:
            block["order"] = np.asarray(order, dtype=np.int64)
        self._edge_blocks.append(pd.DataFrame(block))

    def add_rows(
        self,
        nodes: Iterable[int],
        columns: Mapping[str, Sequence[Any]],
        **levels: Any,
    ) -> None:
        """Add a block of metric rows; ``levels`` give arrays or scalars (arrays are
        kept, not copied, as in :meth:`add_nodes`)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        data: Dict[str, Any] = {NODE: nodes}
        for level in self.index_levels:
            value = levels.get(level, 0)
            data[level] = np.broadcast_to(np.asarray(value, dtype=np.int64), nodes.shape)
        data.update(columns)
        self._metric_blocks.append(_block(data))

    # --------------------------------------------------------------- build
    def build(
        self,
        exc_metrics: Sequence[str] = (),
        inc_metrics: Sequence[str] = (),
        *,
        inclusive_of: Optional[Mapping[str, str]] = None,
        default_metric: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        ordered: bool = False,
        columns: Optional[Sequence[str]] = None,
        aggregations: Optional[Mapping[str, str]] = None,
    ) -> RawProfile:
        """Concatenate the collected tables, validate them, return a RawProfile.

        ``aggregations`` (column -> ``"sum"``/``"min"``/``"max"``/``"mean"``/
        ``"first"``) says how columns combine when rows merge; see
        :class:`RawProfile`.
        """
        self._flush_node_rows()
        nodes = _concat(self._node_blocks, [NODE, PARENT])
        node_columns = None
        if self._uses_node_columns:
            node_columns = _concat(self._node_col_blocks, [])
        edges = None
        if self._edges or self._edge_blocks:
            blocks = list(self._edge_blocks)
            if self._edges:
                arr = np.asarray(self._edges, dtype=np.int64)
                blocks.append(pd.DataFrame({PARENT: arr[:, 0], "child": arr[:, 1]}))
            edges = pd.concat(blocks, ignore_index=True)
        metric_blocks = list(self._metric_blocks)
        if self._metric_rows:
            metric_blocks.append(pd.DataFrame.from_records(self._metric_rows))
        metrics = _concat(metric_blocks, [NODE, *self.index_levels])
        meta = {"source": None if self.source is None else str(self.source)}
        meta.update(metadata or {})
        raw = RawProfile(
            nodes=nodes,
            metrics=metrics,
            index_levels=self.index_levels,
            node_columns=node_columns,
            edges=edges,
            exc_metrics=tuple(exc_metrics),
            inc_metrics=tuple(inc_metrics),
            inclusive_of=dict(inclusive_of or {}),
            default_metric=default_metric,
            metadata=meta,
            ordered=ordered,
            columns=None if columns is None else tuple(columns),
            aggregations=dict(aggregations or {}),
        )
        return raw.validate(self.source)

    # ------------------------------------------------------------ internal
    def _flush_node_rows(self) -> None:
        if not self._node_rows:
            return
        self._node_blocks.append(records_to_frame(self._node_rows))
        self._node_col_blocks.append(records_to_frame(self._node_col_rows))
        self._node_rows = []
        self._node_col_rows = []


def records_to_frame(rows: List[Dict[str, Any]]) -> pd.DataFrame:
    """Column-wise conversion that keeps integer attributes integral.

    ``DataFrame.from_records`` turns an integer column with a missing entry
    into floats (``line`` 3 would read back as 3.0); frame attributes must keep
    their values exactly, so such columns stay ``object``.
    """
    names: Dict[str, None] = {}
    for row in rows:
        for key in row:
            names.setdefault(key)
    data = {}
    for key in names:
        values = [row.get(key) for row in rows]
        column = pd.Series(values)
        if column.dtype.kind == "f" and any(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
            column = pd.Series(values, dtype=object)
        data[key] = column
    return pd.DataFrame(data, index=range(len(rows)))


def _block(data: Dict[str, Any]) -> Any:
    """A block of rows: its columns as they are when they are all arrays (the
    RawProfile builds the DataFrame only if it is asked for), else a DataFrame."""
    if Columns.accepts(data):
        return Columns(data)
    return pd.DataFrame(data)  # one DataFrame from a dict: inserting columns costs ~0.5 ms each


def _concat(blocks: List[Any], required: List[str]) -> Any:
    """One table from the blocks: the only block as it is (columns or a DataFrame
    with a fresh row index), or the concatenated DataFrames."""
    if not blocks:
        return Columns({c: np.zeros(0, dtype=np.int64) for c in required})
    if len(blocks) == 1:
        block = blocks[0]
        return block if isinstance(block, Columns) else block.reset_index(drop=True)
    frames = [b.frame() if isinstance(b, Columns) else b for b in blocks]
    return pd.concat(frames, ignore_index=True, sort=False)
