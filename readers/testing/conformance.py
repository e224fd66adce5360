"""``check_reader``: the checks every reader (ours or a plugin's) must pass.

Used by the test suite for each format and usable by third-party readers::

    from graphframe_readers.testing import check_reader
    check_reader("profile.cali", "caliper", tmp_dir)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from .. import registry
from ..errors import ReadError
from ..profile import RawProfile


def check_reader(path: Any, format: str, tmp_dir: Any, *, truncate: bool = True,
                 **options: Any) -> RawProfile:
    """Run the conformance checks on one input; return the RawProfile read.

    1. sniffing picks ``format`` for ``path``;
    2. the result is a valid :class:`RawProfile`;
    3. reading twice gives identical tables (determinism);
    4. with ``truncate``, a copy cut to half its size (the largest file of a
       directory) raises :class:`ReadError` naming the damaged file's path
       (never another exception type, never a half-built profile).
    """
    sniffed = registry.sniff(path)
    if sniffed != format:
        raise AssertionError(f"{path}: sniffed as {sniffed!r}, expected {format!r}")
    first = registry.read(path, **options)
    if not isinstance(first, RawProfile):
        raise AssertionError(f"{path}: reader returned {type(first).__name__}, not RawProfile")
    first.validate(path)
    second = registry.read(path, **options)
    _assert_same(first, second, path)
    if truncate:
        _check_truncated(Path(os.fspath(path if not isinstance(path, (list, tuple)) else path[0])),
                         format, Path(tmp_dir), options)
    return first


def _assert_same(a: RawProfile, b: RawProfile, path: Any) -> None:
    for name in ("nodes", "metrics", "node_columns", "edges"):
        x, y = getattr(a, name), getattr(b, name)
        if (x is None) != (y is None):
            raise AssertionError(f"{path}: {name} differs between two reads")
        if x is not None:
            pd.testing.assert_frame_equal(x, y, obj=f"{path}: {name}")
    for name in ("exc_metrics", "inc_metrics", "index_levels", "default_metric", "ordered"):
        if getattr(a, name) != getattr(b, name):
            raise AssertionError(f"{path}: {name} differs between two reads")


def _check_truncated(path: Path, format: str, tmp_dir: Path, options: dict) -> None:
    copy = tmp_dir / ("cut-" + path.name)
    if path.is_dir():
        shutil.copytree(path, copy)
        files = [p for p in copy.rglob("*") if p.is_file()]
        victim = max(files, key=lambda p: (p.stat().st_size, str(p)))
    else:
        shutil.copyfile(path, copy)
        victim = copy
    data = victim.read_bytes()
    victim.write_bytes(data[: len(data) // 2])
    try:
        registry.read(copy, format=format, **options)
    except ReadError as exc:
        if str(victim) not in str(exc) and str(copy) not in str(exc):
            raise AssertionError(f"error for truncated {victim} does not name it: {exc}") from exc
        return
    raise AssertionError(f"truncated {victim} was read without an error")


def files_under(root: Any, suffix: Optional[str] = None):
    """Sorted files below ``root`` (helper for parametrising tests)."""
    return sorted(p for p in Path(root).rglob("*") if p.is_file()
                  and (suffix is None or p.name.endswith(suffix)))
