"""Hatchet's ``hatchet.readers.caliper_reader`` path: :class:`CaliperReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class CaliperReader:
    """Hatchet's reader class for Caliper output (json-split or ``.cali``).

    ``CaliperReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_caliper`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = CaliperReader("lulesh.json")
    >>> reader.filename_or_stream
    'lulesh.json'
    """

    def __init__(self, filename_or_stream: Any, query: Optional[str] = "") -> None:
        self.filename_or_stream = filename_or_stream
        self.query = query or None

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_caliper`)."""
        return GraphFrame.from_caliper(self.filename_or_stream, self.query)
