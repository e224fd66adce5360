"""Hatchet's ``hatchet.readers.tau_reader`` path: :class:`TAUReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class TAUReader:
    """Hatchet's reader class for a TAU profile directory.

    ``TAUReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_tau`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = TAUReader("tau-profiles")
    >>> reader.dirname
    'tau-profiles'
    """

    def __init__(self, dirname: Any) -> None:
        self.dirname = dirname

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_tau`)."""
        return GraphFrame.from_tau(self.dirname)
