"""GraphFrame: a call graph plus a dataframe of metrics indexed by (node, rank...).

The class holds the fields and thin methods; the work happens in ``build``
(RawProfile -> parts), ``ops/`` (operations), ``render/`` (text output) and the
export modules.
"""

from __future__ import annotations

import copy as _copy
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

import readers
from readers import RawProfile
from readers.hatchet_json import parse_hatchet_json
from readers.jsonfile import loads_json
from readers.literal import parse_literal

from . import diffing, export, persist
from .build import level_ids, parts_from_raw, private_copy
from .errors import GraphMismatchError
from .graph import Graph
from .metrics import default_pairs
from .ops import aggregate, arithmetic, inclusive
from .ops import filter as filtering
from .ops import squash as squashing
from .ops import union
from .query import matched_nodes
from .reader_constructors import ReaderConstructors
from .render.diff_tree import render_diff_tree
from .render.dot import render_dot
from .render.flamegraph import render_flamegraph
from .render.html import render_html, summary
from .render.speedscope import render_speedscope
from .render.tree import render_tree


class GraphFrame(ReaderConstructors):
    """A call graph and its metrics.

    Parameters
    ----------
    graph : Graph
        The structure; node ids are the dataframe's ``node`` level.
    dataframe : pandas.DataFrame
        Metrics and attributes, indexed by ``node`` then optional ``rank`` /
        ``thread`` levels.
    exc_metrics, inc_metrics : list of str, optional
        Exclusive and inclusive metric columns.
    default_metric : str
        The metric ``tree()`` and friends show by default.
    metadata : mapping, optional
        Copied; never shared between GraphFrames.
    inclusive_of : mapping, optional
        Exclusive metric -> inclusive partner; derived from the names
        (``X`` -> ``X (inc)``, ``X (exc)`` -> ``X``) when omitted.

    Examples
    --------
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    >>> gf.dataframe[["name", "time", "time (inc)"]]
           name  time  time (inc)
    node
    0      main   1.0         4.0
    1        io   1.0         1.0
    2     solve   1.0         2.0
    3       mpi   1.0         1.0
    >>> print(gf.tree(render_header=False), end="")
    1.000 main
    ├─ 1.000 io
    └─ 1.000 solve
       └─ 1.000 mpi
    """

    def __init__(
        self,
        graph: Graph,
        dataframe: pd.DataFrame,
        exc_metrics: Optional[Sequence[str]] = None,
        inc_metrics: Optional[Sequence[str]] = None,
        default_metric: Optional[str] = "time",
        metadata: Optional[Mapping[str, Any]] = None,
        inclusive_of: Optional[Mapping[str, str]] = None,
    ) -> None:
        if graph is None:
            raise ValueError("GraphFrame needs a graph")
        if dataframe is None:
            raise ValueError("GraphFrame needs a dataframe")
        if "node" not in dataframe.index.names:
            raise GraphMismatchError("the dataframe index has no 'node' level")
        _check_node_ids(graph, dataframe)
        self.graph = graph
        self.dataframe = dataframe
        self.exc_metrics: List[str] = list(exc_metrics or [])
        self.inc_metrics: List[str] = list(inc_metrics or [])
        self.default_metric = default_metric
        self.metadata: Dict[str, Any] = dict(metadata or {})
        pairs = default_pairs(self.exc_metrics, self.inc_metrics)
        pairs.update(inclusive_of or {})
        self.inclusive_of: Dict[str, str] = pairs

    # ------------------------------------------------------- construction
    @classmethod
    def from_raw(cls, raw: RawProfile) -> "GraphFrame":
        """Build a GraphFrame from a reader's :class:`~readers.RawProfile`."""
        return cls(**parts_from_raw(raw))

    @classmethod
    def from_literal(cls, graph_dict: Sequence[Mapping[str, Any]]) -> "GraphFrame":
        """Build from Hatchet's literal format (a list of nested node dicts).

        Examples
        --------
        >>> gf = GraphFrame.from_literal([{"frame": {"name": "a"},
        ...     "metrics": {"time": 1.0}, "children": [
        ...     {"frame": {"name": "b"}, "metrics": {"time": 2.0}}]}])
        >>> gf.dataframe["time"].tolist()
        [1.0, 2.0]
        """
        return cls.from_raw(parse_literal(graph_dict, source="<literal>"))

    @classmethod
    def from_lists(cls, *lists: Any) -> "GraphFrame":
        """A GraphFrame with ``time`` = 1.0 per node over ``Graph.from_lists``."""
        graph = Graph.from_lists(*lists)
        n = graph.num_nodes
        names = graph.attrs["name"].to_numpy(dtype=object)
        df = pd.DataFrame({"time": np.ones(n), "name": names},
                          index=pd.Index(np.arange(n, dtype=np.int64), name="node"))
        gf = cls(graph, df, ["time"], [], default_metric="time")
        return gf.update_inclusive_columns()

    @classmethod
    def from_json(cls, json_spec: str) -> "GraphFrame":
        """Inverse of :meth:`to_json` (also reads Hatchet's ``to_json`` output)."""
        return cls.from_raw(parse_hatchet_json(loads_json(json_spec, "<json>"), "<json>"))

    @classmethod
    def read(cls, path: Any, format: Optional[str] = None, **options: Any) -> "GraphFrame":
        """Read any supported profile; see :func:`graphframe.read`."""
        return cls.from_raw(readers.read(path, format=format, **options))


    # ------------------------------------------------------------- copies
    def copy(self) -> "GraphFrame":
        """A new GraphFrame sharing the (immutable) graph; dataframe copied."""
        return GraphFrame(self.graph, private_copy(self.dataframe), self.exc_metrics,
                          self.inc_metrics, self.default_metric,
                          _copy.copy(self.metadata), self.inclusive_of)

    def deepcopy(self) -> "GraphFrame":
        """Like :meth:`copy` with a deep copy of the dataframe and metadata."""
        return GraphFrame(self.graph.copy(), self.dataframe.copy(deep=True),
                          list(self.exc_metrics), list(self.inc_metrics),
                          self.default_metric, _copy.deepcopy(self.metadata),
                          dict(self.inclusive_of))

    def _replace(self, **changes: Any) -> "GraphFrame":
        fields = dict(graph=self.graph, dataframe=self.dataframe,
                      exc_metrics=self.exc_metrics, inc_metrics=self.inc_metrics,
                      default_metric=self.default_metric, metadata=self.metadata,
                      inclusive_of=self.inclusive_of)
        fields.update(changes)
        return GraphFrame(**fields)

    # ------------------------------------------------------------ metrics
    def show_metric_columns(self) -> List[str]:
        """Exclusive then inclusive metric names (a new list)."""
        return list(self.exc_metrics) + list(self.inc_metrics)

    def update_inclusive_columns(self) -> "GraphFrame":
        """A new GraphFrame whose inclusive columns are recomputed from the exclusive ones.

        Each exclusive metric ``X`` gets its partner (``inclusive_of``; by
        default ``X (inc)``, or ``Y`` for ``Y (exc)``). Trees and forests are
        summed level by level over a (node x rank/thread) matrix; graphs with
        shared nodes count every distinct descendant once (Hatchet's rule).
        """
        return inclusive.update_inclusive_columns(self)

    def generate_exclusive_columns(self, inc_metrics: Optional[Sequence[str]] = None
                                   ) -> "GraphFrame":
        """A new GraphFrame with exclusive columns derived from inclusive ones.

        ``exc = inc - sum(inc of direct children)`` per row; ``X (inc)`` gives
        ``X``, any other inclusive ``Y`` gives ``Y (exc)``.
        """
        return inclusive.generate_exclusive_columns(self, inc_metrics)

    def subtree_sum(self, columns: Sequence[str], out_columns: Optional[Sequence[str]] = None,
                    function: Any = None) -> "GraphFrame":
        """A new GraphFrame with ``out_columns`` = sums of ``columns`` over each subtree.

        Trees and forests only (see :meth:`subgraph_sum` for call graphs).
        ``out_columns`` defaults to ``columns`` (overwritten in the copy).
        """
        return inclusive.sum_columns(self, columns, out_columns, function, require_forest=True)

    def subgraph_sum(self, columns: Sequence[str], out_columns: Optional[Sequence[str]] = None,
                     function: Any = None) -> "GraphFrame":
        """Like :meth:`subtree_sum` for any graph: each distinct descendant counted once."""
        return inclusive.sum_columns(self, columns, out_columns, function)

    # --------------------------------------------------------- operations
    def filter(self, filter_obj: Any, squash: bool = True, update_inc_cols: bool = True,
               num_procs: Any = None, rec_limit: Any = None,
               multi_index_mode: str = "off") -> "GraphFrame":
        """A new GraphFrame with the rows ``filter_obj`` selects.

        ``filter_obj`` is a boolean mask over the rows (fast), a callable on a
        row (``row["node"]`` is a Node), or a query. Squashed by default.
        Raises :class:`EmptyFilter` when nothing is left and
        :class:`InvalidFilter` for anything else.

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
        >>> kept = gf.filter(gf.dataframe["name"].isin(["a", "c", "f"]))
        >>> print(kept.tree(render_header=False), end="")
        1.000 a
        ├─ 1.000 c
        └─ 1.000 f
        >>> kept.dataframe.loc[0, "time (inc)"]
        np.float64(3.0)
        """
        return filtering.filter_rows(self, filter_obj, squash, update_inc_cols, num_procs,
                                     rec_limit, multi_index_mode)

    def squash(self, update_inc_cols: bool = True) -> "GraphFrame":
        """A new GraphFrame whose graph holds exactly the nodes that have rows.

        Kept nodes are rewired to their nearest kept ancestors, siblings with
        equal frames merge (metrics summed), ids are renumbered in pre-order
        and inclusive columns recomputed (unless ``update_inc_cols=False``).
        """
        return squashing.squash(self, update_inc_cols)

    def unify(self, other: "GraphFrame") -> "tuple[GraphFrame, GraphFrame]":
        """Both GraphFrames re-keyed onto the union of their graphs (new objects).

        Returns ``(self', other')``; neither input changes (Hatchet mutates
        both). ``self'`` gets Hatchet's extra rows for nodes only in ``other``
        and a ``_missing_node`` column when the node sets differ.
        """
        return union.unify(self, other)

    def add(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self + other`` on the unified graph (see ``graphframe.ops.arithmetic``).

        Examples
        --------
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> diff = b.sub(a, fill_value=0)
        >>> diff.dataframe[["name", "time", "time (inc)", "_missing_node"]]
               name  time  time (inc)  _missing_node
        node
        0      main   0.0         0.0              0
        1        io   1.0         1.0              1
        2     solve  -1.0        -1.0              2
        """
        return arithmetic.arithmetic(self, other, "add", fill_value)

    def sub(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self - other``; ``fill_value=0`` gives real deltas for added/removed nodes."""
        return arithmetic.arithmetic(self, other, "sub", fill_value)

    def mul(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self * other`` on the unified graph."""
        return arithmetic.arithmetic(self, other, "mul", fill_value)

    def div(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self / other`` on the unified graph."""
        return arithmetic.arithmetic(self, other, "div", fill_value)

    def __add__(self, other: "GraphFrame") -> "GraphFrame":
        return self.add(other)

    def __sub__(self, other: "GraphFrame") -> "GraphFrame":
        return self.sub(other)

    def __mul__(self, other: "GraphFrame") -> "GraphFrame":
        return self.mul(other)

    def __truediv__(self, other: "GraphFrame") -> "GraphFrame":
        return self.div(other)

    # in-place forms rebind the name to a new object; the old one is unchanged
    __iadd__ = __add__
    __isub__ = __sub__
    __imul__ = __mul__
    __itruediv__ = __truediv__

    def drop_index_levels(self, function: Any = np.mean) -> "GraphFrame":
        """A new GraphFrame indexed by ``node`` only; metrics aggregated with ``function``."""
        return aggregate.drop_index_levels(self, function)

    def groupby_aggregate(self, groupby_function: Any, agg_function: Any) -> "GraphFrame":
        """A new GraphFrame whose nodes are groups of rows (e.g. by ``module``)."""
        return aggregate.groupby_aggregate(self, groupby_function, agg_function)

    # ---- query language methods (issue 7) ----
    def query(self, query: Any, multi_index_mode: str = "off") -> List[Any]:
        """The nodes on any call path matching ``query``, in pre-order.

        ``query`` is an object-dialect list, a string-dialect query or a query
        object (see ``docs/query.md``); ``gf.filter(query)`` keeps their rows.

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
        >>> [n.frame["name"] for n in gf.query([{"name": "MPI_.*"}, "*"])]
        ['MPI_Send', 'ibv_post', 'MPI_Recv']
        >>> gf.filter('MATCH (p)->(q) WHERE p."name" = "solve"').dataframe["name"].tolist()
        ['solve', 'MPI_Recv']
        """
        ids = matched_nodes(self, query, multi_index_mode=multi_index_mode)
        return [self.graph.node(int(i)) for i in ids]

    # ---- end of query language methods ----

    # ------------------------------------------------------------- output
    def tree(self, metric_column: Union[None, str, Sequence[str]] = None, **options: Any) -> str:
        """Render the graph as text, Hatchet style. See :func:`render_tree`."""
        return render_tree(self, metric_column=metric_column, **options)

    def to_literal(self, name: str = "name", rank: int = 0, thread: int = 0,
                   cat_columns: Sequence[str] = (), include_nid: Optional[bool] = None
                   ) -> List[Dict[str, Any]]:
        """Hatchet's literal format; see :func:`graphframe.export.to_literal`."""
        return export.to_literal(self, name=name, rank=rank, thread=thread,
                                 cat_columns=cat_columns, include_nid=include_nid)

    def to_dict(self) -> Dict[str, Any]:
        """Hatchet's ``to_dict`` layout plus our declarations; see ``export``."""
        return export.to_dict(self)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (NaN written as ``null``).

        Returns
        -------
        str
            Hatchet's ``to_json`` layout plus our declarations
            (``default_metric``, ``metadata``, ``column_order``);
            :meth:`from_json` reads it back losslessly.

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> back = GraphFrame.from_json(gf.to_json())
        >>> back.dataframe["time (inc)"].tolist(), back.graph == gf.graph
        ([2.0, 1.0], True)
        """
        return export.to_json(self)

    # ---- diff, exports, persistence, notebook (issue 8) ----
    def diff(self, after: "GraphFrame", metric: Union[None, str, Sequence[str]] = None,
             **options: Any) -> "GraphFrame":
        """Changes from ``self`` (before) to ``after``; see :func:`graphframe.diff`.

        Parameters
        ----------
        after : GraphFrame
            The profile compared with this one.
        metric : str or list of str, optional
            Metrics to compare (default: every declared metric both have).
            An exclusive metric brings its inclusive partner, computed from
            the exclusive values when a profile has none (``inclusive=False``
            turns that off).
        **options
            ``by`` ("path" or "name"), ``normalize``, ``threshold`` (noise,
            percent of the before total), ``aggregate``, ``rank``,
            ``thread``, ``inclusive``: see :func:`graphframe.diff`.

        Returns
        -------
        GraphFrame
            Over the union of both graphs, one row per node: ``m before``,
            ``m after``, ``m delta``, ``m ratio`` per metric, ``status``
            (common, added, removed) and ``significant``.

        Examples
        --------
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "io"))
        >>> d = a.diff(b)
        >>> d.dataframe["status"].tolist()
        ['common', 'added', 'common']
        >>> d.dataframe["time (inc) delta"].tolist()
        [1.0, 1.0, 0.0]
        """
        return diffing.diff(self, after, metric, **options)

    def ranked_changes(self, metric: Any = None, kind: str = "inclusive",
                       top: Optional[int] = 20, significant_only: bool = True) -> pd.DataFrame:
        """Largest changes of a diff result, biggest ``|delta|`` first.

        See :func:`graphframe.diffing.ranked_changes`.

        Parameters
        ----------
        metric : str, optional
            A diffed metric (default: the diff's primary metric).
        kind : {"inclusive", "exclusive", "as-is"}
            Rank by the metric's inclusive (default) or exclusive form.
        top : int, optional
            Keep this many rows (0 or more; None: all).
        significant_only : bool
            Leave out unchanged nodes and changes under the noise threshold.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``node``: ``name``, ``path``, ``status``, ``before``,
            ``after``, ``delta``, ``change %``.

        Examples
        --------
        >>> a = GraphFrame.from_lists(("main", "solve", "io"))
        >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
        >>> a.diff(b).ranked_changes(kind="exclusive")[["path", "status", "delta"]]
                   path   status  delta
        node
        1     main > io  removed   -1.0
        2    main > mpi    added    1.0
        """
        return diffing.ranked_changes(self, metric, kind, top, significant_only)

    def diff_tree(self, metric: Any = None, **options: Any) -> str:
        """A diff result as a tree of deltas; see :func:`render_diff_tree`.

        Parameters
        ----------
        metric : str, optional
            A diffed metric (default: the primary one).
        **options
            ``kind`` ("inclusive", "exclusive", "as-is"), ``precision``,
            ``depth``, ``name_column``, ``expand_name``, ``changed_only``,
            ``color``, ``unicode``, ``render_header``.

        Returns
        -------
        str
            One line per node: signed delta, name, ``(before → after,
            change)`` and an ``[added]``/``[removed]`` tag.

        Examples
        --------
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
        >>> print(a.diff(b).diff_tree(render_header=False, unicode=False), end="")
        +1.000 main (2.000 -> 3.000, +50.0%)
        |- +1.000 mpi (0.000 -> 1.000, new) [added]
        `- +0.000 solve (1.000 -> 1.000, +0.0%)
        """
        return render_diff_tree(self, metric, **options)

    def to_dot(self, metric: Optional[str] = None, name: str = "name", rank: int = 0,
               thread: int = 0, threshold: float = 0.0, aggregate: Optional[str] = None) -> str:
        """Graphviz DOT text, Hatchet's layout; see :func:`render_dot`.

        Parameters
        ----------
        metric : str, optional
            Column that colours the nodes (default: the default metric).
        name : str
            Column labelling the nodes.
        rank, thread : int
            Row used per node when ``aggregate`` is None.
        threshold : float
            Leave out nodes below ``threshold`` times the largest value.
        aggregate : {"sum", "mean", "min", "max"}, optional
            Combine all ranks/threads of a node instead of picking one row.

        Returns
        -------
        str
            A ``digraph``; a node with several parents is written once.

        Examples
        --------
        >>> dot = GraphFrame.from_lists(("main", "solve")).to_dot()
        >>> dot.splitlines()[0], dot.count("->")
        ('strict digraph {', 1)
        """
        return render_dot(self, metric, name, rank, thread, threshold, aggregate)

    def to_flamegraph(self, metric: Optional[str] = None, name: str = "name", rank: int = 0,
                      thread: int = 0, threshold: float = 0.0, separator: str = "; ",
                      aggregate: Optional[str] = None, scale: float = 1.0) -> str:
        """Folded stacks (``a; b; c 12``) for flame graph tools; see :func:`render_flamegraph`.

        Parameters
        ----------
        metric : str, optional
            Column written (default: the default metric); use an exclusive one.
        name : str
            Column labelling the frames.
        rank, thread : int
            Row used per node when ``aggregate`` is None.
        threshold : float
            Leave out lines below ``threshold`` times the largest value.
        separator : str
            Between frames (Hatchet's ``"; "``); inside names its non-blank
            part becomes ``_``.
        aggregate : {"sum", "mean", "min", "max"}, optional
            Combine all ranks/threads of a node instead of picking one row.
        scale : float
            Multiply values before rounding to integers.

        Returns
        -------
        str
            One ``path value`` line per node in pre-order; negative values
            are left out with a ``FlameGraphWarning``.

        Examples
        --------
        >>> print(GraphFrame.from_lists(("main", "solve")).to_flamegraph(scale=10), end="")
        main 10
        main; solve 10
        """
        return render_flamegraph(self, metric, name, rank, thread, threshold, separator,
                                 aggregate, scale)

    def to_speedscope(self, metric: Optional[str] = None, **options: Any) -> str:
        """speedscope JSON; see :func:`render_speedscope`."""
        return render_speedscope(self, metric, **options)

    def save(self, path: Any, compression: str = "snappy") -> Any:
        """Write a lossless archive (Parquet tables); read it back with ``graphframe.load``.

        See :mod:`graphframe.persist` and ``docs/guide/archive-format.md``
        for the file layout.

        Parameters
        ----------
        path : str or path-like
            Conventionally ends in ``.gfz``; replaced atomically.
        compression : str
            Parquet compression: ``"snappy"``, ``"zstd"``, ``"gzip"`` or ``"none"``.

        Returns
        -------
        pathlib.Path
            The path written. The same GraphFrame always gives the same bytes.

        Raises
        ------
        SaveError
            The metadata holds a value the format cannot store.
        WriteError
            The file cannot be written there (missing folder, a directory...).

        Examples
        --------
        >>> import os, tempfile
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> path = gf.save(os.path.join(tempfile.mkdtemp(), "run.gfz"))
        >>> GraphFrame.load(path).dataframe.equals(gf.dataframe)
        True
        """
        return persist.save(self, path, compression)

    @classmethod
    def load(cls, path: Any) -> "GraphFrame":
        """Read a file written by :meth:`save`; see :func:`graphframe.load`.

        Parameters
        ----------
        path : str or path-like
            A ``.gfz`` archive.

        Returns
        -------
        GraphFrame
            Equal to the one saved: same node ids, graph arrays, dataframe
            (dtypes included), declarations and metadata.

        Raises
        ------
        ReadError
            Naming the file (and the member or manifest field) for anything
            that is not a complete archive of a supported version.

        Examples
        --------
        >>> import os, tempfile
        >>> from graphframe.examples import example_graphframe
        >>> gf = example_graphframe()
        >>> back = GraphFrame.load(gf.save(os.path.join(tempfile.mkdtemp(), "x.gfz")))
        >>> back.graph == gf.graph, back.metadata == gf.metadata
        (True, True)
        """
        return cls(**persist.read_parts(path))

    def _repr_html_(self) -> str:
        return render_html(self)

    def __repr__(self) -> str:
        return f"<GraphFrame: {summary(self)}>"
    # ---- end of diff/exports/persistence/notebook ----


def _check_node_ids(graph: Graph, dataframe: pd.DataFrame) -> None:
    if not len(dataframe):
        return
    values = level_ids(dataframe.index)
    lo, hi = values.min(), values.max()
    if lo < 0 or hi >= graph.num_nodes:
        raise GraphMismatchError(
            f"the dataframe refers to node id {hi if hi >= graph.num_nodes else lo}, "
            f"but the graph has ids 0..{graph.num_nodes - 1}")
