"""What operations see of a GraphFrame: its fields, and a copy with some of them changed.

Operations (``graphframe.ops``), renderers and the diff take any object with
the fields of :class:`~graphframe.GraphFrame` (the :class:`GraphFrameLike`
protocol) and return a new object of the same class built by
:func:`replace`; none of them imports the GraphFrame class or calls its
methods, so data flows one way: model -> ops -> GraphFrame's one-line methods.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Protocol, Sequence, TypeVar

import pandas as pd

from .graph import Graph


class GraphFrameLike(Protocol):
    """The fields of a GraphFrame (see :class:`graphframe.GraphFrame` for their meaning).

    Its class is called with these fields as keywords to make a new one.
    """

    graph: Graph
    dataframe: pd.DataFrame
    exc_metrics: List[Any]
    inc_metrics: List[Any]
    default_metric: Optional[Any]
    metadata: Dict[str, Any]
    inclusive_of: Dict[Any, Any]

    def __init__(self, graph: Graph, dataframe: pd.DataFrame,
                 exc_metrics: Optional[Sequence[Any]] = None,
                 inc_metrics: Optional[Sequence[Any]] = None,
                 default_metric: Optional[Any] = "time",
                 metadata: Optional[Mapping[str, Any]] = None,
                 inclusive_of: Optional[Mapping[Any, Any]] = None,
                 aggregations: Optional[Mapping[Any, str]] = None) -> None: ...

    @property
    def aggregations(self) -> Dict[Any, str]: ...


#: Any GraphFrame class; an operation returns an object of its input's class.
GF = TypeVar("GF", bound=GraphFrameLike)


def replace(gf: GF, **changes: Any) -> GF:
    """A new object of ``gf``'s class with ``changes`` applied to its fields.

    Unchanged fields are shared (the graph is immutable; operations never
    write into a dataframe another object holds). Aggregations declared for
    columns the new dataframe lacks are dropped.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> doubled = replace(gf, dataframe=gf.dataframe.assign(time=2.0))
    >>> doubled.dataframe["time"].tolist(), gf.dataframe["time"].tolist()
    ([2.0, 2.0], [1.0, 1.0])
    >>> type(doubled) is GraphFrame, doubled.graph is gf.graph
    (True, True)
    """
    fields: Dict[str, Any] = dict(
        graph=gf.graph, dataframe=gf.dataframe, exc_metrics=gf.exc_metrics,
        inc_metrics=gf.inc_metrics, default_metric=gf.default_metric, metadata=gf.metadata,
        inclusive_of=gf.inclusive_of, aggregations=gf.aggregations)
    fields.update(changes)
    columns = fields["dataframe"].columns
    fields["aggregations"] = {c: k for c, k in (fields["aggregations"] or {}).items()
                              if c in columns}
    return type(gf)(**fields)


def metric_columns(gf: GraphFrameLike) -> List[Any]:
    """The declared metrics: exclusive, then inclusive (a new list).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> metric_columns(GraphFrame.from_lists(("main", "solve")))
    ['time', 'time (inc)']
    """
    return list(gf.exc_metrics) + list(gf.inc_metrics)
