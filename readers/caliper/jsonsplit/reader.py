"""Caliper json-split (``cali-query -q "... format json-split"``, ``output.format=json-split``).

::

    {"data": [[0, 0, 0.0021, 0], ...],            # one row per Caliper record
     "columns": ["Node order", "mpi.rank", "time", "path"],
     "column_metadata": [{"is_value": true, "attribute.alias": "Node order"}, ...],
     "nodes": [{"label": "main", "column": "path"},
               {"label": "solve", "column": "path", "parent": 0}],
     "cali.caliper.version": "2.15.0", ...}        # any other key: run metadata

Value columns hold numbers (or text for string attributes); the other columns
hold indices into ``nodes``. The hierarchy is ``source.function#callpath.address``
when present, else ``path``; rows without a hierarchy entry (time outside every
annotated region) are left out as in Hatchet and Thicket (``no_path="drop"``,
the default; their totals per metric go to ``metadata["unattributed"]``), or go
under a ``<no path>`` root when they hold a metric value (``"keep"``).
"""

from __future__ import annotations

import mmap
import os
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from ...common.jsonfile import loads_json
from ...common.source import is_stream, read_source
from ...errors import ReadError
from ...profile import RawProfile
from ...progress import Progress, ProgressArg
from ...registry import FormatInfo, looks_like_json
from ..names import (CALLPATH_ATTRIBUTE, LABEL, NO_PATH, ORDER, RANK, RENAMES,
                     SOURCELOC_ATTRIBUTE, UNATTRIBUTED, ColumnSpec, check_no_path, classify,
                     parse_metadata)
from ..records import Hierarchy, RecordTable, forest_depth, repeated, to_raw_profile
from .cells import (node_refs, order, pathless_totals, pathless_with_metrics, ranks,
                    short as _short, values as value_column)
from .fast import decode_fast, explicit_parents
from .sniff import looks_like_json_split

INT = np.int64
SECTIONS = ("data", "columns", "column_metadata", "nodes")


def read_caliper_json(path: Any, *, node_ordering: bool = True, no_path: str = "drop",
                      progress: ProgressArg = None) -> RawProfile:
    """Read a Caliper json-split file (a path or an open text/binary stream).

    Parameters
    ----------
    path : str, path-like or file-like
        The file, or a stream whose ``read()`` returns the JSON text.
    node_ordering : bool
        Order siblings by the file's ``Node order`` column when it has one
        (Caliper's first-seen order); otherwise, and when False, siblings are
        ordered by frame like every other reader.
    no_path : {"keep", "drop"}
        Rows with no call path: ``"drop"`` (the default) leaves them out, as
        Hatchet and Thicket do, with their totals per metric in
        ``metadata["unattributed"]``; ``"keep"`` puts those that hold a metric
        value under a ``<no path>`` root node.
    progress : bool, str or callable, optional
        Report the bytes of the data and node lists as they are decoded
        (see :mod:`graphframe_readers.progress`).

    Examples
    --------
    >>> import io, json
    >>> doc = {"data": [[0, 2.0, 0], [1, 1.0, 1]],
    ...        "columns": ["Node order", "time", "path"],
    ...        "column_metadata": [{"is_value": True}, {"is_value": True}, {"is_value": False}],
    ...        "nodes": [{"label": "main", "column": "path"},
    ...                  {"label": "solve", "column": "path", "parent": 0}]}
    >>> raw = read_caliper_json(io.StringIO(json.dumps(doc)))
    >>> raw.metrics["time"].tolist(), raw.exc_metrics, raw.ordered
    ([2.0, 1.0], ('time',), True)
    """
    check_no_path(no_path)
    if is_stream(path):
        data, source = read_source(path)
        box = [data.encode("utf-8") if isinstance(data, str) else data]
        del data
    else:
        source = os.fspath(path)
        try:
            with open(source, "rb") as fh:
                box = [_map(fh)]
        except OSError as exc:
            raise ReadError(source, f"cannot read the file: {exc.strerror}") from exc
    if progress is None or progress is False:
        return decode_caliper_json(box, source, node_ordering=node_ordering, no_path=no_path)
    report = Progress(progress, len(box[0]), f"bytes of {os.path.basename(str(source))}")
    report.start()
    raw = decode_caliper_json(box, source, node_ordering=node_ordering, no_path=no_path,
                              progress_step=report.step)
    report.finish()
    return raw


def _map(fh: Any) -> Any:
    """The file, memory-mapped read-only (its pages are dropped as the fast path
    decodes them, so the file is never resident whole), or its bytes where it
    cannot be mapped (empty files, special files)."""
    try:
        return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, AttributeError):
        return fh.read()


def decode_caliper_json(box: List[bytes], source: Any = None, *, node_ordering: bool = True,
                        no_path: str = "drop", progress_step: Any = None) -> RawProfile:
    """Decode the json-split bytes in ``box`` (a one-element list, emptied as soon
    as the text is no longer needed, so the file's bytes can be freed early).

    The fast path (:mod:`graphframe_readers.caliper.jsonsplit.fast`) decodes the usual layout in
    blocks; anything else goes through the general JSON decoder.

    Parameters
    ----------
    box : list
        One element: the document's bytes, or a read-only ``mmap`` of the file
        (closed here).
    source : path-like, optional
        The file named in errors.
    node_ordering, no_path
        See :func:`read_caliper_json`.
    progress_step : callable, optional
        Called with a number of bytes as each block is decoded (fast path).

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> raw = decode_caliper_json([b'{"data": [[0, 1.5]], "columns": ["path", "t"], '
    ...                            b'"column_metadata": [{}, {"is_value": true}], '
    ...                            b'"nodes": [{"label": "main", "column": "path"}]}'])
    >>> raw.metrics["t"].tolist()
    [1.5]
    """
    fast = decode_fast(box[0], progress_step)
    if fast is None:
        data = box.pop()
        if isinstance(data, mmap.mmap):
            with data:
                data = data[:]
        doc = loads_json(_text(data, source), source)
        del data
        table = json_records(doc, source, no_path=no_path)
        del doc
    else:
        data = box.pop()
        if isinstance(data, mmap.mmap):
            try:
                data.close()
            except BufferError:
                pass  # still viewed somewhere: unmapped when the last view goes
        del data
        table = json_records(fast.doc, source, cells=fast.cells,
                             nodes=(fast.labels, fast.node_columns, fast.parents),
                             no_path=no_path)
        del fast
    return to_raw_profile(table, node_ordering=node_ordering, fmt="caliper-json")


def _text(data: bytes, source: Any) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(source, "the file is not UTF-8 text", position=f"byte {exc.start}",
                        expected="a UTF-8 encoded JSON document") from exc


def parse_caliper_json(doc: Any, source: Any = None, *, node_ordering: bool = True,
                       no_path: str = "drop") -> RawProfile:
    """Decode a json-split document: its text (``str`` or ``bytes``), or the dict
    the json module returns (see :func:`read_caliper_json`).

    Parameters
    ----------
    doc : dict, str or bytes
        The document; text goes through the same fast decoder as files.
    source : path-like, optional
        What to name in errors.
    node_ordering, no_path
        See :func:`read_caliper_json`.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> doc = {"data": [[0, 2.0]], "columns": ["path", "sum#time.duration"],
    ...        "column_metadata": [{"is_value": False}, {"is_value": True}],
    ...        "nodes": [{"label": "main", "column": "path"}], "cluster": "quartz"}
    >>> raw = parse_caliper_json(doc, "doc")
    >>> raw.metrics["time"].tolist(), raw.metadata["cluster"]
    ([2.0], 'quartz')
    >>> import json
    >>> parse_caliper_json(json.dumps(doc)).metrics["time"].tolist()
    [2.0]
    """
    if isinstance(doc, (str, bytes, bytearray)):
        box = [doc.encode("utf-8") if isinstance(doc, str) else bytes(doc)]
        return decode_caliper_json(box, source, node_ordering=node_ordering, no_path=no_path)
    return to_raw_profile(json_records(doc, source, no_path=check_no_path(no_path)),
                          node_ordering=node_ordering, fmt="caliper-json")


def json_records(doc: Any, source: Any, cells: Any = None, nodes: Any = None,
                 no_path: str = "drop") -> RecordTable:
    """The :class:`RecordTable` of a json-split document.

    Parameters
    ----------
    doc : dict
        The document, or, with ``cells`` and ``nodes``, its other sections.
    source : path-like
        What to name in errors.
    cells : numpy.ndarray, optional
        The data section as the fast path decoded it (rows x columns, NaN
        for null).
    nodes : tuple, optional
        The nodes section as the fast path decoded it: labels, columns and
        parents (-1 for roots).
    no_path : {"keep", "drop"}
        Rows with no call path: see :func:`read_caliper_json`.

    Returns
    -------
    RecordTable
    """
    if not isinstance(doc, dict):
        raise ReadError(source, "the document is not a JSON object", position="top level",
                        expected="an object with 'data', 'columns', 'column_metadata', 'nodes'")
    for key in SECTIONS:
        if key not in doc and not (key == "data" and cells is not None) and \
                not (key == "nodes" and nodes is not None):
            raise ReadError(source, f"the '{key}' section is missing", position="top level",
                            expected="Caliper json-split sections " + ", ".join(SECTIONS))
    labels, node_cols, parents = nodes if nodes is not None else _nodes(doc["nodes"], source)
    if "" in labels:
        labels = [lab if lab else f"UNKNOWN {i}" for i, lab in enumerate(labels)]
    columns, metadata = _columns(doc["columns"], doc["column_metadata"], node_cols, source)
    hcol = CALLPATH_ATTRIBUTE if CALLPATH_ATTRIBUTE in columns else "path"
    if hcol not in columns:
        raise ReadError(source, "no hierarchy column", position="columns",
                        expected="a 'path' or 'source.function#callpath.address' column")
    hierarchy, to_h = _hierarchy(labels, node_cols, parents, hcol, source)
    if cells is None or cells.shape[1] != len(columns):
        if cells is not None and len(cells):
            # (the general decoder's words for the same row: one error whichever path reads)
            raise ReadError(source, _cell_count_problem([0] * cells.shape[1], len(columns)),
                            position="data[0]", expected=f"a list of {len(columns)} cells")
        cells = _cells(doc.get("data", []), len(columns), source)
    else:
        cells = [cells[:, j] for j in range(cells.shape[1])]
    h_index = columns.index(hcol)
    row_node = node_refs(cells[h_index], hcol, node_cols, source)
    label_table = np.empty(len(labels) + 1, dtype=object)  # index -1 -> None
    label_table[:-1] = labels
    node = np.where(row_node >= 0, to_h[np.maximum(row_node, 0)], -1)
    if check_no_path(no_path) == "keep":
        pathless = pathless_with_metrics(
            cells, columns, metadata, lambda j: _is_value(metadata[j], columns[j], node_cols),
            row_node, source)
        if len(pathless):
            hierarchy = hierarchy.with_root(NO_PATH, len(labels))
            node[pathless] = len(hierarchy) - 1
        unattributed = {}
    else:
        unattributed = pathless_totals(
            cells, columns, metadata, lambda j: _is_value(metadata[j], columns[j], node_cols),
            row_node, source)
    keep = np.flatnonzero(node >= 0)
    table = RecordTable(source=source, hierarchy=hierarchy, node=node[keep],
                        metadata=parse_metadata({k: v for k, v in doc.items() if k not in SECTIONS}))
    if unattributed:
        table.metadata[UNATTRIBUTED] = unattributed
    layout: List[str] = []
    for i, title in enumerate(columns):
        if i == h_index:
            layout.append("nid")
            continue
        meta = metadata[i]
        if not _is_value(meta, title, node_cols):
            refs = node_refs(cells[i], title, node_cols, source)[keep]
            values = label_table[refs]
            if title == SOURCELOC_ATTRIBUTE:
                table.sourceloc = values
                continue
            spec = ColumnSpec(RENAMES.get(title, title), title, LABEL)
        else:
            values, numeric = value_column(cells[i], title, keep, source)
            alias = meta.get("attribute.alias")
            spec = classify(title, alias if isinstance(alias, str) else None, numeric=numeric)
            if isinstance(meta.get("attribute.unit"), str):
                table.units[title] = meta["attribute.unit"]
        if spec.role == RANK:
            table.rank = ranks(values, numeric, title, keep, source)
        elif spec.role == ORDER:
            table.order = order(values, numeric, title, keep, source)
        else:
            table.columns.append((spec, values))
            layout.append(spec.name)
    _check_unique(table, source)
    table.layout = layout
    return table


# ------------------------------------------------------------ sections
def _nodes(nodes: Any, source: Any) -> Tuple[List[str], List[str], np.ndarray]:
    if not isinstance(nodes, list):
        raise ReadError(source, "'nodes' is not a list", position="nodes",
                        expected="a list of {label, column[, parent]} objects")
    try:
        if set(map(type, nodes)) - {dict}:
            raise TypeError("not an object")
        labels = list(map(itemgetter("label"), nodes))
        cols = list(map(itemgetter("column"), nodes))
        parents = list(map(dict.get, nodes, repeat("parent"), repeat(-1)))
    except (TypeError, KeyError) as exc:
        i = next(i for i, n in enumerate(nodes)
                 if not isinstance(n, dict) or "label" not in n or "column" not in n)
        raise ReadError(source, "malformed node entry", position=f"nodes[{i}]",
                        expected="an object with 'label' and 'column'") from exc
    if set(map(type, labels)) - {str} or set(map(type, cols)) - {str} or \
            set(map(type, parents)) - {int}:
        i = next(i for i, (a, b, c) in enumerate(zip(labels, cols, parents))
                 if type(a) is not str or type(b) is not str or type(c) is not int)
        raise ReadError(source, "malformed node entry", position=f"nodes[{i}]",
                        expected="a string 'label', a string 'column' and an integer 'parent'")
    try:
        parent_array = np.array(parents, dtype=INT)
    except OverflowError:
        parent_array = None
    if parent_array is None or explicit_parents(nodes) != int((parent_array >= 0).sum()):
        i = next(i for i, n in enumerate(nodes) if "parent" in n and
                 not 0 <= n["parent"] < len(nodes))
        raise ReadError(source, f"the node's parent {_short(nodes[i]['parent'])} is not a node",
                        position=f"nodes[{i}]",
                        expected="the index of another node, or no 'parent' for a root")
    return labels, np.array(cols, dtype=object), parent_array



def _columns(columns: Any, metadata: Any, node_cols: List[str], source: Any):
    if not isinstance(columns, list) or not all(type(c) is str for c in columns):
        raise ReadError(source, "'columns' is not a list of names", position="columns",
                        expected="a list of strings")
    if not isinstance(metadata, list) or len(metadata) != len(columns) or \
            not all(isinstance(m, dict) for m in metadata):
        raise ReadError(source, "'column_metadata' does not describe every column",
                        position="column_metadata",
                        expected=f"a list of {len(columns)} objects, one per column")
    seen = set()
    for title in columns:
        if title in seen:
            raise ReadError(source, f"column {title!r} appears twice", position="columns",
                            expected="distinct column names")
        seen.add(title)
    return columns, metadata


def _is_value(meta: Dict[str, Any], title: str, node_cols: np.ndarray) -> bool:
    flag = meta.get("is_value")
    if isinstance(flag, bool):
        return flag
    return not bool((node_cols == title).any())


def _hierarchy(labels, node_cols, parents, hcol, source) -> Tuple[Hierarchy, np.ndarray]:
    is_h = node_cols == hcol
    index = np.flatnonzero(is_h)
    to_h = np.full(len(node_cols), -1, dtype=INT)
    to_h[index] = np.arange(len(index), dtype=INT)
    p = parents[index]
    bad = np.flatnonzero((p < -1) | (p >= len(node_cols)))
    if not len(bad):
        bad = np.flatnonzero((p >= 0) & (to_h[np.clip(p, 0, None)] < 0))
    if len(bad):
        i = int(index[bad[0]])
        raise ReadError(source, f"the node's parent {int(parents[i])} is not a node of the "
                        f"'{hcol}' hierarchy", position=f"nodes[{i}]",
                        expected=f"the index of a '{hcol}' node")
    h_parent = np.where(p >= 0, to_h[np.clip(p, 0, None)], -1)
    depth = forest_depth(h_parent, source, lambda k: f"nodes[{int(index[k])}]")
    # one frame type for both hierarchies, the type .cali files get for the same
    # regions: Hatchet's from_caliper says "region" for `path` nodes, which made a
    # program's json-split and .cali profiles share no node (documented difference)
    kind = "function"
    label_array = np.empty(len(labels), dtype=object)
    label_array[:] = labels
    hierarchy = Hierarchy(parent=h_parent, label=label_array[index],
                          kind=repeated(kind, len(index)), nid=index.astype(INT),
                          depth=depth)
    return hierarchy, to_h


def _cell_count_problem(row: Any, width: int) -> str:
    """What is wrong with a data row that is not a list of ``width`` cells.

    Examples
    --------
    >>> _cell_count_problem([1, 2, 3], 2)
    'the row does not have one cell per column: 3 cells for 2 columns'
    >>> _cell_count_problem(5, 2)
    'the row does not have one cell per column: a int, not a list'
    """
    detail = (f"{len(row)} cells for {width} columns" if type(row) is list
              else f"a {type(row).__name__}, not a list")
    return f"the row does not have one cell per column: {detail}"


def _cells(data: Any, width: int, source: Any) -> List[Sequence[Any]]:
    """The data rows transposed into one sequence per column."""
    if not isinstance(data, list):
        raise ReadError(source, "'data' is not a list", position="data",
                        expected="a list of rows")
    ok = not data or (set(map(type, data)) == {list} and set(map(len, data)) == {width})
    if not ok:
        i = next(i for i, row in enumerate(data) if type(row) is not list or len(row) != width)
        raise ReadError(source, _cell_count_problem(data[i], width),
                        position=f"data[{i}]", expected=f"a list of {width} cells")
    if not data:
        return [()] * width
    return list(zip(*data))


def _check_unique(table: RecordTable, source: Any) -> None:
    names = [spec.name for spec, _ in table.columns]
    for name in names:
        if names.count(name) > 1 or name in ("nid", "name"):
            raise ReadError(source, f"two columns are both called {name!r} after renaming",
                            position="columns", expected="distinct column names")


# ------------------------------------------------------------ sniffing
def _sniff(path: Path, head: bytes) -> bool:
    return looks_like_json(head, b"{") and looks_like_json_split(path, head)


FORMAT = FormatInfo(
    name="caliper-json",
    read=read_caliper_json,
    sniff=_sniff,
    description="Caliper json-split profile (data, columns, column_metadata, nodes)",
    suffixes=(".json",),
)

