"""TAU profile directories: ``from_tau``, issue 6.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any


class TauConstructors:
    """``from_tau`` for GraphFrame."""

    @classmethod
    def from_tau(cls, dirname: Any) -> Any:
        """Read a TAU profile directory (``profile.<node>.<context>.<thread>`` files).

        Parameters
        ----------
        dirname : str or path-like
            The directory (or ``MULTI__<METRIC>`` sub-directories, one per
            metric), or a single profile file.

        Returns
        -------
        GraphFrame
            One node per call path (call-path profiles) or per timer (flat
            profiles), rows per ``rank``/``context``/``thread`` where they
            vary. See ``docs/readers/tau.md``.

        Examples
        --------
        >>> import os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> for rank in (0, 1):
        ...     with open(os.path.join(d, f"profile.{rank}.0.0"), "w") as f:
        ...         _ = f.write('2 templated_functions_MULTI_TIME\\n'
        ...             '# Name Calls Subrs Excl Incl ProfileCalls #\\n'
        ...             f'"main" 1 1 2 {5 + rank} 0 GROUP="TAU_DEFAULT"\\n'
        ...             f'"main => solve" 1 0 {3 + rank} {3 + rank} 0 GROUP="TAU_CALLPATH"\\n'
        ...             '0 aggregates\\n')
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_tau(d).dataframe[["name", "time", "time (inc)"]]
                                                     name  time  time (inc)
        node                                  rank
        {'name': 'main', 'type': 'function'}  0      main   2.0         5.0
                                              1      main   2.0         6.0
        {'name': 'solve', 'type': 'function'} 0     solve   3.0         3.0
                                              1     solve   4.0         4.0
        """
        from graphframe_readers.tau import read_tau  # on first use: fast start
        return cls.from_raw(read_tau(dirname))
