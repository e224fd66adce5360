"""Hatchet's ``hatchet.readers.literal_reader`` path: :class:`LiteralReader`."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..graphframe import GraphFrame


class LiteralReader:
    """Reads Hatchet's literal format, as Hatchet's class: ``LiteralReader(graph_dict).read()``.

    :meth:`read` is :meth:`GraphFrame.from_literal` (same result, same errors).

    Examples
    --------
    >>> LiteralReader([{"frame": {"name": "main"}, "metrics": {"time": 2.0}}]
    ...               ).read().dataframe["time"].tolist()
    [2.0]
    """

    def __init__(self, graph_dict: Sequence[Mapping[str, Any]]) -> None:
        self.graph_dict = graph_dict

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_literal`)."""
        return GraphFrame.from_literal(self.graph_dict)
