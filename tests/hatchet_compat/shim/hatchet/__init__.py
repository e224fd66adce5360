"""``import hatchet`` for the compatibility scripts: Hatchet's names looked up in graphframe.

A Hatchet user changes one import line; these scripts change none. This shim
stands in for that line: ``hatchet`` is graphframe's top level, and each
module path a Hatchet user imports from (``hatchet.node``,
``hatchet.readers.caliper_reader``, ...) is a small module whose attributes
are found, in this order, in ``graphframe.<same path>`` (once graphframe has
such a module) and then in ``graphframe`` itself. Nothing is added or
adapted here: a name graphframe does not offer stays missing, so the script
that uses it fails and shows the gap. The one thing the shim does is what a
Hatchet user's changed import line would come with: it turns on
``graphframe.options.hatchet_compat`` (Hatchet's column types, the string
dialect's WHERE clause read per query node, object-dialect conditions judged
when applied; docs/guide/coming-from-hatchet.md, "Hatchet compatibility mode").
"""

import importlib
import sys
import types

import graphframe as _graphframe
from graphframe import *  # noqa: F401,F403

GraphFrame = _graphframe.GraphFrame
_graphframe.options.hatchet_compat = True
__version__ = _graphframe.__version__

# module paths below ``hatchet`` that Hatchet's tutorials, docs and tests import from
SUBMODULES = (
    "graphframe", "node", "graph", "frame",
    "query", "query.compat", "query.compound", "query.engine", "query.errors",
    "query.object_dialect", "query.string_dialect", "query.query",
    "readers", "readers.caliper_reader", "readers.caliper_native_reader",
    "readers.hpctoolkit_reader", "readers.hpctoolkit_reader_latest",
    "readers.gprof_dot_reader", "readers.cprofile_reader", "readers.literal_reader",
    "readers.json_reader", "readers.pyinstrument_reader", "readers.tau_reader",
    "readers.timemory_reader", "readers.spotdb_reader",
    "util", "util.profiler", "util.timer", "version",
)


def _lookup(path: str, name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    for candidate in ("graphframe." + path, "graphframe"):
        try:
            module = importlib.import_module(candidate)
        except ImportError:
            continue
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module 'hatchet.{path}' (graphframe shim) has no attribute {name!r}: "
                         f"neither graphframe.{path} nor graphframe offers it")


def _install() -> None:
    for path in SUBMODULES:
        module = types.ModuleType("hatchet." + path)
        module.__getattr__ = lambda name, _path=path: _lookup(_path, name)
        module.__path__ = []  # a package, so that deeper paths import
        sys.modules["hatchet." + path] = module
        parent, _, leaf = ("hatchet." + path).rpartition(".")
        setattr(sys.modules[parent], leaf, module)
    sys.modules["hatchet.version"].__version__ = _graphframe.version.__version__


_install()


def __getattr__(name: str):
    return getattr(_graphframe, name)
