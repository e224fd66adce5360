"""Hatchet's ``hatchet.readers.gprof_dot_reader`` path: :class:`GprofDotReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class GprofDotReader:
    """Hatchet's reader class for gprof2dot DOT output.

    ``GprofDotReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_gprof_dot`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = GprofDotReader("callgrind.dot")
    >>> reader.filename
    'callgrind.dot'
    """

    def __init__(self, filename: Any) -> None:
        self.filename = filename

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_gprof_dot`)."""
        return GraphFrame.from_gprof_dot(self.filename)
