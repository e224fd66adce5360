"""Test-run guard for the import name of the ``readers/`` folder.

The folder is installed and imported as ``graphframe_readers`` (pyproject.toml's
``package-dir``; docs/architecture.md, "The import name"). pytest puts the checkout on
``sys.path`` (``pythonpath = ["."]`` and its own rootdir insertion), where the folder is
also importable under its folder name: a module imported that way would be a second copy
(a second ``ReadError`` class, a second format registry). Such an import fails here,
loudly, and the folder's doctests are collected under the installed name by
``tests/readers/core/test_readers_doctests.py``, not by ``--doctest-modules`` (which names
modules by their paths).
"""

import sys

# a None entry in sys.modules makes an import of that name raise ModuleNotFoundError
# (importlib's documented rule)
sys.modules["readers"] = None  # type: ignore[assignment]

# no path-based collection of readers/ (doctests there run under graphframe_readers.*)
collect_ignore = ["readers"]
