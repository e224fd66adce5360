"""Format registry: which readers exist and how an input is recognised.

Each reader module defines ``FORMAT``, a :class:`FormatInfo`. Sniffing is
cheap: the file extension, the first bytes of a file, or marker files in a
directory. Formats are tried in registration order; the first that claims the
input reads it. Reader modules are imported on first use, so ``import
readers`` loads none of them.

Options are the reader's own keywords (:attr:`FormatInfo.options`, from the
signature of its ``read``); :func:`read` refuses any other with an
:class:`~graphframe_readers.errors.ArgumentError` that lists them.
"""

from __future__ import annotations

import importlib
import inspect
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple, Union

from .errors import ArgumentError, ReadError, UnknownFormatError
from .profile import RawProfile
from .progress import Progress, ProgressArg

PathLike = Union[str, "os.PathLike[str]"]

#: Bytes read from the start of a file for sniffing.
HEAD_BYTES = 4096

#: Reader modules, in sniffing order (most specific first).
READER_MODULES = (
    "graphframe_readers.hatchet.literal",
    "graphframe_readers.hatchet.json_layout",
    "graphframe_readers.caliper.jsonsplit.reader",
    "graphframe_readers.caliper.reader",
    "graphframe_readers.hpctoolkit.experiment.reader",
    "graphframe_readers.hpctoolkit.latest.reader",
    "graphframe_readers.dot.reader",
    "graphframe_readers.cprofile.reader",
    "graphframe_readers.pyinstrument.reader",
    "graphframe_readers.timemory.reader",
    "graphframe_readers.tau.reader",
    # issue 28: the call/sample tree of a Mono log (its events: graphframe.read_trace)
    "graphframe_readers.traces.mono.tree",
)


@dataclass(frozen=True)
class FormatInfo:
    """What the registry knows about one format.

    Parameters
    ----------
    name : str
        The name users pass as ``format=``.
    read : callable
        ``read(path, **options) -> RawProfile``.
    sniff : callable
        ``sniff(path, head) -> bool``; ``head`` holds the first
        :data:`HEAD_BYTES` bytes of a file, or ``b""`` for a directory.
    description : str
        One line shown in error messages and ``graphframe formats``.
    several_files : bool
        The reader takes a list of files (the per-rank files of one run);
        :func:`read` refuses a list for the other formats.
    """

    name: str
    read: Callable[..., RawProfile]
    sniff: Callable[[Path, bytes], bool]
    description: str
    several_files: bool = False

    @property
    def options(self) -> Tuple[str, ...]:
        """The keyword options :func:`read` accepts for this format, in signature order.

        The keywords of ``read`` after the path, and ``progress`` (accepted by
        every format). Taken from the signature, so they cannot drift from
        the reader.

        Examples
        --------
        >>> format_info("hpctoolkit-latest").options[:3]
        ('parallel_profiles_mode', 'metric_names', 'profile_ranks')
        >>> format_info("gprof-dot").options
        ('progress',)
        """
        params = list(inspect.signature(self.read).parameters.values())[1:]
        names = tuple(p.name for p in params
                      if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        return names if "progress" in names else names + ("progress",)


_FORMATS: Dict[str, FormatInfo] = {}


def _table() -> Dict[str, FormatInfo]:
    """The registry, filled on first use (reader modules import this one)."""
    if not _FORMATS:
        for module_name in READER_MODULES:
            info = importlib.import_module(module_name).FORMAT
            _FORMATS[info.name] = info
    return _FORMATS


def formats() -> List[str]:
    """Names of the known formats, in sniffing order.

    Examples
    --------
    >>> "literal" in formats()
    True
    """
    return list(_table())


def format_info(name: str) -> FormatInfo:
    """The :class:`FormatInfo` registered under ``name``."""
    try:
        return _table()[name]
    except KeyError:
        raise UnknownFormatError(name, formats(), f"unknown format {name!r}") from None


def sniff(path: Any) -> str:
    """Name of the format that recognises ``path`` (a file, directory or list).

    Raises :class:`ReadError` when the path does not exist or is an empty
    file, and :class:`UnknownFormatError` (listing the known formats) when no
    reader claims it.
    """
    first = first_path(path)
    head = _head(first)
    if not head and os.path.isfile(first):
        raise ReadError(first, "the file is empty (0 bytes)",
                        expected="a profile in one of the formats: " + ", ".join(formats()))
    for info in _table().values():
        if info.sniff(first, head):
            return info.name
    raise UnknownFormatError(path, formats())


def read(path: Any, format: str | None = None, progress: ProgressArg = None,
         **options: Any) -> RawProfile:
    """Decode ``path`` into a :class:`RawProfile`.

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


def _head(path: Path) -> bytes:
    if path.is_dir():
        return b""
    try:
        with open(path, "rb") as fh:
            return fh.read(HEAD_BYTES)
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc


def looks_like_json(head: bytes, opener: bytes) -> bool:
    """True when ``head`` starts (after whitespace/BOM) with ``opener``."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text[:1] == opener
