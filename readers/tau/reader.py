"""TAU profiles: a directory of ``profile.<node>.<context>.<thread>`` files.

A single-metric run writes the files directly in the directory; a
multi-metric run writes one ``MULTI__<METRIC>`` sub-directory per metric,
each with the same files. Each file is one process (node) and thread; see
:mod:`graphframe_readers.tau.text` for the text layout.

* **Call-path profiles** (``TAU_CALLPATH=1``: timers named ``a => b => c``):
  one node per call path. Top-level timers (flat timers that never end a call
  path, such as ``.TAU application``) are roots with their own values; the
  flat copies of other timers are summaries of their call paths and are not
  read. A call path whose prefix has no line of its own (``TAU_CALLPATH_DEPTH``
  cut it) gets a node with no values (NaN).
* **Flat profiles**: one node per timer, all roots, one row per process and
  thread (never one node per thread).

Rows: every node gets a row for every (node, context, thread) file; a timer
that did not run there has 0 calls and 0 time. Index levels: ``rank`` (TAU's
node), ``context``, ``thread``, each only when it varies (as Hatchet).
Columns: ``name``, ``file``, ``module``, ``line``, ``end_line``, ``Calls``,
``Subrs``, then per metric ``M`` (exclusive) and ``M (inc)`` (inclusive) where
``TIME``/``CPU_TIME`` are called ``time``; then ``group``. Default metric
``time (inc)`` as in Hatchet.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Mapping, Tuple

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder
from ..common.rowfill import complete_rows, first_per_node
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo
from .text import TauFile, clean_timer, describe_timer, parse_profile_text, split_callpath

_FILE = re.compile(r"^profile\.(\d+)\.(\d+)\.(\d+)$")


def read_tau(path: Any) -> RawProfile:
    """Read a TAU profile directory (or one ``profile.N.C.T`` file).

    Parameters
    ----------
    path : str or path-like
        The directory (its ``profile.N.C.T`` files, or its ``MULTI__<METRIC>``
        sub-directories, one per metric), or a single profile file. A TAU
        profile is a set of files, so there is no stream form; see
        :func:`parse_tau` for texts already in memory.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for rank, t in ((0, 5), (1, 7)):
    ...     with open(os.path.join(d, f"profile.{rank}.0.0"), "w") as f:
    ...         _ = f.write('2 templated_functions_MULTI_TIME\\n'
    ...             '# Name Calls Subrs Excl Incl ProfileCalls #\\n'
    ...             f'"main" 1 1 1 {t + 1} 0 GROUP="TAU_DEFAULT"\\n'
    ...             f'"main => work" 1 0 {t} {t} 0 GROUP="TAU_CALLPATH"\\n0 aggregates\\n')
    >>> raw = read_tau(d)
    >>> raw.nodes["name"].tolist(), raw.index_levels
    (['main', 'work'], ('rank',))
    >>> raw.metrics[["node", "rank", "time", "time (inc)"]].values.tolist()
    [[0.0, 0.0, 1.0, 6.0], [1.0, 0.0, 5.0, 5.0], [0.0, 1.0, 1.0, 8.0], [1.0, 1.0, 7.0, 7.0]]
    """
    metric_dirs, files = _layout(Path(path))
    per_metric = []
    for mdir in metric_dirs:
        parsed = []
        for name, key in files:
            fpath = mdir / name if mdir is not None else Path(path)
            parsed.append((key, parse_profile_text(_text(_read(fpath)), fpath)))
        per_metric.append(parsed)
    return build_tau(per_metric, source=path)


def parse_tau(files: Any, source: Any = None) -> RawProfile:
    """Decode TAU profile files already in memory.

    Parameters
    ----------
    files : str, bytes or mapping
        The text of one ``profile.N.C.T`` file (read as process 0, thread
        0), or a mapping from file names to texts: ``profile.N.C.T`` for a
        single-metric run, ``MULTI__<METRIC>/profile.N.C.T`` for several
        metrics (every metric needs the same files).
    source : any, optional
        Names the profile in errors (a file's errors name ``source/name``).

    Returns
    -------
    RawProfile
        As :func:`read_tau` gives for the same files.

    Examples
    --------
    >>> text = ('2 templated_functions_MULTI_TIME\\n# Name Calls Subrs Excl Incl ProfileCalls #\\n'
    ...         '"main" 1 1 2 5 0 GROUP="TAU_DEFAULT"\\n'
    ...         '"main => solve" 1 0 3 3 0 GROUP="TAU_CALLPATH"\\n0 aggregates\\n')
    >>> raw = parse_tau({"profile.0.0.0": text, "profile.1.0.0": text})
    >>> raw.index_levels, raw.nodes["name"].tolist(), raw.metrics["time"].tolist()
    (('rank',), ['main', 'solve'], [2.0, 3.0, 2.0, 3.0])
    """
    if isinstance(files, (str, bytes, bytearray)):
        files = {"profile.0.0.0": files}
    if not isinstance(files, Mapping) or not files:
        raise ReadError(source, f"the TAU files are a {type(files).__name__}"
                        + (" without entries" if isinstance(files, Mapping) else ""),
                        expected="the text of a profile file, or a mapping of file names "
                                 "(profile.N.C.T or MULTI__<METRIC>/profile.N.C.T) to texts")
    by_dir: Dict[str, List[Tuple[Tuple[int, int, int], str, Any]]] = {}
    for name, text in files.items():
        folder, _, base = str(name).rpartition("/")
        m = _FILE.match(base)
        if m is None or (folder and not folder.startswith("MULTI__")) or "/" in folder:
            raise ReadError(source, f"file name {str(name)!r} is not a TAU profile name",
                            expected="profile.<node>.<context>.<thread>, or "
                                     "MULTI__<METRIC>/profile.<node>.<context>.<thread>")
        by_dir.setdefault(folder, []).append(
            (tuple(int(x) for x in m.groups()), base, text))
    if "" in by_dir and len(by_dir) > 1:
        raise ReadError(source, "profile files both at the top and in MULTI__ folders",
                        expected="either one metric (profile.N.C.T) or MULTI__<METRIC>/ folders")
    folders = sorted(by_dir)
    names = [sorted(base for _, base, _ in by_dir[f]) for f in folders]
    for folder, listed in zip(folders[1:], names[1:]):
        if listed != names[0]:
            missing = sorted(set(listed) ^ set(names[0]))
            raise ReadError(source, f"metric folders hold different profile files ({missing[0]})",
                            position=folder, expected=f"the same files as {folders[0]}")
    per_metric = []
    for folder in folders:
        parsed = []
        for key, base, text in sorted(by_dir[folder], key=lambda item: item[0]):
            name = f"{folder}/{base}" if folder else base
            where = f"{source}/{name}" if source is not None else name
            parsed.append((key, parse_profile_text(_text(text), where)))
        per_metric.append(parsed)
    return build_tau(per_metric, source=source)


def _layout(path: Path) -> Tuple[List[Any], List[Tuple[str, Tuple[int, int, int]]]]:
    if path.is_file():
        m = _FILE.match(path.name)
        key = tuple(int(x) for x in m.groups()) if m else (0, 0, 0)
        return [None], [(path.name, key)]
    if not path.is_dir():
        raise ReadError(path, "no such file or directory")
    own = _profiles(path)
    if own:
        return [path], own
    subdirs = sorted(d for d in path.iterdir() if d.is_dir() and d.name.startswith("MULTI__"))
    if not subdirs:
        raise ReadError(path, "the directory holds no profile.N.C.T file",
                        expected="TAU profile.<node>.<context>.<thread> files or MULTI__<metric> "
                        "sub-directories")
    files = _profiles(subdirs[0])
    for d in subdirs[1:]:
        other = _profiles(d)
        if [f for f, _ in other] != [f for f, _ in files]:
            missing = sorted({f for f, _ in files} ^ {f for f, _ in other})
            raise ReadError(d, f"metric directories hold different profile files ({missing[0]})",
                            expected=f"the same files as {subdirs[0]}")
    return subdirs, files


def _profiles(d: Path) -> List[Tuple[str, Tuple[int, int, int]]]:
    found = []
    for p in d.iterdir():
        m = _FILE.match(p.name)
        if m and p.is_file():
            found.append((p.name, tuple(int(x) for x in m.groups())))
    return sorted(found, key=lambda item: item[1])


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ReadError(path, f"cannot read the file: {exc.strerror}") from exc


def _text(data: Any) -> str:
    """A profile file's text (undecodable bytes replaced: TAU writes timer names as given)."""
    return data if isinstance(data, str) else bytes(data).decode("utf-8", errors="replace")


def build_tau(per_metric: List[List[Tuple[Tuple[int, int, int], TauFile]]],
              source: Any = None) -> RawProfile:
    """Combine parsed profile files into one profile.

    Parameters
    ----------
    per_metric : list of lists of ((node, context, thread), TauFile)
        Outer list: one entry per metric (``MULTI__<METRIC>`` directory);
        inner list: the parsed ``profile.N.C.T`` files of that metric.
    source : any, optional
        Names the profile (the directory) in the RawProfile.

    Raises
    ------
    ReadError
        A timer listed twice in one file (file and both lines), no timers at
        all (the first file, line 1).

    Examples
    --------
    >>> from graphframe_readers.tau.text import parse_profile_text
    >>> text = ('2 templated_functions_MULTI_TIME\\n# Name Calls Subrs Excl Incl ProfileCalls #\\n'
    ...         '"main" 1 1 2 5 0 GROUP="TAU_DEFAULT"\\n'
    ...         '"main => solve" 1 0 3 3 0 GROUP="TAU_CALLPATH"\\n0 aggregates\\n')
    >>> raw = build_tau([[((0, 0, 0), parse_profile_text(text, "profile.0.0.0"))]], "run")
    >>> raw.nodes["name"].tolist(), raw.metrics[["time", "time (inc)"]].values.tolist()
    (['main', 'solve'], [[2.0, 5.0], [3.0, 3.0]])
    """
    first = per_metric[0]
    callpath = any("=>" in name for _, f in first for name in f.names)
    nodes = _Nodes()
    tables = []
    for m, parsed in enumerate(per_metric):
        metric = _metric_name(parsed[0][1].metric)
        table = _rows(parsed, nodes, callpath, metric, keep_counts=(m == 0))
        tables.append(table)
    if not nodes.parent:
        f = first[0][1]
        raise ReadError(f.source if f.source is not None else source,
                        "the profile holds no timers (the timer count of every file is 0)",
                        position="line 1", expected="'<count> templated_functions_MULTI_<METRIC>' "
                        "with a count of at least 1")
    rows = tables[0]
    for extra in tables[1:]:
        rows = rows.merge(extra, how="outer", on=["node", "rank", "context", "thread"])
    return _assemble(rows, nodes, [_metric_name(p[0][1].metric) for p in per_metric],
                     first[0][1].attributes, source)


def _metric_name(metric: str) -> str:
    return "time" if metric in ("TIME", "CPU_TIME") else metric


class _Nodes:
    """Interns call paths; creates prefix nodes on the way."""

    def __init__(self) -> None:
        self.ids: Dict[Tuple[str, ...], int] = {}
        self.parent: List[int] = []
        self.label: List[str] = []

    def get(self, path: Tuple[str, ...]) -> int:
        node = self.ids.get(path)
        if node is not None:
            return node
        missing = [path]
        while len(missing[-1]) > 1 and missing[-1][:-1] not in self.ids:
            missing.append(missing[-1][:-1])
        for p in reversed(missing):
            parent = self.ids[p[:-1]] if len(p) > 1 else -1
            self.ids[p] = len(self.parent)
            self.parent.append(parent)
            self.label.append(p[-1])
        return self.ids[path]


def _rows(parsed, nodes: _Nodes, callpath: bool, metric: str, keep_counts: bool) -> pd.DataFrame:
    leaves = set()
    if callpath:
        for _, f in parsed:
            leaves.update(split_callpath(n)[-1] for n in f.names if "=>" in n)
    node_col, level_cols, value_blocks, group_col, where = [], [], [], [], []
    for i, (key, f) in enumerate(parsed):
        for k, (name, group, values) in enumerate(zip(f.names, f.groups, f.values)):
            if "=>" in name:
                path = split_callpath(name)
            else:
                flat = clean_timer(name)
                if callpath and flat in leaves:
                    continue
                path = (flat,)
            node_col.append(nodes.get(path))
            level_cols.append(key)
            value_blocks.append(values)
            group_col.append(group)
            where.append((i, k + 3))  # file, line of the timer
    values = np.array(value_blocks, dtype=float).reshape(len(value_blocks), 4)
    levels = np.array(level_cols, dtype=np.int64).reshape(len(level_cols), 3)
    table = pd.DataFrame({"node": np.array(node_col, dtype=np.int64), "rank": levels[:, 0],
                          "context": levels[:, 1], "thread": levels[:, 2]})
    _refuse_repeats(table, where, parsed, nodes)
    if keep_counts:
        table["Calls"] = values[:, 0]
        table["Subrs"] = values[:, 1]
        table["group"] = np.array(group_col, dtype=object)
    table[metric] = values[:, 2]
    table[f"{metric} (inc)"] = values[:, 3]
    return table


def _refuse_repeats(table: pd.DataFrame, where: List[Tuple[int, int]], parsed,
                    nodes: _Nodes) -> None:
    """Two lines of one file naming the same timer (after markers such as
    ``[THROTTLED]`` and spacing around ``=>`` are removed) are an error."""
    keys = ["node", "rank", "context", "thread"]
    dup = table.duplicated(keys)
    if not dup.any():
        return
    second = int(np.flatnonzero(dup.to_numpy())[0])
    same = (table[keys] == table[keys].iloc[second]).all(axis=1).to_numpy()
    first = int(np.flatnonzero(same)[0])
    f = parsed[where[second][0]][1]
    label = " => ".join(_path_of(nodes, int(table["node"].iloc[second])))
    raise ReadError(f.source, f"timer {label!r} appears twice (first on line {where[first][1]})",
                    position=f"line {where[second][1]}", expected="one line per timer")


def _path_of(nodes: _Nodes, node: int) -> List[str]:
    out = []
    while node >= 0:
        out.append(nodes.label[node])
        node = nodes.parent[node]
    return out[::-1]


def _assemble(rows: pd.DataFrame, nodes: _Nodes, metrics: List[str],
              attributes: Dict[str, str], source: Any) -> RawProfile:
    n = len(nodes.parent)
    level_names = [c for c in ("rank", "context", "thread") if rows[c].nunique() > 1]
    row_less = np.setdiff1d(np.arange(n), rows["node"].to_numpy())
    if len(row_less):  # prefixes cut by TAU_CALLPATH_DEPTH: no values anywhere
        combo = rows[["rank", "context", "thread"]].iloc[0]
        filler = pd.DataFrame({"node": row_less, **{c: int(combo[c]) for c in combo.index}})
        rows = pd.concat([rows, filler], ignore_index=True)
    value_cols = [c for c in rows.columns if c not in ("node", "rank", "context", "thread")]
    columns = {c: rows[c].to_numpy() for c in value_cols}
    levels = {c: rows[c].to_numpy() for c in level_names}
    zero = [c for c in value_cols if c != "group"]
    node_ids, levels, columns = complete_rows(rows["node"].to_numpy(), levels, columns, zero)
    described = [describe_timer(label) for label in nodes.label]
    frames = {"type": np.full(n, "function", dtype=object),
              "name": np.array([d[0] for d in described], dtype=object)}
    node_columns = {
        "name": frames["name"],
        "file": np.array([d[1] for d in described], dtype=object),
        "module": np.array([d[2] for d in described], dtype=object),
        "line": np.array([d[3] for d in described], dtype=np.int64),
        "end_line": np.array([d[4] for d in described], dtype=np.int64),
    }
    columns["group"] = first_per_node(node_ids, columns["group"], n)[node_ids]
    builder = ProfileBuilder(source, index_levels=level_names)
    ids = builder.add_nodes(nodes.parent, frames, columns=node_columns)
    builder.add_rows(ids[node_ids], columns, **levels)
    exc = list(metrics)
    inc = [f"{m} (inc)" for m in metrics]
    order = ["name", "file", "module", "line", "end_line", "Calls", "Subrs"]
    for m in metrics:
        order += [m, f"{m} (inc)"]
    return builder.build(
        exc_metrics=exc, inc_metrics=inc, inclusive_of=dict(zip(exc, inc)),
        default_metric=inc[0],
        metadata={"format": "tau", "attributes": attributes,
                  # TAU measures TIME and CPU_TIME (called "time") in microseconds
                  "units": {c: "microseconds" for c in ("time", "time (inc)") if c in exc + inc}},
        aggregations={"Calls": "sum", "Subrs": "sum"},  # counts add up when rows merge
        columns=order + ["group"])


def _sniff(path: Path, head: bytes) -> bool:
    if path.is_dir():
        if any(_FILE.match(p.name) for p in path.iterdir()):
            return True
        return any(d.name.startswith("MULTI__") and d.is_dir() for d in path.iterdir())
    return bool(_FILE.match(path.name)) and head[:40].split(b" ", 1)[-1].startswith(
        b"templated_functions")


FORMAT = FormatInfo(
    name="tau",
    read=read_tau,
    sniff=_sniff,
    description="TAU profile directory (profile.<node>.<context>.<thread> files)",
    markers=("profile.*.*.*", "MULTI__*"),
)
