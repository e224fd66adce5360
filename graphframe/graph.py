"""Hatchet's ``hatchet.graph`` names: :class:`Graph` (defined in :mod:`graphframe.model.graph`).

Examples
--------
>>> from graphframe.graph import Graph
>>> len(Graph.from_lists(("a", "b")))
2
"""

from .model.graph import Graph

__all__ = ["Graph"]
