"""GraphFrame: a call graph plus a dataframe of metrics indexed by (node, rank...).

The class holds the fields (checked on construction), the constructors,
copies, the operators and one-line methods, each calling one function:
operations in :mod:`graphframe.ops`, queries in :mod:`graphframe.query`,
text output in :mod:`graphframe.render`, files and documents in
:mod:`graphframe.io` (which also holds the Hatchet-named reader constructors
mixed in here), comparisons in :mod:`graphframe.diffing`. None of those
imports this module: they take any object with GraphFrame's fields
(:class:`graphframe.model.fields.GraphFrameLike`) and return a new object of
its class.
"""

from __future__ import annotations

import copy as _copy
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

from graphframe_readers import RawProfile

from . import options as settings
from .errors import ArgumentError, GraphMismatchError, UnsupportedError
from .errors import EmptyFilter, InvalidFilter  # noqa: F401  (Hatchet's hatchet.graphframe names)
from ._lazy import lazy_function, lazy_module
from .io.reader_constructors import ReaderConstructors
from .model.dataframe import frame_from_columns, node_id_range, private_copy
from .model.fields import metric_columns, replace
from .model.graph import Graph
from .model.hatchet_types import as_hatchet_frame
from .model.nodeindex import ids_from_node_objects, with_node_values
from .model.text import as_text
from .model.metrics import default_pairs
from .ops.merge_rules import check_aggregations

#: ``rank_stats``'s default statistics (``graphframe.kernels.level_stats.DEFAULT_STATS``,
#: spelled out so that the signature does not load the statistics; a test checks they agree)
DEFAULT_RANK_STATS = ("sum", "min", "max", "mean", "median", "std", "imbalance", "argmax",
                      "argmin")

# loaded with their first use, so that ``import graphframe`` stays fast (graphframe._lazy)
archive = lazy_module("graphframe.io.archive")
export = lazy_module("graphframe.io.json.export")
aggregate = lazy_module("graphframe.ops.aggregate")
arithmetic = lazy_module("graphframe.ops.arithmetic")
inclusive = lazy_module("graphframe.ops.inclusive")
union = lazy_module("graphframe.ops.union")
filtering = lazy_module("graphframe.ops.filter")
rank_ops = lazy_module("graphframe.ops.stats")
squashing = lazy_module("graphframe.ops.squash")
parts_from_raw = lazy_function("graphframe.io.build", "parts_from_raw")
load_parts = lazy_function("graphframe.io.dispatch", "load_parts")
read_parts = lazy_function("graphframe.io.dispatch", "read_parts")
parts_from_json = lazy_function("graphframe.io.json.read", "parts_from_json")
parts_from_literal = lazy_function("graphframe.io.json.read", "parts_from_literal")
PlotAccessor = lazy_function("graphframe.plot.accessor", "PlotAccessor")
matched_nodes = lazy_function("graphframe.query", "matched_nodes")
render_dot = lazy_function("graphframe.render.dot", "render_dot")
render_flamegraph = lazy_function("graphframe.render.flamegraph", "render_flamegraph")
render_html = lazy_function("graphframe.render.html", "render_html")
summary = lazy_function("graphframe.render.html", "summary")
render_speedscope = lazy_function("graphframe.render.speedscope", "render_speedscope")
render_tree = lazy_function("graphframe.render.tree", "render_tree")


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
    aggregations : mapping, optional
        Column -> how its values combine when rows merge: ``"sum"``,
        ``"min"``, ``"max"``, ``"mean"`` or ``"first"``. Unlisted columns:
        ``"sum"`` for declared metrics, ``"first"`` otherwise (see
        ``docs/operations.md``, "Metric semantics").

    Examples
    --------
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    >>> gf.dataframe[["name", "time", "time (inc)"]]
                                        name  time  time (inc)
    node
    {'name': 'main', 'type': 'None'}    main   1.0         4.0
    {'name': 'io', 'type': 'None'}        io   1.0         1.0
    {'name': 'solve', 'type': 'None'}  solve   1.0         2.0
    {'name': 'mpi', 'type': 'None'}      mpi   1.0         1.0
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
        aggregations: Optional[Mapping[str, str]] = None,
    ) -> None:
        if graph is None:
            raise ValueError("GraphFrame needs a graph")
        if dataframe is None:
            raise ValueError("GraphFrame needs a dataframe")
        if "node" not in dataframe.index.names:
            raise GraphMismatchError("the dataframe index has no 'node' level")
        dataframe = ids_from_node_objects(dataframe, graph)
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
        self._aggregations: Dict[str, str] = check_aggregations(aggregations, dataframe)
        if settings.hatchet_compat:  # Hatchet's column types (graphframe.options)
            self._dataframe = as_hatchet_frame(self._dataframe, self.metadata.get("format"))

    @property
    def dataframe(self) -> pd.DataFrame:
        """The rows: a pandas DataFrame indexed by ``node`` (and ``rank``/``thread``...).

        The ``node`` level stores int ids and hands out :class:`Node` objects
        (:mod:`graphframe.model.nodeindex`). Assigning a frame whose ``node``
        level holds int ids gives that level this type (a shallow copy).

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> node = gf.dataframe.index[1]
        >>> node.frame["name"], int(node), gf.dataframe.loc[node, "name"]
        ('solve', 1, 'solve')
        """
        return self._dataframe

    @dataframe.setter
    def dataframe(self, value: pd.DataFrame) -> None:
        graph = getattr(self, "graph", None)
        self._dataframe = value if graph is None else with_node_values(value, graph)

    @property
    def aggregations(self) -> Dict[str, str]:
        """Declared column -> aggregation (``"sum"``, ``"min"``, ``"max"``, ``"mean"``,
        ``"first"``) used when rows merge; a new dict on every access."""
        return dict(self._aggregations)

    # ------------------------------------------------------- construction
    @classmethod
    def from_raw(cls, raw: RawProfile) -> "GraphFrame":
        """Build a GraphFrame from a reader's :class:`~graphframe_readers.RawProfile`.

        The GraphFrame never shares writable data with ``raw``.

        Examples
        --------
        >>> import graphframe_readers
        >>> b = graphframe_readers.ProfileBuilder("example")
        >>> main = b.add_node({"name": "main"})
        >>> b.add_row(main, {"time": 2.0})
        >>> GraphFrame.from_raw(b.build(exc_metrics=["time"])).dataframe["time"].tolist()
        [2.0]
        """
        return cls(**parts_from_raw(raw))

    @classmethod
    def from_literal(cls, graph_dict: Sequence[Mapping[str, Any]]) -> "GraphFrame":
        """Build from Hatchet's literal format (a list of nested node dicts).

        A node that appears several times carries the same
        ``metrics["_hatchet_nid"]``; the first occurrence defines it, the
        others are references (extra parents). Text in ``metrics`` (Hatchet's
        example literals put ``"module": "main"`` there) becomes a text
        column, not a declared metric. Bad input raises
        :class:`~graphframe_readers.errors.ReadError` naming the node's position; a
        reference whose values differ from the node's warns
        (:class:`graphframe_readers.hatchet.LiteralWarning`). See :mod:`graphframe_readers.hatchet.literal`.

        Examples
        --------
        >>> gf = GraphFrame.from_literal([{"frame": {"name": "a"},
        ...     "metrics": {"time": 1.0}, "children": [
        ...     {"frame": {"name": "b"}, "metrics": {"time": 2.0}}]}])
        >>> gf.dataframe["time"].tolist()
        [1.0, 2.0]
        >>> text = GraphFrame.from_literal([{"frame": {"name": "a"},
        ...                                  "metrics": {"time": 1.0, "module": "main"}}])
        >>> list(text.dataframe.columns), text.exc_metrics
        (['name', 'time', 'module'], ['time'])
        >>> objects = GraphFrame.from_literal([{"frame": {"name": "a"},
        ...                                     "metrics": {"time": 1.0, "args": [1, 2]}}])
        >>> objects.dataframe["args"].tolist(), objects.exc_metrics
        ([[1, 2]], ['time'])
        >>> GraphFrame.from_literal([{"frame": {"name": "a"}, "metrics": {"time": 1.0},
        ...     "children": [{"frame": {"name": "b"}, "metrics": {"time": [1]}}]}])
        Traceback (most recent call last):
        ...
        graphframe_readers.errors.ReadError: <literal>: [0].children[0]: metric 'time' is a list: [1] here and a number at [0] (expected numbers in every node, or objects in every node)
        """
        return cls(**parts_from_literal(graph_dict))

    @classmethod
    def from_lists(cls, *lists: Any) -> "GraphFrame":
        """A GraphFrame with ``time`` = 1.0 per node over ``Graph.from_lists``.

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> gf.dataframe["time (inc)"].tolist()
        [4.0, 1.0, 2.0, 1.0]
        """
        graph = Graph.from_lists(*lists)
        n = graph.num_nodes
        names = as_text(pd.Series(graph.attrs["name"].to_numpy(dtype=object), dtype=object))
        df = frame_from_columns({"time": np.ones(n), "name": names.array},
                                pd.Index(np.arange(n, dtype=np.int64), name="node"))
        return inclusive.update_inclusive_columns(cls(graph, df, ["time"], [],
                                                      default_metric="time"))

    @classmethod
    def from_json(cls, json_spec: Union[str, Mapping[str, Any]]) -> "GraphFrame":
        """Inverse of :meth:`to_json` (also reads Hatchet's ``to_json`` output).

        Text written by :meth:`to_json` gives back an equal GraphFrame: the
        same node ids, child order and ``ordered`` flag, the dataframe with
        its dtypes, the metric declarations and the metadata. Hatchet's
        documents are read with Hatchet's meaning. A :meth:`to_dict` result
        is accepted as well.

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> back = GraphFrame.from_json(gf.to_json())
        >>> back.graph == gf.graph and back.dataframe.equals(gf.dataframe)
        True
        """
        return cls(**parts_from_json(json_spec))

    @classmethod
    def read(cls, path: Any, format: Optional[str] = None, **options: Any) -> "GraphFrame":
        """Read any supported profile; see :func:`graphframe.read`.

        A file written by :meth:`to_json` is read back exactly, as by
        :meth:`from_json`.

        Examples
        --------
        >>> import json, os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "p.json")
        >>> with open(p, "w") as f:
        ...     json.dump([{"frame": {"name": "main"}, "metrics": {"time": 3.0}}], f)
        >>> GraphFrame.read(p).dataframe["time"].tolist()
        [3.0]
        """
        return cls(**read_parts(path, format, **options))

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
        return cls(**load_parts(path))

    # ------------------------------------------------------------- copies
    def copy(self) -> "GraphFrame":
        """A new GraphFrame sharing the (immutable) graph; dataframe copied.

        Changing the copy's dataframe never changes this one (with pandas'
        copy-on-write the data is copied only when written to).

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> other = gf.copy()
        >>> other.dataframe.loc[1, "time"] = 5.0
        >>> gf.dataframe["time"].tolist(), other.dataframe["time"].tolist()
        ([1.0, 1.0], [1.0, 5.0])
        >>> other.graph is gf.graph
        True
        """
        return GraphFrame(self.graph, private_copy(self.dataframe), self.exc_metrics,
                          self.inc_metrics, self.default_metric,
                          _copy.copy(self.metadata), self.inclusive_of, self._aggregations)

    def deepcopy(self) -> "GraphFrame":
        """Like :meth:`copy` with a deep copy of the dataframe and metadata.

        Examples
        --------
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> gf.metadata["runs"] = [1]
        >>> other = gf.deepcopy()
        >>> other.metadata["runs"].append(2)
        >>> gf.metadata["runs"], other.graph == gf.graph
        ([1], True)
        """
        return GraphFrame(self.graph.copy(), self.dataframe.copy(deep=True),
                          list(self.exc_metrics), list(self.inc_metrics),
                          self.default_metric, _copy.deepcopy(self.metadata),
                          dict(self.inclusive_of), self._aggregations)

    def _replace(self, **changes: Any) -> "GraphFrame":
        return replace(self, **changes)

    def _rebind(self, new: "GraphFrame") -> None:
        """Make this object hold ``new``'s fields (how the in-place methods change it).

        Only the attributes are rebound: the graph is immutable and no array
        or frame another object holds is written. The metadata dict stays the
        same object when its content did not change. Every instance attribute
        is taken from ``new``, so a field added to the class is rebound too.
        """
        for name, value in vars(new).items():
            if name == "metadata" and value == self.metadata:
                continue
            setattr(self, name, value)

    def _result(self, new: "GraphFrame", inplace: bool) -> Optional["GraphFrame"]:
        """``None`` after rebinding this object to ``new`` (in place), else ``new``."""
        if inplace:
            self._rebind(new)
            return None
        return new

    # ------------------------------------------------------------ metrics
    def show_metric_columns(self) -> List[str]:
        """Exclusive then inclusive metric names (a new list).

        Examples
        --------
        >>> GraphFrame.from_lists(("main", "solve")).show_metric_columns()
        ['time', 'time (inc)']
        """
        return metric_columns(self)

    def update_inclusive_columns(self, *, inplace: bool = True) -> Optional["GraphFrame"]:
        """Recompute the inclusive columns from the exclusive ones; in place, as in Hatchet.

        Every exclusive metric that is summed when rows merge (see
        :attr:`aggregations`) gets its inclusive partner (``inclusive_of``; by
        default ``X (inc)``, or ``Y`` for ``Y (exc)``), per (node, rank,
        thread) row. Trees and forests are summed level by level; graphs with
        shared nodes count every distinct descendant once (Hatchet's rule).
        NaN and missing rows mean "no value".

        Parameters
        ----------
        inplace : bool
            True (Hatchet's behaviour): change this GraphFrame (its fields are
            rebound; no frame another object holds is written) and return
            None. False: leave it unchanged and return a new GraphFrame.

        Returns
        -------
        None or GraphFrame
            ``inc_metrics`` gains any new partner.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> gf.dataframe["time"] = [1.0, 2.0, 3.0, 4.0]
        >>> gf.update_inclusive_columns(inplace=False).dataframe["time (inc)"].tolist()
        [10.0, 2.0, 7.0, 4.0]
        >>> gf.dataframe["time (inc)"].tolist()
        [4.0, 1.0, 2.0, 1.0]
        >>> gf.update_inclusive_columns()
        >>> gf.dataframe["time (inc)"].tolist()
        [10.0, 2.0, 7.0, 4.0]
        """
        return self._result(inclusive.update_inclusive_columns(self), _flag(inplace))

    def generate_exclusive_columns(self, inc_metrics: Optional[Sequence[str]] = None, *,
                                   inplace: bool = True) -> Optional["GraphFrame"]:
        """Derive exclusive columns from inclusive ones; in place, as in Hatchet.

        ``exc = inc - sum(inc of direct children)`` per row (a child without
        a value counts as 0). ``X (inc)`` gives ``X`` (unless ``X`` already
        is an exclusive metric); any other inclusive ``Y`` gives ``Y (exc)``.
        Inclusive metrics that are not summed (see :attr:`aggregations`) are
        skipped.

        Parameters
        ----------
        inc_metrics : list of str, optional
            The inclusive metrics to derive from (default: all of them).
        inplace : bool
            True: change this GraphFrame and return None (Hatchet). False:
            return a new GraphFrame.

        Returns
        -------
        None or GraphFrame
            ``exc_metrics`` gains the new columns.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> cycles = gf.dataframe.rename(columns={"time (inc)": "cycles"})[["name", "cycles"]]
        >>> inc_only = GraphFrame(gf.graph, cycles, [], ["cycles"])
        >>> inc_only.generate_exclusive_columns()
        >>> inc_only.dataframe["cycles (exc)"].tolist(), inc_only.exc_metrics
        ([1.0, 1.0, 1.0, 1.0], ['cycles (exc)'])
        """
        return self._result(inclusive.generate_exclusive_columns(self, inc_metrics),
                            _flag(inplace))

    def subtree_sum(self, columns: Sequence[str], out_columns: Optional[Sequence[str]] = None,
                    function: Any = None, *, inplace: bool = True) -> Optional["GraphFrame"]:
        """Aggregate ``columns`` over each subtree into ``out_columns``; in place, as in Hatchet.

        Trees and forests only (Hatchet would count a shared node once per
        path); see :meth:`subgraph_sum` for call graphs.

        Parameters
        ----------
        columns : list of str
            Numeric columns to aggregate.
        out_columns : list of str, optional
            Where to write the results (default: overwrite ``columns``).
        function : callable or str, optional
            Default: the NaN-skipping sum (a subtree without any value stays
            NaN). ``np.sum``/``"sum"``, ``np.max``/``"max"``,
            ``np.min``/``"min"`` and ``np.prod``/``"prod"`` are vectorised
            (NaN skipped). Any other callable is applied as in Hatchet, one
            node at a time after its children (slow): to a Series holding
            the node's own input value and its children's results, per
            (rank, thread).
        inplace : bool
            True: change this GraphFrame and return None (Hatchet). False:
            return a new GraphFrame.

        Returns
        -------
        None or GraphFrame

        Raises
        ------
        MetricError
            A column does not exist.
        OperationError
            A column is not numeric, ``out_columns`` has another length,
            or ``function`` fails.

        Examples
        --------
        >>> import numpy as np
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> gf.subtree_sum(["time"], ["total"])
        >>> gf.dataframe["total"].tolist()
        [4.0, 1.0, 2.0, 1.0]
        >>> gf.dataframe["time"] = [2.0, 3.0, 4.0, 5.0]
        >>> gf.subtree_sum(["time"], ["product"], function=np.prod, inplace=False
        ...                ).dataframe["product"].tolist()
        [120.0, 3.0, 20.0, 5.0]
        """
        return self._result(
            inclusive.sum_columns(self, columns, out_columns, function, require_forest=True),
            _flag(inplace))

    def subgraph_sum(self, columns: Sequence[str], out_columns: Optional[Sequence[str]] = None,
                     function: Any = None, *, inplace: bool = True) -> Optional["GraphFrame"]:
        """Like :meth:`subtree_sum` for any graph: each distinct descendant counted once.

        On a tree this is :meth:`subtree_sum`. Otherwise (shared nodes or
        several roots) a callable ``function`` is applied, as in Hatchet, to
        the input values of the node's distinct descendants (itself
        included): a DataFrame of ``columns`` when the index is ``node``
        only, else a Series per column and (rank, thread).

        Parameters
        ----------
        columns : list of str
            Numeric columns to aggregate.
        out_columns : list of str, optional
            Where to write the results (default: overwrite ``columns``).
        function : callable or str, optional
            See :meth:`subtree_sum`.
        inplace : bool
            True: change this GraphFrame and return None (Hatchet). False:
            return a new GraphFrame.

        Returns
        -------
        None or GraphFrame

        Examples
        --------
        A diamond ``a -> {b, c} -> d``: ``d`` counts once for ``a``.

        >>> import pandas as pd
        >>> from graphframe import Graph, GraphFrame
        >>> g, _ = Graph.build(pd.DataFrame({"name": list("abcd")}), [-1, 0, 0, 1], ([2], [3]))
        >>> df = pd.DataFrame({"time": 1.0, "name": g.attrs["name"].to_numpy()},
        ...                   index=pd.Index(range(4), name="node"))
        >>> gf = GraphFrame(g, df, ["time"], [])
        >>> gf.subgraph_sum(["time"], ["total"])
        >>> dict(zip(gf.dataframe["name"], gf.dataframe["total"]))
        {'a': 4.0, 'b': 2.0, 'd': 1.0, 'c': 2.0}
        """
        return self._result(inclusive.sum_columns(self, columns, out_columns, function),
                            _flag(inplace))

    def drop_index_levels(self, function: Any = np.mean, *,
                          inplace: bool = True) -> Optional["GraphFrame"]:
        """Index by ``node`` only, aggregating each node's rows; in place, as in Hatchet.

        Declared metrics are aggregated over each node's rows with
        ``function``; every other column keeps its first value.

        Parameters
        ----------
        function : callable or str
            Anything pandas' ``agg`` accepts: ``np.mean`` (default),
            ``np.max``, ``np.prod``, ``np.nanmedian``, ``"sum"``, a callable
            on a Series... The result is pandas' for the same function,
            without pandas 2's FutureWarning, on pandas 2 and 3 alike (see
            :mod:`graphframe.ops.reductions`: ``np.std`` is the sample
            deviation, as Hatchet computes it).
        inplace : bool
            True: change this GraphFrame and return None (Hatchet). False:
            return a new GraphFrame.

        Returns
        -------
        None or GraphFrame

        Raises
        ------
        OperationError
            pandas cannot aggregate with ``function``.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> df = pd.concat([a.dataframe.assign(rank=r, time=1.0 + r) for r in range(4)])
        >>> ranks = GraphFrame(a.graph, df.set_index("rank", append=True).sort_index(),
        ...                    a.exc_metrics, a.inc_metrics)
        >>> ranks.drop_index_levels(np.max, inplace=False).dataframe["time"].tolist()
        [4.0, 4.0]
        >>> ranks.drop_index_levels(np.prod, inplace=False).dataframe["time"].tolist()
        [24.0, 24.0]
        >>> ranks.drop_index_levels()
        >>> ranks.dataframe["time"].tolist(), ranks.dataframe.index.names
        ([2.5, 2.5], FrozenList(['node']))
        """
        return self._result(aggregate.drop_index_levels(self, function), _flag(inplace))

    def groupby_aggregate(self, groupby_function: Any, agg_function: Any) -> "GraphFrame":
        """A new GraphFrame whose nodes are groups of rows ("super nodes").

        Rows are grouped per key and per (rank, thread), so the index levels
        survive; a super node's frame is ``{"name": key, "type": <by>}``;
        an edge joins two groups when any old edge does; missing keys form
        the group ``"<missing>"``.

        Parameters
        ----------
        groupby_function : str, list of str or callable
            A column, several columns (keys are tuples) or, as in pandas, a
            callable applied to every index label (the row's Node, or the
            tuple ``(Node, rank, ...)``).
        agg_function : str, callable or dict
            How declared metrics are aggregated (pandas' ``agg``); a dict
            maps columns to functions. Other columns are dropped, except
            the new ``name``.

        Returns
        -------
        GraphFrame

        Raises
        ------
        MetricError
            A column to group by or to aggregate does not exist.
        OperationError
            pandas cannot aggregate with ``agg_function``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "dot"), "io"))
        >>> gf.dataframe["module"] = ["app", "libc", "blas", "blas"]
        >>> out = gf.groupby_aggregate("module", "sum")
        >>> out.dataframe[["name", "time"]]
                                            name  time
        node
        {'name': 'app', 'type': 'module'}    app   1.0
        {'name': 'blas', 'type': 'module'}  blas   2.0
        {'name': 'libc', 'type': 'module'}  libc   1.0
        >>> [c.frame["name"] for c in out.graph.roots[0].children]
        ['blas', 'libc']
        """
        return aggregate.groupby_aggregate(self, groupby_function, agg_function)

    # --------------------------------------------------------- operations
    def filter(self, filter_obj: Any, squash: bool = True, update_inc_cols: bool = True,
               num_procs: Any = None, rec_limit: Any = None,
               multi_index_mode: str = "off") -> "GraphFrame":
        """A new GraphFrame with the rows ``filter_obj`` selects.

        Parameters
        ----------
        filter_obj : boolean mask, callable or query
            A boolean mask over the rows (a Series aligned with the dataframe,
            an array or a list; the fast form), a callable called once per
            row as in Hatchet (the row holds the index levels and columns,
            ``row["node"]`` is a Node), or a query (object dialect list,
            string dialect, or a query object; every row of the nodes on a
            matching path is kept; see :meth:`query`).
        squash : bool
            Squash the result (drop nodes without rows), as Hatchet does.
        update_inc_cols : bool
            Recompute inclusive columns when squashing.
        num_procs, rec_limit
            Accepted for Hatchet compatibility and ignored: nothing runs in
            other processes and the recursion limit is never changed.
        multi_index_mode : str
            How queries treat several rows per node (see ``docs/query.md``).

        Returns
        -------
        GraphFrame

        Raises
        ------
        EmptyFilter
            No row is left.
        InvalidFilter
            ``filter_obj`` is not a filter, or the callable failed on a row
            (the row is named, the callable's exception chained).

        Examples
        --------
        >>> import numpy as np
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
        >>> kept = gf.filter(gf.dataframe["name"].isin(["a", "c", "f"]))
        >>> print(kept.tree(render_header=False), end="")
        1.000 a
        ├─ 1.000 c
        └─ 1.000 f
        >>> kept.dataframe.loc[0, "time (inc)"]
        np.float64(3.0)
        >>> gf.filter(lambda row: row["node"].frame["name"] in "abc").dataframe["name"].tolist()
        ['a', 'b', 'c']
        """
        return filtering.filter_rows(self, filter_obj, squash, update_inc_cols, num_procs,
                                     rec_limit, multi_index_mode)

    def squash(self, update_inc_cols: bool = True) -> "GraphFrame":
        """A new GraphFrame whose graph holds exactly the nodes that have rows.

        Kept nodes are rewired to their nearest kept ancestors, siblings with
        equal frames merge (their rows combined by each column's aggregation:
        metrics summed and attributes first by default), ids are renumbered
        in pre-order without gaps.

        Parameters
        ----------
        update_inc_cols : bool
            Recompute inclusive columns afterwards.

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "x", "y"), ("c", "x")))
        >>> part = gf.filter(gf.dataframe["name"].isin(["a", "x", "y"]), squash=False)
        >>> out = part.squash()
        >>> print(out.tree(metric_column=["time", "time (inc)"], render_header=False), end="")
        1.000 4.000 a
        ├─ 2.000 2.000 x
        └─ 1.000 1.000 y
        """
        return squashing.squash(self, update_inc_cols)

    def unify(self, other: "GraphFrame", *, inplace: bool = True
              ) -> "Optional[tuple[GraphFrame, GraphFrame]]":
        """Re-key both GraphFrames onto the union of their graphs; both change, as in Hatchet.

        Nodes are matched by call path; in graphs with shared nodes, children
        with equal frames are matched through every parent. Afterwards
        ``self.graph is other.graph``. As in Hatchet, ``self`` also gets one
        row per row of ``other`` whose node has no row in ``self`` (metrics
        NaN, attributes copied) and a ``_missing_node`` column (0 both, 1
        ``self`` only, 2 ``other`` only) when the node sets differ. Nothing
        happens when both already hold the same Graph object.

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        inplace : bool
            True (Hatchet): rebind the fields of both GraphFrames and return
            None. False: leave both unchanged and return the pair.

        Returns
        -------
        None or (GraphFrame, GraphFrame)
            With ``inplace=False``: ``self`` and ``other`` on the union
            graph (one shared Graph).

        Raises
        ------
        GraphMismatchError
            The index levels differ.
        OperationError
            ``other`` is not a GraphFrame.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> ua, ub = a.unify(b, inplace=False)
        >>> [int(n) for n in ub.dataframe.index], ua.graph is ub.graph, a.graph is b.graph
        ([0, 1], True, False)
        >>> a.unify(b)
        >>> a.dataframe[["name", "time", "_missing_node"]]
                                            name  time  _missing_node
        node
        {'name': 'main', 'type': 'None'}    main   1.0              0
        {'name': 'io', 'type': 'None'}        io   NaN              2
        {'name': 'solve', 'type': 'None'}  solve   1.0              1
        >>> a.graph is b.graph, [int(n) for n in b.dataframe.index]
        (True, [0, 1])
        """
        if not _flag(inplace):
            return union.unify(self, other)
        left, right = union.unify(self, other, copy=False)
        self._rebind(left)
        other._rebind(right)
        return None

    def add(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self + other`` on the unified graph, row by row (see ``docs/operations.md``).

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side. Default (Hatchet's values):
            a left-only row keeps its value, a right-only row is NaN. With a
            ``fill_value`` (e.g. 0) added and removed nodes get real values
            and inclusive columns are recomputed.

        Returns
        -------
        GraphFrame
            With ``_missing_node`` (0 both, 1 left only, 2 right only).

        Raises
        ------
        GraphMismatchError
            The index levels differ.
        OperationError
            ``other`` is not a GraphFrame (``gf + 5`` raises TypeError).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> (a + b).dataframe[["name", "time", "_missing_node"]]
                                            name  time  _missing_node
        node
        {'name': 'main', 'type': 'None'}    main   2.0              0
        {'name': 'io', 'type': 'None'}        io   NaN              2
        {'name': 'solve', 'type': 'None'}  solve   1.0              1
        >>> a.add(b, fill_value=0).dataframe["time (inc)"].tolist()
        [4.0, 1.0, 1.0]
        """
        return arithmetic.arithmetic(self, other, "add", fill_value)

    def sub(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self - other`` on the unified graph; ``fill_value=0`` gives real deltas.

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side (see :meth:`add`).

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> diff = b.sub(a, fill_value=0)
        >>> diff.dataframe[["name", "time", "time (inc)", "_missing_node"]]
                                            name  time  time (inc)  _missing_node
        node
        {'name': 'main', 'type': 'None'}    main   0.0         0.0              0
        {'name': 'io', 'type': 'None'}        io   1.0         1.0              1
        {'name': 'solve', 'type': 'None'}  solve  -1.0        -1.0              2
        """
        return arithmetic.arithmetic(self, other, "sub", fill_value)

    def mul(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self * other`` on the unified graph (inclusive columns multiplied row by row).

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side (see :meth:`add`).

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> double = a.copy()
        >>> double.dataframe["time"] = 2.0
        >>> a.mul(double).dataframe["time"].tolist()
        [2.0, 2.0]
        """
        return arithmetic.arithmetic(self, other, "mul", fill_value)

    def div(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self / other`` on the unified graph (inclusive columns divided row by row).

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side (see :meth:`add`).

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> double = a.copy()
        >>> double.dataframe["time"] = 2.0
        >>> (a / double).dataframe["time"].tolist()
        [0.5, 0.5]
        """
        return arithmetic.arithmetic(self, other, "div", fill_value)

    def query(self, query: Any, multi_index_mode: str = "off") -> List[Any]:
        """The nodes on any call path matching ``query``, in pre-order.

        ``gf.filter(query)`` keeps the rows of the same nodes. See
        ``docs/query.md`` for both dialects and the differences from Hatchet.

        Parameters
        ----------
        query : list, str or query object
            An object-dialect list (``[{"name": "MPI_.*"}, "*"]``), a
            string-dialect query (``'MATCH (p)->("*") WHERE p."name" =~
            "MPI_.*"'``; keywords upper-case), or a query object
            (``ObjectQuery``, ``StringQuery``, ``QueryMatcher``, compounds).
            A callable predicate in a query is called once per row with the
            row as Hatchet passes it (``row.name`` is the Node).
        multi_index_mode : {"off", "all", "any"}
            For lists and strings on data with rank/thread levels: a node
            satisfies a condition when "any" / "all" of its rows do; "off"
            refuses column conditions there. A query object keeps its own.

        Returns
        -------
        list of Node
            The matched nodes, ascending id (pre-order).

        Raises
        ------
        QuerySyntaxError
            A string query that does not parse (with the position).
        InvalidQueryPath, InvalidQueryFilter
            A malformed query, or a condition that does not fit the data
            (the message names the query node and column).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
        >>> [n.frame["name"] for n in gf.query([{"name": "MPI_.*"}, "*"])]
        ['MPI_Send', 'ibv_post', 'MPI_Recv']
        >>> gf.filter('MATCH (p)->(q) WHERE p."name" = "solve"').dataframe["name"].tolist()
        ['solve', 'MPI_Recv']
        """
        ids = matched_nodes(self, query, multi_index_mode=multi_index_mode)
        return [self.graph.node(int(i)) for i in ids]

    # ------------------------------------------------------------ outputs
    def tree(self, metric_column: Union[None, str, Sequence[str]] = None,
             annotation_column: Optional[str] = None, precision: int = 3,
             name_column: str = "name", expand_name: bool = False,
             context_column: Optional[str] = "file", rank: Optional[int] = None,
             thread: Optional[int] = None, depth: Optional[int] = 10000,
             highlight_name: bool = False,
             colormap: str = "RdYlGn", invert_colormap: bool = False,
             colormap_annotations: Any = None, render_header: bool = True,
             min_value: Optional[float] = None, max_value: Optional[float] = None,
             color: bool = False, unicode: bool = True, legend: Optional[bool] = None,
             **hatchet_names: Any) -> str:
        """Render the graph as an indented text tree, Hatchet's layout.

        Each line is ``<value>[ <more values>][ [<annotation>]] <name>[ ◀|▶][ <context>]``.
        Roots and children appear in ascending id order; a node with several
        parents is printed under each, its subtree only the first time.

        Parameters
        ----------
        metric_column : str or list, optional
            Metric to print (default: :attr:`default_metric`, else the first
            declared metric; a profile without metrics prints names only). A
            list prints several: the first colours the line.
        annotation_column : str, optional
            A column printed in brackets before the name (``_pattern``
            columns as arrows).
        precision : int
            Decimals of the values (>= 0), integer columns included, as in
            Hatchet; a value rounding to zero never prints as ``-0.000``.
        name_column : str
            Column (or frame attribute) used as the label.
        expand_name : bool
            Print long names in full instead of ``first...last``.
        context_column : str, optional
            Column printed after the name when the dataframe has it (nothing
            for a node whose value is missing).
        rank, thread : int, optional
            The row shown for each node (default: the lowest the data has,
            0 normally; Hatchet's default is 0); a value the data does not
            have is an error listing the ones it has.
        depth : int, optional
            Print the first ``depth`` levels (1: the roots only; None:
            everything). Only the printed nodes are formatted, so a small
            depth is fast on any profile.
        highlight_name : bool
            Highlight user code names (colour only).
        colormap : str
            One of ``RdYlGn, BrBG, PiYG, PRGn, PuOr, RdBu, RdGy, RdYlBu, Spectral``.
        invert_colormap : bool
            Reverse the colormap.
        colormap_annotations : str, list or dict, optional
            Colours of the annotation values (colour only).
        render_header : bool
            Start with a header line naming the metrics and rank.
        min_value, max_value : float, optional
            Colour range (default: the finite values shown; 0 is honoured).
        color : bool
            ANSI colours (the caller decides; the CLI checks the terminal).
        unicode : bool
            Box-drawing glyphs, or ASCII when False.
        legend : bool, optional
            Append the colour legend (default: when ``color``).
        **hatchet_names
            Hatchet's old keyword names ``metric``, ``name``, ``expand_names``,
            ``context``, ``invert_colors`` (a ``DeprecationWarning`` each; under
            ``graphframe.options.hatchet_compat`` an ``ArgumentError``, a
            ``ValueError``, as Hatchet 2024 refuses them).

        Raises
        ------
        MetricError
            A named column does not exist.
        ArgumentError
            Any other bad value (negative precision or depth, unknown
            colormap, missing rank or thread).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> print(gf.tree(metric_column=["time (inc)", "time"], render_header=False), end="")
        4.000 1.000 main
        ├─ 1.000 1.000 io
        └─ 2.000 1.000 solve
           └─ 1.000 1.000 mpi
        >>> print(gf.tree(depth=1, precision=1, unicode=False), end="")
        graphframe v0.1.0 - time
        <BLANKLINE>
        1.0 main
        """
        return render_tree(
            self, metric_column=metric_column, annotation_column=annotation_column,
            precision=precision, name_column=name_column, expand_name=expand_name,
            context_column=context_column, rank=rank, thread=thread, depth=depth,
            highlight_name=highlight_name, colormap=colormap, invert_colormap=invert_colormap,
            colormap_annotations=colormap_annotations, render_header=render_header,
            min_value=min_value, max_value=max_value, color=color, unicode=unicode,
            legend=legend, **hatchet_names)

    def to_literal(self, name: str = "name", rank: Optional[int] = None,
                   thread: Optional[int] = None,
                   cat_columns: Sequence[str] = (), include_nid: Optional[bool] = None
                   ) -> List[Dict[str, Any]]:
        """Hatchet's literal format: a list of nested ``{frame, metrics, children}`` dicts.

        Each node dict has Hatchet's keys (``name``, ``frame``, ``metrics`` with
        ``_hatchet_nid``, ``attributes``, ``children``). Children keep the graph's
        child order; a node with several parents is written once and referenced
        elsewhere through ``_hatchet_nid`` (graphframe's node ids); ``name`` names
        the column shown as each node's ``name``; ``rank``/``thread`` pick the row exported
        (default: the lowest the data has, 0 normally).
        :meth:`from_literal` reads it back (declarations included). See
        :func:`graphframe.io.json.export.to_literal`; write it as JSON text of any
        depth with :func:`graphframe.io.json.export.literal_json`.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> gf.to_literal()
        [{'name': 'main', 'frame': {'name': 'main', 'type': 'None'}, 'metrics': {'time': 1.0, 'time (inc)': 2.0, '_hatchet_nid': 0}, 'attributes': {}, 'children': [{'name': 'solve', 'frame': {'name': 'solve', 'type': 'None'}, 'metrics': {'time': 1.0, 'time (inc)': 1.0, '_hatchet_nid': 1}, 'attributes': {}}]}]
        >>> GraphFrame.from_literal(gf.to_literal()).graph == gf.graph
        True
        """
        return export.to_literal(self, name=name, rank=rank, thread=thread,
                                 cat_columns=cat_columns, include_nid=include_nid)

    def to_dict(self) -> Dict[str, Any]:
        """Hatchet's ``to_dict`` layout plus a ``"graphframe"`` key Hatchet ignores.

        ``graph`` (one ``{id: {"data": frame, "children": [ids]}}`` table per
        root), ``dataframe_indices``, ``dataframe`` (one record per row),
        ``exclusive_metrics``, ``inclusive_metrics``; the extra key holds
        what makes :meth:`from_json` exact (dtypes, ``ordered``, declarations,
        tagged metadata). See :func:`graphframe.io.json.export.to_dict`.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> d = GraphFrame.from_lists(("main", "solve")).to_dict()
        >>> d["dataframe_indices"], d["dataframe"][0]
        (['node'], {'node': 0, 'time': 1.0, 'name': 'main', 'time (inc)': 2.0})
        """
        return export.to_dict(self)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (NaN written as ``null``).

        Returns
        -------
        str
            Hatchet's ``to_json`` layout plus a ``"graphframe"`` key (which
            Hatchet ignores). Lossless: :meth:`from_json` (and
            :func:`graphframe.read` of the file) gives back an equal
            GraphFrame; Hatchet's ``from_json`` reads it too.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> text = gf.to_json()
        >>> text[:26]
        '{"graph": [{"0": {"data": '
        >>> GraphFrame.from_json(text).dataframe.equals(gf.dataframe)
        True
        """
        return export.to_json(self)

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
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "io"))
        >>> d = a.diff(b)
        >>> d.dataframe["status"].tolist()
        ['common', 'added', 'common']
        >>> d.dataframe["time (inc) delta"].tolist()
        [1.0, 1.0, 0.0]
        """
        from .diffing import diff  # the diff loads with its first use (fast start)

        return diff(self, after, metric, **options)

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
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve", "io"))
        >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
        >>> a.diff(b).ranked_changes(kind="exclusive")[["path", "status", "delta"]]
                   path   status  delta
        node
        1     main > io  removed   -1.0
        2    main > mpi    added    1.0
        """
        from .diffing import ranked_changes

        return ranked_changes(self, metric, kind, top, significant_only)

    def diff_tree(self, metric: Any = None, **options: Any) -> str:
        """A diff result as a tree of deltas; see :func:`graphframe.render.diff_tree.render_diff_tree`.

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
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
        >>> print(a.diff(b).diff_tree(render_header=False, unicode=False), end="")
        +1.000 main (2.000 -> 3.000, +50.0%)
        |- +1.000 mpi (0.000 -> 1.000, new) [added]
        `- +0.000 solve (1.000 -> 1.000, +0.0%)
        """
        from .render.diff_tree import render_diff_tree

        return render_diff_tree(self, metric, **options)

    def to_dot(self, metric: Optional[str] = None, name: str = "name",
               rank: Optional[int] = None, thread: Optional[int] = None, threshold: float = 0.0, aggregate: Optional[str] = None) -> str:
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
        >>> from graphframe import GraphFrame
        >>> dot = GraphFrame.from_lists(("main", "solve")).to_dot()
        >>> dot.splitlines()[0], dot.count("->")
        ('strict digraph {', 1)
        """
        return render_dot(self, metric, name, rank, thread, threshold, aggregate)

    def to_flamegraph(self, metric: Optional[str] = None, name: str = "name",
                      rank: Optional[int] = None, thread: Optional[int] = None, threshold: float = 0.0, separator: str = "; ",
                      aggregate: Optional[str] = None, scale: Optional[float] = None) -> str:
        """Folded stacks (``a; b; c 12``) for flame graph tools; see :func:`render_flamegraph`.

        Parameters
        ----------
        metric : str, optional
            Column written (default: the default metric). The weights are
            self values: an inclusive metric is replaced by its exclusive
            partner, or by exclusive values derived from it, with an
            ``ExportNote`` warning (Hatchet writes inclusive values as they are).
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
        scale : float, optional
            Multiply values before rounding to integers. Default: chosen from
            the data (seconds usually become microseconds), with an
            ``ExportNote`` when it is not 1; ``scale=1`` rounds as Hatchet does.

        Returns
        -------
        str
            One ``path value`` line per node in pre-order; negative values
            are left out with a ``FlameGraphWarning``.

        Examples
        --------
        >>> from graphframe import GraphFrame
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

        See :mod:`graphframe.io.archive` and ``docs/guide/archive-format.md``
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
        >>> from graphframe import GraphFrame
        >>> import os, tempfile
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> path = gf.save(os.path.join(tempfile.mkdtemp(), "run.gfz"))
        >>> GraphFrame.load(path).dataframe.equals(gf.dataframe)
        True
        """
        return archive.save(self, path, compression)

    def to_hdf(self, filename: Any, key: str = "hatchet_graphframe", **kwargs: Any) -> None:
        """Hatchet's HDF5 export (deprecated there) is not offered: it pickles the graph.

        Raises :class:`~graphframe.errors.UnsupportedError` naming the
        replacement, :meth:`save` (a Parquet archive with no pickled objects,
        read back by :meth:`load`).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_lists(("main",)).to_hdf("run.h5")
        Traceback (most recent call last):
        ...
        graphframe.errors.UnsupportedError: to_hdf is not offered: Hatchet's HDF5 files pickle the graph, and unpickling runs code from the file; use gf.save("run.gfz") and GraphFrame.load("run.gfz") (a lossless Parquet archive)
        """
        raise UnsupportedError(
            "to_hdf is not offered: Hatchet's HDF5 files pickle the graph, and unpickling "
            "runs code from the file; use gf.save(\"run.gfz\") and GraphFrame.load(\"run.gfz\") "
            "(a lossless Parquet archive)")

    @classmethod
    def from_hdf(cls, filename: Any, **kwargs: Any) -> "GraphFrame":
        """Hatchet's HDF5 import is not offered: the file holds a pickled graph.

        Raises :class:`~graphframe.errors.UnsupportedError`: reading one would
        unpickle the file's graph, which runs code the file brings. Re-export
        it from Hatchet with ``to_literal``/``to_json`` and read that.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_hdf("run.h5")
        Traceback (most recent call last):
        ...
        graphframe.errors.UnsupportedError: from_hdf is not offered: a Hatchet HDF5 file holds a pickled graph, and unpickling runs code from the file; in Hatchet, write it with gf.to_json() (or to_literal()) and read that with GraphFrame.from_json / from_literal
        """
        raise UnsupportedError(
            "from_hdf is not offered: a Hatchet HDF5 file holds a pickled graph, and "
            "unpickling runs code from the file; in Hatchet, write it with gf.to_json() (or "
            "to_literal()) and read that with GraphFrame.from_json / from_literal")

    def _repr_html_(self) -> str:
        return render_html(self)

    # ---------------------------------------------------------- operators
    def __add__(self, other: "GraphFrame") -> "GraphFrame":
        return self.add(other) if isinstance(other, GraphFrame) else NotImplemented

    def __sub__(self, other: "GraphFrame") -> "GraphFrame":
        return self.sub(other) if isinstance(other, GraphFrame) else NotImplemented

    def __mul__(self, other: "GraphFrame") -> "GraphFrame":
        return self.mul(other) if isinstance(other, GraphFrame) else NotImplemented

    def __truediv__(self, other: "GraphFrame") -> "GraphFrame":
        return self.div(other) if isinstance(other, GraphFrame) else NotImplemented

    # in place, as Hatchet's +=, -=, *= (and /=, which Hatchet leaves to Python's
    # fallback by defining only Python 2's __idiv__): the object's fields are rebound
    # to the result; no frame another object holds is written
    def __iadd__(self, other: "GraphFrame") -> "GraphFrame":
        return self._inplace_op(other, self.add)

    def __isub__(self, other: "GraphFrame") -> "GraphFrame":
        return self._inplace_op(other, self.sub)

    def __imul__(self, other: "GraphFrame") -> "GraphFrame":
        return self._inplace_op(other, self.mul)

    def __itruediv__(self, other: "GraphFrame") -> "GraphFrame":
        return self._inplace_op(other, self.div)

    def _inplace_op(self, other: Any, method: Any) -> "GraphFrame":
        if not isinstance(other, GraphFrame):
            return NotImplemented
        self._rebind(method(other))
        return self

    def __repr__(self) -> str:
        return f"<GraphFrame: {summary(self)}>"

    # ---------------------------------------------------- rank statistics
    def rank_stats(self, metrics: Any = None, stats: Sequence[str] = DEFAULT_RANK_STATS,
                   over: Union[str, Sequence[str]] = "rank", top: int = 0,
                   percentiles: Sequence[float] = (), ddof: int = 0) -> pd.DataFrame:
        """Per-node statistics of metrics across ranks, threads or both (one pass).

        ``stats`` from ``count sum min max mean median std var imbalance argmax
        argmin``; ``imbalance`` = max / mean; ``std`` uses ``ddof`` (0: the ranks
        are the whole population); missing rows are "no value", never 0. See
        :mod:`graphframe.ops.stats` for every definition.

        Examples
        --------
        >>> from graphframe.examples import example_graphframe
        >>> st = example_graphframe().rank_stats("time (inc)", stats=["max", "argmax"])
        >>> st.head(2)
                    name  time (inc).max  time (inc).argmax
        node
        0           main           30.62                  3
        1     initialize            1.85                  3
        """
        return rank_ops.rank_stats(self, metrics, stats, over, top, percentiles, ddof)

    def load_imbalance(self, metric: Any = None, threshold: Optional[float] = None,
                       top: int = 5, over: Union[str, Sequence[str]] = "rank") -> "GraphFrame":
        """A node-indexed GraphFrame with ``<m>.mean``, ``<m>.max``, ``<m>.imbalance``, ``<m>.ranks``.

        ``<m>.imbalance`` (max / mean across ranks) becomes the default metric;
        other metrics are averaged over ranks; ``threshold`` keeps the nodes whose
        ``<m>.max`` exceeds that fraction of the metric's largest value. See
        :func:`graphframe.ops.stats.load_imbalance`.

        Examples
        --------
        >>> from graphframe.examples import example_graphframe
        >>> li = example_graphframe().load_imbalance("time (inc)")
        >>> print(li.tree(render_header=False, depth=2), end="")
        1.100 main
        ├─ 1.051 initialize
        ├─ 1.108 timestep_loop
        └─ 1.058 write_output
        """
        return rank_ops.load_imbalance(self, metric, threshold, top, over)

    @property
    def plot(self) -> "PlotAccessor":
        """Plots of this profile: ``gf.plot.flamegraph()``, ``.heatmap()``... (see
        :mod:`graphframe.plot`; needs matplotlib, the ``plot`` extra)."""
        return PlotAccessor(self)


def _check_node_ids(graph: Graph, dataframe: pd.DataFrame) -> None:
    if not len(dataframe):
        return
    lo, hi = node_id_range(dataframe.index)
    if lo < 0 or hi >= graph.num_nodes:
        raise GraphMismatchError(
            f"the dataframe refers to node id {hi if hi >= graph.num_nodes else lo}, "
            f"but the graph has ids 0..{graph.num_nodes - 1}")


def _flag(inplace: Any) -> bool:
    """``inplace`` checked to be a bool (as pandas does)."""
    if not isinstance(inplace, (bool, np.bool_)):
        raise ArgumentError(f"inplace must be True or False, not {inplace!r}")
    return bool(inplace)
