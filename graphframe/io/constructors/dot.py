"""gprof2dot's DOT call graphs: ``from_gprof_dot``, issue 6.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any


class DotConstructors:
    """``from_gprof_dot`` for GraphFrame."""

    @classmethod
    def from_gprof_dot(cls, filename: Any) -> Any:
        """Read a DOT call graph written by gprof2dot (gprof, callgrind, perf, pstats...).

        Parameters
        ----------
        filename : str, path-like or file-like
            The ``.dot`` file, or an open stream of it.

        Returns
        -------
        GraphFrame
            A call graph (a function called from several places has several
            parents); ``time (inc)``/``time`` are gprof2dot's total/self
            percentages, ``cost (inc)``/``cost`` absolute values when the
            labels have them, ``calls``/``samples`` the counts, ``dot_id``
            the DOT node id and ``caller_calls`` the call count of every
            incoming edge keyed by the caller's ``dot_id``. See
            :mod:`graphframe_readers.dot` and ``docs/readers/dot.md``.

        Examples
        --------
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "g.dot")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write('digraph {\\n 1 [label="main\\\\n100.00%\\\\n(40.00%)"];\\n'
        ...                 ' 1 -> 2 [label="60.00%\\\\n3×"];\\n'
        ...                 ' 2 [label="work\\\\n60.00%\\\\n(60.00%)\\\\n3×"];\\n}\\n')
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_gprof_dot(p)
        >>> gf.dataframe[["name", "time (inc)", "time", "calls", "dot_id"]]
                                              name  time (inc)  time  calls dot_id
        node
        {'name': 'main', 'type': 'function'}  main       100.0  40.0    NaN      1
        {'name': 'work', 'type': 'function'}  work        60.0  60.0    3.0      2
        >>> gf.dataframe["caller_calls"].tolist()  # work: 3 calls from DOT node "1"
        [(), (('1', 3),)]
        """
        from graphframe_readers.dot import read_dot  # on first use: fast start
        return cls.from_raw(read_dot(filename))
