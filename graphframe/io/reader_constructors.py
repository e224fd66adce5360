"""The constructors GraphFrame inherits: Hatchet's ``from_<format>`` names.

One class, :class:`ReaderConstructors`. The constructors that read one input with a
format's reader options (``from_hpctoolkit``, ``from_hpctoolkit_latest``,
``from_gprof_dot``, ``from_cprofile``, ``from_pyinstrument``, ``from_tau``,
``from_perfflowaspect``) are generated from the table of Hatchet's names
(:mod:`graphframe.io.hatchet_names`); the others have logic of their own and are
written here: ``from_caliper`` (json-split or ``.cali``, streams, a CalQL query),
``from_caliperreader`` (files, streams or CaliperReader objects), ``from_timeseries``
(one GraphFrame per iteration block), ``from_timemory`` (files or loaded documents) and
``from_spotdb`` (one GraphFrame per run). Every reader family is imported when its
constructor is first called, so ``import graphframe`` loads none of them.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

from .._lazy import lazy_function
from .hatchet_names import plain_rows, reader_constructor

parts_from_raw = lazy_function("graphframe.io.build", "parts_from_raw")


class ReaderConstructors:
    """Hatchet's ``from_<format>`` constructors for GraphFrame (see the module docs)."""

    @classmethod
    def from_caliper(cls, filename_or_stream: Any, query: Optional[str] = None,
                     node_ordering: bool = True, no_path: str = "drop") -> Any:
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
            ``"drop"`` (the default) leaves them out, as Hatchet and Thicket do,
            and puts their total per metric in ``metadata["unattributed"]``;
            ``"keep"`` puts those holding a metric value under a ``<no path>``
            root.

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
                           node_ordering: bool = True, no_path: str = "drop",
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
            Records with no call path: left out as in Hatchet and Thicket,
            their totals per metric in ``metadata["unattributed"]`` (``"drop"``,
            the default), or under a ``<no path>`` root when they hold a metric
            value (``"keep"``).
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
                        node_ordering: bool = True, no_path: str = "drop") -> List[Any]:
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
        {'name': 'main', 'type': 'region'}  main             1.0                   2.0
        {'name': 'io', 'type': 'region'}      io             0.5                   1.0
        """
        # on first use: fast start
        from graphframe_readers.timemory import parse_timemory, read_timemory
        chosen = None if select is None else [str(s).lower() for s in select]
        if isinstance(input, dict):
            return cls.from_raw(parse_timemory(input, "<dict>", select=chosen))
        return cls.from_raw(read_timemory(input, select=chosen))

    @classmethod
    def from_spotdb(cls, db_key: Any, list_of_ids: Optional[Sequence[Any]] = None) -> List[Any]:
        """Read runs from a SpotDB database: one GraphFrame per run, as Hatchet does.

        Parameters
        ----------
        db_key : str or SpotDB object
            A SpotDB locator (a directory of ``.cali`` files, a ``.sqlite`` file or
            a SQL URL), opened with the optional ``spotdb`` package, or an object
            with SpotDB's methods (``get_all_run_ids``, ``get_regionprofiles``,
            ``get_global_data``, ``get_metric_attribute_metadata``).
        list_of_ids : sequence, optional
            The runs to read (default: every run).

        Returns
        -------
        list of GraphFrame
            One per requested run that has a region profile. See
            ``docs/readers/spotdb.md``.

        Raises
        ------
        ReadError
            ``db_key`` is a locator and the ``spotdb`` package is not installed
            (it is not on PyPI), or the data is malformed.

        Examples
        --------
        >>> class Db:
        ...     def get_all_run_ids(self): return ["r1"]
        ...     def get_regionprofiles(self, runs):
        ...         return {"r1": {"main": {"sum#inclusive#sum#time.duration": 5.0},
        ...                        "main/solve": {"sum#inclusive#sum#time.duration": 3.0}}}
        ...     def get_global_data(self, runs): return {"r1": {"cluster": "quartz"}}
        ...     def get_metric_attribute_metadata(self):
        ...         return {"sum#inclusive#sum#time.duration":
        ...                 {"alias": "Total time", "type": "double"}}
        >>> from graphframe import GraphFrame
        >>> [gf] = GraphFrame.from_spotdb(Db())
        >>> gf.dataframe
                                            name  Total time (inc)
        node
        {'name': 'main', 'type': 'None'}    main               5.0
        {'name': 'solve', 'type': 'None'}  solve               3.0
        >>> gf.default_metric, gf.metadata["cluster"]
        ('Total time (inc)', 'quartz')
        """
        from graphframe_readers.spotdb import read_spotdb  # on first use: fast start
        return [cls.from_raw(raw) for raw in read_spotdb(db_key, list_of_ids)]


for _row in plain_rows():
    setattr(ReaderConstructors, _row.constructor, reader_constructor(_row))
del _row
