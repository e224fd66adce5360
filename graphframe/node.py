"""Hatchet's ``hatchet.node`` names: :class:`Node`, the traversal sort keys and
:class:`MultiplePathError` (the classes live in :mod:`graphframe.model`).

Examples
--------
>>> from graphframe.node import Node, traversal_order
>>> from graphframe.frame import Frame
>>> root = Node.from_lists(["main", "b", "a"])
>>> [c.frame["name"] for c in sorted(root.children, key=traversal_order)]
['a', 'b']
"""

from .errors import MultiplePathError
from .model.node import HandNode, Node, node_traversal_order, traversal_order

__all__ = ["Node", "HandNode", "MultiplePathError", "traversal_order", "node_traversal_order"]
