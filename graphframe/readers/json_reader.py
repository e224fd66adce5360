"""Hatchet's ``hatchet.readers.json_reader`` path: :class:`JsonReader`."""

from __future__ import annotations

from typing import Any, Mapping, Union

from ..graphframe import GraphFrame


class JsonReader:
    """Reads ``to_json`` text, as Hatchet's class: ``JsonReader(json_spec).read()``.

    :meth:`read` is :meth:`GraphFrame.from_json` (same result, same errors);
    it accepts and ignores keyword arguments, as Hatchet's passes them to a
    reader that takes none.

    Examples
    --------
    >>> text = GraphFrame.from_lists(("main", "solve")).to_json()
    >>> JsonReader(text).read().dataframe["name"].tolist()
    ['main', 'solve']
    """

    def __init__(self, json_spec: Union[str, Mapping[str, Any]]) -> None:
        self.json_spec = json_spec

    def read(self, **_kwargs: Any) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_json`)."""
        return GraphFrame.from_json(self.json_spec)
