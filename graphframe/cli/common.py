"""What every command shares: reading the input, usage errors, the result of a command."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..errors import GraphframeError
from ..graphframe import GraphFrame

#: Exit status when ``--fail-above`` finds a regression (1 = error, 2 = usage).
EXIT_REGRESSION = 3

#: What ``--fail-above`` can test: a node's inclusive or its exclusive value.
FAIL_KINDS = ("inclusive", "exclusive")


def open_profile(path: str, format: Optional[str] = None, progress: bool = False) -> GraphFrame:
    """A GraphFrame from anything :func:`graphframe.read` reads (saved archives included).

    With ``progress`` a bar is drawn on stderr while the input is read (tqdm
    when it is installed, else a text bar; see :mod:`readers.progress`).
    """
    return GraphFrame.read(path, format=format, **({"progress": True} if progress else {}))



class UsageError(GraphframeError):
    """A command line that cannot be carried out as written (exit status 2)."""



@dataclass
class Report:
    """Text to print, a message for stderr and the exit status."""

    text: str
    error: str = ""
    status: int = 0
