"""PerfFlowAspect traces (Chrome trace-event JSON) and SpotDB runs: ``from_perfflowaspect``,
``from_spotdb``.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence


class PerfFlowAspectConstructors:
    """``from_perfflowaspect`` and ``from_spotdb`` for GraphFrame."""

    @classmethod
    def from_perfflowaspect(cls, filename: Any, scan_cpu_mem: bool = False) -> Any:
        """Read a PerfFlowAspect trace: one node per call, as Hatchet does.

        Parameters
        ----------
        filename : str or path-like
            A ``.pfw`` trace: Chrome trace events, compact (``X``) or verbose
            (``B``/``E``), as a bare array (also unterminated, as PerfFlowAspect
            leaves it while the program runs) or a ``{"traceEvents": [...]}`` object.
        scan_cpu_mem : bool
            Add ``usage_memory`` and ``usage_cpu`` (the ``C`` events at each call's
            start) to the frames and the dataframe.

        Returns
        -------
        GraphFrame
            Frames ``{name, type, ts, dur}`` (seconds), columns ``name``, ``ts``,
            ``dur`` (inclusive seconds, the default metric), ``pid``, ``tid``,
            ``ph``. Each call is nested in the call enclosing it on its own process
            and thread. See ``docs/readers/traces.md`` ("PerfFlowAspect").

        Examples
        --------
        >>> import os, tempfile
        >>> from graphframe import GraphFrame
        >>> p = os.path.join(tempfile.mkdtemp(), "perfflow.pfw")
        >>> _ = open(p, "w").write(
        ...     '[{"name": "bar", "pid": 7, "tid": 7, "ts": 20, "dur": 30, "ph": "X"},\\n'
        ...     '{"name": "foo", "pid": 7, "tid": 7, "ts": 10, "dur": 80, "ph": "X"},\\n')
        >>> gf = GraphFrame.from_perfflowaspect(p)
        >>> gf.dataframe[["name", "ts", "dur", "pid", "ph"]]
                                                           name       ts  ...  pid ph
        node                                                              ...
        {'dur': '7.999999999999999e-05', 'name': 'foo',...  foo  0.00001  ...    7  X
        {'dur': '2.9999999999999997e-05', 'name': 'bar'...  bar  0.00002  ...    7  X
        <BLANKLINE>
        [2 rows x 5 columns]
        """
        # on first use (fast start): the Chrome decoder and the events table of graphframe.traces
        from graphframe_readers.traces import decode
        from graphframe_readers.traces.calls import call_tree_profile
        from graphframe_readers.traces.table import TableBuilder
        table = TableBuilder()
        decode(filename, table, "chrome")
        return cls.from_raw(call_tree_profile(table.result(), filename, counters=scan_cpu_mem))

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
