"""GraphFrame: a call graph plus a dataframe of metrics indexed by (node, rank...).

The class holds the fields, construction, copies and the operators; its other
methods come from mixins, one module per group: ``graphframe_metrics``
(inclusive columns, sums, aggregation), ``graphframe_ops`` (filter, squash,
unify, arithmetic, queries), ``graphframe_output`` (tree, exports, diffs,
save) and ``reader_constructors`` (Hatchet-named readers). Every method is
thin: the work happens in ``build`` (RawProfile -> parts), ``ops/``
(operations), ``render/`` (text output) and the export modules.
"""

from __future__ import annotations

import copy as _copy
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

import readers
from readers import RawProfile
from readers.common.jsonfile import load_json, loads_json
from readers.hatchet import parse_hatchet_json, parse_literal

from . import json_doc, persist
from .build import node_id_range, parts_from_raw, private_copy
from .errors import GraphMismatchError
from .graph import Graph
from .graphframe_metrics import MetricMethods
from .graphframe_ops import OperationMethods
from .graphframe_output import OutputMethods
from .metrics import default_pairs
from .ops.merge_rules import check_aggregations
from .reader_constructors import ReaderConstructors
from .render.html import summary


class GraphFrame(MetricMethods, OperationMethods, OutputMethods, ReaderConstructors):
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
        aggregations: Optional[Mapping[str, str]] = None,
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
        self._aggregations: Dict[str, str] = check_aggregations(aggregations, dataframe)

    @property
    def aggregations(self) -> Dict[str, str]:
        """Declared column -> aggregation (``"sum"``, ``"min"``, ``"max"``, ``"mean"``,
        ``"first"``) used when rows merge; a new dict on every access."""
        return dict(self._aggregations)

    # ------------------------------------------------------- construction
    @classmethod
    def from_raw(cls, raw: RawProfile) -> "GraphFrame":
        """Build a GraphFrame from a reader's :class:`~readers.RawProfile`.

        The GraphFrame never shares writable data with ``raw``.

        Examples
        --------
        >>> import readers
        >>> b = readers.ProfileBuilder("example")
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
        others are references (extra parents). Bad input raises
        :class:`~readers.errors.ReadError` naming the node's position; a
        reference whose values differ from the node's warns
        (:class:`readers.hatchet.LiteralWarning`). See :mod:`readers.hatchet.literal`.

        Examples
        --------
        >>> gf = GraphFrame.from_literal([{"frame": {"name": "a"},
        ...     "metrics": {"time": 1.0}, "children": [
        ...     {"frame": {"name": "b"}, "metrics": {"time": 2.0}}]}])
        >>> gf.dataframe["time"].tolist()
        [1.0, 2.0]
        >>> GraphFrame.from_literal([{"frame": {"name": "a"}, "metrics": {"time": "x"}}])
        Traceback (most recent call last):
        ...
        readers.errors.ReadError: <literal>: [0]: metric 'time' is not a number: 'x' (expected a number (or null))
        """
        return cls(**parts_from_raw(parse_literal(graph_dict, source="<literal>"), private=True))

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
        names = graph.attrs["name"].to_numpy(dtype=object)
        df = pd.DataFrame({"time": np.ones(n), "name": names},
                          index=pd.Index(np.arange(n, dtype=np.int64), name="node"))
        gf = cls(graph, df, ["time"], [], default_metric="time")
        return gf.update_inclusive_columns()

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
        doc = json_spec if isinstance(json_spec, Mapping) else loads_json(json_spec, "<json>")
        return cls._from_json_doc(doc, "<json>")

    @classmethod
    def _from_json_doc(cls, doc: Any, source: Any) -> "GraphFrame":
        parts = json_doc.parts_from_doc(doc, source)
        if parts is None:
            parts = parts_from_raw(parse_hatchet_json(doc, source), private=True)
        return cls(**parts)

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
        name = format if format is not None else readers.sniff(path)
        if name == "hatchet-json" and not options and not isinstance(path, (list, tuple)):
            return cls._from_json_doc(load_json(path), path)
        raw = readers.read(path, format=name, **options)
        # the RawProfile is ours alone: the build releases its columns as it copies them
        return cls(**parts_from_raw(raw, consume=True))


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
        fields = dict(graph=self.graph, dataframe=self.dataframe,
                      exc_metrics=self.exc_metrics, inc_metrics=self.inc_metrics,
                      default_metric=self.default_metric, metadata=self.metadata,
                      inclusive_of=self.inclusive_of, aggregations=self._aggregations)
        fields.update(changes)
        columns = fields["dataframe"].columns  # columns an operation dropped lose their entry
        fields["aggregations"] = {c: k for c, k in (fields["aggregations"] or {}).items()
                                  if c in columns}
        return GraphFrame(**fields)

    # ------------------------------------------------------------ metrics
    def show_metric_columns(self) -> List[str]:
        """Exclusive then inclusive metric names (a new list).

        Examples
        --------
        >>> GraphFrame.from_lists(("main", "solve")).show_metric_columns()
        ['time', 'time (inc)']
        """
        return list(self.exc_metrics) + list(self.inc_metrics)

    # ---------------------------------------------------------- operators
    def __add__(self, other: "GraphFrame") -> "GraphFrame":
        return self.add(other) if isinstance(other, GraphFrame) else NotImplemented

    def __sub__(self, other: "GraphFrame") -> "GraphFrame":
        return self.sub(other) if isinstance(other, GraphFrame) else NotImplemented

    def __mul__(self, other: "GraphFrame") -> "GraphFrame":
        return self.mul(other) if isinstance(other, GraphFrame) else NotImplemented

    def __truediv__(self, other: "GraphFrame") -> "GraphFrame":
        return self.div(other) if isinstance(other, GraphFrame) else NotImplemented

    # in-place forms rebind the name to a new object; the old one is unchanged
    __iadd__ = __add__
    __isub__ = __sub__
    __imul__ = __mul__
    __itruediv__ = __truediv__

    def __repr__(self) -> str:
        return f"<GraphFrame: {summary(self)}>"


def _check_node_ids(graph: Graph, dataframe: pd.DataFrame) -> None:
    if not len(dataframe):
        return
    lo, hi = node_id_range(dataframe.index)
    if lo < 0 or hi >= graph.num_nodes:
        raise GraphMismatchError(
            f"the dataframe refers to node id {hi if hi >= graph.num_nodes else lo}, "
            f"but the graph has ids 0..{graph.num_nodes - 1}")
