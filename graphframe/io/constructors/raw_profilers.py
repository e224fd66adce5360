"""Raw profiler outputs read directly: ``from_callgrind``, ``from_gprof``,
``from_perf_script`` (issue 33). Hatchet has none of these (its users convert with
gprof2dot and call ``from_gprof_dot``); the names follow its ``from_<format>`` style.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any


class RawProfilerConstructors:
    """``from_callgrind``, ``from_gprof`` and ``from_perf_script`` for GraphFrame."""

    @classmethod
    def from_callgrind(cls, filename: Any, merge_by_name: bool = False) -> Any:
        """Read a callgrind or cachegrind profile (``callgrind.out.PID``).

        Parameters
        ----------
        filename : str, path-like, file-like or a list of paths
            The profile, or an open stream of it; or the files of one run (one per
            thread with ``--separate-threads=yes``: a ``thread`` index level).
        merge_by_name : bool
            One node per function name (gprof2dot's nodes) instead of one per
            (object, file, name).

        Returns
        -------
        GraphFrame
            A call graph, one node per function: per event ``Ir``... the self
            cost and ``Ir (inc)`` the inclusive cost, ``calls``, ``caller_calls``
            and ``caller_costs``. See ``docs/readers/callgrind.md``.

        Examples
        --------
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "callgrind.out.1")
        >>> with open(p, "w") as f:
        ...     _ = f.write("events: Ir\\nfn=main\\n1 5\\ncfn=work\\ncalls=2 9\\n2 30\\n"
        ...                 "fn=work\\n9 30\\n")
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_callgrind(p)
        >>> gf.dataframe[["name", "Ir (inc)", "Ir", "calls"]].values.tolist()
        [['main', 35, 5, 0], ['work', 30, 30, 2]]
        """
        from graphframe_readers.callgrind import read_callgrind  # on first use: fast start
        return cls.from_raw(read_callgrind(filename, merge_by_name=merge_by_name))

    @classmethod
    def from_gprof(cls, filename: Any) -> Any:
        """Read GNU gprof's text output (flat profile and call graph, ``gprof -b``).

        Returns
        -------
        GraphFrame
            A call graph, one node per function: ``time`` (self seconds), ``time
            (inc)`` (self + children), ``calls``, ``recursive_calls``, ``cycle``,
            ``caller_calls``, ``caller_time``. See ``docs/readers/gprof.md``.

        Examples
        --------
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "gprof.txt")
        >>> with open(p, "w") as f:
        ...     _ = f.write("index % time    self  children    called     name\\n"
        ...                 "[1]    100.0    0.10    0.30                 main [1]\\n"
        ...                 "                0.30    0.00       2/2           work [2]\\n"
        ...                 "-----------------------------------------------\\n"
        ...                 "                0.30    0.00       2/2           main [1]\\n"
        ...                 "[2]     75.0    0.30    0.00       2         work [2]\\n"
        ...                 "-----------------------------------------------\\n")
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_gprof(p).dataframe[["name", "time (inc)", "time"]].values.tolist()
        [['main', 0.4, 0.1], ['work', 0.3, 0.3]]
        """
        from graphframe_readers.gprof import read_gprof  # on first use: fast start
        return cls.from_raw(read_gprof(filename))

    @classmethod
    def from_perf_script(cls, filename: Any, per_thread: bool = False) -> Any:
        """Read ``perf script`` output (Linux perf samples, ``perf record -g``).

        Parameters
        ----------
        filename : str, path-like or file-like
            The text, or an open stream of it.
        per_thread : bool
            Rows per node and thread id (index level ``thread``).

        Returns
        -------
        GraphFrame
            A calling-context tree (command, then the frames outermost first): per
            event the samples (``cycles``, ``cycles (inc)``) and summed periods
            (``cycles period``...). See ``docs/readers/perf.md``.

        Examples
        --------
        >>> import io
        >>> from graphframe import GraphFrame
        >>> text = b"app 9 0.5: 10 cycles: \\n\\t 40 work+0x4 (/bin/app)\\n\\t 20 main (/bin/app)\\n\\n"
        >>> gf = GraphFrame.from_perf_script(io.BytesIO(text))
        >>> gf.dataframe[["name", "cycles (inc)", "cycles"]].values.tolist()
        [['app', 1, 0], ['main', 1, 0], ['work', 1, 1]]
        """
        from graphframe_readers.perf import read_perf_script  # on first use: fast start
        return cls.from_raw(read_perf_script(filename, per_thread=per_thread))
