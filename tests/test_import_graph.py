"""The import graph of both packages, read statically from every import statement.

Fails on a cycle between modules, on a cycle between packages (a first-level
subpackage such as ``graphframe.io`` counts as one unit, with every module inside it;
a module directly in ``graphframe/`` counts as itself; importing any module of a
subpackage runs that subpackage's ``__init__``, so this sees the cycles that lazy
imports inside functions close through package ``__init__`` files), on ``graphframe_readers`` importing ``graphframe``, on an
operation (``graphframe.ops``) reaching ``graphframe.graphframe``, and on any source file
importing the old top-level name of the ``readers/`` folder (installed as
``graphframe_readers``; see docs/architecture.md, "The import name"). Every import
counts: module level, inside functions, under ``TYPE_CHECKING``, and the modules named
to ``graphframe._lazy``'s ``lazy_module``/``lazy_function`` (loaded on first use). A module
importing a name from a package depends on that package's ``__init__`` (or on
the submodule when the name is one); the implicit import of parent packages
is not an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

import pytest

REPO = Path(__file__).resolve().parent.parent
# import name -> folder (pyproject.toml's package-dir installs readers/ as graphframe_readers)
PACKAGES = {"graphframe": "graphframe", "graphframe_readers": "readers"}
# every folder of Python sources whose imports are checked for the old name
SOURCES = ("graphframe", "readers", "tests", "benchmarks", "docs")


def module_name(path: Path) -> str:
    for name, folder in PACKAGES.items():
        if path.is_relative_to(REPO / folder):
            parts = [name] + list(path.relative_to(REPO / folder).with_suffix("").parts)
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    raise ValueError(f"{path} is in none of {sorted(PACKAGES.values())}")


def modules() -> Dict[str, Path]:
    found = {}
    for folder in PACKAGES.values():
        for path in sorted((REPO / folder).rglob("*.py")):
            found[module_name(path)] = path
    return found


def absolute_imports(path: Path) -> List[tuple]:
    """(line, module) of every absolute import statement of a file, anywhere in it."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            out.append((node.lineno, node.module or ""))
    return out


#: graphframe._lazy's helpers: their first argument names a module imported on first use
LAZY_HELPERS = ("lazy_module", "lazy_function")


def lazy_target(node: ast.Call) -> str:
    """The module a ``lazy_module("x.y")`` / ``lazy_function("x.y", "f")`` call loads ("" if none)."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if name in LAZY_HELPERS and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return ""


def imports_of(name: str, path: Path, known: Set[str]) -> Set[str]:
    """The modules of ``known`` that ``name`` imports (any statement, anywhere)."""
    is_package = path.name == "__init__.py"
    out: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in known:  # "import a.b.c" needs a.b.c
                    target = target.rpartition(".")[0]
                if target:
                    out.add(target)
        elif isinstance(node, ast.Call) and lazy_target(node):
            target = lazy_target(node)
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                out.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in known:
                    out.add(full)
                elif source in known:
                    out.add(source)
    out.discard(name)
    return out


@pytest.fixture(scope="module")
def graph() -> Dict[str, Set[str]]:
    known = modules()
    return {name: imports_of(name, path, set(known)) for name, path in known.items()}


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components with more than one module (iterative Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    on_stack: Set[str] = set()
    stack: List[str] = []
    found: List[List[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def unit(module: str, packages: Set[str]) -> str:
    """The package unit of ``module``: its first-level subpackage, or the module itself."""
    parts = module.split(".")
    head = ".".join(parts[:2])
    return head if len(parts) >= 2 and head in packages else module


def package_graph(graph: Dict[str, Set[str]]) -> Dict[str, Set[str]]:
    """The import graph between package units (see :func:`unit`)."""
    known = modules()
    packages = {m for m, p in known.items() if p.name == "__init__.py"}
    out: Dict[str, Set[str]] = {}
    for module, targets in graph.items():
        here = unit(module, packages)
        out.setdefault(here, set())
        for target in targets:
            there = unit(target, packages)
            if there != here and (here, there) not in ALLOWED_PACKAGE_EDGES:
                out[here].add(there)
    return out


#: Package-level import edges the cycle check leaves out, each with its reason. Lazy loading
#: for start-up time is fine when it creates no cycle, so the list is empty: a new entry needs
#: a reason here and a note in docs/architecture.md.
ALLOWED_PACKAGE_EDGES: Dict[tuple, str] = {}


def reachable(graph: Dict[str, Set[str]], start: str) -> Set[str]:
    seen, todo = {start}, [start]
    while todo:
        for w in graph[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def test_the_walk_sees_the_packages(graph):
    assert "graphframe.graphframe" in graph and "graphframe_readers.registry" in graph
    # a module loaded with its first use (graphframe._lazy) is a dependency all the same
    assert "graphframe.ops.squash" in graph["graphframe.graphframe"]
    assert "graphframe.render.tree" in graph["graphframe.graphframe"]
    assert "graphframe_readers.caliper.cali.decode" in graph
    assert "graphframe.ops.squash" in graph["graphframe.ops.filter"]
    assert "graphframe.io.dispatch" in graph["graphframe.graphframe"]
    assert "graphframe_readers" in graph["graphframe.io.dispatch"]


def test_no_import_cycles(graph):
    assert cycles(graph) == []


def test_no_import_cycles_between_packages(graph):
    assert cycles(package_graph(graph)) == []


def test_the_package_check_sees_a_cycle_closed_inside_a_function(tmp_path, monkeypatch):
    # graphframe.graphframe -> io (module level) and io -> traces -> graphframe.graphframe
    # (inside a function, through traces/__init__): the cycle the module graph misses
    graph = {"graphframe.graphframe": {"graphframe.io.dispatch"},
             "graphframe.io.dispatch": {"graphframe.traces.calls"},
             "graphframe.traces": {"graphframe.traces.frame"},
             "graphframe.traces.frame": {"graphframe.graphframe"},
             "graphframe.traces.calls": set()}
    assert cycles(graph) == []
    assert cycles(package_graph(graph)) == [["graphframe.graphframe", "graphframe.io",
                                             "graphframe.traces"]]


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_readers_never_import_graphframe(graph):
    wrong = {m: sorted(t for t in ts if t.split(".")[0] == "graphframe")
             for m, ts in graph.items() if m.split(".")[0] == "graphframe_readers"}
    assert {m: ts for m, ts in wrong.items() if ts} == {}


def test_operations_never_reach_the_graphframe_class(graph):
    ops = [m for m in graph if m.startswith("graphframe.ops")]
    assert ops
    reaching = {m for m in ops if {"graphframe.graphframe", "graphframe"} & reachable(graph, m)}
    assert reaching == set()


def test_the_readers_rule_sees_the_readers_package(graph):
    # the rule above would pass vacuously if no module were named graphframe_readers.*
    assert sum(m.split(".")[0] == "graphframe_readers" for m in graph) > 50


def test_no_source_file_imports_the_old_top_level_name():
    files = [p for folder in SOURCES for p in sorted((REPO / folder).rglob("*.py"))
             if "__pycache__" not in p.parts]
    files += sorted(REPO.glob("*.py"))
    assert len(files) > 300
    old = sorted(f"{p.relative_to(REPO)}:{line}: {module}" for p in files
                 for line, module in absolute_imports(p) if module.split(".")[0] == "readers")
    assert old == []


def test_the_old_name_check_sees_such_imports(tmp_path):
    path = tmp_path / "x.py"
    path.write_text("import os, readers.caliper\nfrom readers import read\n"  # rename-readers: keep
                    "from . import readers\nfrom graphframe import readers\n")
    found = [m for _, m in absolute_imports(path) if m.split(".")[0] == "readers"]
    assert found == ["readers.caliper", "readers"]  # rename-readers: keep
