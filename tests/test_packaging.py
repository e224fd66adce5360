"""What the wheel installs: the declared package list matches the folders on disk, and the
``readers/`` folder is importable only as ``graphframe_readers`` (docs/architecture.md,
"The import name")."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli", reason="reading pyproject.toml on Python 3.10")

REPO = Path(__file__).resolve().parent.parent
FOLDERS = {"graphframe": "graphframe", "graphframe_readers": "readers"}


def setuptools_table() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]


def packages_on_disk() -> list:
    """Every folder with an ``__init__.py`` below graphframe/ and readers/, by import name."""
    found = []
    for name, folder in FOLDERS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / folder).parts
            found.append(".".join((name,) + parts))
    return sorted(found)


def test_the_readers_folder_is_mapped_to_its_import_name():
    assert setuptools_table()["package-dir"] == {"graphframe_readers": "readers"}


def test_every_package_folder_is_declared_and_nothing_else():
    declared = setuptools_table()["packages"]
    assert len(declared) == len(set(declared))
    on_disk = packages_on_disk()
    assert "graphframe_readers.traces.nsight" in on_disk and "graphframe.io.json" in on_disk
    assert sorted(declared) == on_disk


def test_no_folder_holds_python_files_without_an_init():
    # such a folder would be left out of the wheel although its modules are imported
    missing = sorted(str(p.relative_to(REPO)) for folder in FOLDERS.values()
                     for p in (REPO / folder).rglob("*") if p.is_dir()
                     and "__pycache__" not in p.parts and any(p.glob("*.py"))
                     and not (p / "__init__.py").is_file())
    assert missing == []


def test_the_old_name_cannot_be_imported_in_the_test_process():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("readers")  # rename-readers: keep
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("readers.errors")  # rename-readers: keep


def test_the_install_provides_only_the_new_name(tmp_path):
    # outside the checkout, as a user would: the old name is not installed
    code = ("import importlib.util, graphframe, graphframe_readers, graphframe_readers.errors\n"
            "assert graphframe.ReadError is graphframe_readers.errors.ReadError\n"
            "print(importlib.util.find_spec('readers'))\n"  # rename-readers: keep
            "print(graphframe_readers.read.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["None", "graphframe_readers.registry"]
