"""Hatchet's ``hatchet.readers.pyinstrument_reader`` path: :class:`PyinstrumentReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class PyinstrumentReader:
    """Hatchet's reader class for pyinstrument JSON.

    ``PyinstrumentReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_pyinstrument`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = PyinstrumentReader("profile.json")
    >>> reader.filename
    'profile.json'
    """

    def __init__(self, filename: Any) -> None:
        self.filename = filename

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_pyinstrument`)."""
        return GraphFrame.from_pyinstrument(self.filename)
