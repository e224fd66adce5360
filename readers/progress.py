"""Progress reports for long reads: tqdm when it is installed, else a text bar on stderr.

Every reader accepts ``progress=`` through :func:`graphframe_readers.read` (and so
``graphframe.read``):

- ``None`` / ``False``: silent (the default);
- ``True``: a bar on ``sys.stderr``, drawn by ``tqdm`` when that optional
  package is installed (``pip install graphframe[progress]``), otherwise by
  our own dependency-free text bar;
- ``"text"`` or ``"tqdm"``: that bar explicitly (``"tqdm"`` without tqdm
  installed is an error);
- a callable ``f(done, total, what)``: called as work advances, e.g. to
  feed a notebook widget or a log.

Readers that can measure their work report it as it advances (HPCToolkit:
bytes of experiment.xml and metric files; Caliper ``.cali``: bytes; Caliper
JSON: bytes decoded; literal: nodes); the registry reports the start and end
of every other read.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable, Optional, Union

from .errors import ArgumentError

ProgressArg = Union[None, bool, str, Callable[[int, int, str], None]]
Callback = Callable[[int, int, str], None]

#: The string forms of ``progress=``.
BARS = ("text", "tqdm")


class ProgressOptionError(ArgumentError):
    """``progress=`` is not one of the accepted values (or tqdm is missing for ``"tqdm"``)."""


def callback_for(progress: ProgressArg) -> Optional[Callback]:
    """The function that receives reports for a ``progress=`` argument (None: silent).

    Examples
    --------
    >>> callback_for(None) is None, callback_for(False) is None
    (True, True)
    >>> callback_for("text") is text_bar
    True
    >>> callback_for(3)
    Traceback (most recent call last):
    ...
    graphframe_readers.progress.ProgressOptionError: progress=3: use True, False, "text", "tqdm" or a function f(done, total, what)
    """
    if progress is None or progress is False:
        return None
    if progress is True:
        return TqdmBar() if tqdm_available() else text_bar
    if progress == "text":
        return text_bar
    if progress == "tqdm":
        if not tqdm_available():
            raise ProgressOptionError('progress="tqdm" needs the tqdm package '
                                      '(pip install tqdm), or use progress="text"')
        return TqdmBar()
    if callable(progress) and not isinstance(progress, str):
        return progress
    raise ProgressOptionError(f'progress={progress!r}: use True, False, "text", "tqdm" or a '
                              "function f(done, total, what)")


def tqdm_available() -> bool:
    """True when the optional ``tqdm`` package can be imported."""
    try:
        importlib.import_module("tqdm")
    except ImportError:
        return False
    return True


class Progress:
    """Reports progress of a long read to a callback or a bar on stderr.

    ``progress`` is any ``progress=`` argument (see the module docs).

    Examples
    --------
    >>> seen = []
    >>> p = Progress(lambda d, t, w: seen.append((d, t, w)), 2, "metric-db files")
    >>> p.step(); p.step(); seen
    [(1, 2, 'metric-db files'), (2, 2, 'metric-db files')]
    >>> p = Progress(lambda d, t, w: seen.append((d, t, w)), 10, "nodes")
    >>> p.start(); p.step(4); p.finish(); seen[2:]
    [(0, 10, 'nodes'), (4, 10, 'nodes'), (10, 10, 'nodes')]
    """

    def __init__(self, progress: ProgressArg, total: int, what: str) -> None:
        self.total = int(total)
        self.what = what
        self.done = 0
        self.callback: Optional[Callback] = callback_for(progress)

    def start(self) -> None:
        """Report that the work has begun (0 of total)."""
        if self.callback is not None:
            self.callback(self.done, self.total, self.what)

    def step(self, count: int = 1) -> None:
        """Report ``count`` more units done."""
        self.done += count
        if self.callback is not None:
            self.callback(self.done, self.total, self.what)

    def finish(self) -> None:
        """Report the work complete (when the total was an estimate, or steps were coarse)."""
        if self.done < self.total:
            self.step(self.total - self.done)


def text_bar(done: int, total: int, what: str) -> None:
    """Our own bar: ``[#####.....] 5/10 what`` redrawn on stderr, a newline at the end."""
    width = 30
    filled = width if total <= 0 else min(width, width * done // total)
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}{end}")
    sys.stderr.flush()


class TqdmBar:
    """A callback drawing one tqdm bar per kind of work (``what``), closed when complete."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.what: Optional[str] = None

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.bar is None or what != self.what:
            self.close()
            tqdm = importlib.import_module("tqdm").tqdm
            scale = what.startswith("bytes")
            self.bar = tqdm(total=total, desc=what, unit="B" if scale else "it",
                            unit_scale=scale, file=sys.stderr, leave=True)
            self.what = what
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
