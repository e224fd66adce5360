"""Format registry: every input format, what kind of input it is, and how it is recognised.

One table holds every format, profile readers and trace decoders alike. Each
format module defines ``FORMAT``, a :class:`FormatInfo` declaring everything
about recognising the format:

* ``kind``: ``"profile"`` (one call tree + metrics, read into a
  :class:`~graphframe_readers.RawProfile`), ``"trace"`` (events, decoded by a
  :class:`~graphframe_readers.traces.Decoder` into an event handler),
  ``"archive"`` or ``"ensemble"`` (kinds graphframe registers for its own
  documents: a saved GraphFrame, a document holding many profiles);
* ``suffixes``: file-name endings of the format's files (a folder walk takes
  files with these endings as inputs);
* ``markers``: glob patterns of the files that make a *directory* one input of
  the format (an HPCToolkit database, a TAU profile directory, an OTF2 archive...);
* ``sniff(path, head)``: the cheap recognition from the first :data:`HEAD_BYTES`
  bytes of a file (``b""`` for a directory).

Formats are tried in table order within a kind (strict sniffers first). The
built-in modules are listed in :data:`FORMAT_MODULES`; other packages add formats
through the ``graphframe.formats`` entry-point group (an entry point names a
:class:`FormatInfo` or a module defining ``FORMAT``), found at first use, or at run
time with :func:`register`. Modules are imported on first use, so ``import
graphframe_readers`` loads none of them.

Options are the reader's own keywords (:attr:`FormatInfo.options`, from the
signature of its ``read``); :func:`read` refuses any other with an
:class:`~graphframe_readers.errors.ArgumentError` that lists them.
"""

from __future__ import annotations

import fnmatch
import importlib
import inspect
import os
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .errors import ArgumentError, ReadError, UnknownFormatError
from .profile import RawProfile
from .progress import Progress, ProgressArg

PathLike = Union[str, "os.PathLike[str]"]

#: Bytes read from the start of a file for sniffing.
HEAD_BYTES = 4096

#: The kinds of input, in the order :func:`identify` tries them by default.
KINDS = ("archive", "ensemble", "profile", "trace")

#: The entry-point group through which other packages add formats.
ENTRY_POINT_GROUP = "graphframe.formats"

#: Built-in format modules (each defines ``FORMAT``), in sniffing order within a kind.
FORMAT_MODULES = (
    # profiles
    "graphframe_readers.hatchet.literal",
    "graphframe_readers.hatchet.json_layout",
    "graphframe_readers.caliper.jsonsplit.reader",
    "graphframe_readers.caliper.reader",
    "graphframe_readers.hpctoolkit.experiment.reader",
    "graphframe_readers.hpctoolkit.latest.reader",
    "graphframe_readers.dot.reader",
    "graphframe_readers.cprofile.reader",
    # raw profiler outputs (issue 33)
    "graphframe_readers.callgrind.reader",
    "graphframe_readers.gprof.reader",
    "graphframe_readers.perf.reader",
    "graphframe_readers.pyinstrument.reader",
    "graphframe_readers.timemory.reader",
    "graphframe_readers.tau.reader",
    "graphframe_readers.perfflowaspect",
    # the call or sample tree of a Mono log (issue 28; its events: mono-mlpd-trace)
    "graphframe_readers.traces.mono.tree",
    # traces
    "graphframe_readers.traces.dumpi",
    "graphframe_readers.traces.chrome",
    "graphframe_readers.traces.recorder",
    "graphframe_readers.traces.otf2",
    "graphframe_readers.traces.projections",
    "graphframe_readers.traces.nsight.sqlite_export",
    "graphframe_readers.traces.nsight.csv_export",
    "graphframe_readers.traces.hpctoolkit_trace",
    "graphframe_readers.traces.jvmgc",
    "graphframe_readers.traces.mono.decoder",
)

#: The file-name endings the formats of some built-in modules declare (their
#: :attr:`FormatInfo.suffixes`; a test keeps the two equal). A file whose name ends in
#: one is offered first to those modules' formats, in sniffing order, so recognising it
#: does not import the modules before them (:data:`MARKER_HINTS` does the same for
#: folders). The trace formats' endings are distinct; a ``.json`` file is asked of the
#: JSON formats first.
SUFFIX_HINTS: Dict[str, Tuple[str, ...]] = {
    "graphframe_readers.hatchet.literal": (".json",),
    "graphframe_readers.hatchet.json_layout": (".json",),
    "graphframe_readers.caliper.jsonsplit.reader": (".json",),
    "graphframe_readers.caliper.reader": (".cali",),
    "graphframe_readers.dot.reader": (".dot",),
    "graphframe_readers.cprofile.reader": (".pstats", ".prof"),
    "graphframe_readers.pyinstrument.reader": (".json", ".pyisession"),
    "graphframe_readers.timemory.reader": (".json",),
    "graphframe_readers.perfflowaspect": (".pfw",),
    "graphframe_readers.traces.dumpi": (".meta",),
    "graphframe_readers.traces.chrome": (".json",),
    "graphframe_readers.traces.recorder": (".mt", ".itf"),
    "graphframe_readers.traces.otf2": (".otf2",),
    "graphframe_readers.traces.projections": (".sts",),
    "graphframe_readers.traces.nsight.sqlite_export": (".sqlite",),
    "graphframe_readers.traces.nsight.csv_export": (".csv",),
}

#: The file patterns that make a folder one input of the formats of some built-in
#: modules (their :attr:`FormatInfo.markers`; a test keeps the two equal): a folder
#: holding such a file is offered first to those formats.
MARKER_HINTS: Dict[str, Tuple[str, ...]] = {
    "graphframe_readers.hpctoolkit.experiment.reader": ("experiment.xml",),
    "graphframe_readers.hpctoolkit.latest.reader": ("meta.db",),
    "graphframe_readers.tau.reader": ("profile.*.*.*", "MULTI__*"),
    "graphframe_readers.traces.dumpi": ("*.meta",),
    "graphframe_readers.traces.recorder": ("recorder.mt",),
    "graphframe_readers.traces.otf2": ("*.otf2",),
    "graphframe_readers.traces.projections": ("*.sts",),
    "graphframe_readers.traces.hpctoolkit_trace": ("trace.db",),
}


@dataclass(frozen=True)
class FormatInfo:
    """What the registry knows about one format.

    Parameters
    ----------
    name : str
        The name users pass as ``format=``.
    read : callable, optional
        ``read(path, **options) -> RawProfile`` (profile formats).
    sniff : callable
        ``sniff(path, head) -> bool``; ``head`` holds the first
        :data:`HEAD_BYTES` bytes of a file, or ``b""`` for a directory.
    description : str
        One line shown in error messages and ``graphframe formats``.
    several_files : bool
        The reader takes a list of files (the per-rank files of one run);
        :func:`read` refuses a list for the other formats.
    kind : {"profile", "trace", "archive", "ensemble"}
        What an input of this format is (see the module docs).
    suffixes : tuple of str
        File-name endings of the format's files (``".cali"``), lower case.
    markers : tuple of str
        Glob patterns of files that make a directory one input of this
        format (``"meta.db"``, ``"profile.*.*.*"``); empty for file formats.
    decoder : type, optional
        The :class:`~graphframe_readers.traces.Decoder` subclass (trace formats).

    Examples
    --------
    >>> info = format_info("hpctoolkit-latest")
    >>> info.kind, info.markers
    ('profile', ('meta.db',))
    >>> format_info("chrome").kind, format_info("chrome").decoder.__name__
    ('trace', 'ChromeDecoder')
    """

    name: str
    read: Optional[Callable[..., RawProfile]] = None
    sniff: Callable[[Path, bytes], bool] = field(default=lambda path, head: False)
    description: str = ""
    several_files: bool = False
    kind: str = "profile"
    suffixes: Tuple[str, ...] = ()
    markers: Tuple[str, ...] = ()
    decoder: Optional[type] = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"format {self.name!r}: kind {self.kind!r} is not one of "
                             f"{', '.join(KINDS)}")
        if self.kind == "profile" and self.read is None:
            raise ValueError(f"profile format {self.name!r} needs read=")
        if self.kind == "trace" and self.decoder is None:
            raise ValueError(f"trace format {self.name!r} needs decoder=")

    @classmethod
    def for_decoder(cls, decoder: type, *, suffixes: Sequence[str] = (),
                    markers: Sequence[str] = (), description: str = "") -> "FormatInfo":
        """The entry of a trace format from its decoder class (name, sniff, description).

        Examples
        --------
        >>> from graphframe_readers.traces.chrome import ChromeDecoder
        >>> FormatInfo.for_decoder(ChromeDecoder, suffixes=(".json",)).name
        'chrome'
        """
        return cls(name=decoder.format_name, sniff=decoder.sniff, kind="trace",
                   description=description or decoder.description, decoder=decoder,
                   suffixes=tuple(suffixes), markers=tuple(markers), several_files=True)

    @property
    def options(self) -> Tuple[str, ...]:
        """The keyword options :func:`read` accepts for this format, in signature order.

        The keywords of ``read`` after the path, and ``progress`` (accepted by
        every format). Taken from the signature, so they cannot drift from
        the reader. Trace decoders take their options as keywords of their
        own (``()`` here).

        Examples
        --------
        >>> format_info("hpctoolkit-latest").options[:3]
        ('parallel_profiles_mode', 'metric_names', 'profile_ranks')
        >>> format_info("gprof-dot").options
        ('progress',)
        """
        if self.read is None:
            return ()
        params = list(inspect.signature(self.read).parameters.values())[1:]
        names = tuple(p.name for p in params
                      if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        return names if "progress" in names else names + ("progress",)

    def marks(self, folder: Path) -> bool:
        """True when ``folder`` holds a file matching one of :attr:`markers`.

        Examples
        --------
        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp())
        >>> _ = (d / "meta.db").write_bytes(b"")
        >>> format_info("hpctoolkit-latest").marks(d), format_info("tau").marks(d)
        (True, False)
        """
        for pattern in self.markers:
            try:
                if any(True for _ in folder.glob(pattern)):
                    return True
            except OSError:
                return False
        return False

    def claims(self, path: Path, head: bytes) -> bool:
        """True when this format recognises ``path`` (first bytes ``head``).

        A sniffer that fails on an unreadable input does not claim it.
        """
        try:
            return bool(self.sniff(path, head))
        except (OSError, ValueError):
            return False


_FORMATS: Dict[str, FormatInfo] = {}
#: the built-in modules imported so far -> their entry
_BUILT_IN: Dict[str, FormatInfo] = {}
_PLUGINS_LOADED = [False]
#: set when a built-in module outside ``graphframe_readers.traces`` defines a trace
#: format: every lookup then loads every module
_ALL_KINDS = [False]


def _predicted_kind(module_name: str) -> Optional[str]:
    """The kind of a built-in module's format known from where it lives, or None.

    Modules outside ``graphframe_readers.traces`` define profile formats (checked on
    import); a module inside it may define either (the Mono log's call tree is a profile
    format living with its decoder), so its kind is known once it is imported.
    """
    return None if module_name.startswith("graphframe_readers.traces.") else "profile"


#: the kinds a built-in module may define (archives and ensembles are graphframe's own)
_BUILT_IN_KINDS = ("profile", "trace")


def _may_define(module_name: str, kinds: Iterable[str]) -> bool:
    """False when the built-in module surely defines no format of ``kinds``."""
    predicted = _predicted_kind(module_name)
    if predicted is not None:
        return predicted in kinds
    return any(k in _BUILT_IN_KINDS for k in kinds)


def _load(kinds: Optional[Iterable[str]] = None) -> None:
    """Import the built-in format modules of ``kinds`` (every one when None) not imported
    yet, and the plugins once.

    Looking up a trace does not import the profile readers, nor a profile the trace
    decoders: the first read of a small input does not pay for every format. The
    table keeps the sniffing order whatever was imported first.
    """
    wanted = None if kinds is None or _ALL_KINDS[0] else set(kinds)
    added = False
    for module_name in FORMAT_MODULES:
        if module_name in _BUILT_IN:
            continue
        if wanted is not None and not _may_define(module_name, wanted):
            continue
        _load_module(module_name, reorder=False)
        added = True
    if not _PLUGINS_LOADED[0]:
        _PLUGINS_LOADED[0] = True
        for info in _plugin_formats():
            _add(info, replace=False)
    if added:
        _reorder()
    if wanted is not None and _ALL_KINDS[0]:
        _load(None)


def _load_module(module_name: str, reorder: bool = True) -> None:
    """Import one built-in format module and add its entry."""
    info = _entry_of(importlib.import_module(module_name), module_name)
    _BUILT_IN[module_name] = info
    _add(info, replace=False)
    if _predicted_kind(module_name) not in (None, info.kind) or \
            info.kind not in _BUILT_IN_KINDS:
        _ALL_KINDS[0] = True
    if reorder:
        _reorder()


def _reorder() -> None:
    """The built-in formats first, in :data:`FORMAT_MODULES` order, then the others in the
    order they were added (plugins, then formats registered at run time)."""
    ordered: Dict[str, FormatInfo] = {}
    for module_name in FORMAT_MODULES:
        info = _BUILT_IN.get(module_name)
        if info is not None and info.name in _FORMATS:
            ordered[info.name] = _FORMATS[info.name]
    for name, info in _FORMATS.items():
        ordered.setdefault(name, info)
    _FORMATS.clear()
    _FORMATS.update(ordered)


def _table() -> Dict[str, FormatInfo]:
    """The registry with every format, filled on first use (format modules import this one)."""
    if len(_BUILT_IN) < len(FORMAT_MODULES) or not _PLUGINS_LOADED[0]:
        _load(None)
    return _FORMATS


def _table_of(kinds: Iterable[str]) -> Dict[str, FormatInfo]:
    """The registry with at least every format of ``kinds`` loaded."""
    _load(kinds)
    return _FORMATS


def _entry_of(obj: Any, where: str) -> FormatInfo:
    """The FormatInfo a module (``FORMAT``, or a trace module's ``DECODER``) or value names."""
    if isinstance(obj, FormatInfo):
        return obj
    info = getattr(obj, "FORMAT", None)
    if isinstance(info, FormatInfo):
        return info
    decoder = getattr(obj, "DECODER", None)
    if decoder is not None:
        return FormatInfo.for_decoder(decoder)
    raise TypeError(f"{where} defines no FORMAT (a graphframe_readers.FormatInfo)")


def _add(info: FormatInfo, replace: bool) -> None:
    if info.name in _FORMATS and not replace:
        if _FORMATS[info.name] is not info:
            warnings.warn(f"format {info.name!r} is registered twice; the first one is kept",
                          stacklevel=3)
        return
    _FORMATS[info.name] = info


def _plugin_formats() -> List[FormatInfo]:
    """Formats that installed packages declare in the ``graphframe.formats`` group.

    A plugin that cannot be loaded is reported with a warning naming it and the
    error; the other formats stay usable.
    """
    if not _may_have_plugins():
        return []
    from importlib.metadata import entry_points

    found = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            found.append(_entry_of(point.load(), f"entry point {point.name!r} ({point.value})"))
        except Exception as exc:  # noqa: BLE001 -- any failure of foreign code is reported
            warnings.warn(f"the format plugin {point.name!r} ({point.value}) cannot be loaded: "
                          f"{type(exc).__name__}: {exc}", stacklevel=3)
    return found


def _may_have_plugins() -> bool:
    """False when no installed distribution's ``entry_points.txt`` names the group.

    A look at the metadata files of ``sys.path`` before ``importlib.metadata`` (whose
    import and scan of every distribution cost more than reading a small trace);
    anything it cannot look at counts as a possible plugin.
    """
    marker = ENTRY_POINT_GROUP.encode()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except NotADirectoryError:
            return True  # a zip file on the path: importlib.metadata looks inside
        except OSError:
            continue
        joined = "\0".join(names)  # one C-level search first: most folders have no metadata
        if ".egg" not in joined and ".dist-info" not in joined and ".zip" not in joined:
            continue
        for name in names:
            if name.endswith((".egg-info", ".dist-info")):
                file = os.path.join(entry or ".", name, "entry_points.txt")
                try:
                    with open(file, "rb") as fh:
                        if marker in fh.read():
                            return True
                except FileNotFoundError:
                    continue
                except OSError:
                    return True
            elif name.endswith(".egg") or name.endswith(".zip"):
                return True  # zipped distributions: importlib.metadata reads them
    return False


def register(info: FormatInfo, replace: bool = False) -> FormatInfo:
    """Add a format at run time (after the built-in and plugin formats).

    Parameters
    ----------
    info : FormatInfo
        The format's entry.
    replace : bool
        Replace a format of the same name (otherwise the first one is kept).

    Examples
    --------
    >>> info = FormatInfo(name="doc-example", read=lambda path: None,
    ...                   sniff=lambda path, head: head.startswith(b"#example"),
    ...                   suffixes=(".example",), description="an example")
    >>> register(info).name in formats()
    True
    >>> unregister("doc-example")
    """
    # graphframe's own archive formats are registered on a first read: that loads no
    # reader module (the kinds of built-in modules are profile and trace)
    if info.kind in ("archive", "ensemble"):
        _table_of((info.kind,))
    else:
        _table()
    _add(info, replace)
    return _FORMATS[info.name]


def unregister(name: str) -> None:
    """Remove the format ``name`` (tests, plugins reloaded)."""
    _table().pop(name, None)


def entries(kind: Optional[str] = None) -> List[FormatInfo]:
    """Every registered :class:`FormatInfo` (of ``kind`` when given), in sniffing order.

    Examples
    --------
    >>> [i.name for i in entries("trace")][:2]
    ['dumpi', 'chrome']
    """
    table = _table() if kind is None else _table_of((kind,))
    return [i for i in table.values() if kind is None or i.kind == kind]


def formats(kind: Optional[str] = "profile") -> List[str]:
    """Names of the known formats of ``kind`` (``None``: every kind), in sniffing order.

    Examples
    --------
    >>> "literal" in formats(), "chrome" in formats(), "chrome" in formats(None)
    (True, False, True)
    """
    return [i.name for i in entries(kind)]


def format_info(name: str) -> FormatInfo:
    """The :class:`FormatInfo` registered under ``name``.

    The built-in modules are imported one at a time until one defines it (naming
    a format does not import every reader).
    """
    found = find_format(name)
    if found is None:
        raise UnknownFormatError(name, formats(None), f"unknown format {name!r}")
    return found


def find_format(name: str) -> Optional[FormatInfo]:
    """The :class:`FormatInfo` registered under ``name``, or None."""
    _load(())  # the plugins
    if name in _FORMATS:
        return _FORMATS[name]
    # the modules whose path holds most words of the name first (``hpctoolkit-trace``
    # lives in ``traces.hpctoolkit_trace``, ``nsight-nvtx-csv`` in ``nsight.csv_export``)
    words = [w for w in name.replace("_", "-").split("-") if w]
    order = sorted(FORMAT_MODULES, key=lambda m: -sum(w in m for w in words))
    for module_name in order:
        if module_name not in _BUILT_IN:
            _load_module(module_name)
            if name in _FORMATS:
                return _FORMATS[name]
    return _table().get(name)


def read_head(path: Path) -> bytes:
    """The first :data:`HEAD_BYTES` bytes of a file (``b""`` for a directory).

    The one place a file's head is read for recognition.
    """
    if path.is_dir():
        return b""
    try:
        with open(path, "rb") as fh:
            return fh.read(HEAD_BYTES)
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc


def identify(path: Path, head: Optional[bytes] = None,
             kinds: Iterable[str] = KINDS) -> Optional[FormatInfo]:
    """The first format of ``kinds`` (tried in that order) that claims ``path``, or None.

    ``head`` is the file's first bytes when the caller has read them already
    (:func:`read_head` otherwise).

    Examples
    --------
    >>> import json, tempfile
    >>> p = Path(tempfile.mkdtemp()) / "t.json"
    >>> _ = p.write_text(json.dumps([{"ph": "X", "name": "f", "pid": 0, "tid": 0, "ts": 0}]))
    >>> identify(p).name, identify(p, kinds=["profile"])
    ('chrome', None)
    """
    if head is None:
        head = read_head(path)
    hinted = None if _ALL_KINDS[0] else _hinted_modules(path, head)
    for kind in kinds:
        found = _claim(kind, path, head, hinted)
        if found is not None:
            return found
    return None


def _claim(kind: str, path: Path, head: bytes,
           hinted: Optional[List[str]]) -> Optional[FormatInfo]:
    """The first format of ``kind`` that claims the input, importing the built-in modules
    of that kind one at a time in sniffing order, those whose format declares the
    file's ending (:data:`SUFFIX_HINTS`) first (a trace recognised by the first decoder
    asked imports no other)."""
    if not _ALL_KINDS[0]:
        _load(())  # the plugins
        hinted = hinted or []
        for module_name in hinted + [m for m in FORMAT_MODULES if m not in hinted]:
            if not _may_define(module_name, (kind,)):
                continue
            if module_name not in _BUILT_IN:
                _load_module(module_name)
                if _ALL_KINDS[0]:
                    break
            info = _FORMATS.get(_BUILT_IN[module_name].name)
            if info is not None and info.kind == kind and info.claims(path, head):
                return info
    for info in list(_table_of((kind,)).values()):
        if info.kind == kind and info.claims(path, head):
            return info
    return None


def _hinted_modules(path: Path, head: bytes) -> List[str]:
    """The built-in modules whose format the name of ``path`` (a file's ending) or its
    contents (a folder's files) point to, in sniffing order (see :data:`SUFFIX_HINTS`)."""
    if head or not path.is_dir():
        suffix = path.suffix.lower()
        return [m for m in FORMAT_MODULES if suffix and suffix in SUFFIX_HINTS.get(m, ())]
    try:
        names = os.listdir(path)
    except OSError:
        return []
    return [m for m in FORMAT_MODULES
            if any(fnmatch.filter(names, pattern) for pattern in MARKER_HINTS.get(m, ()))]


def sniff(path: Any, kind: str = "profile") -> str:
    """Name of the format of ``kind`` that recognises ``path`` (a file, directory or list).

    Raises :class:`ReadError` when the path does not exist or is an empty
    file, and :class:`UnknownFormatError` (listing the known formats) when no
    format claims it.
    """
    first = first_path(path)
    head = read_head(first)
    if not head and first.is_file():
        raise ReadError(first, "the file is empty (0 bytes)",
                        expected="a profile in one of the formats: " + ", ".join(formats(kind)))
    info = identify(first, head, (kind,))
    if info is None:
        problem = "no reader recognises this input" if kind == "profile" else \
            f"no {kind} format recognises this input"
        raise UnknownFormatError(path, formats(kind), problem)
    return info.name


def read(path: Any, format: str | None = None, progress: ProgressArg = None,
         **options: Any) -> RawProfile:
    """Decode the profile at ``path`` into a :class:`RawProfile`.

    Parameters
    ----------
    path : str, path-like or list of them
        A file, a database directory, or several files of one profile
        (e.g. one Caliper file per rank).
    format : str, optional
        A name from :func:`formats`; sniffed from the input when omitted.
    progress : bool, str or callable, optional
        Report progress (see :mod:`graphframe_readers.progress`): ``True`` draws a bar
        on stderr (tqdm when installed), a callable receives ``(done,
        total, what)``. Accepted by every format: readers that measure their
        work report it as it advances, the others report start and end.
    **options
        The format's reader options (:attr:`FormatInfo.options`; each reader
        documents its keywords). An option the format does not take is an
        :class:`~graphframe_readers.errors.ArgumentError` listing the ones it does.

    Examples
    --------
    >>> import json, tempfile, os
    >>> tmp = tempfile.mkdtemp()
    >>> p = os.path.join(tmp, "prof.json")
    >>> with open(p, "w") as f:
    ...     json.dump([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}], f)
    >>> read(p).num_nodes
    1
    >>> seen = []
    >>> _ = read(p, progress=lambda done, total, what: seen.append((done, total)))
    >>> seen[0], seen[-1]
    ((0, 1), (1, 1))
    >>> read(p, format="nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.UnknownFormatError: .../prof.json: unknown format 'nope' (expected one of the formats: literal, ...)
    >>> read(p, metric_names=["time"])
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: the literal reader has no option 'metric_names'; its options are: progress
    """
    if format is None:
        name = sniff(path)
    elif format not in _table():
        raise UnknownFormatError(path, formats(), f"unknown format {format!r}")
    else:
        name = format
        first_path(path)  # existence check with a clear message
    info = format_info(name)
    if info.kind != "profile":
        raise ArgumentError(f"{name} is a {info.kind} format, not a profile format; "
                            + ("decode it with graphframe_readers.traces.decode (or "
                               "graphframe.read_trace)" if info.kind == "trace" else
                               "graphframe reads it (graphframe.read)"))
    check_options(info, options)
    if isinstance(path, (list, tuple)) and not info.several_files:
        raise ReadError(_label(path), f"the {name} format reads one file or directory at a "
                        "time, and a list of files was given",
                        expected="one path; read several runs one file at a time, each as "
                                 "its own profile")
    if progress is None or progress is False:
        return info.read(path, **options)
    if reports_progress(info):
        return info.read(path, progress=progress, **options)
    report = Progress(progress, 1, f"{name} read of {_label(path)}")
    report.start()
    raw = info.read(path, **options)
    report.finish()
    return raw


def check_options(info: FormatInfo, options: Dict[str, Any]) -> None:
    """Raise :class:`ArgumentError` for an option ``info``'s reader does not take.

    Examples
    --------
    >>> check_options(format_info("timemory"), {"select": ["wall_clock"]})
    >>> check_options(format_info("timemory"), {"per_profile": True})
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: the timemory reader has no option 'per_profile'; its options are: select, progress
    """
    allowed = info.options
    unknown = [key for key in options if key not in allowed]
    if unknown:
        raise ArgumentError(f"the {info.name} reader has no option {unknown[0]!r}; its options "
                            f"are: {', '.join(allowed)}")


def reports_progress(info: FormatInfo) -> bool:
    """True when the format's reader takes ``progress=`` itself (measured progress)."""
    if info.read is None:
        return False
    try:
        return "progress" in inspect.signature(info.read).parameters
    except (TypeError, ValueError):
        return False


def _label(path: Any) -> str:
    if isinstance(path, (list, tuple)):
        return f"{len(path)} files"
    return Path(os.fspath(path)).name or str(path)


def first_path(path: Any) -> Path:
    """The first file of ``path`` (a path or a list of paths), checked to exist.

    Examples
    --------
    >>> first_path(["/", "/tmp"])
    PosixPath('/')
    """
    if isinstance(path, (list, tuple)):
        if not path:
            raise ReadError(path, "an empty list of files was given",
                            expected="at least one file")
        path = path[0]
    try:
        p = Path(os.fspath(path))
    except TypeError as exc:
        raise ReadError(path, "not a file path", expected="a path or a list of paths") from exc
    if not p.exists():
        raise ReadError(p, "no such file or directory")
    return p


def looks_like_json(head: bytes, opener: bytes) -> bool:
    """True when ``head`` starts (after whitespace/BOM) with ``opener``."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text[:1] == opener
