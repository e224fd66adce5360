"""What every command shares: reading the input, usage errors, the result of a command."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, List, Optional, TextIO

from readers.progress import callback_for

from ..errors import GraphframeError, ReadError
from ..graphframe import GraphFrame

#: Exit status when ``--fail-above`` finds a regression (1 = error, 2 = usage).
EXIT_REGRESSION = 3

#: What ``--fail-above`` can test: a node's inclusive or its exclusive value.
FAIL_KINDS = ("inclusive", "exclusive")


#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


def open_profile(path: str, format: Optional[str] = None, progress: bool = False) -> GraphFrame:
    """A GraphFrame from anything :func:`graphframe.read` reads (saved archives included).

    With ``progress`` a bar is drawn on stderr while the input is read (tqdm
    when it is installed, else a text bar; see :mod:`readers.progress`); the
    command line clears it when the command is interrupted. An empty file
    is a :class:`ReadError` saying so (not "no reader recognises").
    """
    refuse_empty(path)
    if not progress:
        return GraphFrame.read(path, format=format)
    return GraphFrame.read(path, format=format, progress=ProgressBar.start())


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



class UsageError(GraphframeError):
    """A command line that cannot be carried out as written (exit status 2)."""



@dataclass
class Report:
    """Text to print, a message for stderr and the exit status."""

    text: str
    error: str = ""
    status: int = 0
