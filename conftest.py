"""pytest setup shared by every test path (``tests/``, the packages' doctests, ``docs/``).

``GraphFrame`` and ``Graph`` get most of their methods from mixin modules
(``graphframe_metrics``, ``graphframe_ops``, ``graphframe_output``,
``graph_traversal``...) that cannot import the class they are mixed into: the
class's module imports them. The examples of those methods are written as a
user reads them in ``help(GraphFrame.filter)``, like the examples of the
class's own methods: ``GraphFrame``, ``pd`` and ``np`` without an import. So
the doctests of a mixin module run with the names of the module that defines
the class added to their globals (the mixin module's own names win).
"""

from __future__ import annotations

import inspect
from typing import Any, Dict

import pytest

from graphframe.graph import Graph
from graphframe.graphframe import GraphFrame


def _host_namespaces() -> Dict[str, Dict[str, Any]]:
    """Mixin module name -> globals of the module that defines the class using it."""
    hosts: Dict[str, Dict[str, Any]] = {}
    for cls in (GraphFrame, Graph):
        host = vars(inspect.getmodule(cls))
        for base in cls.__mro__[1:]:
            if base.__module__.startswith("graphframe."):
                hosts[base.__module__] = host
    return hosts


_HOSTS = _host_namespaces()


@pytest.fixture(autouse=True)
def _mixin_doctest_names(request: pytest.FixtureRequest) -> None:
    dtest = getattr(request.node, "dtest", None)  # set on doctest items only
    if dtest is None:
        return
    host = _HOSTS.get(dtest.globs.get("__name__"))
    if host is not None:
        for name, value in host.items():
            dtest.globs.setdefault(name, value)
