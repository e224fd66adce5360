"""Hatchet's ``hatchet.readers.hpctoolkit_reader_latest`` path: :class:`HPCToolkitReaderLatest`."""

from __future__ import annotations

from typing import Any, Optional, Sequence  # noqa: F401 (the signatures use some)

from ..graphframe import GraphFrame


class HPCToolkitReaderLatest:
    """Hatchet's reader class for an HPCToolkit database of the current layout (``meta.db``).

    ``HPCToolkitReaderLatest(...).read()`` returns a GraphFrame, as in Hatchet.

    The arguments are Hatchet's; :meth:`read` is :meth:`GraphFrame.from_hpctoolkit_latest`
    with them (same result, same errors).

    Examples
    --------
    >>> reader = HPCToolkitReaderLatest("hpctoolkit-database")
    >>> reader.dir_path
    'hpctoolkit-database'
    """

    def __init__(self, dir_path: Any, **options: Any) -> None:
        self.dir_path = dir_path
        self.options = dict(options)

    def read(self) -> GraphFrame:
        """The GraphFrame (see :meth:`GraphFrame.from_hpctoolkit_latest`)."""
        return GraphFrame.from_hpctoolkit_latest(self.dir_path, **self.options)
