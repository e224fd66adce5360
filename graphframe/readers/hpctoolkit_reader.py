"""Hatchet's ``hatchet.readers.hpctoolkit_reader`` path: :class:`HPCToolkitReader`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class HPCToolkitReader:
    """Hatchet's reader class for an HPCToolkit database of the old layout.

    ``HPCToolkitReader(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_hpctoolkit`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = HPCToolkitReader("hpctoolkit-cpi-database")
    >>> reader.dir_name
    'hpctoolkit-cpi-database'
    """

    def __init__(self, dir_name: Any) -> None:
        self.dir_name = dir_name

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_hpctoolkit`)."""
        return GraphFrame.from_hpctoolkit(self.dir_name)
