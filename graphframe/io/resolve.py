"""What a path is: the one place graphframe decides, for every door.

:func:`resolve` turns a path, a list of paths or a folder into a
:class:`Resolved`: its **kind** (``"profile"``, ``"trace"``, ``"archive"`` or
``"ensemble"``), its **format** and, for several inputs, the **members** found.
``graphframe.read``, ``graphframe.read_trace``, ``Ensemble.read``, the Thicket
constructors and every CLI command call it; no other module of graphframe looks
at file names, marker files or file heads (``tests/io/test_resolve.py`` scans
for it).

Everything about a format lives in its registry entry
(:class:`graphframe_readers.FormatInfo`: kind, suffixes, marker files, sniffer).
graphframe adds its own documents to the same registry (:func:`own_formats`):

* ``graphframe``: an archive written by :meth:`GraphFrame.save` (``.gfz``),
  kind ``archive``;
* ``graphframe-ensemble``: an archive written by :meth:`Ensemble.save` (``.gfe``),
  kind ``ensemble``;
* ``thicket-json``: a document written by Thicket's ``to_json`` (many profiles),
  kind ``ensemble``.

A path is recognised in this order: graphframe's archives and ensemble
documents (exact signatures), then the door's preferred kind (profiles for
``read``, traces for ``read_trace``), then the other. A folder that no format
claims is searched for inputs (:func:`members`): it is then an ``ensemble``
of format ``"folder"``. Each file's head is read once.

Examples
--------
>>> import json, os, tempfile
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "trace.json")
>>> with open(p, "w") as f:
...     json.dump([{"ph": "X", "name": "main", "pid": 0, "tid": 0, "ts": 0, "dur": 5}], f)
>>> r = resolve(p)
>>> r.kind, r.format
('trace', 'chrome')
>>> q = os.path.join(d, "profile.json")
>>> with open(q, "w") as f:
...     json.dump([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}], f)
>>> r = resolve(d)
>>> r.kind, r.format, [os.path.basename(m) for m in r.members]
('ensemble', 'folder', ['profile.json', 'trace.json'])
"""

from __future__ import annotations

import glob
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import graphframe_readers
from graphframe_readers import registry
from graphframe_readers.errors import ReadError, UnknownFormatError
from graphframe_readers.registry import FormatInfo

from .archive.layout import MAGIC as _ZIP_MAGIC
from .archive.layout import MANIFEST as _ARCHIVE_MANIFEST
from .archive.layout import SUFFIX as ARCHIVE_SUFFIX

#: Format name of graphframe's own archives (``GraphFrame.save``).
ARCHIVE = "graphframe"
#: Format name of an Ensemble archive (``Ensemble.save``).
ENSEMBLE_ARCHIVE = "graphframe-ensemble"
#: Format name of Thicket's ``to_json`` document.
THICKET_JSON = "thicket-json"
#: Pseudo-format of several inputs: a folder searched, a glob or a list.
FOLDER = "folder"
#: File-name ending of Ensemble archives.
ENSEMBLE_SUFFIX = ".gfe"

#: The order kinds are tried in, by the door's preference.
ORDER = {"profile": ("archive", "ensemble", "profile", "trace"),
         "trace": ("archive", "ensemble", "trace", "profile")}

Member = Union[str, List[str]]


@dataclass(frozen=True)
class Resolved:
    """What an input is.

    Attributes
    ----------
    source : path, str or list
        The input as given.
    kind : str
        ``"profile"``, ``"trace"``, ``"archive"`` or ``"ensemble"``.
    format : str
        The format's name, or ``"folder"`` for several inputs found by a
        search, a glob or given as a list of separate inputs.
    members : tuple
        For format ``"folder"``: the inputs found (a path each, or a list of
        per-rank files for one input).
    """

    source: Any
    kind: str
    format: str
    members: Tuple[Member, ...] = ()

    @property
    def info(self) -> Optional[FormatInfo]:
        """The format's registry entry (None for ``"folder"``)."""
        return None if self.format == FOLDER else registry.format_info(self.format)

    def describe(self) -> str:
        """``"a trace (chrome)"``, ``"a folder of 3 inputs (caliper: 2, tau: 1)"``.

        Examples
        --------
        >>> Resolved("x.json", "trace", "chrome").describe()
        'a trace (chrome)'
        """
        if self.format == FOLDER:
            what = "list" if isinstance(self.source, (list, tuple)) else "folder"
            return f"a {what} of {len(self.members)} inputs ({member_summary(self.members)})"
        article = "an" if self.kind[0] in "aeiou" else "a"
        return f"{article} {self.kind} ({self.format})"


# ------------------------------------------------------------ graphframe's own formats
def _sniff_archive(path: Path, head: bytes) -> bool:
    return head[:4] == _ZIP_MAGIC and _ARCHIVE_MANIFEST.encode() in head[:64]


def _sniff_ensemble_archive(path: Path, head: bytes) -> bool:
    return head[:4] == _ZIP_MAGIC and b"ensemble.json" in head[:64]


def _sniff_thicket_json(path: Path, head: bytes) -> bool:
    # Thicket's to_json: {"graph": [{"<id>": {"data": ..., "children": [...], "parents": [...]}}]
    # (Hatchet's to_json has no "parents")
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text[:1] == b"{" and b'"graph"' in head and b'"parents"' in head


def _not_a_reader(path: Any, **options: Any) -> None:  # pragma: no cover - never called
    raise AssertionError("graphframe reads its own formats itself")


_OWN = (
    FormatInfo(name=ARCHIVE, kind="archive", sniff=_sniff_archive, suffixes=(ARCHIVE_SUFFIX,),
               description="graphframe archive written by GraphFrame.save (.gfz; "
                           "graphframe.load)"),
    FormatInfo(name=ENSEMBLE_ARCHIVE, kind="ensemble", sniff=_sniff_ensemble_archive,
               suffixes=(ENSEMBLE_SUFFIX,),
               description="Ensemble archive written by Ensemble.save (.gfe; Ensemble.load)"),
    FormatInfo(name=THICKET_JSON, kind="ensemble", sniff=_sniff_thicket_json,
               description="Thicket to_json document (many profiles; Thicket.from_json, "
                           "Ensemble.read)"),
)


def own_formats() -> Tuple[FormatInfo, ...]:
    """graphframe's own formats, registered in the readers' registry on first use.

    Examples
    --------
    >>> [f.name for f in own_formats()]
    ['graphframe', 'graphframe-ensemble', 'thicket-json']
    """
    table = registry._table_of(("archive", "ensemble"))  # no reader module is imported
    for info in _OWN:
        if info.name not in table:
            registry.register(info)
    return _OWN


def formats(kind: Optional[str] = None) -> List[str]:
    """Every format name the resolver knows (of ``kind`` when given).

    Examples
    --------
    >>> "chrome" in formats(), "graphframe" in formats(), formats("archive")
    (True, True, ['graphframe'])
    """
    own_formats()
    return registry.formats(kind)


def format_entries() -> List[FormatInfo]:
    """Every format's registry entry: profiles, traces, then archives and ensembles.

    Examples
    --------
    >>> [i.name for i in format_entries()][-3:]
    ['graphframe', 'graphframe-ensemble', 'thicket-json']
    """
    own_formats()
    return [i for kind in ("profile", "trace", "archive", "ensemble")
            for i in registry.entries(kind)]


# ------------------------------------------------------------ resolving one input
def resolve(path: Any, format: Optional[str] = None, prefer: str = "profile") -> Resolved:
    """What ``path`` is (see the module docs).

    Parameters
    ----------
    path : str, path-like, or list of them
        A file, a directory, a glob pattern or a list.
    format : str, optional
        The format, when the caller names it (no sniffing; the path must exist).
    prefer : {"profile", "trace"}
        The door's preference where a path is both (an HPCToolkit database with
        a ``trace.db`` is a profile for ``read`` and a trace for ``read_trace``).

    Raises
    ------
    ReadError
        The path does not exist, is an empty file, or an empty folder.
    UnknownFormatError
        No format recognises it (the known formats are listed).

    Examples
    --------
    >>> resolve("/no/such/file")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: /no/such/file: no such file or directory
    """
    own_formats()
    if prefer not in ORDER:
        raise ValueError(f"prefer={prefer!r}: expected one of {', '.join(ORDER)}")
    if format is not None:
        if format == FOLDER:
            return Resolved(path, "ensemble", FOLDER, tuple(members(path)))
        info = registry.find_format(format)
        if info is None:
            raise UnknownFormatError(path, [i.name for i in format_entries()],
                                     f"unknown format {format!r}")
        registry.first_path(path)  # existence, with a clear message
        return Resolved(path, info.kind, info.name)
    if isinstance(path, (list, tuple)):
        return _resolve_list(path, prefer)
    text = _fspath(path)
    if not os.path.exists(text) and any(ch in text for ch in "*?["):
        found = members(text)
        return Resolved(path, "ensemble", FOLDER, tuple(found))
    first = registry.first_path(text)
    head = registry.read_head(first)
    if not head and first.is_file():
        raise ReadError(first, "the file is empty (0 bytes)",
                        expected="a profile or trace; `graphframe formats` lists the formats "
                                 "read")
    info = registry.identify(first, head, ORDER[prefer])
    if info is not None:
        return Resolved(path, info.kind, info.name)
    if first.is_dir():
        found = _walk(first)
        if found:
            return Resolved(path, "ensemble", FOLDER, tuple(found))
        raise ReadError(first, "the folder holds no profile or trace that graphframe reads",
                        expected="a profile, a trace, or a folder of them; `graphframe "
                                 "formats` lists the formats read")
    raise UnknownFormatError(path, [i.name for i in format_entries()],
                             "no reader recognises this input")


def _resolve_list(paths: Sequence[Any], prefer: str) -> Resolved:
    if not paths:
        raise ReadError("[]", "an empty list of files was given", expected="at least one file")
    first = resolve(paths[0], prefer=prefer)
    if first.kind in ("profile", "trace") and len(paths) > 1 and first.info is not None \
            and first.info.several_files:
        # the per-rank files of one run (one .cali file per rank, a trace's rank files)
        return Resolved(paths, first.kind, first.format)
    if len(paths) == 1 and not isinstance(paths[0], (list, tuple)):
        return Resolved(paths, first.kind, first.format, first.members)
    return Resolved(paths, "ensemble", FOLDER, tuple(_member(p) for p in paths))


def kind_of(path: Any, prefer: str = "profile") -> str:
    """The kind of ``path`` (:func:`resolve`'s), or ``""`` when it cannot be resolved.

    Examples
    --------
    >>> kind_of("/no/such/file")
    ''
    """
    try:
        return resolve(path, prefer=prefer).kind
    except (ReadError, UnknownFormatError):
        return ""


def is_one_input(path: Any) -> bool:
    """True when ``path`` is one input as :func:`members` counts them: a file that is a
    profile, trace or archive, or a folder that a format claims by its marker files
    (not a folder of several inputs, nor a folder of per-rank files).

    Examples
    --------
    >>> import tempfile
    >>> is_one_input(tempfile.mkdtemp())
    False
    """
    own_formats()
    try:
        text = _fspath(path)
    except ReadError:
        return False
    if os.path.isdir(text):
        return _marked(Path(text)) is not None
    return kind_of(text) in ("profile", "trace", "archive")


# ------------------------------------------------------------ several inputs
def members(paths: Any) -> List[Member]:
    """The inputs ``paths`` names, each one profile, trace or archive, in a deterministic order.

    * a **list** names its inputs exactly: each element is one input, read as
      its reader reads it (a folder of per-rank ``.cali`` files, an HPCToolkit
      database, or a nested list of per-rank files are one input each);
    * a **folder** that a format claims by its marker files (an HPCToolkit
      database, a TAU profile directory, an OTF2 archive, a DUMPI or Recorder
      trace folder) is one input;
    * any other **folder** is searched recursively (:func:`walk`);
    * a string with ``*``, ``?`` or ``[`` that names no existing file is a **glob**
      (``**`` searches folders recursively): every match is one input;
    * any other path is one input.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name in ("b.cali", "a.cali", "README.md"):
    ...     open(os.path.join(d, name), "w").close()
    >>> [os.path.basename(m) for m in members(d)]
    ['a.cali', 'b.cali']
    >>> [os.path.basename(m) for m in members(os.path.join(d, "*.md"))]
    ['README.md']
    """
    own_formats()
    if isinstance(paths, (list, tuple)):
        if not paths:
            raise ReadError("[]", "an empty list of profiles was given",
                            expected="at least one file, folder or glob")
        return [_member(p) for p in paths]
    path = _fspath(paths)
    if os.path.isdir(path):
        if _marked(Path(path)) is not None:
            return [path]
        found = _walk(Path(path))
        if not found:
            raise ReadError(path, "the folder holds no profiles",
                            expected="files ending in " + ", ".join(_member_suffixes()[0])
                                     + ", or folders of the formats "
                                     + ", ".join(i.name for i in _marker_formats()))
        return found
    if os.path.exists(path):
        return [path]
    if any(ch in path for ch in "*?["):
        matches = sorted(glob.glob(path, recursive=True))
        if not matches:
            raise ReadError(path, "no file matches the pattern", expected="an existing path")
        return matches
    raise ReadError(path, "no such file or directory")


def walk(folder: Any) -> List[str]:
    """The inputs inside ``folder``, searched recursively (sorted paths).

    A sub-folder a format claims by its marker files is one input (not
    searched further); a file is an input when its name ends with a suffix of
    a profile or archive format, or with a suffix of a trace format and the
    trace format recognises it (a ``.csv`` that is not an Nsight export is not
    an input). Other files (READMEs, licences) are not inputs.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> os.makedirs(os.path.join(d, "db"))
    >>> open(os.path.join(d, "db", "meta.db"), "w").close()
    >>> open(os.path.join(d, "notes.csv"), "w").close()
    >>> [os.path.relpath(m, d) for m in walk(d)]
    ['db']
    """
    own_formats()
    return _walk(Path(_fspath(folder)))


def _walk(root: Path) -> List[str]:
    plain, checked = _member_suffixes()
    out: List[str] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        keep = []
        for d in dirs:
            sub = Path(folder, d)
            if _marked(sub) is not None:
                out.append(str(sub))
            else:
                keep.append(d)
        dirs[:] = keep
        for name in sorted(files):
            lowered = name.lower()
            if lowered.endswith(plain):
                out.append(os.path.join(folder, name))
            elif lowered.endswith(checked):
                file = Path(folder, name)
                try:
                    if registry.identify(file, kinds=("trace",)) is not None:
                        out.append(str(file))
                except ReadError:
                    continue  # unreadable: not recognisable as a trace either
    return sorted(out)


def _marked(folder: Path) -> Optional[FormatInfo]:
    """The format whose marker files make ``folder`` one input (confirmed by its sniffer)."""
    for info in _marker_formats():
        if info.marks(folder) and info.claims(folder, b""):
            return info
    return None


def _marker_formats() -> List[FormatInfo]:
    order = ORDER["profile"]
    return sorted((i for i in registry.entries() if i.markers),
                  key=lambda i: order.index(i.kind))


def _member_suffixes() -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """(suffixes taken as inputs, trace-only suffixes taken when the trace format claims the file)."""
    plain = {s for i in registry.entries() if i.kind in ("profile", "archive") for s in i.suffixes}
    traced = {s for i in registry.entries("trace") for s in i.suffixes} - plain
    return tuple(sorted(plain)), tuple(sorted(traced))


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


def member_summary(found: Sequence[Member]) -> str:
    """``"caliper: 3, tau: 1"``: how many inputs of each format (sniffed; ``?`` unknown).

    Examples
    --------
    >>> member_summary([])
    ''
    """
    counts: Dict[str, int] = Counter()
    for m in found:
        try:
            counts[resolve(m).format] += 1
        except (ReadError, UnknownFormatError):
            counts["?"] += 1
    return ", ".join(f"{name}: {n}" for name, n in sorted(counts.items()))
