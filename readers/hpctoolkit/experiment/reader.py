"""HPCToolkit database, old layout: ``experiment.xml`` + ``*.metric-db`` (or ``experiment*.mdb``).

Reads the calling-context tree from ``experiment.xml`` (streamed, safely:
see :mod:`graphframe_readers.hpctoolkit.experiment.xmltree`) and the per-rank/per-thread values from the
metric files (:mod:`graphframe_readers.hpctoolkit.experiment.metricdb`). Frames, names and columns
follow Hatchet's ``from_hpctoolkit``:

* procedures (``PF``/``Pr``): frame ``{"type": "function", "name": ...}``; a
  call site's line prefixes the name (``27:MPI_Init``);
* loops (``L``): ``{"type": "loop", "file": ..., "line": ...}``, name
  ``Loop@<file basename>:<line>``;
* statements (``S``): ``{"type": "statement", "file": ..., "line": ...}``, name
  ``<file basename>:<line>``; the file is the statement's own enclosing scope
  (Hatchet uses the last file seen in document order, a bug);
* dataframe columns: the metrics (``time (inc)``, ``time``, others by their
  MetricDB names), ``nid``, ``name``, ``type`` (the XML tag), ``file``,
  ``line``, ``module``; index ``node, rank`` or ``node, rank, thread``.

Exclusive values: HPCToolkit's exclusive value of a procedure or loop also
counts the statements (and loops) lexically inside it. For a tree whose
nodes include those statements, a node's own cost is its inclusive value
minus its children's inclusive values; that is what ``time`` holds here, so
``time`` summed over a subtree always equals ``time (inc)``. Hatchet only
subtracts direct statement children and so counts loop bodies twice (see
``docs/readers/hpctoolkit.md``). A metric without an inclusive partner falls
back to Hatchet's rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

import numpy as np
import pandas as pd

from ...errors import ReadError
from ...profile import RawProfile
from ...progress import Progress, ProgressArg
from ...registry import FormatInfo
from ..common import (assemble, basename, is_inclusive_name,
                                level_column, metric_display_name, metric_units, narrow_int, rank_selection,
                                own_cost, row_index, select_names)
from .checks import check_complete, check_totals
from .fastcct import CodedTexts
from .metricdb import Block, first_shape, mdb_blocks, metricdb_blocks, read_block
from .summary import summary_profile
from .xmltree import (CallingContextTree, experiment_totals, int_column,
                             parse_experiment_xml)

NODE_COLUMNS = ("nid", "name", "type", "file", "line", "module")
#: read_tables' keys: experiment.xml's table elements
TABLE_NAMES = ("LoadModule", "File", "Procedure", "MetricDB")


def _experiment_file(directory: Path) -> Path:
    if not directory.is_dir():
        raise ReadError(directory, "not a directory" if directory.exists() else "no such directory",
                        expected="an HPCToolkit database directory")
    xml_path = directory / "experiment.xml"
    if not xml_path.is_file():
        raise ReadError(directory, "the directory has no experiment.xml",
                        expected="an HPCToolkit database (experiment.xml + *.metric-db)")
    return xml_path


def read_tables(dirname: Any) -> Dict[str, Dict[str, str]]:
    """The id -> name tables of a database's ``experiment.xml``: load modules, files,
    procedures and metric files (``MetricDB``), each in document order, keyed by the
    XML ``i`` attribute (a string). The calling-context tree is parsed and dropped.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "experiment.xml"), "w") as fh:
    ...     _ = fh.write('<HPCToolkitExperiment><SecCallPathProfile><SecHeader>'
    ...                  '<FileTable><File i="2" n="app.c"/></FileTable>'
    ...                  '</SecHeader><SecCallPathProfileData/></SecCallPathProfile>'
    ...                  '</HPCToolkitExperiment>')
    >>> read_tables(d)["File"], read_tables(d)["Procedure"]
    ({'2': 'app.c'}, {})
    >>> read_tables(os.path.join(d, "experiment.xml"))
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: ...experiment.xml: not a directory (expected an HPCToolkit database directory)
    """
    cct = parse_experiment_xml(_experiment_file(Path(dirname)))
    tables = {name: dict(cct.tables.get(name, {})) for name in TABLE_NAMES[:3]}
    tables["MetricDB"] = {m["i"]: m["n"] for m in cct.metric_dbs if "i" in m and "n" in m}
    return tables


def read_hpctoolkit(dirname: Any, *, metrics: Optional[Iterable[str]] = None,
                    ranks: Optional[Iterable[int]] = None, summary_only: bool = False,
                    progress: ProgressArg = None) -> RawProfile:
    """Read an HPCToolkit database directory of the old (XML) layout.

    Parameters
    ----------
    dirname : path
        Directory holding ``experiment.xml`` and the metric files.
    metrics : iterable of str, optional
        Keep only these metrics (our names such as ``"time"`` or the file's
        MetricDB names such as ``"CPUTIME (usec) (E)"``). Default: all.
    ranks : int or iterable of int, optional
        Read only these MPI ranks. Default: all.
    summary_only : bool
        Read the per-node values that hpcprof writes into ``experiment.xml``
        (summed over ranks and threads, 6 significant digits; index ``node``)
        instead of the metric files. A database whose ``MetricDBTable`` is
        empty is read this way anyway; one that declares metric files and has
        none raises :class:`ReadError` unless this is set.
    progress : bool or callable, optional
        ``True`` draws a progress bar on stderr; a callable receives
        ``(done, total, what)`` after each MiB of experiment.xml and each metric file.

    Examples
    --------
    >>> import os, tempfile, numpy as np
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "experiment.xml"), "w") as fh:
    ...     _ = fh.write('<HPCToolkitExperiment><SecCallPathProfile><SecHeader><MetricDBTable>'
    ...         '<MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" partner="1"/>'
    ...         '<MetricDB i="1" n="CPUTIME (usec) (E)" t="exclusive" partner="0"/>'
    ...         '</MetricDBTable><ProcedureTable><Procedure i="9" n="main"/></ProcedureTable>'
    ...         '</SecHeader><SecCallPathProfileData><PF i="1" n="9" l="3"><S i="2" l="4"/>'
    ...         '</PF></SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>')
    >>> head = b"HPCPROF-metricdb__00.10b" + np.array([2, 2], ">i4").tobytes()
    >>> values = np.array([[5.0, 5.0], [4.0, 4.0]], ">f8").tobytes()
    >>> with open(os.path.join(d, "1.app-000000-000-a8c00270-1-0.metric-db"), "wb") as fh:
    ...     _ = fh.write(head + values)
    >>> raw = read_hpctoolkit(d)
    >>> raw.node_columns["name"].tolist(), raw.metrics["time"].tolist()
    (['main', '<unknown file>:4'], [1.0, 4.0])
    >>> raw.index_levels, raw.exc_metrics, raw.inc_metrics
    (('rank',), ('time',), ('time (inc)',))
    """
    directory = Path(dirname)
    xml_path = _experiment_file(directory)
    wanted_ranks = rank_selection(directory, ranks)
    if summary_only and wanted_ranks is not None:
        raise ReadError(directory, "summary_only=True reads values summed over every rank, so "
                        "the ranks option cannot apply", position="ranks option",
                        expected="either summary_only=True or ranks=[...], not both")
    report = Progress(progress, xml_path.stat().st_size, "bytes of experiment.xml")
    has_files = any(directory.glob("*.metric-db")) or any(directory.glob("*.mdb"))
    cct = parse_experiment_xml(xml_path, report.step if report.callback else None,
                               summary=summary_only or not has_files)
    if not len(cct):
        raise ReadError(xml_path, "the calling-context tree is empty",
                        position="SecCallPathProfileData", expected="at least one PF element")
    nodes = _node_tables(cct, xml_path)
    declared = _declared_metrics(cct, xml_path)
    header, xml_line = dict(cct.header), cct.xml_line
    base_metadata = {"format": "hpctoolkit",
                     "experiment": header.get("SecCallPathProfile", header.get("Header")),
                     "xml_version": header.get("version")}
    if summary_only or (not has_files and not declared and cct.metrics):
        # the values hpcprof wrote into experiment.xml: asked for, or all the database has
        return summary_profile(directory, xml_path, cct, nodes, metrics, base_metadata,
                               NODE_COLUMNS)
    if not has_files and declared:
        raise _missing_files(directory, cct, declared)
    totals = experiment_totals(xml_path, cct.data_offset) if has_files else {}
    metric_table = list(cct.metrics)
    del cct  # the node tables hold what is needed; free the parse lists before the values
    blocks, kind = _find_blocks(directory, declared, xml_path)
    if blocks:
        shape = first_shape(blocks[0])
        _check_node_ids(nodes["nid"], shape[0], xml_line, xml_path)
        check_complete(blocks, directory)
        roots = nodes["nid"][nodes["parent"] < 0] - 1
        check_totals(directory, xml_path, totals, metric_table, declared, blocks, roots, shape)
    levels = ("rank", "thread") if any(b.thread != 0 for b in blocks) else ("rank",)
    blocks = _select_ranks(blocks, wanted_ranks, directory)
    names = [d["name"] for d in declared]
    aliases = {d["file_name"]: d["name"] for d in declared}
    chosen = select_names(directory, names, metrics, aliases) if declared else []
    count = len(nodes["parent"])
    if blocks:
        rows: Dict[str, Any] = {"node": row_index(count, len(blocks)),
                                "rank": level_column([b.rank for b in blocks], count)}
        if "thread" in levels:
            rows["thread"] = level_column([b.thread for b in blocks], count)
        rows.update(_read_values(blocks, declared, chosen, nodes, progress))
    else:
        rows, levels = {"node": row_index(count, 1)}, ()
    exc = [d["name"] for d in declared if d["name"] in chosen and not d["inclusive"]]
    inc = [d["name"] for d in declared if d["name"] in chosen and d["inclusive"]]
    pairs = {d["name"]: d["partner_name"] for d in declared
             if d["name"] in exc and d["partner_name"] in inc}
    default = "time" if "time" in exc else (exc[0] if exc else (inc[0] if inc else None))
    metadata = dict(base_metadata, metric_files=kind, profiles=len(blocks),
                    units=metric_units({d["name"]: d["file_name"] for d in declared
                                        if d["name"] in chosen}))
    return assemble(directory, nodes["parent"], nodes["frames"], nodes["columns"], rows, levels,
                    exc=exc, inc=inc, pairs=pairs, default=default, metadata=metadata,
                    order=chosen + list(NODE_COLUMNS))


def _missing_files(directory: Path, cct: CallingContextTree,
                   declared: List[Dict[str, Any]]) -> ReadError:
    """experiment.xml's MetricDBTable names metric files, and the directory has none."""
    globs = sorted({d["attrs"].get("db-glob", "*.metric-db") for d in declared})
    summary = " (or read the per-node values summed over ranks that experiment.xml also " \
              "holds: summary_only=True in Python, --option summary_only=true on the " \
              "command line)" if cct.summary[0] else ""
    return ReadError(directory, f"experiment.xml's MetricDBTable declares {len(declared)} "
                     f"metrics stored in {' and '.join(repr(g) for g in globs)} files, but the "
                     "directory has no *.metric-db file and no experiment*.mdb file" + summary,
                     position="directory listing",
                     expected="the metric files written by hpcprof/hpcprof-mpi")


# --------------------------------------------------------------- tree tables
def _node_tables(cct: CallingContextTree, xml_path: Path) -> Dict[str, Any]:
    """Frames and per-node columns from the parsed tree.

    Texts repeat (one procedure or statement in many contexts), so each column
    is factorised and names are built once per distinct (kind, reference,
    line) combination, then spread back with one ``take``.
    """
    tag_code, tag_names = _factor(cct.tag)
    tag = np.array(tag_names + [None], dtype=object)[tag_code]
    code_of = {t: k for k, t in enumerate(tag_names)}
    is_func = np.isin(tag_code, [code_of.get("PF", -1), code_of.get("Pr", -1)])
    is_loop = tag_code == code_of.get("L", -1)
    procs = cct.tables.get("Procedure", {})
    files = cct.tables.get("File", {})
    modules = cct.tables.get("LoadModule", {})
    line = int_column(cct.l, xml_path, "line", cct.xml_line)
    call_line = int_column(cct.call_line, xml_path, "call-site line", cct.xml_line)
    f_code, f_refs = _factor(cct.f)
    file_text = np.array([None if f is None else files.get(f, f) for f in f_refs] + [None],
                         dtype=object)
    file_arr = file_text[f_code]
    m_code, m_refs = _factor(cct.lm)
    module_text = np.array([None if m is None else modules.get(m, m) for m in m_refs] + [None],
                           dtype=object)
    module = np.where(is_func, module_text[m_code], None)
    n_code, n_refs = _factor(cct.n)
    n_refs.append(None)  # the code of an absent reference
    first, inverse = _first_of_each(tag_code, np.where(is_func, n_code, f_code),
                           np.where(is_func, call_line, line))
    texts = []  # one name per distinct (kind, reference, line)
    for func, loop, ref, fname, call, own in zip(
            is_func[first].tolist(), is_loop[first].tolist(), n_code[first].tolist(),
            file_arr[first].tolist(), call_line[first].tolist(), line[first].tolist()):
        if func:
            ref = n_refs[ref]
            proc = "<unknown procedure>" if ref is None else procs.get(ref, ref)
            texts.append(f"{call}:{proc}" if call != 0 else proc)
        else:
            base = "<unknown file>" if fname is None else basename(fname)
            texts.append(f"Loop@{base}:{own}" if loop else f"{base}:{own}")
    names_arr = np.array(texts, dtype=object)[inverse]
    # one Python str per kind, shared by every node (astype(object) on a numpy
    # unicode array would make a million copies: 55 MB at a million nodes)
    kinds = np.array(["statement", "loop", "function"], dtype=object)
    frame_type = kinds[np.where(is_func, 2, is_loop.astype(np.int8))]
    frames = {
        "type": frame_type,
        "name": np.where(is_func, names_arr, None),
        "file": np.where(is_func, None, file_arr),
        "line": pd.array(np.where(is_func, 0, line), dtype="Int64"),
    }
    frames["line"][is_func] = pd.NA
    nid = np.frombuffer(cct.nid, dtype=np.int64) if len(cct.nid) else np.zeros(0, np.int64)
    columns = {"nid": narrow_int(nid), "name": names_arr, "type": tag, "file": file_arr,
               "line": narrow_int(line), "module": module}
    return {"parent": np.frombuffer(cct.parent, dtype=np.int64).copy(), "frames": frames,
            "columns": columns, "nid": nid, "is_statement": tag_code == code_of.get("S", -1)}


def _factor(values: List[Any]):
    """Integer codes (None -> the last code) and the distinct values, in first-seen order."""
    if isinstance(values, CodedTexts):  # the fast route's references come coded already
        return values.codes, list(values.texts)
    codes, uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=True)
    codes = np.where(codes < 0, len(uniques), codes)
    return codes, list(uniques)


def _first_of_each(*keys: np.ndarray):
    """Position of the first row of each distinct key combination, and each row's group."""
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    for key in keys:
        code, _ = pd.factorize(key)
        combined = combined * (int(code.max()) + 1 if len(code) else 1) + code
        combined, _ = pd.factorize(combined)
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


# ------------------------------------------------------------ metric tables
def _declared_metrics(cct: CallingContextTree, xml_path: Path) -> List[Dict[str, Any]]:
    """MetricDB entries in column order with our names, kinds and partners."""
    entries = []
    for pos, attrs in enumerate(cct.metric_dbs):
        try:
            ident = int(attrs.get("i", pos))
            column = int(attrs["db-id"]) if "db-id" in attrs else None
        except ValueError as exc:
            raise ReadError(xml_path, f"MetricDB entry {pos} has a non-integer id",
                            position="MetricDBTable", expected="integer i and db-id") from exc
        entries.append((ident, column, attrs))
    entries.sort(key=lambda e: e[0])
    declared = []
    by_ident = {}
    for pos, (ident, column, attrs) in enumerate(entries):
        file_name = attrs.get("n", f"metric {ident}")
        kind = attrs.get("t")
        inclusive = kind == "inclusive" if kind in ("inclusive", "exclusive") \
            else is_inclusive_name(file_name)
        d = {"ident": ident, "column": pos if column is None else column, "file_name": file_name,
             "name": metric_display_name(file_name), "inclusive": inclusive,
             "partner": attrs.get("partner"), "partner_name": None, "attrs": attrs}
        declared.append(d)
        by_ident[str(ident)] = d
    names = [d["name"] for d in declared]
    if len(set(names)) != len(names):
        raise ReadError(xml_path, "two MetricDB entries have the same name",
                        position="MetricDBTable", expected="distinct metric names")
    by_file_name = {d["file_name"]: d for d in declared}
    for d in declared:
        if d["inclusive"]:
            continue
        partner = by_ident.get(d["partner"] or "")
        if partner is None and d["file_name"].endswith("(E)"):
            partner = by_file_name.get(d["file_name"][:-3] + "(I)")
        if partner is not None and partner["inclusive"]:
            d["partner_name"] = partner["name"]
            d["partner_column"] = partner["column"]
    return declared


def _find_blocks(directory: Path, declared: List[Dict[str, Any]], xml_path: Path):
    blocks = metricdb_blocks(directory)
    kind = "metric-db"
    if not blocks:
        packed = sorted(directory.glob("*.mdb"))
        blocks = [b for p in packed for b in mdb_blocks(p)]
        kind = "mdb" if blocks else None
    if not blocks and declared:
        raise ReadError(directory, f"experiment.xml declares {len(declared)} metrics in its "
                        "MetricDBTable but the directory has no *.metric-db files and no "
                        "experiment*.mdb file", position="directory listing",
                        expected="the metric files written by hpcprof/hpcprof-mpi")
    if blocks:
        _, m = first_shape(blocks[0])
        if m != len(declared):
            raise ReadError(blocks[0].path, f"the file holds {m} metrics but experiment.xml's "
                            f"MetricDBTable declares {len(declared)}", position="byte 28",
                            expected=f"{len(declared)} metrics per node")
        columns = sorted(d["column"] for d in declared)
        if columns != list(range(m)):
            raise ReadError(xml_path, f"the MetricDB db-id values {columns} do not number the "
                            f"file's {m} metric columns", position="MetricDBTable",
                            expected=f"db-id values 0..{m - 1}, each once")
    return blocks, kind


def _select_ranks(blocks: List[Block], wanted: Optional[List[int]], directory: Path):
    if wanted is None:
        return blocks
    have = sorted({b.rank for b in blocks})
    missing = sorted(set(wanted).difference(have))
    if missing:
        raise ReadError(directory, f"rank(s) {missing} not in the database",
                        position="ranks option", expected=f"ranks among {have}")
    return [b for b in blocks if b.rank in set(wanted)]


def _check_node_ids(nid: np.ndarray, n_total: int, xml_line, xml_path: Path) -> None:
    """Every node's XML id names a distinct row of the metric files (ids 1..n_total)."""
    bad = np.flatnonzero((nid < 1) | (nid > n_total))
    if len(bad):
        k = int(bad[0])
        raise ReadError(xml_path, f"node i={nid[k]} has no row in the metric files, which hold "
                        f"nodes 1..{n_total}", position=f"line {xml_line[k]}",
                        expected=f"node ids between 1 and {n_total}")
    uniq, first = np.unique(nid, return_index=True)
    if len(uniq) != len(nid):
        dup = int(np.setdiff1d(np.arange(len(nid)), first)[0])
        raise ReadError(xml_path, f"node id i={nid[dup]} is used twice",
                        position=f"line {xml_line[dup]}", expected="unique node ids")


def _read_values(blocks, declared, chosen, nodes, progress) -> Dict[str, np.ndarray]:
    """Decode every block into one column per chosen metric (block-major rows)."""
    n_total, m = first_shape(blocks[0])
    rows = nodes["nid"] - 1
    count = len(rows)
    parent = nodes["parent"]
    child = np.flatnonzero(parent >= 0)
    stmt = np.flatnonzero(nodes["is_statement"] & (parent >= 0))
    out = {name: np.empty(count * len(blocks), dtype=np.float64) for name in chosen}
    wanted = [d for d in declared if d["name"] in chosen]
    report = Progress(progress, len(blocks), "metric files")
    for b, block in enumerate(blocks):
        values = read_block(block, n_total, m)[rows]
        span = slice(b * count, (b + 1) * count)
        for d in wanted:
            if d["inclusive"]:
                out[d["name"]][span] = values[:, d["column"]]
            elif "partner_column" in d:
                inc = values[:, d["partner_column"]]
                out[d["name"]][span] = own_cost(inc, child, parent[child])
            else:
                own = values[:, d["column"]]
                out[d["name"]][span] = own - np.bincount(parent[stmt], weights=own[stmt],
                                                         minlength=count)
        report.step()
    return out


def _sniff(path: Path, head: bytes) -> bool:
    return path.is_dir() and (path / "experiment.xml").is_file()


FORMAT = FormatInfo(
    name="hpctoolkit",
    read=read_hpctoolkit,
    sniff=_sniff,
    description="HPCToolkit database, old layout (experiment.xml + *.metric-db)",
    markers=("experiment.xml",),
)
