"""The one place this package imports graphframe's modules by their location.

Everything else in ``graphframe.ensemble`` and ``graphframe.thicket`` imports
``Graph`` and ``GraphFrame`` (and the archive helpers) from here, so a
restructure of graphframe's modules only has to change these lines.
"""

from ..graph import Graph  # noqa: F401
from ..graphframe import GraphFrame  # noqa: F401

__all__ = ["Graph", "GraphFrame"]
