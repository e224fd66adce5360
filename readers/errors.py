"""Exceptions raised while decoding profiles.

Every exception graphframe raises derives from :class:`GraphframeError`. It lives
here, in the lowest layer, so that readers (which never import ``graphframe``)
and the model share one hierarchy; ``graphframe.errors`` re-exports it.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence


class GraphframeError(Exception):
    """Root of every exception raised by graphframe and its readers."""


class ReadError(GraphframeError, ValueError):
    """A file (or in-memory input) could not be decoded.

    The message always names the input, the position where decoding failed
    (a line, a byte offset, a record) and what was expected there.

    Parameters
    ----------
    source : str or path-like or None
        The file, directory or a short description of an in-memory input.
    problem : str
        What went wrong, in words.
    position : str, optional
        Where it went wrong: ``"line 12"``, ``"byte 4096"``, ``"record 3"``,
        ``"children[2].metrics"``.
    expected : str, optional
        What the decoder expected to find there.

    Examples
    --------
    >>> err = ReadError("prof.json", "metric 'time' is not a number",
    ...                 position="[0].metrics", expected="a number")
    >>> str(err)
    "prof.json: [0].metrics: metric 'time' is not a number (expected a number)"
    """

    def __init__(
        self,
        source: Any,
        problem: str,
        *,
        position: Optional[str] = None,
        expected: Optional[str] = None,
    ) -> None:
        self.source = _describe_source(source)
        self.problem = problem
        self.position = position
        self.expected = expected
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [self.source]
        if self.position:
            parts.append(self.position)
        text = ": ".join(parts) + ": " + self.problem
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    def __reduce__(self):  # keep the exception picklable for worker processes
        return (
            _rebuild_read_error,
            (type(self), self.source, self.problem, self.position, self.expected),
        )


def _rebuild_read_error(cls, source, problem, position, expected):
    return cls(source, problem, position=position, expected=expected)


class UnknownFormatError(ReadError):
    """No reader recognises the input; the message lists the known formats."""

    def __init__(self, source: Any, known: Sequence[str], problem: str = "") -> None:
        self.known = tuple(known)
        text = problem or "no reader recognises this input"
        super().__init__(
            source, text, expected="one of the formats: " + ", ".join(self.known)
        )

    def __reduce__(self):
        return (type(self), (self.source, self.known, self.problem))


class MissingMembersError(ReadError):
    """Files that a trace declares (ranks, locations, processors) are absent.

    ``missing`` maps what is missing (``"rank 2"``) to the file expected for
    it; ``present`` holds what the reader can still read (byte sources of a
    trace), which ``read_trace(..., missing="warn")`` reads instead.

    Examples
    --------
    >>> err = MissingMembersError("t.meta", {"rank 1": "t-0001.bin"}, declared="numprocs=2")
    >>> str(err)
    "t.meta: numprocs=2 but rank 1 is missing: no t-0001.bin (expected every declared rank's file, or missing='warn' to read the others)"
    """

    def __init__(self, source: Any, missing: "dict", *, declared: str,
                 present: Sequence[Any] = ()) -> None:
        self.missing = dict(missing)
        self.present = list(present)
        self.declared = declared
        labels = list(self.missing)
        what = ", ".join(labels[:5]) + (f" and {len(labels) - 5} more" if len(labels) > 5 else "")
        verb = "is" if len(labels) == 1 else "are"
        files = ", ".join(os.path.basename(str(f)) for f in list(self.missing.values())[:5])
        super().__init__(source, f"{declared} but {what} {verb} missing: no {files}",
                         expected="every declared rank's file, or missing='warn' to read the "
                                  "others")

    def __reduce__(self):
        return (_rebuild_missing, (type(self), self.source, self.missing, self.declared))


def _rebuild_missing(cls, source, missing, declared):
    return cls(source, missing, declared=declared)


class ProfileError(ReadError):
    """A reader produced tables that do not describe a valid profile."""


class ArgumentError(GraphframeError, ValueError):
    """An argument is out of range or names something that does not exist: a reader
    option the format does not take, a rank, a colormap, a negative precision...

    Examples
    --------
    >>> err = ArgumentError("rank=7 does not exist; the ranks are 1, 2")
    >>> isinstance(err, GraphframeError) and isinstance(err, ValueError)
    True
    """


def _describe_source(source: Any) -> str:
    if source is None:
        return "<input>"
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (list, tuple)):
        names = [_describe_source(s) for s in source[:3]]
        more = f" and {len(source) - 3} more" if len(source) > 3 else ""
        return "[" + ", ".join(names) + more + "]"
    name = getattr(source, "name", None)
    if isinstance(name, str):
        return name
    return f"<{type(source).__name__}>"


def brief(value: Any) -> str:
    """``repr(value)`` cut to 60 characters, for naming a bad value in an error.

    Examples
    --------
    >>> brief("x" * 100)[-5:]
    'xx...'
    >>> brief([1, 2])
    '[1, 2]'
    """
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
