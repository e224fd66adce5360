"""Hatchet's reader-class methods besides ``read()``, for code that calls them directly.

Hatchet's reader classes expose steps of their reading as methods, and Hatchet's
tests and some tools call them: ``CaliperReader.read_json_sections()`` (the
json-split document's sections) and ``create_graph()``, ``HPCToolkitReader.fill_tables()`` (the id ->
name tables of ``experiment.xml``) and ``GprofDotReader.create_graph()`` (the
roots of the call graph). Each class here adds one such method to the reader
class of :mod:`graphframe.readers` (see :data:`READER_METHODS`); each reads its
input with graphframe's decoders, sets the attributes Hatchet's method sets,
and reports bad input as a :class:`~graphframe_readers.errors.ReadError`. They
are read-only: ``read()`` does not use what they set.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from graphframe_readers.errors import ArgumentError, ReadError

#: json-split's sections (graphframe_readers.caliper.jsonsplit.reader.SECTIONS; the
#: decoders load with the first call of a method, so that importing the classes is fast)
SECTIONS = ("data", "columns", "column_metadata", "nodes")
#: the hierarchy column preferred to ``path`` (graphframe_readers.caliper.names)
CALLPATH = "source.function#callpath.address"


class CaliperJsonSections:
    """``CaliperReader.read_json_sections()`` and ``CaliperReader.create_graph()``."""

    def read_json_sections(self) -> None:
        """Read the json-split document's sections into Hatchet's attributes.

        Sets ``json_data`` (the records that have a call path: one list of
        cells per record; those outside every annotated region are left out, as
        ``read()`` leaves them out), ``json_cols`` (the column names),
        ``json_cols_mdata`` (one metadata dict per column), ``json_nodes`` (the
        node records), ``path_col_name`` (the hierarchy column:
        ``source.function#callpath.address`` when present, else ``path``) and
        ``metadata`` (every other top-level key: the run's metadata).

        Raises
        ------
        ReadError
            The input is not a json-split document (not JSON, not an object,
            or a section missing or of the wrong type).
        ArgumentError
            The reader was given a CalQL ``query`` (that runs ``cali-query``
            on a ``.cali`` file; ``read()`` does it).

        Examples
        --------
        >>> import io
        >>> from graphframe.readers.caliper_reader import CaliperReader
        >>> doc = (b'{"data": [[0, 2.5], [null, 0.5]], "columns": ["path", "time"], '
        ...        b'"column_metadata": [{"is_value": false}, {"is_value": true}], '
        ...        b'"nodes": [{"label": "main", "column": "path"}], "mpi.world.size": 1}')
        >>> reader = CaliperReader(io.BytesIO(doc))
        >>> reader.read_json_sections()
        >>> reader.json_data, reader.json_cols, reader.metadata
        ([[0, 2.5]], ['path', 'time'], {'mpi.world.size': 1})
        """
        from graphframe_readers.caliper.jsonsplit.cells import short
        from graphframe_readers.common.jsonfile import loads_json
        from graphframe_readers.common.source import read_source

        if getattr(self, "query", ""):
            raise ArgumentError("read_json_sections() reads a json-split document; a CalQL "
                                "query runs cali-query on a .cali file: call read()")
        data, source = read_source(self.filename_or_stream)
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise ReadError(source, "the file is not UTF-8 text", position=f"byte {exc.start}",
                                expected="a json-split document") from exc
        doc = loads_json(data, source)
        if not isinstance(doc, dict):
            raise ReadError(source, f"the document is a JSON {type(doc).__name__}",
                            expected=f"a json-split object with {', '.join(SECTIONS)}")
        for section in SECTIONS:
            if not isinstance(doc.get(section), list):
                found = "missing" if section not in doc else f"a {type(doc[section]).__name__}"
                raise ReadError(source, f"section {section!r} is {found}",
                                expected=f"a json-split object whose {section!r} is a list")
        columns = doc["columns"]
        hierarchy = CALLPATH if CALLPATH in columns else "path"
        if hierarchy not in columns:
            raise ReadError(source, "no hierarchy column", position="columns",
                            expected=f"a {CALLPATH!r} or 'path' column")
        at = columns.index(hierarchy)
        for i, record in enumerate(doc["data"]):
            if not isinstance(record, list) or len(record) != len(columns):
                raise ReadError(source, f"record {i} is {short(record)}", position=f"data[{i}]",
                                expected=f"a list of {len(columns)} cells (one per column)")
        self.path_col_name: str = hierarchy
        # records outside every annotated region (no hierarchy entry) are left out, as read()
        self.json_data: List[Any] = [r for r in doc["data"] if r[at] is not None]
        self.json_cols: List[Any] = doc["columns"]
        self.json_cols_mdata: List[Any] = doc["column_metadata"]
        self.json_nodes: List[Any] = doc["nodes"]
        self.metadata: Dict[str, Any] = {k: v for k, v in doc.items() if k not in SECTIONS}


    def create_graph(self) -> List[Any]:
        """The roots of the call graph, and ``idx_to_label``: node index -> label of
        the json-split nodes of the hierarchy column (Hatchet's attribute).

        Reads the sections first (:meth:`read_json_sections`) unless that was done.

        Examples
        --------
        >>> import io
        >>> from graphframe.readers.caliper_reader import CaliperReader
        >>> doc = (b'{"data": [[1, 2.5]], "columns": ["path", "time"], '
        ...        b'"column_metadata": [{"is_value": false}, {"is_value": true}], '
        ...        b'"nodes": [{"label": "main", "column": "path"}, '
        ...        b'{"label": "solve", "column": "path", "parent": 0}]}')
        >>> reader = CaliperReader(io.BytesIO(doc))
        >>> [root.frame["name"] for root in reader.create_graph()], reader.idx_to_label
        (['main'], {0: 'main', 1: 'solve'})
        """
        if not hasattr(self, "json_nodes"):
            self.read_json_sections()
        column = self.path_col_name
        self.idx_to_label: Dict[int, Any] = {
            i: node.get("label") for i, node in enumerate(self.json_nodes)
            if isinstance(node, dict) and node.get("column") == column}
        stream = self.filename_or_stream
        if hasattr(stream, "seek"):  # read_json_sections read the stream: read it again
            stream.seek(0)
        return list(self.read().graph.roots)


class HPCToolkitTables:
    """``HPCToolkitReader.fill_tables()``."""

    def fill_tables(self) -> Tuple[Dict[str, str], Dict[str, str], Dict[str, str],
                                   Dict[str, str]]:
        """The id -> name tables of ``experiment.xml``, as Hatchet's attributes.

        Sets and returns ``load_modules`` (``LoadModuleTable``), ``src_files``
        (``FileTable``), ``procedure_names`` (``ProcedureTable``) and
        ``metric_names`` (``MetricDBTable``), each a dict from the XML ``i``
        attribute (a string) to the ``n`` attribute, in document order.

        Raises
        ------
        ReadError
            ``experiment.xml`` is missing or malformed (file, line, column).

        Examples
        --------
        >>> import os, tempfile
        >>> from graphframe.readers.hpctoolkit_reader import HPCToolkitReader
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, "experiment.xml"), "w") as fh:
        ...     _ = fh.write('<HPCToolkitExperiment><SecCallPathProfile><SecHeader>'
        ...                  '<LoadModuleTable><LoadModule i="1" n="/bin/app"/></LoadModuleTable>'
        ...                  '<FileTable><File i="2" n="app.c"/></FileTable>'
        ...                  '<ProcedureTable><Procedure i="3" n="main"/></ProcedureTable>'
        ...                  '</SecHeader><SecCallPathProfileData/></SecCallPathProfile>'
        ...                  '</HPCToolkitExperiment>')
        >>> reader = HPCToolkitReader(d)
        >>> _ = reader.fill_tables()
        >>> reader.load_modules, reader.src_files, reader.procedure_names
        ({'1': '/bin/app'}, {'2': 'app.c'}, {'3': 'main'})
        """
        from graphframe_readers.hpctoolkit.experiment.reader import read_tables

        tables = read_tables(self.dir_name)
        self.load_modules: Dict[str, str] = tables["LoadModule"]
        self.src_files: Dict[str, str] = tables["File"]
        self.procedure_names: Dict[str, str] = tables["Procedure"]
        self.metric_names: Dict[str, str] = tables["MetricDB"]
        return self.load_modules, self.src_files, self.procedure_names, self.metric_names


class GprofDotGraph:
    """``GprofDotReader.create_graph()``."""

    def create_graph(self) -> List[Any]:
        """The roots of the call graph the DOT file describes (Hatchet's return value).

        Nodes of a graph read from a file have Hatchet's read-only Node API
        (``frame``, ``children``, ``parents``...).

        Examples
        --------
        >>> import os, tempfile
        >>> from graphframe.readers.gprof_dot_reader import GprofDotReader
        >>> p = os.path.join(tempfile.mkdtemp(), "g.dot")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write('digraph {\\n 1 [label="main\\\\n100.00%\\\\n(40.00%)"];\\n'
        ...                 ' 1 -> 2 [label="60.00%\\\\n3×"];\\n'
        ...                 ' 2 [label="work\\\\n60.00%\\\\n(60.00%)\\\\n3×"];\\n}\\n')
        >>> [(r.frame["name"], [c.frame["name"] for c in r.children])
        ...  for r in GprofDotReader(p).create_graph()]
        [('main', ['work'])]
        """
        return list(self.read().graph.roots)


#: Hatchet reader class name -> the class whose methods it adds (see the module docs)
READER_METHODS: Dict[str, type] = {
    "CaliperReader": CaliperJsonSections,
    "HPCToolkitReader": HPCToolkitTables,
    "GprofDotReader": GprofDotGraph,
}
