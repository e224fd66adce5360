"""``check_reader``: the named checks every profile reader (ours or a plugin's) must pass.

The checks have the shape of the trace decoders' (:mod:`.checks`: a name, a
function, a description), so each is its own test id::

    @pytest.mark.parametrize("subject, check", pairs(SUBJECTS, READER_CHECKS), ids=...)
    def test_reader(subject, check, tmp_path):
        run_check(check, subject, tmp_path)

=================  ===========================================================
check              what it does
=================  ===========================================================
``sniff``          sniffing names the format
``valid``          the read gives a valid :class:`RawProfile`
``deterministic``  two reads give identical tables and declarations
``files_closed``   no file of the input is left open, after a read and after a
                   failed one
``truncate``       a copy cut to half its size (the largest file of a directory)
                   raises a :class:`ReadError` naming the damaged file (never
                   another exception, never a half-built profile)
``flip``           :data:`FLIPS` bytes of the largest file flipped, one at a
                   time (seeded): a valid RawProfile or a ReadError naming it
=================  ===========================================================

:func:`check_reader` runs them all on one input (used by every reader's tests and
usable by third-party readers)::

    from graphframe_readers.testing import check_reader
    check_reader("profile.cali", "caliper", tmp_dir)

Examples
--------
>>> import os, tempfile, graphframe_readers
>>> from graphframe_readers.testing import write_literal
>>> b = graphframe_readers.ProfileBuilder("demo")
>>> _ = b.add_nodes([-1, 0], {"name": ["main", "solve"]})
>>> b.add_rows([0, 1], {"time": [1.0, 2.0]})
>>> tmp = tempfile.mkdtemp()
>>> p = write_literal(b.build(["time"]), os.path.join(tmp, "demo.json"))
>>> [c.name for c in check_subject(ReaderSubject("literal", p), tmp)]
['sniff', 'valid', 'deterministic', 'files_closed', 'files_closed', 'truncate', 'flip', 'flip', 'flip', 'flip']
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, List, Mapping, Optional, Sequence, Tuple

import pandas as pd

from .. import registry
from ..errors import ReadError
from ..profile import RawProfile
from . import corrupt
from .checks import Case, Check, find_check, run_check

#: Bytes of the largest file flipped, one at a time (the flip check).
FLIPS = 4
#: Seed of the flip positions.
SEED = 27


@dataclass(frozen=True)
class ReaderSubject:
    """One input of a profile format for the checks.

    Parameters
    ----------
    format : str
        The format's name.
    path : str
        The input (a file or a directory); relative paths are under the ``root``
        given to :func:`check_subject` (the shared data folder in the test suite).
    options : mapping
        Reader options.
    skip : tuple of str
        Checks that do not apply to this input, each named with its reason in
        ``why``.
    why : str
        Why the checks in ``skip`` are skipped.
    """

    format: str
    path: str
    options: Mapping[str, Any] = field(default_factory=dict)
    skip: Tuple[str, ...] = ()
    why: str = ""

    @property
    def id(self) -> str:
        """A test id: ``format-last path part``."""
        return f"{self.format}-{Path(self.path).name}"

    def where(self, root: Any) -> Path:
        path = Path(self.path)
        return path if path.is_absolute() or root is None else Path(root) / path

    def __str__(self) -> str:
        return self.id


def _read(path: Path, subject: ReaderSubject) -> RawProfile:
    return registry.read(path, format=subject.format, **dict(subject.options))


def _check_sniff(subject: ReaderSubject, tmp: Path, root: Any = None) -> List[Case]:
    path = subject.where(root)
    sniffed = registry.sniff(path)
    return [Case("sniff", str(path), sniffed == subject.format,
                 f"sniffed as {sniffed!r}, expected {subject.format!r}")]


def _check_valid(subject: ReaderSubject, tmp: Path, root: Any = None) -> List[Case]:
    path = subject.where(root)
    raw = _read(path, subject)
    if not isinstance(raw, RawProfile):
        return [Case("valid", str(path), False, f"the reader returned {type(raw).__name__}")]
    raw.validate(path)
    return [Case("valid", str(path), True)]


def _check_deterministic(subject: ReaderSubject, tmp: Path, root: Any = None) -> List[Case]:
    path = subject.where(root)
    problem = differences(_read(path, subject), _read(path, subject))
    return [Case("deterministic", str(path), not problem, problem)]


def _check_files_closed(subject: ReaderSubject, tmp: Path, root: Any = None) -> List[Case]:
    copy = _copy(subject.where(root), tmp / "closed")
    _read(copy, subject)
    after_read = _open_files_under(str(copy))
    _damage(copy, lambda data: data[: len(data) // 2])
    try:
        _read(copy, subject)
    except ReadError:
        pass
    after_error = _open_files_under(str(copy))
    return [Case("files_closed", "after a read", not after_read, ", ".join(after_read)),
            Case("files_closed", "after a failed read", not after_error,
                 ", ".join(after_error))]


def _check_truncate(subject: ReaderSubject, tmp: Path, root: Any = None) -> List[Case]:
    copy = _copy(subject.where(root), tmp / "cut")
    victim = _damage(copy, lambda data: data[: len(data) // 2])
    try:
        _read(copy, subject)
    except ReadError as exc:
        named = str(victim) in str(exc) or str(copy) in str(exc)
        return [Case("truncate", str(victim), named, f"the error does not name it: {exc}")]
    return [Case("truncate", str(victim), False, "the truncated input was read without an error")]


def _check_flip(subject: ReaderSubject, tmp: Path, root: Any = None) -> List[Case]:
    source = subject.where(root)
    cases = []
    largest = _largest(source) if source.is_dir() else source
    size = largest.stat().st_size
    for i, at in enumerate(corrupt.flip_positions(size, FLIPS, SEED)):
        copy = _copy(source, tmp / f"flip{i}")
        victim = _damage(copy, lambda data, at=at: corrupt.flip(data, at))
        label = f"{victim} (byte {at})"
        try:
            raw = _read(copy, subject)
            raw.validate(copy)
            cases.append(Case("flip", label, True))
        except ReadError as exc:
            named = str(victim) in str(exc) or str(copy) in str(exc)
            cases.append(Case("flip", label, named, f"the error does not name it: {exc}"))
        except Exception as exc:  # noqa: BLE001 -- any other exception is the failure
            cases.append(Case("flip", label, False, f"{type(exc).__name__}: {exc}"))
    return cases


#: The checks every profile reader passes, in order (see the module docs).
READER_CHECKS: Tuple[Check, ...] = (
    Check("sniff", _check_sniff, "sniffing names the format"),
    Check("valid", _check_valid, "the read gives a valid RawProfile"),
    Check("deterministic", _check_deterministic, "two reads give identical tables"),
    Check("files_closed", _check_files_closed, "no file left open after a read or an error"),
    Check("truncate", _check_truncate, "cut to half: a ReadError naming the damaged file"),
    Check("flip", _check_flip, "flipped bytes: a valid profile or a ReadError naming the file"),
)


def check_subject(subject: ReaderSubject, tmp_dir: Any, *, root: Any = None,
                  checks: Optional[Sequence[str]] = None) -> List[Case]:
    """Run the named checks (all by default) on one subject; AssertionError on a failure.

    Returns every case run.
    """
    tmp = Path(tmp_dir)
    tmp.mkdir(parents=True, exist_ok=True)
    names = list(checks) if checks is not None else [c.name for c in READER_CHECKS]
    cases: List[Case] = []
    for name in names:
        if name in subject.skip:
            continue
        check = find_check(READER_CHECKS, name)
        here = tmp / name
        here.mkdir(exist_ok=True)
        cases += run_check(Check(check.name, lambda s, t, f=check.function: f(s, t, root),
                                 check.description), subject, here)
    return cases


def check_reader(path: Any, format: str, tmp_dir: Any, *, truncate: bool = True,
                 **options: Any) -> RawProfile:
    """Run every check on one input (``truncate=False`` leaves out the damaging ones:
    for inputs whose damage the format cannot detect); return the RawProfile read.

    Raises AssertionError naming the check and the case that failed.
    """
    skip = () if truncate else ("truncate", "flip")
    first = path[0] if isinstance(path, (list, tuple)) else path
    subject = ReaderSubject(format, os.fspath(first), options=options, skip=skip)
    if isinstance(path, (list, tuple)):  # several files of one profile: the checks that read
        raw = registry.read(path, format=format, **options)
        raw.validate(path)
        problem = differences(raw, registry.read(path, format=format, **options))
        if problem:
            raise AssertionError(f"{path}: {problem}")
        return raw
    check_subject(subject, tmp_dir)
    return registry.read(path, format=format, **options)


def differences(a: RawProfile, b: RawProfile) -> str:
    """What differs between two reads of one input ("" when nothing)."""
    for name in ("nodes", "metrics", "node_columns", "edges"):
        x, y = getattr(a, name), getattr(b, name)
        if (x is None) != (y is None):
            return f"{name} differs between two reads"
        if x is not None:
            try:
                pd.testing.assert_frame_equal(x, y, obj=name)
            except AssertionError as exc:
                return f"{name} differs between two reads: {exc}"
    for name in ("exc_metrics", "inc_metrics", "index_levels", "default_metric", "ordered"):
        if getattr(a, name) != getattr(b, name):
            return f"{name} differs between two reads"
    return ""


def _copy(source: Path, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    copy = target / source.name
    if source.is_dir():
        shutil.copytree(source, copy)
    else:
        shutil.copyfile(source, copy)
    return copy


def _largest(folder: Path) -> Path:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return max(files, key=lambda p: (p.stat().st_size, str(p)))


def _damage(copy: Path, change: Any) -> Path:
    victim = _largest(copy) if copy.is_dir() else copy
    victim.write_bytes(change(victim.read_bytes()))
    return victim


def _open_files_under(folder: str) -> List[str]:
    out = []
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:  # not Linux: nothing to inspect
        return out
    for fd in fds:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(folder + os.sep) or target == folder:
            out.append(target)
    return sorted(out)


def files_under(root: Any, suffix: Optional[str] = None):
    """Sorted files below ``root`` (helper for parametrising tests)."""
    return sorted(p for p in Path(root).rglob("*") if p.is_file()
                  and (suffix is None or p.name.endswith(suffix)))


__all__ = ["FLIPS", "READER_CHECKS", "ReaderSubject", "check_reader", "check_subject",
           "differences", "files_under"]
