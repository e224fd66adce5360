"""Python's cProfile / profile pstats files: ``from_cprofile``, issue 6.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any


class CProfileConstructors:
    """``from_cprofile`` for GraphFrame."""

    @classmethod
    def from_cprofile(cls, filename: Any) -> Any:
        """Read a pstats file written by Python 3's cProfile or profile module.

        Parameters
        ----------
        filename : str or path-like
            Written by ``python -m cProfile -o FILE``, ``Profile.dump_stats``
            or ``pstats.Stats.dump_stats``.

        Returns
        -------
        GraphFrame
            A call graph with one node per function (recursion is a cycle):
            ``numcalls`` (primitive calls), ``nativecalls`` (all calls),
            ``time`` (self seconds), ``time (inc)`` (cumulative seconds),
            ``caller_calls``. See ``docs/readers/cprofile.md``.

        Examples
        --------
        >>> import cProfile, os, tempfile
        >>> def fib(n):
        ...     return n if n < 2 else fib(n - 1) + fib(n - 2)
        >>> prof = cProfile.Profile()
        >>> _ = prof.runcall(fib, 6)
        >>> p = os.path.join(tempfile.mkdtemp(), "fib.pstats")
        >>> prof.dump_stats(p)
        >>> from graphframe import GraphFrame
        >>> df = GraphFrame.from_cprofile(p).dataframe
        >>> df.loc[df["name"] == "fib", ["numcalls", "nativecalls"]].values.tolist()
        [[1, 25]]
        """
        from graphframe_readers.cprofile import read_cprofile  # on first use: fast start
        return cls.from_raw(read_cprofile(filename))
