"""Hatchet's names for reading, from one table: reader classes and ``from_*`` constructors.

Each row of :data:`HATCHET_NAMES` says, for one of Hatchet's reader classes: the
graphframe format it reads, the class name, its module under ``hatchet.readers`` (the
same path under ``graphframe.readers``), the ``GraphFrame`` constructor it calls and the
argument names (Hatchet's, with their defaults). From it:

* :func:`reader_class` makes the reader class (``CaliperReader(path).read()``):
  ``graphframe.readers`` builds every class and module of Hatchet's paths with it;
* :func:`reader_constructor` makes the constructor of each *plain* row (one input
  plus the reader's keyword options: ``from_tau``, ``from_hpctoolkit``...): it reads
  the input with the registered format's reader and builds the GraphFrame;
  :class:`ReaderConstructors` (which GraphFrame inherits) holds those and the
  constructors with logic of their own (``from_caliper``'s streams and CalQL query,
  ``from_caliperreader``'s reader objects, ``from_timeseries``, ``from_timemory``'s
  documents, ``from_spotdb``).

Adding a Hatchet name is one row (and, for a plain constructor, its docstring).

Examples
--------
>>> [row.reader_class for row in HATCHET_NAMES][:3]
['CaliperReader', 'CaliperNativeReader', 'HPCToolkitReader']
>>> from graphframe import GraphFrame
>>> import inspect
>>> str(inspect.signature(GraphFrame.from_perfflowaspect))
'(filename: Any, scan_cpu_mem: bool = False) -> Any'
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .._lazy import lazy_function

parts_from_raw = lazy_function("graphframe.io.build", "parts_from_raw")
format_info = lazy_function("graphframe_readers.registry", "format_info")

#: Marks an argument without a default.
REQUIRED = inspect.Parameter.empty


@dataclass(frozen=True)
class HatchetName:
    """One of Hatchet's reader classes and the constructor behind it (see the module docs).

    Parameters
    ----------
    format : str or None
        The graphframe format read (None: the input is data, not a file).
    reader_class : str
        Hatchet's class name ("" for graphframe's own ``from_<format>`` names of
        formats Hatchet has no reader of).
    module : str
        Its module under ``hatchet.readers`` / ``graphframe.readers``.
    constructor : str
        The ``GraphFrame`` class method the class's ``read()`` calls.
    arguments : tuple of (name, default)
        The class's arguments, Hatchet's names, in order (:data:`REQUIRED`: none).
    keywords : tuple of (name, default)
        The constructor's keyword-only options (plain constructors; the
        reader's keywords of the same names).
    options : {"pass", "ignore", ""}
        What the class does with other keyword arguments: pass them to the
        constructor, accept and ignore them (as Hatchet does), or refuse them.
    methods : tuple of (name, constructor, arguments)
        Further reading methods of the class (``read_timeseries``).
    plain : bool
        The constructor is generated (:func:`reader_constructor`).
    doc : str
        The plain constructor's docstring.
    adapt : callable, optional
        Turns the class's argument values into the constructor's (``query=""``
        is no query).
    input_name : str
        The constructor's name for the input, where it differs from the class's.
    reader_options : tuple of (name, value)
        Reader options the constructor always passes (Hatchet's naming of
        HPCToolkit's current layout: ``names="hatchet"``).
    """

    format: Optional[str]
    reader_class: str
    module: str
    constructor: str
    arguments: Tuple[Tuple[str, Any], ...]
    keywords: Tuple[Tuple[str, Any], ...] = ()
    options: str = ""
    methods: Tuple[Tuple[str, str, Tuple[Tuple[str, Any], ...]], ...] = ()
    plain: bool = False
    doc: str = ""
    adapt: Optional[Callable[[Dict[str, Any]], Dict[str, Any]]] = None
    input_name: str = ""
    reader_options: Tuple[Tuple[str, Any], ...] = ()

    @property
    def constructor_arguments(self) -> Tuple[Tuple[str, Any], ...]:
        """The constructor's positional arguments (the input named ``input_name`` when
        Hatchet's constructor names it differently from the class)."""
        if not self.input_name:
            return self.arguments
        return ((self.input_name, REQUIRED),) + self.arguments[1:]


_TAU_DOC = '''Read a TAU profile directory (``profile.<node>.<context>.<thread>`` files).

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
        '''

_CPROFILE_DOC = '''Read a pstats file written by Python 3's cProfile or profile module.

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
        '''

_PYINSTRUMENT_DOC = '''Read pyinstrument JSON: ``pyinstrument -r json`` or a saved session.

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
        {'name': 'main', 'type': 'function'}  main  0.25        1.00
        {'name': 'work', 'type': 'function'}  work  0.75        0.75
        '''

_DOT_DOC = '''Read a DOT call graph written by gprof2dot (gprof, callgrind, perf, pstats...).

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
        '''

_PERFFLOWASPECT_DOC = '''Read a PerfFlowAspect trace: one node per call, as Hatchet does.

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
        >>> gf.dataframe[["name", "ts", "dur", "pid", "ph"]].reset_index(drop=True)
          name       ts      dur  pid ph
        0  foo  0.00001  0.00008    7  X
        1  bar  0.00002  0.00003    7  X
        '''

_HPCTOOLKIT_DOC = '''Read an HPCToolkit database of the old layout (experiment.xml + metric files).

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
        >>> one = GraphFrame.from_hpctoolkit(db, ranks=[1]).dataframe
        >>> one.index.get_level_values("rank").unique().tolist()
        [1]
        '''

_HPCTOOLKIT_LATEST_DOC = '''Read an HPCToolkit database of the current layout (meta.db + profile.db).

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

            Nodes are named as Hatchet names them (``function: main``, ``loop
            /src/a.c:5``, ``line /src/a.c:6``); ``graphframe.read`` names them as
            HPCToolkit's old layout does (``main``, ``Loop@a.c:5``, ``a.c:6``; the
            reader's ``names`` option), so that both layouts of a program match.
        max_depth : int, optional
            Keep nodes at most this deep (entry points are depth 0), as Hatchet.
        min_percentage_of_application_time : float, optional
            Keep nodes whose summary inclusive time is at least this
            percentage of the main thread's, with their ancestors (Hatchet's
            meaning); entry points are always kept.
        min_percentage_of_parent_time : float, optional
            Keep nodes whose summary inclusive time is at least this
            percentage of their parent's (Hatchet 2024.1.3's option).
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
        >>> gf.dataframe[["name", "type", "time (inc)", "time"]].reset_index(drop=True)
                     name      type  time (inc)     time
        0     main thread     entry     12320.0      0.0
        1  function: main  function     12320.0  12320.0
        >>> gf = GraphFrame.from_hpctoolkit_latest(db, parallel_profiles_mode=True,
        ...                                        profile_ranks=[1])
        >>> gf.dataframe.loc[1, "time (inc)"]
        rank  thread
        1     0          605.0
              1         6105.0
        Name: time (inc), dtype: float64
        '''


_CALLGRIND_DOC = '''Read a callgrind or cachegrind profile (``callgrind.out.PID``).

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
        '''

_GPROF_DOC = '''Read GNU gprof's text output (flat profile and call graph, ``gprof -b``).

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
        '''

_PERF_DOC = '''Read ``perf script`` output (Linux perf samples, ``perf record -g``).

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
        '''


def _query_none(args: Dict[str, Any]) -> Dict[str, Any]:
    return {**args, "query": args["query"] or None}  # Hatchet's "" means no query


_CALI_ARGS = (("filename_or_caliperreader", REQUIRED), ("native", False),
              ("string_attributes", ()))

#: Hatchet's reader classes and constructors (see the module docs).
HATCHET_NAMES: Tuple[HatchetName, ...] = (
    HatchetName("caliper", "CaliperReader", "caliper_reader", "from_caliper",
                (("filename_or_stream", REQUIRED), ("query", "")), adapt=_query_none),
    HatchetName("caliper", "CaliperNativeReader", "caliper_native_reader",
                "from_caliperreader", _CALI_ARGS,
                methods=(("read_timeseries", "from_timeseries",
                          (("level", "loop.start_iteration"),)),)),
    HatchetName("hpctoolkit", "HPCToolkitReader", "hpctoolkit_reader", "from_hpctoolkit",
                (("dir_name", REQUIRED),), plain=True, doc=_HPCTOOLKIT_DOC, input_name="dirname",
                keywords=(("metrics", None), ("ranks", None), ("summary_only", False),
                          ("progress", None))),
    HatchetName("hpctoolkit-latest", "HPCToolkitReaderLatest", "hpctoolkit_reader_latest",
                "from_hpctoolkit_latest", (("dir_path", REQUIRED),), options="pass",
                plain=True, doc=_HPCTOOLKIT_LATEST_DOC, input_name="dirname",
                reader_options=(("names", "hatchet"),),
                keywords=(("parallel_profiles_mode", False), ("metric_names", None),
                          ("profile_ranks", None), ("label_function_nodes", True),
                          ("max_depth", None), ("min_percentage_of_application_time", None),
                          ("min_percentage_of_parent_time", None), ("progress", None))),
    HatchetName("gprof-dot", "GprofDotReader", "gprof_dot_reader", "from_gprof_dot",
                (("filename", REQUIRED),), plain=True, doc=_DOT_DOC),
    HatchetName("cprofile", "CProfileReader", "cprofile_reader", "from_cprofile",
                (("filename", REQUIRED),), plain=True, doc=_CPROFILE_DOC),
    HatchetName("pyinstrument", "PyinstrumentReader", "pyinstrument_reader",
                "from_pyinstrument", (("filename", REQUIRED),), plain=True,
                doc=_PYINSTRUMENT_DOC),
    HatchetName("tau", "TAUReader", "tau_reader", "from_tau", (("dirname", REQUIRED),),
                plain=True, doc=_TAU_DOC),
    HatchetName("timemory", "TimemoryReader", "timemory_reader", "from_timemory",
                (("input", REQUIRED), ("select", None)), options="ignore"),
    HatchetName("perfflowaspect", "PerfFlowAspectReader", "perfflowaspect_reader",
                "from_perfflowaspect", (("filename", REQUIRED), ("scan_cpu_mem", False)),
                plain=True, doc=_PERFFLOWASPECT_DOC),
    # graphframe's own names in Hatchet's style (Hatchet reads these outputs only after
    # gprof2dot; no reader class): raw profiler outputs, issue 33
    HatchetName("callgrind", "", "", "from_callgrind",
                (("filename", REQUIRED), ("merge_by_name", False)), plain=True,
                doc=_CALLGRIND_DOC),
    HatchetName("gprof", "", "", "from_gprof", (("filename", REQUIRED),), plain=True,
                doc=_GPROF_DOC),
    HatchetName("perf-script", "", "", "from_perf_script",
                (("filename", REQUIRED), ("per_thread", False)), plain=True, doc=_PERF_DOC),
    HatchetName("literal", "LiteralReader", "literal_reader", "from_literal",
                (("graph_dict", REQUIRED),)),
    HatchetName("hatchet-json", "JsonReader", "json_reader", "from_json",
                (("json_spec", REQUIRED),)),
)

#: Hatchet's reader modules whose classes carry logic of their own (not from the table).
OWN_MODULES = ("spotdb_reader",)


def _parameters(row: HatchetName, cls_arg: str, arguments: Tuple[Tuple[str, Any], ...]
                ) -> List[inspect.Parameter]:
    params = [inspect.Parameter(cls_arg, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 default=default, annotation=_annotation(default))
               for name, default in arguments]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                 annotation=_annotation(default))
               for name, default in row.keywords]
    return params


def _annotation(default: Any) -> Any:
    if default is REQUIRED or default is None:
        return Any
    return type(default)


def reader_constructor(row: HatchetName) -> classmethod:
    """The ``GraphFrame.<row.constructor>`` class method of a plain row.

    It binds its arguments as Hatchet's signature does, reads the input with the
    format's reader (:func:`graphframe_readers.format_info`, loaded on first use)
    with the other arguments as the reader's keywords, and builds the GraphFrame.
    """
    params = _parameters(row, "cls", row.constructor_arguments)
    signature = inspect.Signature(params, return_annotation=Any)
    first = row.constructor_arguments[0][0]

    def constructor(cls: Any, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(cls, *args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        values.pop("cls")
        source = values.pop(first)
        raw = format_info(row.format).read(source, **values, **dict(row.reader_options))
        return cls(**parts_from_raw(raw, consume=True))

    constructor.__name__ = constructor.__qualname__ = row.constructor
    constructor.__doc__ = row.doc
    constructor.__signature__ = signature  # type: ignore[attr-defined]
    return classmethod(constructor)


def reader_class(row: HatchetName, graphframe_class: Any, bases: Tuple[type, ...] = ()) -> type:
    """Hatchet's reader class of ``row``: ``Class(*arguments).read()`` calls the constructor.

    ``bases`` add methods of Hatchet's class besides ``read()``
    (:mod:`graphframe.readers.methods`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> TAUReader = reader_class(HATCHET_NAMES[7], GraphFrame)
    >>> reader = TAUReader("tau-profiles")
    >>> reader.dirname, TAUReader.__module__
    ('tau-profiles', 'graphframe.readers.tau_reader')
    """
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += _parameters(row, "self", row.arguments)[1:len(row.arguments) + 1]
    if row.options:
        params.append(inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD))
    signature = inspect.Signature(params, return_annotation=None)
    names = [name for name, _ in row.arguments]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name in names:
            setattr(self, name, bound.arguments[name])
        self.options = dict(bound.arguments.get("options", {})) if row.options == "pass" \
            else {}

    def read(self: Any, **_ignored: Any) -> Any:
        """The GraphFrame(s) of the input (Hatchet's ``read``)."""
        values = {name: getattr(self, name) for name in names}
        if row.adapt is not None:
            values = row.adapt(values)
        return getattr(graphframe_class, row.constructor)(*values.values(), **self.options)

    __init__.__signature__ = signature  # type: ignore[attr-defined]
    body: Dict[str, Any] = {"__init__": __init__, "read": read,
                            "__module__": f"graphframe.readers.{row.module}",
                            "__doc__": _class_doc(row)}
    read.__doc__ = f"The GraphFrame (see :meth:`GraphFrame.{row.constructor}`)."
    for method, constructor, extra in row.methods:  # noqa: B007
        body[method] = _method(row, names, method, constructor, extra, graphframe_class)
    return type(row.reader_class, tuple(bases), body)


def _method(row: HatchetName, names: Sequence[str], name: str, constructor: str,
            extra: Tuple[Tuple[str, Any], ...], graphframe_class: Any) -> Callable[..., Any]:
    def method(self: Any, *args: Any) -> Any:
        values = [getattr(self, name) for name in names]
        given = list(args) + [d for _, d in extra[len(args):]]
        return getattr(graphframe_class, constructor)(values[0], *given, *values[1:])

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Hatchet's method: :meth:`GraphFrame.{constructor}` of the input."
    return method


def _class_doc(row: HatchetName) -> str:
    args = ", ".join(name for name, _ in row.arguments)
    return (f"Hatchet's ``hatchet.readers.{row.module}.{row.reader_class}({args})``: "
            f"``read()`` returns :meth:`GraphFrame.{row.constructor}` of its arguments "
            "(same result, same errors).")


def plain_rows() -> List[HatchetName]:
    """The rows whose constructor is generated."""
    return [row for row in HATCHET_NAMES if row.plain]
