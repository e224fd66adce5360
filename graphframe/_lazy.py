"""Modules and functions loaded with their first use, for a fast ``import graphframe``.

``name = lazy_module("graphframe.ops.squash")`` binds a stand-in that imports the module
the first time an attribute is read; ``fn = lazy_function("graphframe.render.tree",
"render_tree")`` a function that imports and calls the real one. Both are ordinary
dependencies for the import-graph test (``tests/test_import_graph.py`` reads their
string arguments as imports), so a lazy import can never hide a cycle.

Examples
--------
>>> squash = lazy_module("graphframe.ops.squash")
>>> callable(squash.squash)
True
>>> lazy_function("graphframe.render.numbers", "format_numbers").__name__
'format_numbers'
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable


class LazyModule:
    """A stand-in for a module, imported on the first attribute read (see the module docs)."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: Any = None

    def _load(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return self._module

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<lazy module {self._name!r} ({state})>"


def lazy_module(name: str) -> Any:
    """A stand-in for module ``name``, imported on its first attribute read."""
    return LazyModule(name)


def lazy_function(module: str, name: str) -> Callable[..., Any]:
    """A function that imports ``module`` on its first call and calls ``module.name``."""
    cache: list = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not cache:
            cache.append(getattr(importlib.import_module(module), name))
        return cache[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{module}.{name}``, imported with its first call."
    return call
