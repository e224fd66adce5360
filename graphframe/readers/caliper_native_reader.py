"""Hatchet's ``hatchet.readers.caliper_native_reader`` path: :class:`CaliperNativeReader`."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class CaliperNativeReader:
    """Hatchet's reader class for ``.cali`` data through Caliper's record model.

    ``CaliperNativeReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_caliperreader`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = CaliperNativeReader("lulesh.cali", False, [])
    >>> reader.filename_or_caliperreader
    'lulesh.cali'
    """

    def __init__(self, filename_or_caliperreader: Any, native: bool = False, string_attributes: Any = ()) -> None:
        self.filename_or_caliperreader = filename_or_caliperreader
        self.native = native
        self.string_attributes = string_attributes

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_caliperreader`)."""
        return GraphFrame.from_caliperreader(self.filename_or_caliperreader, self.native, self.string_attributes)

    def read_timeseries(self, level: str = "loop.start_iteration") -> List[GraphFrame]:
        """One GraphFrame per iteration block (see :meth:`GraphFrame.from_timeseries`)."""
        return GraphFrame.from_timeseries(self.filename_or_caliperreader, level, self.native,
                                          self.string_attributes)
