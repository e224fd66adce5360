"""Hatchet's ``hatchet.version`` name: ``__version__`` (defined in :mod:`graphframe._version`).

Examples
--------
>>> import graphframe as ht
>>> ht.version.__version__ == ht.__version__
True
"""

from ._version import __version__

__all__ = ["__version__"]
