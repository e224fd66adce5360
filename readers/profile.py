"""RawProfile: the neutral tables every reader returns.

A reader turns a file into a :class:`RawProfile` and knows nothing else; the
model (``graphframe.GraphFrame.from_raw``) turns a RawProfile into a graph and a
dataframe. The tables are plain pandas/numpy objects so that any front end can
consume them.

Layout
------
``nodes``
    One row per call-path node. Column ``node`` holds the reader's local id
    (unique integers, any order), ``parent`` the local id of the node's first
    parent (``-1`` for a root). Every other column is a *frame attribute*
    (``name``, ``type``, ``file``, ``line``, ...). A missing value (``None`` or
    NaN) means the key is absent from that node's frame.
``node_columns``
    Optional per-node columns for the dataframe, aligned row for row with
    ``nodes`` (for example HPCToolkit's ``name``, ``nid``, ``type``, ``file``,
    ``line``, ``module``). When absent the dataframe gets a ``name`` column
    taken from the frame's ``name``.
``edges``
    Optional extra ``(parent, child)`` pairs for nodes with several parents
    (call graphs). Together with ``parent`` they give every edge once. An
    optional integer ``order`` column places each extra edge among its
    parent's children: children are listed by their first-parent edge's
    child id and the extra edges' ``order`` (without it, first-parent edges in
    table order, then the extra edges; an empty table with an ``order``
    column lists children by child id).
``metrics``
    One row per (node, index levels...) with column ``node``, one column per
    entry of ``index_levels`` (``rank``, ``thread``...) and one column per
    metric or per-row attribute. Declared metrics are additive numbers; every
    other column is a non-additive attribute that operations never sum.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Tuple

import numpy as np
import pandas as pd

from .columns import Columns, TableField, arrays, num_rows, stored
from .errors import ProfileError

#: Column names reserved in ``nodes`` and ``metrics``.
NODE = "node"
PARENT = "parent"

#: How a column's values may combine when rows merge (``RawProfile.aggregations``).
AGGREGATIONS = ("sum", "min", "max", "mean", "first")
#: Aggregations that need numbers.
NUMERIC_AGGREGATIONS = ("sum", "mean")


@dataclass(frozen=True, eq=False)
class RawProfile:
    """Neutral result of decoding one profile.

    Parameters
    ----------
    nodes : pandas.DataFrame
        ``node``, ``parent`` and frame attribute columns (see module docs).
    metrics : pandas.DataFrame
        ``node``, the ``index_levels`` columns, metric and attribute columns.
    index_levels : tuple of str
        Row index levels after ``node``, e.g. ``("rank",)`` or
        ``("rank", "thread")``; empty for a single-process profile.
    node_columns : pandas.DataFrame, optional
        Per-node dataframe columns aligned with ``nodes``.
    edges : pandas.DataFrame, optional
        Extra ``parent``/``child`` edges for nodes with several parents.
    exc_metrics, inc_metrics : tuple of str
        Exclusive and inclusive metric columns, in display order.
    inclusive_of : mapping
        Exclusive metric -> its inclusive partner (``{"time": "time (inc)"}``).
    default_metric : str, optional
        The metric shown by default (``tree()``, ``to_flamegraph``...).
    metadata : mapping
        Anything the file records: format, source path, tool version...
    ordered : bool
        True when sibling order in the source is meaningful (Caliper's node
        order) and must be kept instead of sorting siblings by frame.
    columns : tuple of str, optional
        Preferred order of the dataframe columns.
    aggregations : mapping, optional
        Column -> how its values combine when rows merge (squash merging
        siblings, unify merging rows): one of ``"sum"``, ``"min"``,
        ``"max"``, ``"mean"``, ``"first"``. A column not listed: ``"sum"``
        for declared metrics, ``"first"`` for every other column. Only
        ``"sum"`` metrics get inclusive partners. Declare ``"max"`` for a
        maximum over calls, ``"mean"`` for an average, and so on.

    Examples
    --------
    >>> import pandas as pd
    >>> raw = RawProfile(
    ...     nodes=pd.DataFrame({"node": [0, 1], "parent": [-1, 0],
    ...                         "name": ["main", "solve"]}),
    ...     metrics=pd.DataFrame({"node": [0, 1], "time": [1.0, 4.0]}),
    ...     exc_metrics=("time",))
    >>> raw.validate("example").num_nodes
    2
    """

    # tables given as DataFrames, or as columns (name -> array) turned into a
    # DataFrame on first access (see graphframe_readers.columns)
    nodes: pd.DataFrame = TableField()  # type: ignore[assignment]
    metrics: pd.DataFrame = TableField()  # type: ignore[assignment]
    index_levels: Tuple[str, ...] = ()
    node_columns: Optional[pd.DataFrame] = TableField(optional=True)  # type: ignore[assignment]
    edges: Optional[pd.DataFrame] = None
    exc_metrics: Tuple[str, ...] = ()
    inc_metrics: Tuple[str, ...] = ()
    inclusive_of: Mapping[str, str] = field(default_factory=dict)
    default_metric: Optional[str] = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    ordered: bool = False
    columns: Optional[Tuple[str, ...]] = None
    aggregations: Mapping[str, str] = field(default_factory=dict)
    #: set by a successful :meth:`validate`; tables must not change afterwards
    validated: bool = field(default=False, init=False, repr=False, compare=False)

    # ------------------------------------------------------------------ views
    @property
    def num_nodes(self) -> int:
        """Number of call-path nodes."""
        return num_rows(self, "nodes")

    @property
    def frame_columns(self) -> Tuple[str, ...]:
        """Frame attribute columns of ``nodes``, in table order."""
        return tuple(c for c in self.table_arrays("nodes") if c not in (NODE, PARENT))

    @property
    def metric_columns(self) -> Tuple[str, ...]:
        """Declared metrics: exclusive first, then inclusive."""
        return tuple(self.exc_metrics) + tuple(
            m for m in self.inc_metrics if m not in self.exc_metrics
        )

    def display_names(self) -> pd.Series:
        """Per-node display name (``node_columns['name']`` or frame ``name``)."""
        if self.node_columns is not None and "name" in self.node_columns.columns:
            return self.node_columns["name"].reset_index(drop=True)
        return self.nodes["name"].reset_index(drop=True)

    def table_arrays(self, table: str) -> Optional[Mapping[str, Any]]:
        """The columns of ``"nodes"``, ``"metrics"`` or ``"node_columns"`` as a mapping
        name -> array (numpy, or a pandas extension array for extension dtypes),
        without building a DataFrame; None for an absent ``node_columns``.

        Examples
        --------
        >>> raw = RawProfile(nodes={"node": np.array([0]), "parent": np.array([-1]),
        ...                         "name": np.array(["main"], dtype=object)},
        ...                  metrics={"node": np.array([0]), "time": np.array([1.5])})
        >>> raw.table_arrays("metrics")["time"].tolist(), raw.table_arrays("node_columns")
        ([1.5], None)
        >>> raw.metrics["time"].tolist()  # the DataFrame, built when asked for
        [1.5]
        """
        if table not in ("nodes", "metrics", "node_columns"):
            raise ValueError(f"no table {table!r}: use 'nodes', 'metrics' or 'node_columns'")
        return arrays(self, table)

    def with_changes(self, **changes: Any) -> "RawProfile":
        """Return a copy with some fields replaced (the tables are shared)."""
        return replace(self, **changes)

    # ------------------------------------------------------------- validation
    def validate(self, source: Any = None) -> "RawProfile":
        """Check that the tables describe one consistent profile.

        Returns ``self`` so it can be chained. Raises :class:`ProfileError`
        naming ``source`` and the offending node/row when anything is off:
        duplicate or unknown ids, a parent chain that loops, duplicate rows,
        undeclared metrics, a node without a frame or a name.
        """
        src = source if source is not None else self.metadata.get("source")
        nodes = _table(self, "nodes", src)
        ids = _int_column(nodes, NODE, src, "nodes")
        parents = _int_column(nodes, PARENT, src, "nodes")
        _check_unique_ids(ids, src)
        position = _positions(ids, parents, src, "parent of node")
        _check_frames(nodes, src)
        node_columns = None if stored(self, "node_columns") is None else \
            _table(self, "node_columns", src)
        _check_names(nodes, node_columns, src)
        if node_columns is not None and num_rows(self, "node_columns") != len(ids):
            raise ProfileError(
                src, f"node_columns has {num_rows(self, 'node_columns')} rows for {len(ids)} "
                "nodes", position="node_columns", expected="one row per node")
        if self.edges is not None and len(self.edges):
            edges = Columns({c: self.edges[c].to_numpy() for c in self.edges.columns})
            for col in (PARENT, "child"):
                _positions(ids, _int_column(edges, col, src, "edges"), src,
                           f"edge {col}", allow_root=False)
        _check_acyclic_parents(ids, position, src)
        metrics = _table(self, "metrics", src)
        _check_metrics(self, metrics, ids, src)
        _check_aggregations(self, metrics, node_columns, src)
        object.__setattr__(self, "validated", True)
        return self


# ---------------------------------------------------------------- helpers
Table = Mapping[str, Any]


def _table(raw: RawProfile, name: str, src: Any) -> Table:
    """Table ``name`` as columns, all of one length."""
    held = stored(raw, name)
    if not isinstance(held, (pd.DataFrame, Columns)):
        raise ProfileError(src, f"the {name} table is a {type(held).__name__}",
                           position=name, expected="a DataFrame or a mapping column -> array")
    columns = arrays(raw, name)
    lengths = {len(v) for v in columns.values()}
    if len(lengths) > 1:
        first = len(next(iter(columns.values())))
        bad = next(c for c, v in columns.items() if len(v) != first)
        raise ProfileError(src, f"column {bad!r} of the {name} table has {len(columns[bad])} rows "
                           f"where the others have {first}", position=name,
                           expected="columns of one length")
    return columns


def _int_column(table: Table, col: str, src: Any, where: str) -> np.ndarray:
    if col not in table:
        raise ProfileError(src, f"the {where} table has no '{col}' column",
                           position=where, expected=f"a '{col}' column")
    values = np.asarray(table[col])
    if values.dtype.kind not in "iu":
        try:
            converted = values.astype(np.int64)
        except (TypeError, ValueError) as exc:
            raise ProfileError(src, f"column '{col}' holds non-integer ids",
                               position=where, expected="integer ids") from exc
        if values.dtype.kind == "f" and not np.array_equal(converted, values):
            raise ProfileError(src, f"column '{col}' holds non-integer ids",
                               position=where, expected="integer ids")
        values = converted
    return values.astype(np.int64, copy=False)


def _check_unique_ids(ids: np.ndarray, src: Any) -> None:
    if len(ids) == 0:
        raise ProfileError(src, "the profile has no nodes", position="nodes",
                           expected="at least one node")
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    dup = np.flatnonzero(sorted_ids[1:] == sorted_ids[:-1])
    if len(dup):
        raise ProfileError(src, f"node id {sorted_ids[dup[0]]} is used twice",
                           position="nodes", expected="unique node ids")


def _positions(ids, refs, src, what, allow_root=True) -> np.ndarray:
    """Map local ids in ``refs`` to row positions in ``ids`` (-1 stays -1)."""
    n = len(ids)
    if n and ids[0] == 0 and ids[-1] == n - 1 and np.array_equal(ids, np.arange(n)):
        bad = (refs >= n) | (refs < (-1 if allow_root else 0))
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise ProfileError(src, f"{what} refers to unknown node id {int(refs[first])}",
                               position=f"row {first}",
                               expected="the id of a node in the nodes table")
        return refs.astype(np.int64, copy=False)
    is_root = refs == -1
    table = id_table(ids)
    if table is not None:  # ids are small non-negative integers: one lookup table
        inside = (refs >= 0) & (refs < len(table))
        out = np.where(inside, table[np.where(inside, refs, 0)], -1)
        found = out >= 0
    else:
        order = np.argsort(ids, kind="stable")
        sorted_ids = ids[order]
        idx_clipped = np.minimum(np.searchsorted(sorted_ids, refs), len(ids) - 1)
        found = sorted_ids[idx_clipped] == refs
        out = np.where(found, order[idx_clipped], -1)
    bad = ~found & ~(is_root & allow_root)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ProfileError(src, f"{what} refers to unknown node id {int(refs[first])}",
                           position=f"row {first}", expected="the id of a node in the nodes table")
    return out.astype(np.int64, copy=False)


def id_table(ids: np.ndarray) -> Optional[np.ndarray]:
    """``table[id]`` = row position of each id (``-1`` for a number that is not
    one), when the ids are unique non-negative integers below ``4 n + 1024``;
    None otherwise (a table would be too large: sort and search instead).

    Examples
    --------
    >>> id_table(np.array([5, 0, 2])).tolist()
    [1, -1, 2, -1, -1, 0]
    >>> id_table(np.array([10 ** 9])) is None
    True
    """
    n = len(ids)
    if not n or int(ids.min()) < 0 or int(ids.max()) >= 4 * n + 1024:
        return None
    table = np.full(int(ids.max()) + 1, -1, dtype=np.int64)
    table[ids] = np.arange(n, dtype=np.int64)
    return table


def _check_frames(nodes: Table, src: Any) -> None:
    cols = [c for c in nodes if c not in (NODE, PARENT)]
    if not cols:
        raise ProfileError(src, "nodes have no frame attributes", position="nodes",
                           expected="at least a 'name' column")
    present = np.zeros(len(nodes[NODE]), dtype=bool)
    for col in cols:
        present |= ~np.asarray(pd.isna(nodes[col]), dtype=bool)
    if not present.all():
        row = int(np.flatnonzero(~present)[0])
        raise ProfileError(src, f"node {nodes[NODE][row]} has an empty frame",
                           position=f"nodes row {row}", expected="at least one frame attribute")


def _check_names(nodes: Table, node_columns: Optional[Table], src: Any) -> None:
    if not ((node_columns is not None and "name" in node_columns) or "name" in nodes):
        raise ProfileError(src, "nodes have no display name", position="nodes",
                           expected="a 'name' frame attribute or node column")


def _check_acyclic_parents(ids: np.ndarray, parent_pos: np.ndarray, src: Any) -> None:
    """Every primary parent chain must end at a root (pointer jumping)."""
    jump = parent_pos.copy()
    for _ in range(64):  # 2**64 levels: more than any chain can have
        active = jump >= 0
        if not active.any():
            return
        nxt = jump.copy()
        nxt[active] = jump[jump[active]]
        if np.array_equal(nxt, jump):
            break
        jump = nxt
    stuck = np.flatnonzero(jump >= 0)
    if len(stuck):
        raise ProfileError(src, f"the parent chain of node {ids[stuck[0]]} forms a cycle",
                           position="nodes", expected="parent chains that end at a root")


def _check_metrics(raw: RawProfile, m: Table, ids: np.ndarray, src: Any) -> None:
    node_ids = _int_column(m, NODE, src, "metrics")
    _positions(ids, node_ids, src, "metrics row", allow_root=False)
    levels = [_int_column(m, level, src, "metrics") for level in raw.index_levels]
    for name in list(raw.exc_metrics) + list(raw.inc_metrics):
        if name not in m:
            raise ProfileError(src, f"declared metric '{name}' has no column",
                               position="metrics", expected=f"a column named '{name}'")
    for exc, inc in raw.inclusive_of.items():
        if exc not in raw.exc_metrics or inc not in raw.inc_metrics:
            raise ProfileError(src, f"inclusive pairing {exc!r} -> {inc!r} names undeclared metrics",
                               position="inclusive_of", expected="declared metric names")
    if raw.default_metric is not None and raw.default_metric not in m:
        raise ProfileError(src, f"default metric '{raw.default_metric}' has no column",
                           position="metrics", expected="a metric column")
    _check_unique_rows(node_ids, levels, raw.index_levels, src)


def _check_aggregations(raw: RawProfile, m: Table, node_columns: Optional[Table],
                        src: Any) -> None:
    """Every entry names a dataframe column and a known way to combine it."""
    if not isinstance(raw.aggregations, Mapping):
        raise ProfileError(src, f"aggregations is a {type(raw.aggregations).__name__}",
                           position="aggregations", expected="a mapping column -> kind")
    reserved = {NODE, *raw.index_levels}
    node_cols = list(node_columns) if node_columns is not None else ["name"]
    for col, kind in raw.aggregations.items():
        if col in reserved or (col not in m and col not in node_cols):
            raise ProfileError(src, f"aggregation declared for {col!r}, which is not a column",
                               position="aggregations", expected="a metric or attribute column")
        if kind not in AGGREGATIONS:
            raise ProfileError(src, f"unknown aggregation {kind!r} for column {col!r}",
                               position="aggregations", expected=" or ".join(AGGREGATIONS))
        if kind in NUMERIC_AGGREGATIONS and col in m \
                and not pd.api.types.is_numeric_dtype(m[col]):
            raise ProfileError(src, f"aggregation {kind!r} for the non-numeric column {col!r}",
                               position="aggregations", expected="'min', 'max' or 'first'")


def _check_unique_rows(node_ids: np.ndarray, levels, names, src) -> None:
    if not len(node_ids):
        return
    key_cols = [node_ids] + list(levels)
    key = np.zeros(len(node_ids), dtype=np.int64)
    span = 1
    for col in key_cols:  # in place: at 16M rows every temporary is 128 MB
        lo, hi = int(col.min()), int(col.max())
        size = hi - lo + 1
        if span * size > 1 << 62:  # too wide to combine: fall back to hashing
            span = None
            break
        key *= size
        key += col
        key -= lo
        span *= size
    if span is not None and span <= max(1 << 27, 4 * len(node_ids)):
        seen = np.zeros(span, dtype=bool)
        seen[key] = True
        if int(np.count_nonzero(seen)) == len(node_ids):
            return
        dup = _first_duplicate_sorted(key)
    else:
        frame = pd.DataFrame({str(i): c for i, c in enumerate(key_cols)})
        flags = frame.duplicated().to_numpy()
        if not flags.any():
            return
        dup = int(np.flatnonzero(flags)[0])
    where = ", ".join(f"{n}={c[dup]}" for n, c in zip([NODE, *names], key_cols))
    raise ProfileError(src, f"two metric rows for ({where})", position=f"metrics row {dup}",
                       expected="one row per node and index level")


def _first_duplicate_sorted(key: np.ndarray) -> int:
    order = np.argsort(key, kind="stable")
    sk = key[order]
    same = np.flatnonzero(sk[1:] == sk[:-1])
    return int(order[same[0] + 1]) if len(same) else 0
