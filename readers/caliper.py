"""Caliper ``.cali`` profiles: one file, a set of per-rank files, or a CaliperReader.

``read_caliper`` is the registry's reader for the ``caliper`` format. A
directory (its ``*.cali`` files) or a list of files reads as one profile with
a ``rank`` level: each file's rank is its records' ``mpi.rank`` when they have
one, else the rank its name encodes through Caliper's ``output`` pattern
(``rp-rank%mpi.rank%.cali`` -> ``rp-rank2.cali`` is rank 2), else the global
``mpi.rank``, else the file's position in the sorted list.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from .caliper_cali import cali_records
from .caliper_calitext import decode_cali_content, read_cali_text, read_source
from .caliper_json import decode_caliper_json, parse_caliper_json, read_caliper_json
from .caliper_names import parse_metadata
from .caliper_pyreader import reader_records
from .caliper_records import Hierarchy, RecordTable, forest_depth, to_raw_profile
from .errors import ReadError
from .jsonfile import loads_json
from .profile import RawProfile
from .progress import Progress, ProgressArg
from .registry import FormatInfo

INT = np.int64


def read_caliper(path: Any, *, native: bool = False, string_attributes: Sequence[str] = (),
                 node_ordering: bool = True, progress: ProgressArg = None) -> RawProfile:
    """Read a ``.cali`` file, a directory or list of per-rank files, a stream, or a
    CaliperReader.

    Parameters
    ----------
    path : path-like, list of path-likes, file-like or ``caliperreader.CaliperReader``
        What to read: a file; per-rank files (a directory's ``*.cali`` or a
        list; see the module docs for their ranks; a rank in two files is a
        :class:`ReadError`); an open text or binary stream; or a reader
        object that has already read its file.
    native : bool
        Name metric columns by Caliper's attribute names instead of their
        aliases (``min#inclusive#sum#time.duration`` instead of
        ``Min time/rank``).
    string_attributes : sequence of str
        Text attributes to keep as columns (numbers are always kept).
    node_ordering : bool
        Order siblings by Caliper's node order (``Node order``) when the file
        records it; otherwise siblings are ordered by frame.
    progress : bool or callable, optional
        ``True`` draws a progress bar on stderr; a callable receives
        ``(done, total, what)`` as each block of the ``.cali`` files is decoded
        (bytes of all files together; not for streams and reader objects).

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "prof.cali")
    >>> with open(p, "w") as f:
    ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
    ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
    ...                 "__rec=node,id=14,attr=10,data=2113,parent=5\\n"
    ...                 "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
    ...                 "__rec=node,id=16,attr=13,data=main\\n"
    ...                 "__rec=ctx,ref=16,attr=15,data=1.5\\n"
    ...                 "__rec=node,id=17,attr=13,data=solve,parent=16\\n"
    ...                 "__rec=ctx,ref=17,attr=15,data=2.5\\n")
    >>> raw = read_caliper(p)
    >>> raw.metrics["time"].tolist(), raw.exc_metrics
    ([1.5, 2.5], ('time',))
    """
    options = dict(native=native, string_attributes=tuple(_as_list(string_attributes)))
    if _is_reader_object(path):
        table = reader_records(path, **options)
        return to_raw_profile(table, node_ordering=node_ordering)
    if hasattr(path, "read"):
        table, _ = _file_table(path, options)
        return to_raw_profile(table, node_ordering=node_ordering)
    files = cali_files(path)
    report = Progress(progress, sum(os.path.getsize(f) for f in files), "bytes of .cali files")
    step = report.step if report.callback else None
    decoded = [_file_table(f, options, step) for f in files]
    if len(decoded) == 1 and not isinstance(path, (list, tuple)) and not Path(path).is_dir():
        table = decoded[0][0]
    else:
        table = merge_rank_tables(decoded, files, source=_describe(path))
    return to_raw_profile(table, node_ordering=node_ordering)


def _as_list(value: Any) -> List[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _is_reader_object(obj: Any) -> bool:
    return hasattr(obj, "records") and hasattr(obj, "globals") and hasattr(obj, "attribute")


def _describe(path: Any) -> Any:
    if isinstance(path, (list, tuple)):
        return [_fspath(p) for p in path]
    return _fspath(path)


def cali_files(path: Any) -> List[str]:
    """The ``.cali`` files ``path`` names (a file, a directory or a list).

    Parameters
    ----------
    path : path-like or list of path-likes
        A file, a directory (its ``*.cali`` files, sorted) or a list of files.

    Returns
    -------
    list of str
        The files; a missing file, an empty directory or list, or a file
        listed twice is a :class:`ReadError`.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for name in ("r1.cali", "r0.cali", "notes.txt"):
    ...     open(os.path.join(d, name), "w").close()
    >>> [os.path.basename(f) for f in cali_files(d)]
    ['r0.cali', 'r1.cali']
    """
    if isinstance(path, (list, tuple)):
        if not path:
            raise ReadError(path, "an empty list of files was given", expected="at least one .cali file")
        out = [_fspath(p) for p in path]
    else:
        p = Path(_fspath(path))
        if p.is_dir():
            out = sorted(str(f) for f in p.iterdir() if f.is_file() and f.name.endswith(".cali"))
            if not out:
                raise ReadError(p, "the directory holds no .cali files", expected="per-rank .cali files")
        else:
            out = [str(p)]
    seen: Dict[str, str] = {}
    for f in out:
        if not os.path.isfile(f):
            raise ReadError(f, "no such file")
        real = os.path.realpath(f)
        if real in seen:
            raise ReadError(f, f"the file is listed twice (also as {seen[real]})",
                            expected="each per-rank file once")
        seen[real] = f
    return out


def _fspath(path: Any) -> str:
    try:
        return os.fspath(path)
    except TypeError as exc:
        raise ReadError(repr(path)[:80], f"a value of type {type(path).__name__} is not a file path",
                        expected="a path, a list of paths, an open stream or a "
                                 "CaliperReader") from exc


def _file_table(path: Any, options: Dict[str, Any],
                progress_step=None) -> Tuple[RecordTable, Dict[str, Any]]:
    """The table of a ``.cali`` file (read a block at a time) or open stream."""
    return _cali_table(read_cali_text(path, progress_step), options)


def _content_table(box: List[Any], options: Dict[str, Any],
                   progress_step=None) -> Tuple[RecordTable, Dict[str, Any]]:
    """The table of ``box = [.cali content, source name]`` (emptied as it is decoded)."""
    return _cali_table(decode_cali_content(box, progress_step), options)


def _cali_table(cali: Any, options: Dict[str, Any]) -> Tuple[RecordTable, Dict[str, Any]]:
    table = cali_records(cali, **options)
    table.metadata = parse_metadata(cali.globals)
    return table, cali.globals


# ------------------------------------------------------------- rank sets
def file_rank(path: str, globals_: Dict[str, Any], position: int) -> int:
    """Rank of a per-rank file without ``mpi.rank`` records (see the module docs).

    Parameters
    ----------
    path : str
        The file.
    globals_ : dict
        Its globals as text (``opts:output`` holds Caliper's output pattern).
    position : int
        Its position in the sorted set: the rank when nothing else says.

    Examples
    --------
    >>> file_rank("/x/rp-rank12.cali", {"opts:output": "rp-rank%mpi.rank%.cali"}, 0)
    12
    >>> file_rank("/x/a.cali", {}, 3)
    3
    """
    pattern = globals_.get("opts:output")
    if isinstance(pattern, str) and "%mpi.rank%" in pattern:
        parts = [re.escape(part) for part in os.path.basename(pattern).split("%mpi.rank%")]
        expr = r"(\d+)".join(_wildcards(part) for part in parts)
        match = re.fullmatch(expr, os.path.basename(path))
        if match:
            return int(match.group(1))
    value = globals_.get("mpi.rank")
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return position


def _wildcards(escaped: str) -> str:
    """Other ``%attr%`` placeholders of an output pattern match anything."""
    return re.sub(r"%[^%]*%", ".*?", escaped.replace(r"\%", "%"))


def merge_rank_tables(decoded: List[Tuple[RecordTable, Dict[str, Any]]], files: List[str],
                      source: Any) -> RecordTable:
    """One table for a set of per-rank files: unified call paths, a rank per record.

    Parameters
    ----------
    decoded : list of (RecordTable, dict)
        Each file's table and its raw (text) globals, in ``files`` order.
    files : list of str
        The files (for ranks taken from names, and for errors).
    source : path-like or list
        What the merged table is called in errors.

    Returns
    -------
    RecordTable
        A rank per record. A rank found in two files (from their records'
        ``mpi.rank`` or from their names) is a :class:`ReadError` naming both
        files: summing them would double that rank's values.
    """
    tables = [t for t, _ in decoded]
    file_ranks = []
    for position, (table, path) in enumerate(zip(tables, files)):
        if table.rank is None:
            rank = file_rank(path, decoded[position][1], position)
            table.rank = np.full(len(table.node), rank, dtype=INT)
            file_ranks.append(np.array([rank], dtype=INT))
        else:
            file_ranks.append(np.unique(table.rank))
    _check_distinct_ranks(file_ranks, files)
    hierarchy, mappings = unify_hierarchies([t.hierarchy for t in tables], source)
    merged = RecordTable(source=source, hierarchy=hierarchy,
                         node=np.concatenate([m[t.node] for m, t in zip(mappings, tables)]),
                         rank=np.concatenate([t.rank for t in tables]))
    del mappings
    if any(t.order is not None for t in tables):
        merged.order = np.concatenate([t.order if t.order is not None
                                       else np.full(len(t.node), np.nan) for t in tables])
    if any(t.sourceloc is not None for t in tables):
        merged.sourceloc = np.concatenate([t.sourceloc if t.sourceloc is not None
                                           else np.full(len(t.node), None, dtype=object)
                                           for t in tables])
    merged.columns, merged.layout = _merge_columns(tables)
    merged.metadata = _merge_metadata([t.metadata for t in tables])
    return merged


def _check_distinct_ranks(file_ranks: List[np.ndarray], files: List[str]) -> None:
    """Each rank in one file only; else a ReadError naming the two files."""
    ranks = np.concatenate(file_ranks)
    owner = np.repeat(np.arange(len(files), dtype=INT), [len(r) for r in file_ranks])
    order = np.lexsort((owner, ranks))
    ranks, owner = ranks[order], owner[order]
    again = np.flatnonzero(ranks[1:] == ranks[:-1]) + 1
    if not len(again):
        return
    i = int(again[np.argmin(owner[again])])  # the first file that repeats a rank
    raise ReadError(files[int(owner[i])], f"rank {int(ranks[i])} is also the rank of "
                    f"{files[int(owner[i - 1])]}",
                    expected="each rank in exactly one file of a per-rank set")


def unify_hierarchies(hierarchies: Sequence[Hierarchy], source: Any
                      ) -> Tuple[Hierarchy, List[np.ndarray]]:
    """The union of several call-path hierarchies and each one's node mapping.

    Nodes are equal when their parents are equal and their labels and kinds
    match. Unified nodes are numbered in first-seen order (hierarchies in
    order, nodes by index; every parent precedes its children). Computed one
    depth level at a time with array keys, without a loop over nodes.

    Parameters
    ----------
    hierarchies : sequence of Hierarchy
        The call paths of each file.
    source : path-like or list
        What to name in errors (a parent cycle).

    Returns
    -------
    (Hierarchy, list of numpy.ndarray)
        The union, and for each input the union node of each of its nodes.

    Examples
    --------
    >>> def h(parent, label):
    ...     return Hierarchy(parent=np.array(parent), label=np.array(label, dtype=object),
    ...                      kind=np.array(["region"] * len(parent), dtype=object),
    ...                      nid=np.arange(len(parent)))
    >>> u, maps = unify_hierarchies([h([-1, 0], ["main", "a"]), h([-1, 0], ["main", "b"])], "x")
    >>> u.parent.tolist(), u.label.tolist(), [m.tolist() for m in maps]
    ([-1, 0, 0], ['main', 'a', 'b'], [[0, 1], [0, 2]])
    """
    sizes = [len(h) for h in hierarchies]
    offsets = np.r_[0, np.cumsum(sizes)].astype(INT)
    n = int(offsets[-1])
    parent = np.concatenate([np.where(h.parent >= 0, h.parent + off, -1)
                             for h, off in zip(hierarchies, offsets)]).astype(INT)
    labels = np.concatenate([np.asarray(h.label, dtype=object) for h in hierarchies])
    kinds = np.concatenate([np.asarray(h.kind, dtype=object) for h in hierarchies])
    depth = np.concatenate([h.depth if h.depth is not None else
                            forest_depth(h.parent, source, lambda i: f"node {i}")
                            for h in hierarchies])
    label_code, _ = pd.factorize(labels, use_na_sentinel=False)
    kind_code, kind_names = pd.factorize(kinds, use_na_sentinel=False)
    code = label_code.astype(INT) * max(len(kind_names), 1) + kind_code
    width = int(code.max()) + 1 if n else 1
    canon = np.full(n, -1, dtype=INT)
    group_parent, next_id = [], 0
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(depth[by_depth]) != 0, True]) if n else []
    for a, b in zip(bounds[:-1], bounds[1:]):
        members = by_depth[a:b]
        above = parent[members]
        key = (np.where(above >= 0, canon[np.maximum(above, 0)], -1) + 1) * width + code[members]
        unique_keys, inverse = np.unique(key, return_inverse=True)
        canon[members] = next_id + inverse.ravel()
        group_parent.append(unique_keys // width - 1)
        next_id += len(unique_keys)
    first = np.full(next_id, n, dtype=INT)
    np.minimum.at(first, canon, np.arange(n, dtype=INT))
    order = np.argsort(first, kind="stable")
    new = np.empty(next_id, dtype=INT)
    new[order] = np.arange(next_id, dtype=INT)
    gp = np.concatenate(group_parent)[order] if group_parent else np.zeros(0, dtype=INT)
    hierarchy = Hierarchy(parent=np.where(gp >= 0, new[np.maximum(gp, 0)], -1),
                          label=labels[first[order]], kind=kinds[first[order]],
                          nid=np.arange(next_id, dtype=INT))
    mapping = new[canon]
    return hierarchy, [mapping[a:b] for a, b in zip(offsets[:-1], offsets[1:])]


def _merge_columns(tables: List[RecordTable]) -> Tuple[list, list]:
    specs: Dict[str, Any] = {}
    layout: List[str] = []
    for t in tables:
        for name in t.layout:
            if name not in layout:
                layout.append(name)
        for spec, values in t.columns:
            specs.setdefault(spec.name, (spec, values.dtype))
    columns = []
    for name, (spec, dtype) in specs.items():
        parts = []
        for t in tables:
            found = [v for s, v in t.columns if s.name == name]
            if found:
                parts.append(found[0])
            elif dtype == object:
                parts.append(np.full(len(t.node), None, dtype=object))
            else:
                parts.append(np.full(len(t.node), np.nan))
        if any(p.dtype == object for p in parts) and dtype != object:
            parts = [p.astype(object) for p in parts]
        columns.append((spec, np.concatenate(parts)))
    return columns, layout


def _merge_metadata(metas: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Globals equal in every file stay single values; others become per-file lists."""
    keys: List[str] = []
    for m in metas:
        keys.extend(k for k in m if k not in keys)
    out: Dict[str, Any] = {}
    for k in keys:
        values = [m.get(k) for m in metas]
        out[k] = values[0] if all(v == values[0] for v in values) else values
    return out


# ------------------------------------------------------------- sniffing
def _sniff(path: Path, head: bytes) -> bool:
    if path.is_dir():
        try:
            return any(f.name.endswith(".cali") for f in path.iterdir() if f.is_file())
        except OSError:
            return False
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"__rec=")


FORMAT = FormatInfo(
    name="caliper",
    read=read_caliper,
    sniff=_sniff,
    description="Caliper .cali profile or trace (a file, or a directory/list of per-rank files)",
)


# ------------------------------------------------------------ from_caliper
def read_caliper_any(source: Any, query: Any = None, *, node_ordering: bool = True) -> RawProfile:
    """Hatchet's ``from_caliper``: json-split, or a ``.cali`` file (through
    ``cali-query`` when ``query`` is given, else decoded directly).

    Parameters
    ----------
    source : path-like, list of path-likes, or file-like
        A json-split or ``.cali`` file, per-rank ``.cali`` files, or an open
        stream of either format (recognised by its first bytes).
    query : str, optional
        A CalQL query for ``cali-query`` (``.cali`` files only; its output
        must be json-split).
    node_ordering : bool
        Order siblings by Caliper's node order when the input records it.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> import io, json
    >>> doc = {"data": [[1.0, 0]], "columns": ["time", "path"],
    ...        "column_metadata": [{"is_value": True}, {"is_value": False}],
    ...        "nodes": [{"label": "main", "column": "path"}]}
    >>> read_caliper_any(io.StringIO(json.dumps(doc))).num_nodes
    1
    """
    if hasattr(source, "read"):
        box = list(read_source(source))
        head = box[0][:64]
        if (head.encode("utf-8") if isinstance(head, str) else head).lstrip(
                b"\xef\xbb\xbf \t\r\n").startswith(b"__rec="):
            if query is not None:
                raise ReadError(box[1], "cali-query reads files, not streams",
                                expected="a .cali file path with query=, or no query")
            table, _ = _content_table(box, dict(native=False, string_attributes=()))
            return to_raw_profile(table, node_ordering=node_ordering)
        name = box.pop()
        if isinstance(box[0], str):
            box[0] = box[0].encode("utf-8")
        return decode_caliper_json(box, name, node_ordering=node_ordering)
    if not _is_cali(source):
        return read_caliper_json(source, node_ordering=node_ordering)
    if query is None:
        return read_caliper(source, node_ordering=node_ordering)
    if isinstance(source, (list, tuple)) or Path(os.fspath(source)).is_dir():
        raise ReadError(source, "cali-query reads one .cali file at a time",
                        expected="a single .cali file with query=, or no query")
    text = run_cali_query(os.fspath(source), str(query))
    doc = loads_json(text, f"cali-query output for {os.fspath(source)}")
    return parse_caliper_json(doc, os.fspath(source), node_ordering=node_ordering)


def _is_cali(source: Any) -> bool:
    if isinstance(source, (list, tuple)):
        return True
    p = Path(_fspath(source))
    if p.is_dir() or p.suffix == ".cali":
        return True
    try:
        with open(p, "rb") as fh:
            return _sniff(p, fh.read(64))
    except OSError as exc:
        raise ReadError(p, f"cannot open the file: {exc.strerror}") from exc


def run_cali_query(path: str, query: str) -> str:
    """Output of ``cali-query -q QUERY PATH`` (Caliper's own query tool).

    Parameters
    ----------
    path : str
        The ``.cali`` file.
    query : str
        The CalQL query.

    Returns
    -------
    str
        The tool's standard output. A missing tool or a failed run is a
        :class:`ReadError` (with the tool's last line of error output).
    """
    program = shutil.which("cali-query")
    if program is None:
        raise ReadError(path, "a query needs Caliper's cali-query program, which is not installed "
                        "(not found on PATH)",
                        expected="cali-query on PATH, or no query: .cali files are read directly")
    try:
        done = subprocess.run([program, "-q", query, path], capture_output=True, check=False)
    except OSError as exc:
        raise ReadError(path, f"cannot run {program}: {exc.strerror}") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ReadError(path, f"cali-query failed (exit status {done.returncode}): "
                        f"{message[-1] if message else 'no message'}",
                        expected="a valid CalQL query, e.g. '... format json-split'")
    return done.stdout.decode("utf-8", "replace")
