"""Hatchet's ``hatchet.frame`` names: :class:`Frame` (defined in :mod:`graphframe.model.frame`).

Examples
--------
>>> from graphframe.frame import Frame
>>> Frame(name="main")["type"]
'None'
"""

from .model.frame import Frame

__all__ = ["Frame"]
