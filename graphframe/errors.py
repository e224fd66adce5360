"""The exception hierarchy. Everything derives from :class:`GraphframeError`."""

from graphframe_readers.errors import (ArgumentError, GraphframeError, ProfileError, ReadError,
                            UnknownFormatError)


class MultiplePathError(GraphframeError):
    """A node has more than one root-to-node path where exactly one was asked for."""


class EmptyFilter(GraphframeError):
    """A filter removed every row."""


class InvalidFilter(GraphframeError, TypeError):
    """The object given to ``filter`` is not a filter."""


class MetricError(GraphframeError, KeyError):
    """A metric or column named by the caller does not exist."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class GraphMismatchError(GraphframeError, ValueError):
    """A dataframe does not agree with its graph (unknown node ids, missing level)."""


class ImmutableGraphError(GraphframeError, AttributeError):
    """A change to a graph built from arrays (a node read from a frame or a graph,
    a graph's root list): graphframe's graphs never change, since dataframes and
    other graphs refer to their node ids. The message says what to do instead."""


class OperationError(GraphframeError, ValueError):
    """An operation cannot run with the arguments given: an operand that is not a
    GraphFrame, an unknown aggregation, a column that cannot be summed, a
    tree-only operation on a call graph."""


class UnsupportedError(GraphframeError, NotImplementedError):
    """A Hatchet method graphframe deliberately does not offer; the message names the
    replacement (for example ``to_hdf``, which pickles the graph: ``save`` instead)."""


class PoorMatchWarning(UserWarning):
    """A diff matched fewer than half of the two profiles' nodes: its deltas mostly
    compare a node with nothing (try matching by name, or check the profiles)."""


__all__ = [
    "ArgumentError",
    "EmptyFilter",
    "GraphMismatchError",
    "GraphframeError",
    "ImmutableGraphError",
    "InvalidFilter",
    "MetricError",
    "MultiplePathError",
    "OperationError",
    "PoorMatchWarning",
    "ProfileError",
    "ReadError",
    "UnknownFormatError",
]
