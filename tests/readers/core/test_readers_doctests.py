"""The docstring examples of ``readers/``, run under the installed name ``graphframe_readers``.

``--doctest-modules`` would import ``readers/x.py`` by its path, under the folder's name,
beside ``graphframe_readers.x`` (two ``ReadError`` classes), so the root ``conftest.py`` keeps
pytest's path-based collection away from the folder and this module runs its examples:
one test per module, each failing example reported with its file, line and module.
"""

from __future__ import annotations

import doctest
import importlib
import io
from pathlib import Path
from typing import List

import pytest

import graphframe_readers

FOLDER = Path(graphframe_readers.__file__).resolve().parent


def module_names() -> List[str]:
    """Every module of the folder (on disk, so a new module is never forgotten)."""
    names = []
    for path in sorted(FOLDER.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(FOLDER).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(["graphframe_readers"] + parts))
    return names


def option_flags(config) -> int:
    """The doctest option flags of pytest's configuration (``doctest_optionflags``)."""
    flags = 0
    for name in config.getini("doctest_optionflags"):
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    return flags


def test_the_modules_are_found_under_the_installed_name():
    names = module_names()
    assert "graphframe_readers" in names and "graphframe_readers.registry" in names
    assert "graphframe_readers.caliper.cali.decode" in names
    assert len(names) > 100


@pytest.mark.parametrize("name", module_names())
def test_docstring_examples(name, request):
    module = importlib.import_module(name)
    assert module.__name__ == name
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=option_flags(request.config))
    for test in sorted(tests, key=lambda t: (t.lineno or 0, t.name)):
        runner.run(test, out=out.write, clear_globs=True)
    result = runner.summarize(verbose=False)
    # doctest's report names the file, the line and the docstring of each failing example
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed\n" \
        + out.getvalue()
