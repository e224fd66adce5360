"""What ``Ensemble.read`` is given -> the list of profiles to read, and their identity.

Which inputs ``paths`` names is the resolver's answer
(:func:`graphframe.io.resolve.members`, the same folder search every door
uses): a list names its profiles exactly; a folder that a format claims by its
marker files (an HPCToolkit database, a TAU profile directory, an OTF2 or DUMPI
trace folder) is one profile; any other folder is searched recursively for the
files and folders of every known format; a glob's matches are profiles.

A profile's identity is the hash of its content (:func:`content_hash`), never
of its path: copies of a file have the same identity wherever they are.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, List, Sequence

from graphframe_readers.errors import ReadError

from ..io.resolve import Member, members


def expand(paths: Any) -> List[Member]:
    """The profiles ``paths`` names, in a deterministic order (:func:`graphframe.io.resolve.members`).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name in ("b.cali", "a.cali", "README.md"):
    ...     open(os.path.join(d, name), "w").close()
    >>> [os.path.basename(m) for m in expand(d)]
    ['a.cali', 'b.cali']
    """
    return members(paths)


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
