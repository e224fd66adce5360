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
from readers.caliper import read_caliper, read_caliper_any
from readers.hatchet_json import parse_hatchet_json
from readers.hpctoolkit import read_hpctoolkit
from readers.hpctoolkit_latest import read_hpctoolkit_latest
from readers.jsonfile import loads_json
from readers.cprofile import read_cprofile
from readers.dot import read_dot
from readers.literal import parse_literal
from readers.pyinstrument import read_pyinstrument
from readers.tau import read_tau
from readers.timemory import parse_timemory, read_timemory

from . import diffing, export, persist
from .build import level_ids, parts_from_raw
from .errors import GraphMismatchError
from .graph import Graph
from .metrics import default_pairs
from .ops import aggregate, arithmetic, inclusive
from .ops import filter as filtering
from .ops import squash as squashing
from .ops import union
from .query import matched_nodes
from .render.diff_tree import render_diff_tree
from .render.dot import render_dot
from .render.flamegraph import render_flamegraph
from .render.html import render_html, summary
from .render.speedscope import render_speedscope
from .render.tree import render_tree


class GraphFrame:
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

    # ---- reader constructors with Hatchet's names: HPCToolkit (issue 4) ----
    @classmethod
    def from_hpctoolkit(cls, dirname: Any, *, metrics: Optional[Sequence[str]] = None,
                        ranks: Optional[Sequence[int]] = None,
                        progress: Any = None) -> "GraphFrame":
        """Read an HPCToolkit database of the old layout (experiment.xml + metric files).

        See :func:`readers.hpctoolkit.read_hpctoolkit` for the options
        (``metrics``, ``ranks``, ``progress``).
        """
        return cls.from_raw(read_hpctoolkit(dirname, metrics=metrics, ranks=ranks,
                                            progress=progress))

    @classmethod
    def from_hpctoolkit_latest(cls, dirname: Any, *, parallel_profiles_mode: bool = False,
                               metric_names: Optional[Sequence[str]] = None,
                               profile_ranks: Optional[Sequence[int]] = None,
                               label_function_nodes: bool = True,
                               progress: Any = None) -> "GraphFrame":
        """Read an HPCToolkit database of the current layout (meta.db + profile.db).

        Hatchet's keyword names: ``parallel_profiles_mode`` (one row per node and
        rank/thread instead of the summary), ``metric_names`` (metrics to keep),
        ``profile_ranks`` (ranks to keep), ``label_function_nodes``. See
        :func:`readers.hpctoolkit_latest.read_hpctoolkit_latest`.
        """
        return cls.from_raw(read_hpctoolkit_latest(
            dirname, per_profile=parallel_profiles_mode, metrics=metric_names,
            ranks=profile_ranks, label_function_nodes=label_function_nodes, progress=progress))


    # ---- reader constructors: Caliper (issue 5) ----
    @classmethod
    def from_caliper(cls, filename_or_stream: Any, query: Optional[str] = None,
                     node_ordering: bool = True) -> "GraphFrame":
        """Read Caliper json-split output (a path or an open stream).

        A ``.cali`` path (or a directory / list of per-rank ``.cali`` files) is
        decoded directly, or, when ``query`` is given, run through Caliper's
        ``cali-query -q QUERY`` first (an error says so if it is not
        installed). ``node_ordering`` orders siblings by the file's
        ``Node order`` when it has one; files without one read fine.
        See :func:`readers.caliper.read_caliper_any` and ``docs/readers/caliper.md``.

        Examples
        --------
        >>> import io, json
        >>> doc = {"data": [[0, 2.0], [1, 1.0]], "columns": ["path", "sum#time.duration"],
        ...        "column_metadata": [{"is_value": False}, {"is_value": True}],
        ...        "nodes": [{"label": "main", "column": "path"},
        ...                  {"label": "solve", "column": "path", "parent": 0}]}
        >>> GraphFrame.from_caliper(io.StringIO(json.dumps(doc))).dataframe["time"].tolist()
        [2.0, 1.0]
        """
        return cls.from_raw(read_caliper_any(filename_or_stream, query,
                                             node_ordering=node_ordering))

    @classmethod
    def from_caliperreader(cls, filename_or_caliperreader: Any, native: bool = False,
                           string_attributes: Union[str, Sequence[str], None] = (),
                           node_ordering: bool = True) -> "GraphFrame":
        """Read a ``.cali`` file, a directory or list of per-rank files, or a
        ``caliperreader.CaliperReader``. See :func:`readers.caliper.read_caliper`.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p.cali")
        >>> with open(path, "w") as f:
        ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
        ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
        ...                 "__rec=node,id=14,attr=10,data=65,parent=5\\n"
        ...                 "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
        ...                 "__rec=node,id=16,attr=13,data=main\\n"
        ...                 "__rec=ctx,ref=16,attr=15,data=1.5\\n")
        >>> GraphFrame.from_caliperreader(path).dataframe[["time", "name"]]
              time  name
        node
        0      1.5  main
        """
        return cls.from_raw(read_caliper(filename_or_caliperreader, native=native,
                                         string_attributes=string_attributes or (),
                                         node_ordering=node_ordering))

    # ---- reader constructors: DOT, cProfile, pyinstrument, TAU, timemory (issue 6) ----
    @classmethod
    def from_gprof_dot(cls, filename: Any, *, parser: str = "fast") -> "GraphFrame":
        """Read a DOT call graph written by gprof2dot (see :mod:`readers.dot`).

        Examples
        --------
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "g.dot")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write('digraph { 1 [label="main\\\\n100.00%\\\\n(100.00%)\\\\n1×"]; }')
        >>> GraphFrame.from_gprof_dot(p).dataframe["time"].tolist()
        [100.0]
        """
        return cls.from_raw(read_dot(filename, parser=parser))

    @classmethod
    def from_cprofile(cls, filename: Any) -> "GraphFrame":
        """Read a Python 3 pstats file (``python -m cProfile -o FILE``)."""
        return cls.from_raw(read_cprofile(filename))

    @classmethod
    def from_pyinstrument(cls, filename: Any) -> "GraphFrame":
        """Read a pyinstrument JSON session (``pyinstrument -r json``)."""
        return cls.from_raw(read_pyinstrument(filename))

    @classmethod
    def from_tau(cls, dirname: Any) -> "GraphFrame":
        """Read a TAU profile directory (``profile.<node>.<context>.<thread>``)."""
        return cls.from_raw(read_tau(dirname))

    @classmethod
    def from_timemory(cls, input: Any, select: Optional[Sequence[str]] = None) -> "GraphFrame":
        """Read timemory tree JSON: a file, a directory of ``*.tree.json``, a
        dict already loaded, or an open text stream; ``select`` keeps only the
        named components (e.g. ``["wall_clock"]``)."""
        chosen = None if select is None else [str(s).lower() for s in select]
        if isinstance(input, dict):
            return cls.from_raw(parse_timemory(input, "<dict>", select=chosen))
        if hasattr(input, "read"):
            doc = loads_json(input.read(), getattr(input, "name", "<stream>"))
            return cls.from_raw(parse_timemory(doc, getattr(input, "name", "<stream>"),
                                               select=chosen))
        return cls.from_raw(read_timemory(input, select=chosen))



    # ---- end of reader constructors ----

    # ------------------------------------------------------------- copies
    def copy(self) -> "GraphFrame":
        """A new GraphFrame sharing the (immutable) graph; dataframe copied."""
        return GraphFrame(self.graph, self.dataframe.copy(), self.exc_metrics,
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
        """:meth:`to_dict` as JSON text (NaN written as ``null``)."""
        return export.to_json(self)

    # ---- diff, exports, persistence, notebook (issue 8) ----
    def diff(self, after: "GraphFrame", metric: Union[None, str, Sequence[str]] = None,
             **options: Any) -> "GraphFrame":
        """Changes from ``self`` (before) to ``after``; see :func:`graphframe.diff`.

        Examples
        --------
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "io"))
        >>> a.diff(b).dataframe["status"].tolist()
        ['common', 'added', 'common']
        """
        return diffing.diff(self, after, metric, **options)

    def ranked_changes(self, metric: Any = None, kind: str = "inclusive",
                       top: Optional[int] = 20, significant_only: bool = True) -> pd.DataFrame:
        """Largest changes of a diff result; see :func:`graphframe.diffing.ranked_changes`."""
        return diffing.ranked_changes(self, metric, kind, top, significant_only)

    def diff_tree(self, metric: Any = None, **options: Any) -> str:
        """A diff result as a tree of deltas; see :func:`render_diff_tree`."""
        return render_diff_tree(self, metric, **options)

    def to_dot(self, metric: Optional[str] = None, name: str = "name", rank: int = 0,
               thread: int = 0, threshold: float = 0.0, aggregate: Optional[str] = None) -> str:
        """Graphviz DOT text, Hatchet's layout; see :func:`render_dot`."""
        return render_dot(self, metric, name, rank, thread, threshold, aggregate)

    def to_flamegraph(self, metric: Optional[str] = None, name: str = "name", rank: int = 0,
                      thread: int = 0, threshold: float = 0.0, separator: str = "; ",
                      aggregate: Optional[str] = None, scale: float = 1.0) -> str:
        """Folded stacks (``a; b; c 12``); see :func:`render_flamegraph`."""
        return render_flamegraph(self, metric, name, rank, thread, threshold, separator,
                                 aggregate, scale)

    def to_speedscope(self, metric: Optional[str] = None, **options: Any) -> str:
        """speedscope JSON; see :func:`render_speedscope`."""
        return render_speedscope(self, metric, **options)

    def save(self, path: Any, compression: str = "snappy") -> Any:
        """Write a lossless archive (Parquet tables); read it back with ``graphframe.load``.

        See :mod:`graphframe.persist` for the file layout. Returns the path.
        """
        return persist.save(self, path, compression)

    @classmethod
    def load(cls, path: Any) -> "GraphFrame":
        """Read a file written by :meth:`save`; see :func:`graphframe.load`."""
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
