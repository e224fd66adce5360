"""graphframe: fast, Hatchet-compatible analysis of calling-context trees.

Examples
--------
>>> import graphframe
>>> gf = graphframe.GraphFrame.from_lists(("main", "solve"))
>>> gf.graph.num_nodes
2
"""

from typing import Any, Optional

import readers

from ._version import __version__
from .errors import (EmptyFilter, GraphframeError, InvalidFilter, MetricError,
                     MultiplePathError, ReadError, UnknownFormatError)
from .diffing import diff
from .frame import Frame
from .graph import Graph
from .graphframe import GraphFrame
from .node import Node
from .query import (ConjunctionQuery, DisjunctionQuery, ExclusiveDisjunctionQuery,
                    NegationQuery, ObjectQuery, Query, QueryMatcher, StringQuery,
                    parse_string_dialect)


def read(path: Any, format: Optional[str] = None, **options: Any) -> GraphFrame:
    """Read a profile of any supported format into a :class:`GraphFrame`.

    Parameters
    ----------
    path : str, path-like or list of them
        A profile file, a database directory, or several files of one run.
    format : str, optional
        One of :func:`formats`; sniffed from the input when omitted.
    **options
        Reader-specific keywords.

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "p.json")
    >>> with open(p, "w") as f:
    ...     json.dump([{"frame": {"name": "main"}, "metrics": {"time": 3.0}}], f)
    >>> read(p).dataframe["time"].tolist()
    [3.0]
    """
    return GraphFrame.read(path, format=format, **options)


def load(path: Any) -> GraphFrame:
    """Read a GraphFrame written by :meth:`GraphFrame.save` (see :mod:`graphframe.persist`).

    Examples
    --------
    >>> import os, tempfile
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> p = gf.save(os.path.join(tempfile.mkdtemp(), "run.gfz"))
    >>> load(p).dataframe.equals(gf.dataframe)
    True
    """
    return GraphFrame.load(path)


def formats() -> list:
    """Names of the formats :func:`read` understands."""
    return readers.formats()


__all__ = [
    "ConjunctionQuery",
    "DisjunctionQuery",
    "EmptyFilter",
    "ExclusiveDisjunctionQuery",
    "Frame",
    "Graph",
    "GraphFrame",
    "GraphframeError",
    "InvalidFilter",
    "MetricError",
    "MultiplePathError",
    "NegationQuery",
    "Node",
    "ObjectQuery",
    "Query",
    "QueryMatcher",
    "ReadError",
    "StringQuery",
    "UnknownFormatError",
    "__version__",
    "diff",
    "formats",
    "load",
    "parse_string_dialect",
    "read",
]

# Traces (issue 18): appended; the trace layers live in graphframe/traces and readers/traces.
from .traces import TraceFrame, read_trace  # noqa: E402

__all__ += ["TraceFrame", "read_trace"]
