"""What every command shares: reading the input, usage errors, the result of a command."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple

from graphframe_readers.progress import callback_for

from ..errors import GraphframeError, ReadError
from ..graphframe import GraphFrame

#: Exit status when ``--fail-above`` finds a regression (1 = error, 2 = usage).
EXIT_REGRESSION = 3

#: What ``--fail-above`` can test: a node's inclusive or its exclusive value.
FAIL_KINDS = ("inclusive", "exclusive")


#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


def open_profile(path: str, format: Optional[str] = None, progress: bool = False,
                 options: Optional[Sequence[str]] = None) -> GraphFrame:
    """A GraphFrame from anything :func:`graphframe.read` reads (saved archives included).

    With ``progress`` a bar is drawn on stderr while the input is read (tqdm
    when it is installed, else a text bar; see :mod:`graphframe_readers.progress`); the
    command line clears it when the command is interrupted. An empty file
    is a :class:`ReadError` saying so (not "no reader recognises").
    ``options`` are ``--option KEY=VALUE`` texts: the reader's keyword
    options (see :func:`reader_options`).
    """
    refuse_empty(path)
    kwargs = reader_options(options or ())
    if progress:
        kwargs["progress"] = ProgressBar.start()
    return GraphFrame.read(path, format=format, **kwargs)


def refuse_empty(path: Any) -> None:
    """Raise :class:`ReadError` when ``path`` is an empty file (nothing to sniff or read)."""
    if isinstance(path, (str, os.PathLike)) and os.path.isfile(path) \
            and os.path.getsize(path) == 0:
        raise ReadError(path, "the file is empty (0 bytes)",
                        expected="a profile; `graphframe formats` lists the formats read")


class ProgressBar:
    """The reading bar of one command (readers' bar), which can be cleared on Ctrl-C.

    Bars started by :func:`open_profile` are remembered until
    :meth:`clear_all`, which the command line calls when it is interrupted.
    """

    _active: List["ProgressBar"] = []

    def __init__(self) -> None:
        self.callback = callback_for(True)
        self.open = False   # a partly drawn line is on stderr

    @classmethod
    def start(cls) -> "ProgressBar":
        bar = cls()
        cls._active.append(bar)
        return bar

    def __call__(self, done: int, total: int, what: str) -> None:
        self.callback(done, total, what)
        self.open = done < total

    def clear(self, stream: TextIO) -> None:
        """Erase a partly drawn bar (a terminal) or end its line (a file or pipe)."""
        tqdm_bar = getattr(self.callback, "bar", None)
        if tqdm_bar is not None:   # tqdm: close it without leaving the bar behind
            tqdm_bar.leave = False
            self.callback.close()
        elif self.open:
            isatty = getattr(stream, "isatty", None)
            stream.write("\r\033[K" if isatty and isatty() else "\n")
        self.open = False

    @classmethod
    def clear_all(cls, stream: Optional[TextIO] = None) -> None:
        """Clear every bar started since the last call (on ``stream``, default stderr)."""
        while cls._active:
            cls._active.pop().clear(stream or sys.stderr)


def reader_options(texts: Sequence[str]) -> Dict[str, Any]:
    """``KEY=VALUE`` texts as reader keywords: ``true``/``false``, numbers, comma lists.

    Examples
    --------
    >>> reader_options(["summary_only=true", "ranks=0,3", "metrics=time", "scale=1e3"])
    {'summary_only': True, 'ranks': [0, 3], 'metrics': 'time', 'scale': 1000.0}
    >>> reader_options(["summary_only"])
    Traceback (most recent call last):
    ...
    graphframe.cli.common.UsageError: --option summary_only: write KEY=VALUE, e.g. --option summary_only=true
    """
    plain, keyed = ensemble_reader_options(texts)
    if keyed:
        name = next(iter(keyed))
        raise UsageError(f"--option {name}:...: FORMAT:KEY=VALUE is for several profiles (an "
                         "ensemble); for one profile write KEY=VALUE")
    return plain


def ensemble_reader_options(texts: Sequence[str]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """``KEY=VALUE`` and ``FORMAT:KEY=VALUE`` texts as ``Ensemble.read``'s plain reader
    options and its ``options=`` by format (see :mod:`graphframe.ensemble.options`).

    Examples
    --------
    >>> ensemble_reader_options(["no_path=drop", "hpctoolkit:ranks=0,2"])
    ({'no_path': 'drop'}, {'hpctoolkit': {'ranks': [0, 2]}})
    """
    plain: Dict[str, Any] = {}
    keyed: Dict[str, Dict[str, Any]] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {text}: write KEY=VALUE, e.g. --option summary_only=true")
        parts = [_option_value(v.strip()) for v in value.split(",")]
        fmt, colon, name = key.strip().rpartition(":")
        if colon and not (fmt and name):
            raise UsageError(f"--option {text}: write FORMAT:KEY=VALUE, e.g. "
                             "--option caliper:no_path=drop")
        (keyed.setdefault(fmt, {}) if colon else plain)[name] = \
            parts if len(parts) > 1 else parts[0]
    return plain, keyed


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text



class OutputError(GraphframeError, OSError):
    """An output file that cannot be written (exit status 1): one message for every command."""


def check_output(path: Any) -> None:
    """Raise :class:`OutputError` when ``path`` cannot be written as a file, before any work.

    Every command that writes a file (``convert``, ``plot``, ``report``) asks
    this first, so each says the same thing: the folder does not exist, is not a
    folder, or the path is a directory. ``-`` (standard output) is always fine.

    Examples
    --------
    >>> check_output("-")
    >>> check_output("/no/such/folder/out.html")
    Traceback (most recent call last):
    ...
    graphframe.cli.common.OutputError: /no/such/folder/out.html: cannot write: the folder /no/such/folder does not exist
    """
    text = os.fspath(path)
    if text == "-":
        return
    if os.path.isdir(text):
        raise OutputError(f"{text}: cannot write: it is a directory; give a file name in it")
    folder = os.path.dirname(text) or "."
    if not os.path.exists(folder):
        raise OutputError(f"{text}: cannot write: the folder {folder} does not exist")
    if not os.path.isdir(folder):
        raise OutputError(f"{text}: cannot write: {folder} is not a folder")


def output_error(path: Any, exc: OSError) -> OutputError:
    """The :class:`OutputError` for an ``OSError`` met while writing ``path``."""
    why = exc.strerror or str(exc)
    return OutputError(f"{os.fspath(path)}: cannot write: {why}")


class UsageError(GraphframeError):
    """A command line that cannot be carried out as written (exit status 2)."""



@dataclass
class Report:
    """Text to print, a message for stderr and the exit status."""

    text: str
    error: str = ""
    status: int = 0
