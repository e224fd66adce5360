"""graphframe: fast, Hatchet-compatible analysis of calling-context trees.

Examples
--------
>>> import graphframe
>>> gf = graphframe.GraphFrame.from_lists(("main", "solve"))
>>> gf.graph.num_nodes
2
"""

from typing import Any, Optional

from ._version import __version__
from .errors import (EmptyFilter, GraphframeError, InvalidFilter, MetricError, MultiplePathError,
                     ReadError, UnknownFormatError)
from . import options
from .graphframe import GraphFrame
from .model import Frame, Graph, Node


def read(path: Any, format: Optional[str] = None, **options: Any) -> GraphFrame:
    """Read a profile of any supported format, or a saved archive, into a :class:`GraphFrame`.

    What ``path`` is, is decided in one place (:mod:`graphframe.io.dispatch`):
    a graphframe archive (``.gfz``, by its first bytes), a JSON document
    written by :meth:`GraphFrame.to_json` (read back exactly), or any format
    :mod:`graphframe_readers` recognises.

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
    >>> read(GraphFrame.from_lists(("a", "b")).save(p + ".gfz")).graph.num_nodes
    2
    """
    return GraphFrame.read(path, format=format, **options)


def load(path: Any) -> GraphFrame:
    """Read a GraphFrame written by :meth:`GraphFrame.save` (archives only; see :mod:`graphframe.io.archive`).

    Examples
    --------
    >>> import os, tempfile
    >>> gf = GraphFrame.from_lists(("main", "solve"))
    >>> p = gf.save(os.path.join(tempfile.mkdtemp(), "run.gfz"))
    >>> load(p).dataframe.equals(gf.dataframe)
    True
    """
    return GraphFrame.load(path)


def __getattr__(name: str) -> Any:
    import importlib

    if name == "diff":  # the diff loads with its first use (fast start)
        return importlib.import_module("graphframe.diffing").diff
    if name == "Ensemble":  # the ensemble package loads with its first use (fast start)
        return importlib.import_module("graphframe.ensemble").Ensemble
    if name == "recorder":  # Recorder users' names (prismio's design) over the I/O analyses
        return importlib.import_module("graphframe.recorder")
    if name in ("TraceFrame", "read_trace", "read_traces", "TraceEnsemble"):  # loaded on first use
        return getattr(importlib.import_module("graphframe.traces"), name)
    if name in _HATCHET_MODULES:  # ht.node, ht.graph, ht.frame, ht.version as in Hatchet
        return importlib.import_module(f"graphframe.{name}")
    if name in _QUERY_NAMES:  # the query language loads with its first use (fast start)
        return getattr(importlib.import_module("graphframe.query"), name)
    raise AttributeError(f"module 'graphframe' has no attribute {name!r}")


#: submodules Hatchet's package exposes as attributes after ``import hatchet``
_HATCHET_MODULES = ("node", "graph", "frame", "version")

#: the query language's public names (``graphframe.query``), loaded with their first use
_QUERY_NAMES = ("ConjunctionQuery", "DisjunctionQuery", "ExclusiveDisjunctionQuery",
                "NegationQuery", "ObjectQuery", "Query", "QueryMatcher", "StringQuery",
                "parse_string_dialect")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))


def formats() -> list:
    """Names of the formats :func:`read` understands: the readers', then ``"graphframe"``.

    Examples
    --------
    >>> formats()[-1]
    'graphframe'
    """
    from .io import dispatch  # the resolver loads with its first use (fast start)

    return dispatch.formats()


__all__ = [
    "ConjunctionQuery",
    "DisjunctionQuery",
    "EmptyFilter",
    "Ensemble",
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
    "TraceEnsemble",
    "TraceFrame",
    "UnknownFormatError",
    "__version__",
    "diff",
    "formats",
    "load",
    "parse_string_dialect",
    "read",
    "read_trace",
    "read_traces",
    "recorder",
]

