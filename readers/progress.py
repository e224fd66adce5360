"""Progress reports for long reads (no dependency: a text bar on stderr).

Readers of large inputs take ``progress=None|False|True|callable``: silent,
a bar on ``sys.stderr``, or ``f(done, total, what)`` called as work advances.
"""

from __future__ import annotations

import sys
from typing import Callable, Optional, Union

ProgressArg = Union[None, bool, Callable[[int, int, str], None]]


class Progress:
    """Reports progress of a long read to a callback or a text bar on stderr.

    ``progress`` is None/False (silent), True (a bar on ``sys.stderr``) or a
    callable ``f(done, total, what)``.

    Examples
    --------
    >>> seen = []
    >>> p = Progress(lambda d, t, w: seen.append((d, t, w)), 2, "metric-db files")
    >>> p.step(); p.step(); seen
    [(1, 2, 'metric-db files'), (2, 2, 'metric-db files')]
    """

    def __init__(self, progress: ProgressArg, total: int, what: str) -> None:
        self.total = int(total)
        self.what = what
        self.done = 0
        if progress is True:
            self.callback: Optional[Callable[[int, int, str], None]] = _stderr_bar
        elif callable(progress):
            self.callback = progress
        else:
            self.callback = None

    def step(self, count: int = 1) -> None:
        self.done += count
        if self.callback is not None:
            self.callback(self.done, self.total, self.what)


def _stderr_bar(done: int, total: int, what: str) -> None:
    width = 30
    filled = width if total <= 0 else min(width, width * done // total)
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}{end}")
    sys.stderr.flush()
