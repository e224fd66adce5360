"""readers/ stands alone: it never imports graphframe, and ``import graphframe_readers`` stays cheap."""

import ast
import subprocess
import sys
from pathlib import Path

import graphframe_readers

ROOT = Path(graphframe_readers.__file__).resolve().parent


def _imports(path: Path):
    """Absolute module names imported by a file (relative imports resolved)."""
    package = ".".join(("graphframe_readers",) + path.relative_to(ROOT).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0] + ".__init__"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:-node.level]
                yield ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.module


def test_no_readers_module_imports_graphframe_or_benchmarks():
    offenders = [(str(p.relative_to(ROOT)), name) for p in sorted(ROOT.rglob("*.py"))
                 for name in _imports(p)
                 if name.split(".")[0] in ("graphframe", "benchmarks", "tests")]
    assert offenders == []


def _modules_after(code: str):
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\n"
                          "print('\\n'.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True, cwd=ROOT.parent)
    return out.stdout.split()


def test_readers_alone_loads_no_graphframe_and_no_reader_module():
    loaded = _modules_after("import graphframe_readers")
    assert not [m for m in loaded if m.split(".")[0] == "graphframe"]
    # format modules load on first use (registry), so import readers stays cheap
    families = ("caliper", "hpctoolkit", "dot", "cprofile", "pyinstrument", "tau", "timemory",
                "hatchet", "testing")
    assert not [m for m in loaded if m.split(".")[:2][-1] in families and m.startswith("graphframe_readers.")]
    assert "networkx" not in loaded and "pydot" not in loaded


def test_every_reader_and_the_testing_kit_load_without_graphframe():
    loaded = _modules_after("import graphframe_readers, graphframe_readers.testing\ngraphframe_readers.formats()")
    assert "graphframe_readers.dot.reader" in loaded and "graphframe_readers.testing.writers.literal" in loaded
    assert not [m for m in loaded if m.split(".")[0] == "graphframe"]
