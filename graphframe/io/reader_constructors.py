"""Constructors with Hatchet's names, one per reader (mixed into GraphFrame).

Each is thin: it calls its reader with explicit keyword options and hands the
RawProfile to ``cls.from_raw``. Each imports its reader family when it is
first called, as ``graphframe_readers.read`` does, so ``import graphframe`` loads no
format module. Keyword names are Hatchet's, and the readers
take the same names (one name per option), so ``graphframe.read(path,
**options)`` accepts what the constructor accepts (``from_caliper``'s ``query``
excepted: a cali-query run is not a reader option).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

from .build import parts_from_raw


class ReaderConstructors:
    """``from_hpctoolkit``, ``from_caliper``, ``from_gprof_dot``... for GraphFrame."""

    # ---- reader constructors with Hatchet's names: HPCToolkit (issue 4) ----
    @classmethod
    def from_hpctoolkit(cls, dirname: Any, *, metrics: Optional[Sequence[str]] = None,
                        ranks: Optional[Sequence[int]] = None, summary_only: bool = False,
                        progress: Any = None) -> Any:
        """Read an HPCToolkit database of the old layout (experiment.xml + metric files).

        Parameters
        ----------
        dirname : path
            The database directory: ``experiment.xml`` with one ``*.metric-db``
            file per rank and thread (hpcprof-mpi) or ``experiment*.mdb``
            (hpcprof 2020), or ``experiment.xml`` alone when its
            ``MetricDBTable`` is empty.
        metrics : list of str, optional
            Metrics to keep, by our names (``time``, ``time (inc)``) or the
            file's (``CPUTIME (usec) (E)``). Default: all.
        ranks : int or list of int, optional
            Read only these MPI ranks (every file is still checked against
            the totals ``experiment.xml`` records).
        summary_only : bool
            Read the per-node values ``experiment.xml`` holds (summed over
            ranks and threads, 6 significant digits; index ``node``) instead
            of the metric files; needed when the files are gone.
        progress : bool or callable, optional
            ``True`` draws a progress bar on stderr; a callable receives
            ``(done, total, what)``.

        Notes
        -----
        Missing or inconsistent metric files, malformed XML and out-of-range
        numbers raise :class:`~graphframe_readers.errors.ReadError` naming the file and
        position. See :func:`graphframe_readers.hpctoolkit.read_hpctoolkit` and
        ``docs/readers/hpctoolkit.md``.

        Examples
        --------
        >>> import tempfile
        >>> from graphframe_readers.testing import write_example_database
        >>> from graphframe import GraphFrame
        >>> db = write_example_database(tempfile.mkdtemp())
        >>> gf = GraphFrame.from_hpctoolkit(db)
        >>> gf.dataframe.xs(0, level="rank")[["name", "type", "time", "time (inc)"]]
                     name type  time  time (inc)
        node
        0            main   PF   1.0        10.0
        1   Loop@app.c:15    L   0.0         3.0
        2        app.c:16    S   3.0         3.0
        3          12:foo   PF   1.0         6.0
        4        app.c:31    S   5.0         5.0
        >>> one = GraphFrame.from_hpctoolkit(db, ranks=[1]).dataframe
        >>> one.index.get_level_values("rank").unique().tolist()
        [1]
        """
        from graphframe_readers.hpctoolkit import read_hpctoolkit  # on first use: fast start
        return cls(**parts_from_raw(read_hpctoolkit(dirname, metrics=metrics, ranks=ranks,
                                                    summary_only=summary_only,
                                                    progress=progress), consume=True))

    @classmethod
    def from_hpctoolkit_latest(cls, dirname: Any, *, parallel_profiles_mode: bool = False,
                               metric_names: Optional[Sequence[str]] = None,
                               profile_ranks: Optional[Sequence[int]] = None,
                               label_function_nodes: bool = True,
                               max_depth: Optional[int] = None,
                               min_percentage_of_application_time: Optional[float] = None,
                               progress: Any = None) -> Any:
        """Read an HPCToolkit database of the current layout (meta.db + profile.db).

        Parameters
        ----------
        dirname : path
            The database directory (HPCToolkit >= 2022.10: ``meta.db`` and
            ``profile.db``; ``cct.db`` and ``trace.db`` are not needed).
        parallel_profiles_mode : bool
            False (default): the summary profile, one row per node (index
            ``node``). True: one row per node and measured profile (index
            ``node, rank[, thread]``).
        metric_names : list of str, optional
            Metrics to keep, by our column names (``time``, ``time (inc)``)
            or the database's (``CPUTIME (sec)`` keeps both of its columns).
        profile_ranks : int or list of int, optional
            With ``parallel_profiles_mode=True``, read only these MPI ranks.
            Without it this raises :class:`~graphframe_readers.errors.ReadError` (the
            summary profile has no ranks to select; Hatchet ignores the option).
        label_function_nodes : bool
            Prefix function names with ``function: `` (Hatchet's default).
        max_depth : int, optional
            Keep nodes at most this deep (entry points are depth 0), as Hatchet.
        min_percentage_of_application_time : float, optional
            Keep nodes whose summary inclusive time is at least this
            percentage of the main thread's, with their ancestors (Hatchet's
            meaning); entry points are always kept.
        progress : bool or callable, optional
            ``True`` draws a progress bar on stderr; a callable receives
            ``(done, total, what)`` after each profile.

        Notes
        -----
        Hatchet's other options (``exclude_*_function_details``,
        ``directory_mapping``, ``metric_scopes``, ``summary_metrics``...) are
        not supported; filter the GraphFrame instead. See
        :func:`graphframe_readers.hpctoolkit.read_hpctoolkit_latest` and
        ``docs/readers/hpctoolkit.md``.

        Examples
        --------
        >>> import tempfile
        >>> from graphframe_readers.testing import write_hpctoolkit_latest
        >>> from graphframe_readers.testing import sample_profile
        >>> db = write_hpctoolkit_latest(sample_profile(), tempfile.mkdtemp())
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_hpctoolkit_latest(db, max_depth=1)
        >>> gf.dataframe[["name", "type", "time (inc)", "time"]]
                        name      type  time (inc)    time
        node
        0        main thread     entry     12320.0     0.0
        1     function: main  function     12320.0  12320.0
        >>> gf = GraphFrame.from_hpctoolkit_latest(db, parallel_profiles_mode=True,
        ...                                        profile_ranks=[1])
        >>> gf.dataframe.loc[1, "time (inc)"]
        rank  thread
        1     0          605.0
              1         6105.0
        Name: time (inc), dtype: float64
        """
        from graphframe_readers.hpctoolkit import read_hpctoolkit_latest  # on first use: fast start
        return cls(**parts_from_raw(read_hpctoolkit_latest(
            dirname, parallel_profiles_mode=parallel_profiles_mode, metric_names=metric_names,
            profile_ranks=profile_ranks, label_function_nodes=label_function_nodes,
            max_depth=max_depth,
            min_percentage_of_application_time=min_percentage_of_application_time,
            progress=progress), consume=True))

    # ---- reader constructors: Caliper (issue 5) ----
    @classmethod
    def from_caliper(cls, filename_or_stream: Any, query: Optional[str] = None,
                     node_ordering: bool = True, no_path: str = "keep") -> Any:
        """Read Caliper output: json-split, or a ``.cali`` file (Hatchet's name).

        Parameters
        ----------
        filename_or_stream : path-like, list of path-likes, or file-like
            A json-split file, a ``.cali`` file, a directory or list of
            per-rank ``.cali`` files, or an open stream (text or binary) of
            either format (recognised from its first bytes).
        query : str, optional
            A CalQL query: the ``.cali`` file is run through Caliper's
            ``cali-query -q QUERY`` (which must be installed, and must write
            json-split) instead of being decoded directly.
        node_ordering : bool
            Order siblings by Caliper's node order (``Node order``) when the
            file records one; otherwise siblings are ordered by frame.
        no_path : {"keep", "drop"}
            Records with no call path (time outside every annotated region):
            ``"keep"`` puts those holding a metric value under a ``<no path>``
            root; ``"drop"`` leaves them out, as Hatchet does.

        Returns
        -------
        GraphFrame

        See Also
        --------
        graphframe_readers.caliper.read_caliper_any, graphframe_readers.caliper.jsonsplit.reader.read_caliper_json
            The readers, and ``docs/readers/caliper.md`` for the layout.

        Examples
        --------
        >>> import io, json
        >>> doc = {"data": [[0, 2.0], [1, 1.0]], "columns": ["path", "sum#time.duration"],
        ...        "column_metadata": [{"is_value": False}, {"is_value": True}],
        ...        "nodes": [{"label": "main", "column": "path"},
        ...                  {"label": "solve", "column": "path", "parent": 0}]}
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_caliper(io.StringIO(json.dumps(doc))).dataframe["time"].tolist()
        [2.0, 1.0]
        """
        from graphframe_readers.caliper import read_caliper_any  # on first use: fast start
        return cls.from_raw(read_caliper_any(filename_or_stream, query,
                                             node_ordering=node_ordering, no_path=no_path))

    @classmethod
    def from_caliperreader(cls, filename_or_caliperreader: Any, native: bool = False,
                           string_attributes: Union[str, Sequence[str], None] = (),
                           node_ordering: bool = True, no_path: str = "keep",
                           progress: Any = None) -> Any:
        """Read ``.cali`` data: a file, per-rank files, a stream or a CaliperReader.

        Parameters
        ----------
        filename_or_caliperreader : path-like, list of path-likes, file-like or CaliperReader
            A ``.cali`` file; a directory or list of per-rank files (one
            profile with a ``rank`` level; a rank in two files is an error);
            an open stream; or a ``caliperreader.CaliperReader`` that has read
            a file.
        native : bool
            Name metric columns by Caliper's attribute names
            (``min#inclusive#sum#time.duration``) instead of their aliases.
        string_attributes : str or sequence of str, optional
            Text attributes to keep as columns (numbers are always kept).
        node_ordering : bool
            Order siblings by Caliper's node order when the file records it.
        no_path : {"keep", "drop"}
            Records with no call path: under a ``<no path>`` root when they
            hold a metric value (``"keep"``), or left out as in Hatchet
            (``"drop"``).
        progress : bool or callable, optional
            ``True`` draws a progress bar on stderr as the files are decoded;
            a callable receives ``(done, total, what)``.

        Returns
        -------
        GraphFrame

        See Also
        --------
        graphframe_readers.caliper.read_caliper : the reader, and ``docs/readers/caliper.md``.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p.cali")
        >>> with open(path, "w") as f:
        ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
        ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
        ...                 "__rec=node,id=14,attr=10,data=65,parent=5\\n"
        ...                 "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
        ...                 "__rec=node,id=16,attr=13,data=main\\n"
        ...                 "__rec=ctx,ref=16,attr=15,data=1.5\\n")
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_caliperreader(path)
        >>> gf.dataframe["time"].tolist(), gf.dataframe["name"].tolist()
        ([1.5], ['main'])
        >>> with open(path) as stream:  # streams read too
        ...     GraphFrame.from_caliperreader(stream).dataframe["time"].tolist()
        [1.5]
        """
        from graphframe_readers.caliper import read_caliper  # on first use: fast start
        return cls.from_raw(read_caliper(filename_or_caliperreader, native=native,
                                         string_attributes=string_attributes or (),
                                         node_ordering=node_ordering, no_path=no_path,
                                         progress=progress))

    @classmethod
    def from_timeseries(cls, filename_or_caliperreader: Any,
                        level: str = "loop.start_iteration",  # graphframe_readers.caliper.timeseries.LEVEL
                        native: bool = False,
                        string_attributes: Union[str, Sequence[str], None] = (),
                        node_ordering: bool = True, no_path: str = "keep") -> List[Any]:
        """Read a Caliper timeseries ``.cali`` file: one GraphFrame per iteration block.

        A new block starts where the records' ``level`` value changes (Hatchet's
        rule); every block holds every node of the file, and all GraphFrames
        share one Graph object when their graphs are equal (always, unless
        Caliper's node order differs between blocks).

        Parameters
        ----------
        filename_or_caliperreader : path-like, file-like or CaliperReader
            As for :meth:`from_caliperreader`.
        level : str
            The record attribute that numbers the blocks.
        native, string_attributes, node_ordering, no_path
            As for :meth:`from_caliperreader`.

        Returns
        -------
        list of GraphFrame
            In file order.

        Raises
        ------
        ArgumentError
            No record has ``level``.

        See Also
        --------
        graphframe_readers.caliper.timeseries : the splitting rule and the differences
            from Hatchet (a block's records all count; Hatchet keeps the first
            record of each node).

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "ts.cali")
        >>> with open(path, "w") as f:
        ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
        ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
        ...                 "__rec=node,id=14,attr=10,data=2113,parent=5\\n"
        ...                 "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
        ...                 "__rec=node,id=18,attr=8,data=loop.start_iteration,parent=14\\n"
        ...                 "__rec=node,id=16,attr=13,data=main\\n"
        ...                 "__rec=ctx,ref=16,attr=15=18,data=1.5=0\\n"
        ...                 "__rec=ctx,ref=16,attr=15=18,data=4.0=2\\n")
        >>> from graphframe import GraphFrame
        >>> gfs = GraphFrame.from_timeseries(path)
        >>> [gf.dataframe["time"].tolist() for gf in gfs], gfs[0].graph is gfs[1].graph
        ([[1.5], [4.0]], True)
        """
        # on first use: fast start
        from graphframe_readers.caliper.timeseries import read_caliper_timeseries
        raws = read_caliper_timeseries(filename_or_caliperreader, level, native=native,
                                       string_attributes=string_attributes or (),
                                       node_ordering=node_ordering, no_path=no_path)
        out: List[Any] = []
        for raw in raws:
            parts = parts_from_raw(raw, consume=True)
            if out and parts["graph"] == out[0].graph:
                parts["graph"] = out[0].graph
            out.append(cls(**parts))
        return out

    # ---- reader constructors: DOT, cProfile, pyinstrument, TAU, timemory (issue 6) ----
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
        0     main       100.0  40.0    NaN      1
        1     work        60.0  60.0    3.0      2
        >>> gf.dataframe["caller_calls"].tolist()  # work: 3 calls from DOT node "1"
        [(), (('1', 3),)]
        """
        from graphframe_readers.dot import read_dot  # on first use: fast start
        return cls.from_raw(read_dot(filename))

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

    @classmethod
    def from_pyinstrument(cls, filename: Any) -> Any:
        """Read pyinstrument JSON: ``pyinstrument -r json`` or a saved session.

        Parameters
        ----------
        filename : str or path-like
            A rendered tree (``root_frame``) or a session (``-r session``,
            ``.pyisession``: ``frame_records``), pyinstrument 3 to 5.

        Returns
        -------
        GraphFrame
            A call tree: ``time`` (exclusive seconds), ``time (inc)``, source
            location columns. No depth limit. See
            ``docs/readers/pyinstrument.md``.

        Examples
        --------
        >>> import json, os, tempfile
        >>> frames = ["main\\x00app.py\\x001", "work\\x00app.py\\x009"]
        >>> session = {"duration": 1.0, "start_call_stack": [frames[0]],
        ...            "frame_records": [[frames, 0.75], [frames[:1], 0.25]]}
        >>> p = os.path.join(tempfile.mkdtemp(), "run.pyisession")
        >>> with open(p, "w") as f:
        ...     json.dump(session, f)
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_pyinstrument(p).dataframe[["name", "time", "time (inc)"]]
              name  time  time (inc)
        node
        0     main  0.25        1.00
        1     work  0.75        0.75
        """
        from graphframe_readers.pyinstrument import read_pyinstrument  # on first use: fast start
        return cls.from_raw(read_pyinstrument(filename))

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
        node rank
        0    0       main   2.0         5.0
             1       main   2.0         6.0
        1    0      solve   3.0         3.0
             1      solve   4.0         4.0
        """
        from graphframe_readers.tau import read_tau  # on first use: fast start
        return cls.from_raw(read_tau(dirname))

    @classmethod
    def from_timemory(cls, input: Any, select: Optional[Sequence[str]] = None) -> Any:
        """Read timemory tree JSON.

        Parameters
        ----------
        input : str, path-like, dict or text stream
            A ``*.tree.json`` file, a directory of them (components merged),
            a document already loaded, or an open text stream.
        select : sequence of str, optional
            Keep only these components (e.g. ``["wall_clock"]``).

        Returns
        -------
        GraphFrame
            One node per call path of regions; ``sum.*`` statistics are the
            metrics (others are attributes). See ``docs/readers/timemory.md``.

        Examples
        --------
        >>> node = lambda p, s, kids: {"node": {"hash": 1, "prefix": p, "tid": [0], "pid": [7],
        ...     "inclusive": {"entry": {"laps": 1}, "stats": {"sum": s}},
        ...     "exclusive": {"entry": {"laps": 1}, "stats": {"sum": s / 2}}}, "children": kids}
        >>> doc = {"timemory": {"wall_clock": {"graph": [[node("main", 2.0, [node("io", 1.0, [])])]]}}}
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_timemory(doc).dataframe[["name", "sum.wall_clock", "sum.wall_clock (inc)"]]
              name  sum.wall_clock  sum.wall_clock (inc)
        node
        0     main             1.0                   2.0
        1       io             0.5                   1.0
        """
        # on first use: fast start
        from graphframe_readers.timemory import parse_timemory, read_timemory
        chosen = None if select is None else [str(s).lower() for s in select]
        if isinstance(input, dict):
            return cls.from_raw(parse_timemory(input, "<dict>", select=chosen))
        return cls.from_raw(read_timemory(input, select=chosen))
