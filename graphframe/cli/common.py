"""What every command shares: reading the input, usage errors, the result of a command."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

from ..errors import GraphframeError
from ..graphframe import GraphFrame

#: Exit status when ``--fail-above`` finds a regression (1 = error, 2 = usage).
EXIT_REGRESSION = 3

#: What ``--fail-above`` can test: a node's inclusive or its exclusive value.
FAIL_KINDS = ("inclusive", "exclusive")


def open_profile(path: str, format: Optional[str] = None, progress: bool = False,
                 options: Optional[Sequence[str]] = None) -> GraphFrame:
    """A GraphFrame from anything :func:`graphframe.read` reads (saved archives included).

    With ``progress`` a bar is drawn on stderr while the input is read (tqdm
    when it is installed, else a text bar; see :mod:`readers.progress`).
    ``options`` are ``--option KEY=VALUE`` texts: the reader's keyword
    options (see :func:`reader_options`).
    """
    kwargs = reader_options(options or ())
    if progress:
        kwargs["progress"] = True
    return GraphFrame.read(path, format=format, **kwargs)


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
    out: Dict[str, Any] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {text}: write KEY=VALUE, e.g. --option summary_only=true")
        parts = [_option_value(v.strip()) for v in value.split(",")]
        out[key.strip()] = parts if len(parts) > 1 else parts[0]
    return out


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



class UsageError(GraphframeError):
    """A command line that cannot be carried out as written (exit status 2)."""



@dataclass
class Report:
    """Text to print, a message for stderr and the exit status."""

    text: str
    error: str = ""
    status: int = 0
