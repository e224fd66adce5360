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
from readers.jsonfile import loads_json
from readers.literal import parse_literal

from . import export
from .build import parts_from_raw
from .errors import GraphMismatchError
from .graph import Graph
from .metrics import default_pairs
from .ops import inclusive
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

    def __repr__(self) -> str:
        levels = ", ".join(str(n) for n in self.dataframe.index.names)
        return (f"<GraphFrame: {self.graph.num_nodes} nodes, {len(self.dataframe)} rows "
                f"({levels}); metrics: {', '.join(self.show_metric_columns()) or 'none'}>")


def _check_node_ids(graph: Graph, dataframe: pd.DataFrame) -> None:
    if not len(dataframe):
        return
    values = dataframe.index.get_level_values("node")
    lo, hi = values.min(), values.max()
    if lo < 0 or hi >= graph.num_nodes:
        raise GraphMismatchError(
            f"the dataframe refers to node id {hi if hi >= graph.num_nodes else lo}, "
            f"but the graph has ids 0..{graph.num_nodes - 1}")
