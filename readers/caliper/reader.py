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
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from ..common.jsonfile import loads_json
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..progress import Progress, ProgressArg
from ..registry import FormatInfo
from .cali.decode import cali_records
from .cali.text import decode_cali_content, read_cali_text
from .jsonsplit.reader import decode_caliper_json, parse_caliper_json, read_caliper_json
from .names import check_no_path, parse_metadata
from .pyreader import reader_records
from .ranks import merge_rank_tables
from .records import RecordTable, to_raw_profile


def read_caliper(path: Any, *, native: bool = False, string_attributes: Sequence[str] = (),
                 node_ordering: bool = True, no_path: str = "drop",
                 progress: ProgressArg = None) -> RawProfile:
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
    node_ordering : bool or "recorded"
        Order siblings by Caliper's node order (``Node order``) when the file
        records it; otherwise siblings are ordered by frame. ``"recorded"``:
        Caliper's order where the file records one, else by frame.
    no_path : {"keep", "drop"}
        Records with no call path (time outside every annotated region):
        ``"drop"`` (the default) leaves them out, as Hatchet and Thicket do,
        with their total per metric in ``metadata["unattributed"]``; ``"keep"``
        puts those that hold a metric value under a ``<no path>`` root node.
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
    table = record_table(path, native=native, string_attributes=string_attributes,
                         no_path=no_path, progress=progress)
    return to_raw_profile(table, node_ordering=node_ordering)


def record_table(path: Any, *, native: bool = False, string_attributes: Sequence[str] = (),
                 no_path: str = "drop", progress: ProgressArg = None) -> RecordTable:
    """The decoded records of what :func:`read_caliper` reads (same arguments), before
    they become a RawProfile (see :mod:`graphframe_readers.caliper.records`)."""
    options = dict(native=native, string_attributes=tuple(_as_list(string_attributes)),
                   no_path=check_no_path(no_path))
    if _is_reader_object(path):
        return reader_records(path, **options)
    if hasattr(path, "read"):
        return _file_table(path, options)[0]
    files = cali_files(path)
    report = Progress(progress, sum(os.path.getsize(f) for f in files), "bytes of .cali files")
    step = report.step if report.callback else None
    decoded = [_file_table(f, options, step) for f in files]
    if len(decoded) == 1 and not isinstance(path, (list, tuple)) and not Path(path).is_dir():
        return decoded[0][0]
    return merge_rank_tables(decoded, files, source=_describe(path))


def parse_caliper(data: Any, source: Any = None, *, native: bool = False,
                  string_attributes: Sequence[str] = (), node_ordering: bool = True,
                  no_path: str = "drop") -> RawProfile:
    """Decode ``.cali`` content already in memory (``str`` or ``bytes``).

    Parameters
    ----------
    data : str or bytes
        The text of one ``.cali`` file.
    source : any, optional
        Names the input in errors.
    native, string_attributes, node_ordering, no_path
        As for :func:`read_caliper`.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> raw = parse_caliper("__rec=node,id=12,attr=10,data=268,parent=3\\n"
    ...                     "__rec=node,id=13,attr=8,data=region,parent=12\\n"
    ...                     "__rec=node,id=14,attr=10,data=2113,parent=5\\n"
    ...                     "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
    ...                     "__rec=node,id=16,attr=13,data=main\\n"
    ...                     "__rec=ctx,ref=16,attr=15,data=1.5\\n")
    >>> raw.nodes["name"].tolist(), raw.metrics["time"].tolist()
    (['main'], [1.5])
    """
    if not isinstance(data, (str, bytes, bytearray)):
        raise ReadError(source, f"the .cali content is a {type(data).__name__}",
                        expected="the text of a .cali file (str or bytes)")
    options = dict(native=native, string_attributes=tuple(_as_list(string_attributes)),
                   no_path=check_no_path(no_path))
    table, _ = _content_table([data, source if source is not None else "<input>"], options)
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
    table.metadata = {**parse_metadata(cali.globals), **table.metadata}  # + unattributed
    return table, cali.globals


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
    several_files=True,
    suffixes=(".cali",),
)


# ------------------------------------------------------------ from_caliper
def read_caliper_any(source: Any, query: Any = None, *, node_ordering: bool = True,
                     no_path: str = "drop") -> RawProfile:
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
    no_path : {"keep", "drop"}
        Records with no call path: see :func:`read_caliper`.

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
    check_no_path(no_path)
    if hasattr(source, "read"):
        box = list(read_source(source))
        head = box[0][:64]
        if (head.encode("utf-8") if isinstance(head, str) else head).lstrip(
                b"\xef\xbb\xbf \t\r\n").startswith(b"__rec="):
            if query is not None:
                raise ReadError(box[1], "cali-query reads files, not streams",
                                expected="a .cali file path with query=, or no query")
            table, _ = _content_table(box, dict(native=False, string_attributes=(),
                                                no_path=no_path))
            return to_raw_profile(table, node_ordering=node_ordering)
        name = box.pop()
        if isinstance(box[0], str):
            box[0] = box[0].encode("utf-8")
        return decode_caliper_json(box, name, node_ordering=node_ordering, no_path=no_path)
    if not _is_cali(source):
        return read_caliper_json(source, node_ordering=node_ordering, no_path=no_path)
    if query is None:
        return read_caliper(source, node_ordering=node_ordering, no_path=no_path)
    if isinstance(source, (list, tuple)) or Path(os.fspath(source)).is_dir():
        raise ReadError(source, "cali-query reads one .cali file at a time",
                        expected="a single .cali file with query=, or no query")
    text = run_cali_query(os.fspath(source), str(query))
    doc = loads_json(text, f"cali-query output for {os.fspath(source)}")
    return parse_caliper_json(doc, os.fspath(source), node_ordering=node_ordering,
                              no_path=no_path)


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
