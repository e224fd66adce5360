"""The data model: Frame, Node and Graph (structure in integer arrays).

A :class:`Graph` is immutable; its node ids ``0..n-1`` are in pre-order and
its structure lives in numpy arrays (:mod:`graphframe.model.graph`). A
:class:`Node` is a thin view of one id, a :class:`Frame` the attributes of
one node. The module :mod:`graphframe.model.dataframe` holds the dataframe
and index helpers every layer above shares.
"""

from .frame import Frame
from .graph import Graph
from .node import Node

__all__ = ["Frame", "Graph", "Node"]
