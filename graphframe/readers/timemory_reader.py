"""Hatchet's ``hatchet.readers.timemory_reader`` path: :class:`TimemoryReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class TimemoryReader:
    """Hatchet's reader class for timemory tree JSON.

    ``TimemoryReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_timemory`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = TimemoryReader("wall.tree.json")
    >>> reader.input
    'wall.tree.json'
    """

    def __init__(self, input: Any, select: Optional[Sequence[str]] = None, **_kwargs: Any) -> None:
        self.input = input
        self.select = select

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_timemory`)."""
        return GraphFrame.from_timemory(self.input, self.select)
