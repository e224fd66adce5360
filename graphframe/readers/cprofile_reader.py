"""Hatchet's ``hatchet.readers.cprofile_reader`` path: :class:`CProfileReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class CProfileReader:
    """Hatchet's reader class for a cProfile pstats file.

    ``CProfileReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_cprofile`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = CProfileReader("run.pstats")
    >>> reader.filename
    'run.pstats'
    """

    def __init__(self, filename: Any) -> None:
        self.filename = filename

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_cprofile`)."""
        return GraphFrame.from_cprofile(self.filename)
