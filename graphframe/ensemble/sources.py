"""What ``Ensemble.read`` is given -> the list of profiles to read, and their identity.

* a **directory** is searched recursively: every file whose name ends with one
  of :data:`PROFILE_SUFFIXES` is one profile, and every HPCToolkit database
  folder inside it (``experiment.xml`` or ``meta.db``) is one profile; other
  files (READMEs, licences) are not profiles and are left out. A directory
  that is itself an HPCToolkit database is one profile;
* a string with ``*``, ``?`` or ``[`` that names no existing file is a **glob**
  (``**`` searches folders recursively): every match is one profile;
* a **list** names its profiles exactly: each element is one profile, read as
  the reader reads it (a folder of per-rank ``.cali`` files, an HPCToolkit
  database, or a nested list of per-rank files are one profile each);
* any other path is one profile.

A profile's identity is the hash of its content (:func:`content_hash`), never
of its path: copies of a file have the same identity wherever they are.
"""

from __future__ import annotations

import glob
import hashlib
import os
from pathlib import Path
from typing import Any, List, Sequence, Union

from graphframe_readers.errors import ReadError

#: File name endings a directory search takes as profiles.
PROFILE_SUFFIXES = (".cali", ".json", ".gfz", ".pstats", ".prof", ".dot", ".yaml")
#: Files that make a folder an HPCToolkit database.
DATABASE_MARKERS = ("experiment.xml", "meta.db")

Member = Union[str, List[str]]


def expand(paths: Any) -> List[Member]:
    """The profiles ``paths`` names (see the module docs), in a deterministic order.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name in ("b.cali", "a.cali", "README.md"):
    ...     open(os.path.join(d, name), "w").close()
    >>> [os.path.basename(m) for m in expand(d)]
    ['a.cali', 'b.cali']
    >>> [os.path.basename(m) for m in expand(os.path.join(d, "*.md"))]
    ['README.md']
    """
    if isinstance(paths, (list, tuple)):
        if not paths:
            raise ReadError("[]", "an empty list of profiles was given",
                            expected="at least one file, folder or glob")
        return [_member(p) for p in paths]
    path = _fspath(paths)
    if os.path.isdir(path):
        if is_database(path):
            return [path]
        found = _search(path)
        if not found:
            raise ReadError(path, "the folder holds no profiles",
                            expected="files ending in " + ", ".join(PROFILE_SUFFIXES)
                                     + " or HPCToolkit databases")
        return found
    if os.path.exists(path):
        return [path]
    if any(ch in path for ch in "*?["):
        matches = sorted(glob.glob(path, recursive=True))
        if not matches:
            raise ReadError(path, "no file matches the pattern", expected="an existing path")
        return matches
    raise ReadError(path, "no such file or directory")


def _member(item: Any) -> Member:
    if isinstance(item, (list, tuple)):
        return [_fspath(p) for p in item]
    return _fspath(item)


def _fspath(path: Any) -> str:
    try:
        return os.fspath(path)
    except TypeError as exc:
        raise ReadError(repr(path)[:80], f"a value of type {type(path).__name__} is not a path",
                        expected="a file, a folder, a glob or a list of them") from exc


def is_database(path: str) -> bool:
    """True for a folder holding an HPCToolkit database."""
    return any(os.path.isfile(os.path.join(path, m)) for m in DATABASE_MARKERS)


def _search(root: str) -> List[str]:
    out: List[str] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        keep = []
        for d in dirs:
            sub = os.path.join(folder, d)
            if is_database(sub):
                out.append(sub)
            else:
                keep.append(d)
        dirs[:] = keep
        out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(PROFILE_SUFFIXES)]
    return sorted(out)


def label(member: Member) -> str:
    """How a profile is named in tables and messages."""
    if isinstance(member, list):
        return member[0] if len(member) == 1 else f"{member[0]} (+{len(member) - 1} files)"
    return member


def content_hash(member: Member) -> str:
    """BLAKE2b (128-bit, hex) of the profile's bytes: its identity.

    A folder hashes the relative names and bytes of all its files (sorted);
    a list of files hashes each file's bytes in list order.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name in ("a.cali", "b.cali"):
    ...     with open(os.path.join(d, name), "w") as f:
    ...         _ = f.write("same bytes")
    >>> content_hash(os.path.join(d, "a.cali")) == content_hash(os.path.join(d, "b.cali"))
    True
    >>> len(content_hash(os.path.join(d, "a.cali")))
    32
    """
    digest = hashlib.blake2b(digest_size=16)
    for name, path in _files(member):
        if name is not None:
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        try:
            with open(path, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
        except OSError as exc:
            raise ReadError(path, f"cannot read the file: {exc.strerror or exc}") from exc
        digest.update(b"\0")
    return digest.hexdigest()


def _files(member: Member) -> Sequence[tuple]:
    if isinstance(member, list):
        return [(None, p) for p in member]
    if os.path.isdir(member):
        root = Path(member)
        return [(str(p.relative_to(root)), str(p)) for p in sorted(root.rglob("*")) if p.is_file()]
    return [(None, member)]
