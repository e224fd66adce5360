"""Writing ``to_json``'s document to a file a block at a time (bounded memory).

:func:`graphframe.io.json.export.to_json` builds the whole document in memory:
one dict per dataframe row and one per node, then one string of it all (a
1,000,000-node x 16-rank profile peaked at 18.7 GB). :func:`write_json`
writes the same text, byte for byte, in blocks of :data:`BLOCK` rows or nodes:
each block's records are made, encoded and written, then dropped, so the
memory used beyond the GraphFrame is a block's worth. Column codecs are found
without a plain copy of the column (a categorical column is checked on its
categories). The text goes to a temporary file in the target's folder that
replaces the target only when complete, so an interrupted or failed write
never leaves a truncated document behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterator, List

import numpy as np
import pandas as pd

from graphframe_readers.progress import Progress, ProgressArg

from ...model.dataframe import index_arrays
from ...model.frame import is_missing, python_scalar
from ..codec import SaveError, to_tagged
from .columns import column_codec, json_default, plain_values
from .export import document_tail, graph_tables, record_keys

#: rows (or nodes) encoded at a time
BLOCK = 65_536


def write_json(gf: Any, path: Any, progress: ProgressArg = None, block: int = BLOCK) -> Path:
    """Write ``gf.to_json()``'s text to ``path`` through a temporary file; return the path.

    Parameters
    ----------
    gf : GraphFrame
    path : str or path-like
        The file to write (replaced only when the document is complete).
    progress : bool, str or callable, optional
        Report rows and nodes written (see :mod:`graphframe_readers.progress`).
    block : int
        Rows or nodes encoded at a time.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve", "io"))
    >>> p = write_json(gf, os.path.join(tempfile.mkdtemp(), "run.json"), block=2)
    >>> p.read_text() == gf.to_json()
    True
    """
    target = Path(os.fspath(path))
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"{target}: cannot write: {exc.strerror}") from exc
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            for piece in json_pieces(gf, progress, block):
                out.write(piece)
        os.replace(temp, target)
    except OSError as exc:
        _remove(temp)
        raise SaveError(f"{target}: cannot write: {exc.strerror}") from exc
    except BaseException:
        _remove(temp)
        raise
    return target


def json_pieces(gf: Any, progress: ProgressArg = None, block: int = BLOCK) -> Iterator[str]:
    """The text of ``gf.to_json()`` in pieces of at most ``block`` rows or nodes.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", "b"), ("c",))
    >>> "".join(json_pieces(gf, block=1)) == gf.to_json()
    True
    """
    block = max(1, int(block))
    graph, df = gf.graph, gf.dataframe
    report = Progress(progress, graph.num_nodes + len(df), "nodes and rows of JSON")
    if report.callback:
        report.start()
    yield '{"graph": ['
    yield from _graph_text(graph, block, report)
    level_names = list(df.index.names)
    level_keys = [str(n) for n in level_names]
    keys = record_keys(list(df.columns), set(level_keys))
    yield '], "dataframe_indices": ' + json.dumps(level_keys) + ', "dataframe": ['
    index_codecs, column_codecs = [], []
    levels = index_arrays(df.index)
    for i, values in enumerate(levels):
        index_codecs.append(column_codec(pd.Series(values, copy=False),
                                         f"index level {level_names[i]!r}"))
    for col in df.columns:
        column_codecs.append(column_codec(df[col], f"column {col!r}"))
    specs = [{"name": to_tagged(col, "a column name"), "key": key, "codec": codec}
             for col, key, codec in zip(df.columns, keys, column_codecs)]
    # made before the rows: what JSON cannot hold (a metadata value) fails before the long part
    tail = json.dumps(document_tail(gf, keys, level_names, index_codecs, specs),
                      default=json_default)[1:]
    names = level_keys + keys
    columns = [pd.Series(v, copy=False) for v in levels] + [df[c] for c in df.columns]
    # one record's text with a slot per cell: json.dumps's own spelling of a dict
    template = "{" + ", ".join(json.dumps(k).replace("%", "%%") + ": %s" for k in names) + "}"
    for start in range(0, len(df), block):
        stop = min(start + block, len(df))
        cells = [json_tokens(c.iloc[start:stop]) for c in columns]
        yield (", " if start else "") + ", ".join([template % row for row in zip(*cells)])
        report.step(stop - start)
    yield "], " + tail
    if report.callback:
        report.finish()


def json_tokens(values: pd.Series) -> List[str]:
    """Each cell's JSON text, as ``json.dumps`` spells it inside ``to_json``'s records.

    Numbers are spelled by Python's ``repr``/``str`` (as the encoder does), text
    is encoded once per distinct value.

    Examples
    --------
    >>> json_tokens(pd.Series([1.5, np.nan, np.inf])), json_tokens(pd.Series([True, False]))
    (['1.5', 'null', 'Infinity'], ['true', 'false'])
    >>> json_tokens(pd.Series(["a", None, "a"], dtype="category"))
    ['"a"', 'null', '"a"']
    >>> json_tokens(pd.Series(["a", None, float("nan"), "a"], dtype=object))
    ['"a"', 'null', 'null', '"a"']
    """
    dtype = values.dtype
    if isinstance(dtype, np.dtype) and dtype.kind == "b":
        return ["true" if v else "false" for v in values.to_numpy().tolist()]
    if isinstance(dtype, np.dtype) and dtype.kind in "iu":
        return list(map(str, values.to_numpy().tolist()))
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        array = values.to_numpy()
        out = list(map(float.__repr__, array.tolist()))
        for i in np.flatnonzero(~np.isfinite(array)).tolist():
            v = float(array[i])
            out[i] = "null" if v != v else ("Infinity" if v > 0 else "-Infinity")
        return out
    if isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype)) or _object_text(values):
        if isinstance(dtype, pd.CategoricalDtype):
            codes, distinct = values.cat.codes.to_numpy(), list(dtype.categories)
        elif dtype == object:  # object text (every text column of a GraphFrame)
            codes, distinct = pd.factorize(values.to_numpy(), use_na_sentinel=True)
        else:
            codes, distinct = pd.factorize(values.to_numpy(dtype=object, na_value=None))
        table = np.empty(len(distinct) + 1, dtype=object)
        table[:-1] = [json.dumps(v, default=json_default) for v in plain_values(distinct)]
        table[-1] = "null"
        return table[np.asarray(codes)].tolist()  # code -1 (missing) -> null
    return [json.dumps(v, default=json_default) for v in plain_block(values)]


def _object_text(values: pd.Series) -> bool:
    """An object column holding only text and missing values."""
    return values.dtype == object and \
        pd.api.types.infer_dtype(values, skipna=True) in ("string", "empty")


def plain_block(values: pd.Series) -> List[Any]:
    """A slice of a column as plain JSON values: :func:`plain_values`, faster for arrays.

    Examples
    --------
    >>> plain_block(pd.Series([1.5, np.nan])), plain_block(pd.Series(["a", None, "a"],
    ...                                                               dtype="category"))
    ([1.5, None], ['a', None, 'a'])
    """
    dtype = values.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "biu":
        return values.to_numpy().tolist()
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        array = values.to_numpy()
        out = array.tolist()
        for i in np.flatnonzero(np.isnan(array)).tolist():
            out[i] = None
        return out
    if isinstance(dtype, pd.StringDtype):  # strings and missing values only
        return values.to_numpy(dtype=object, na_value=None).tolist()
    if _object_text(values):
        array = values.to_numpy()
        missing = pd.isna(array)
        return (np.where(missing, None, array) if missing.any() else array).tolist()
    if isinstance(dtype, pd.CategoricalDtype):
        table = np.empty(len(dtype.categories) + 1, dtype=object)
        table[:-1] = plain_values(dtype.categories)
        table[-1] = None
        return table[values.cat.codes.to_numpy()].tolist()  # code -1 (missing) -> None
    return plain_values(values)


def _graph_text(graph: Any, block: int, report: Progress) -> Iterator[str]:
    """The ``"graph"`` list's items: one table per root, a block of nodes at a time."""
    if not graph.is_forest:  # shared nodes: a node can sit in several tables (call graphs)
        text = json.dumps(graph_tables(graph), default=json_default)
        report.step(graph.num_nodes)
        yield text[1:-1]
        return
    roots = graph.root_ids.astype(np.int64)
    starts = np.sort(roots)
    ends = np.append(starts[1:], graph.num_nodes)
    end_of = dict(zip(starts.tolist(), ends.tolist()))
    ptr = graph.child_ptr
    for k, root in enumerate(roots.tolist()):
        yield (", {" if k else "{")
        end = end_of[root]
        for start in range(root, end, block):
            stop = min(start + block, end)
            frames = _frame_block(graph, start, stop)
            kids = graph.child_idx[ptr[start]:ptr[stop]].tolist()
            bounds = (ptr[start:stop + 1] - ptr[start]).tolist()
            table = {v: {"data": frames[v - start],
                         "children": kids[bounds[v - start]:bounds[v - start + 1]]}
                     for v in range(start, stop)}
            text = json.dumps(table, default=json_default)
            yield (", " if start > root else "") + text[1:-1]
            report.step(stop - start)
        yield "}"


def _frame_block(graph: Any, start: int, stop: int) -> List[Dict[str, Any]]:
    """The frame dicts of nodes ``start..stop-1`` (as :meth:`Graph.frame_dicts` has them)."""
    out: List[Dict[str, Any]] = [{} for _ in range(stop - start)]
    attrs = graph.attrs
    for name in attrs.columns:
        values = [python_scalar(v) for v in attrs[name].iloc[start:stop].tolist()]
        for d, v in zip(out, values):
            if not is_missing(v):
                d[name] = v
    return out


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass

