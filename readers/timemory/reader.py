"""timemory call-tree JSON (``*.tree.json``), one file or a directory of them.

Layout: ``{"timemory": {COMPONENT: {...properties..., "mpi"|"upc"|"upcxx"|"graph": [...]}}}``.
Under ``mpi`` (or ``upc``/``upcxx``) there is one entry per rank; ``graph``
holds a single process. Each entry is a tree (or a list of trees, one per
thread) of ``{"node": {...}, "children": [...]}`` where ``node`` has
``hash``, ``prefix`` (the region label), ``tid``/``pid`` (lists of ids: more
than one means the values are aggregated over those threads/processes),
``inclusive``/``exclusive`` with ``entry`` (``laps``...) and ``stats``
(``sum``, ``min``, ``max``, ``sqr``, ``mean``, ``stddev``; lists for vector
components whose ``type`` is a list of labels). Nodes with hash 0 are
placeholders; their children attach to the placeholder's parent.

One node per call path (region names from the root), rows per rank (and per
thread when a region has rows for several threads of a rank). Columns, as
Hatchet names them: ``type`` (``region``), ``name``, ``file``, ``line``,
``pid``, ``count`` (inclusive laps), ``thread`` (when not an index level:
the thread ids the values cover, e.g. ``"1,2"``), then ``<stat>.<metric>``
and ``<stat>.<metric> (inc)`` for every statistic. Only ``sum.*`` columns are
declared metrics (additive); ``min``, ``max``, ``sqr``, ``mean`` and
``stddev`` are statistics that must not be summed, so they are attributes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..builder import ProfileBuilder
from ..common.jsonfile import as_document, is_json_number, load_json
from ..common.rowfill import complete_rows
from ..common.source import is_stream, read_source
from ..errors import ReadError, brief
from ..profile import RawProfile
from ..registry import FormatInfo, looks_like_json

_PATTERNS = (  # region label forms: (regex, how the name is made)
    (re.compile(r"^\[(?P<func>.*)\]\[(?P<file>.*)\]$"), "func"),
    (re.compile(r"^(?P<head>.+?)\s+\[(?P<func>\S+?)/(?P<file>\S+):(?P<line>\d+)\]$"), "head"),
    (re.compile(r"^(?P<func>\S+?)[@/](?P<file>\S+?):(?P<line>\d+)(?:/+(?P<tail>.*))?$"), "func"),
    (re.compile(r"^(?P<func>\S+?)[@/](?P<file>\S+?)/(?P<tail>.*)$"), "func"),
    (re.compile(r"^(?P<func>\S+?):(?P<line>\d+)(?:/+(?P<tail>.*))?$"), "func"),
)
_SECTIONS = ("mpi", "upc", "upcxx")
_INT64_MAX = 2**63 - 1


def parse_region(prefix: str) -> Tuple[str, Optional[str], Optional[int]]:
    """``(name, file, line)`` of a timemory region label.

    Examples
    --------
    >>> parse_region("generate_history@hatchet_tests.cpp:114/outer-loop-0")
    ('generate_history/outer-loop-0', 'hatchet_tests.cpp', 114)
    >>> parse_region("generate_history/do-sleep")
    ('generate_history/do-sleep', None, None)
    """
    for pattern, kind in _PATTERNS:
        m = pattern.match(prefix)
        if not m:
            continue
        parts = m.groupdict()
        name = parts["head"].rstrip() if kind == "head" else parts["func"]
        if parts.get("tail"):
            name = f"{name}/{parts['tail']}"
        line = parts.get("line")
        return name, parts.get("file"), None if line is None else int(line)
    return prefix, None, None


def read_timemory(path: Any, *, select: Optional[List[str]] = None) -> RawProfile:
    """Read a timemory ``*.tree.json`` file, every one in a directory, or a stream.

    Parameters
    ----------
    path : str, path-like or file-like
        A ``*.tree.json`` file, a directory of them (components merged), or an
        open text or binary stream of one.
    select : list of str, optional
        Keep only the named components (lower case, e.g. ``["wall_clock"]``).

    Returns
    -------
    RawProfile
        See :func:`parse_timemory`.

    Examples
    --------
    >>> import json, os, tempfile
    >>> node = lambda p, s, kids: {"node": {"hash": 1, "prefix": p, "tid": [0], "pid": [7],
    ...     "inclusive": {"entry": {"laps": 1}, "stats": {"sum": s}},
    ...     "exclusive": {"entry": {"laps": 1}, "stats": {"sum": s / 2}}}, "children": kids}
    >>> doc = {"timemory": {"wall_clock": {"graph": [[node("main", 2.0, [node("io", 1.0, [])])]]}}}
    >>> p = os.path.join(tempfile.mkdtemp(), "wall.tree.json")
    >>> with open(p, "w") as f:
    ...     json.dump(doc, f)
    >>> raw = read_timemory(p)
    >>> raw.nodes["name"].tolist(), raw.metrics[["sum.wall_clock", "sum.wall_clock (inc)"]].values.tolist()
    (['main', 'io'], [[1.0, 2.0], [0.5, 1.0]])
    """
    if is_stream(path):
        data, source = read_source(path)
        return parse_timemory(data, source=source, select=select)
    p = Path(path)
    if p.is_dir():
        files = sorted(p.glob("*.tree.json"))
        if not files:
            raise ReadError(path, "the directory holds no *.tree.json file",
                            expected="timemory tree JSON files")
        components: Dict[str, Any] = {}
        for f in files:
            components.update(_components(load_json(f), f))
        return parse_timemory({"timemory": components}, source=path, select=select)
    return parse_timemory(load_json(path), source=path, select=select)


def _components(doc: Any, source: Any) -> Dict[str, Any]:
    if not isinstance(doc, dict) or not isinstance(doc.get("timemory"), dict):
        raise ReadError(source, f"the document is a {type(doc).__name__} without a "
                        "'timemory' object", position="top level",
                        expected='{"timemory": {component: {...}}}')
    return doc["timemory"]


def parse_timemory(doc: Any, source: Any = None, *, select: Optional[List[str]] = None
                   ) -> RawProfile:
    """Decode a timemory tree document: its JSON text (``str``/``bytes``) or the loaded dict.

    Parameters
    ----------
    doc : dict, str or bytes
        ``{"timemory": {COMPONENT: {..., "mpi"|"upc"|"upcxx"|"graph": [...]}}}``.
    source : any, optional
        Names the input in errors.
    select : list of str, optional
        Keep only these components (lower case, e.g. ``["wall_clock"]``).

    Raises
    ------
    ReadError
        Naming the JSON path (``timemory.wall.mpi[1][0].children[2].node``)
        of a missing or malformed part, or a number out of range.

    Examples
    --------
    >>> node = lambda p, s, kids: {"node": {"hash": 1, "prefix": p, "tid": [0], "pid": [7],
    ...     "inclusive": {"entry": {"laps": 3}, "stats": {"sum": s}},
    ...     "exclusive": {"entry": {"laps": 3}, "stats": {"sum": s / 4}}}, "children": kids}
    >>> doc = {"timemory": {"wall_clock": {"graph": [[node("main@app.cpp:10", 4.0, [])]]}}}
    >>> raw = parse_timemory(doc, "wall.tree.json")
    >>> raw.nodes["name"].tolist(), raw.metrics[["count", "sum.wall_clock"]].values.tolist()
    (['main'], [[3.0, 1.0]])
    >>> import json
    >>> parse_timemory(json.dumps(doc)).metrics["sum.wall_clock"].tolist()
    [1.0]
    """
    doc = as_document(doc, source)
    walk = _Walk(source)
    for key, data in _components(doc, source).items():
        metric = key.replace("tim::", "").replace("component::", "").lower()
        if select is not None and metric not in select:
            continue
        if not isinstance(data, dict):
            raise ReadError(source, f"component {key!r} is a {type(data).__name__}",
                            position=f"timemory.{key}", expected="an object")
        labels = data.get("type")
        walk.labels = _vector_labels(labels) if isinstance(labels, (list, dict)) else None
        walk.metric = metric
        if "graph" in data:
            walk.section(data["graph"], None, f"timemory.{key}.graph")
        offset = 0
        for section in _SECTIONS:
            if section in data:
                walk.section(data[section], offset, f"timemory.{key}.{section}")
                offset = _mpi_size(data.get("mpi_size"), source, f"timemory.{key}.mpi_size")
    return walk.build()


def _mpi_size(value: Any, source: Any, where: str) -> int:
    """The rank offset of the next section (``upc`` after ``mpi``)."""
    if value is None:
        return 0
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31):
        raise ReadError(source, f"'mpi_size' is {brief(value)}", position=where,
                        expected="the number of MPI ranks (an integer from 0 to 2**31 - 1)")
    return value


def _vector_labels(labels: Any) -> List[str]:
    items = list(labels.keys()) if isinstance(labels, dict) else list(labels)
    return [str(x).strip().replace(" ", "-").replace("_", "-") for x in items]


class _Walk:
    def __init__(self, source: Any) -> None:
        self.source = source
        self.metric = ""
        self.labels: Optional[List[str]] = None
        self.paths: Dict[Tuple[int, str], int] = {}  # (parent node, name) -> node
        self.parent: List[int] = []
        self.frames: List[Tuple[str, Optional[str], Optional[int]]] = []
        self.rows: Dict[Tuple[int, int, Any], Dict[str, Any]] = {}
        self.has_rank = False

    def error(self, where: str, problem: str, expected: str) -> ReadError:
        return ReadError(self.source, problem, position=where, expected=expected)

    def section(self, ranks: Any, offset: Optional[int], where: str) -> None:
        if not isinstance(ranks, list):
            raise self.error(where, "the section is not a list", "a list with one entry per rank")
        self.has_rank = self.has_rank or offset is not None
        for r, entry in enumerate(ranks):
            rank = 0 if offset is None else offset + r
            trees = entry if isinstance(entry, list) else [entry]
            for t, tree in enumerate(trees):
                self.tree(tree, rank, f"{where}[{r}]" + (f"[{t}]" if isinstance(entry, list) else ""))

    def tree(self, root: Any, rank: int, where: str) -> None:
        stack = [(root, -1, where)]
        while stack:
            item, parent, pos = stack.pop()
            if not isinstance(item, dict) or not isinstance(item.get("node"), dict):
                raise self.error(pos, "a tree entry has no 'node' object",
                                 'an object {"node": {...}, "children": [...]}')
            node = item["node"]
            children = item.get("children", [])
            if not isinstance(children, list):
                raise self.error(pos, "'children' is not a list", "a list of tree entries")
            me = parent if node.get("hash") == 0 else self.visit(node, parent, rank, pos)
            for k in range(len(children) - 1, -1, -1):
                stack.append((children[k], me, f"{pos}.children[{k}]"))

    def visit(self, node: Dict[str, Any], parent: int, rank: int, pos: str) -> int:
        prefix = node.get("prefix")
        if not isinstance(prefix, str):
            raise self.error(pos + ".node", "the node has no 'prefix' label", "a string 'prefix'")
        name, file, line = parse_region(prefix)
        me = self.paths.get((parent, name))
        if me is None:
            me = len(self.parent)
            self.paths[(parent, name)] = me
            self.parent.append(parent)
            self.frames.append((name, file, line))
        thread = _ids(node.get("tid"), self, pos + ".node.tid")
        row = self.rows.setdefault((me, rank, thread), {})
        row["pid"] = _ids(node.get("pid"), self, pos + ".node.pid")
        try:
            laps = node["inclusive"]["entry"]["laps"]
            inc_stats = node["inclusive"]["stats"]
            exc_stats = node["exclusive"]["stats"]
        except (KeyError, TypeError) as exc:
            raise self.error(pos + ".node", f"missing {exc}",
                             "inclusive/exclusive entry and stats objects") from exc
        if type(laps) is not int or not 0 <= laps <= _INT64_MAX:
            raise self.error(pos + ".node.inclusive.entry", f"'laps' is {brief(laps)}",
                             f"an integer count from 0 to {_INT64_MAX}")
        row["count"] = laps
        self.stats(row, exc_stats, "", pos + ".node.exclusive.stats")
        self.stats(row, inc_stats, " (inc)", pos + ".node.inclusive.stats")
        return me

    def stats(self, row: Dict[str, Any], stats: Any, suffix: str, pos: str) -> None:
        if not isinstance(stats, dict):
            raise self.error(pos, "the statistics are not an object", "an object of statistics")
        for stat, value in stats.items():
            if stat in ("cereal_class_version", "count"):
                continue
            if isinstance(value, dict):
                value = list(value.values())
            if isinstance(value, list):
                labels = self.labels or [f"{self.metric}.{i}" for i in range(len(value))]
                if len(labels) < len(value):
                    raise self.error(pos, f"{stat!r} has {len(value)} values for "
                                     f"{len(labels)} labels", "one value per label")
                pairs = zip(labels, value)
            else:
                pairs = [(self.metric, value)]
            for label, v in pairs:
                if not is_json_number(v):
                    raise self.error(pos, f"{stat}.{label} is {brief(v)}", "a number")
                try:
                    row[f"{stat}.{label}{suffix}"] = float(v)
                except OverflowError as exc:
                    raise self.error(pos, f"{stat}.{label} ({brief(v)}) is too large for a "
                                     "float", "a number") from exc

    def build(self) -> RawProfile:
        if not self.parent:
            raise ReadError(self.source, "the document holds no timed regions",
                            position="timemory", expected="at least one region with a prefix")
        keys = list(self.rows)
        nodes = np.array([k[0] for k in keys], dtype=np.int64)
        ranks = np.array([k[1] for k in keys], dtype=np.int64)
        threads = [k[2] for k in keys]
        names: Dict[str, None] = {}
        for row in self.rows.values():
            names.update(dict.fromkeys(row))
        columns = {c: _column([row.get(c) for row in self.rows.values()]) for c in names}
        levels: Dict[str, np.ndarray] = {}
        if self.has_rank:
            levels["rank"] = ranks
        per_key = len(set(zip(nodes.tolist(), ranks.tolist())))
        if per_key < len(keys):  # several thread entries for one (node, rank)
            if all(isinstance(t, int) for t in threads):
                levels["thread"] = np.array(threads, dtype=np.int64)
            else:
                codes = {t: i for i, t in enumerate(sorted({str(t) for t in threads}))}
                levels["thread"] = np.array([codes[str(t)] for t in threads], dtype=np.int64)
                columns["thread"] = np.array([str(t) for t in threads], dtype=object)
        else:
            columns["thread"] = np.array(threads, dtype=object)
        sums = [c for c in names if c.startswith("sum.")]
        nodes, levels, columns = complete_rows(nodes, levels, columns, zero=sums + ["count"])
        return self.assemble(nodes, levels, columns, [c for c in names if c not in ("pid", "count")])

    def assemble(self, nodes, levels, columns, stat_columns) -> RawProfile:
        n = len(self.parent)
        name = np.array([f[0] for f in self.frames], dtype=object)
        file = np.array([f[1] for f in self.frames], dtype=object)
        line = np.array([np.nan if f[2] is None else f[2] for f in self.frames], dtype=float)
        rtype = np.full(n, "region", dtype=object)
        builder = ProfileBuilder(self.source, index_levels=tuple(levels))
        ids = builder.add_nodes(self.parent, {"type": rtype, "name": name},
                                columns={"type": rtype, "name": name, "file": file, "line": line})
        builder.add_rows(ids[nodes], columns, **levels)
        exc = [c for c in stat_columns if c.startswith("sum.") and not c.endswith(" (inc)")]
        inc = [c for c in stat_columns if c.startswith("sum.") and c.endswith(" (inc)")]
        pairs = {c: f"{c} (inc)" for c in exc if f"{c} (inc)" in inc}
        default = next((c for c in ("sum.wall_clock", "sum.cpu_clock") if c in exc),
                       exc[0] if exc else (inc[0] if inc else None))
        stats = [c for c in stat_columns if not c.endswith(" (inc)")]
        stats += [c for c in stat_columns if c.endswith(" (inc)")]
        return builder.build(
            exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
            metadata={"format": "timemory"}, aggregations=_aggregations(stat_columns, columns),
            columns=["type", "name", "file", "line", "pid", "count", "thread", *stats])


#: How timemory's statistics combine when rows merge (``stddev`` has no exact
#: rule and keeps the first value, like every undeclared attribute).
_STAT_AGGREGATIONS = {"sum": "sum", "sqr": "sum", "min": "min", "max": "max", "mean": "mean"}


def _aggregations(stat_columns: List[str], columns: Dict[str, Any]) -> Dict[str, str]:
    """``count`` and the statistics columns (``min.wall_clock``...) by their prefix."""
    out = {"count": "sum"} if "count" in columns else {}
    for col in stat_columns:
        kind = _STAT_AGGREGATIONS.get(col.split(".", 1)[0])
        if kind is not None and not col.startswith("sum."):  # sum.* are declared metrics
            out[col] = kind
    return out


def _ids(value: Any, walk: _Walk, pos: str) -> Any:
    """A single id as int; several (aggregated data) as ``"1,2"``."""
    if value is None:
        return 0
    if _is_id(value):
        return value
    if isinstance(value, list) and value and all(_is_id(v) for v in value):
        return value[0] if len(value) == 1 else ",".join(str(v) for v in value)
    raise walk.error(pos, f"the id list is {brief(value)}",
                     f"a list of integer ids from 0 to {_INT64_MAX}")


def _is_id(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= _INT64_MAX



def _column(values: List[Any]) -> np.ndarray:
    """Numbers (validated on the way in) as float, or int when every one is an
    int; anything else (id sets such as "1,2") as objects. None becomes NaN."""
    if values and all(type(v) is int for v in values):
        try:
            return np.array(values, dtype=np.int64)  # exact (no detour through float)
        except OverflowError:
            pass
    try:
        return np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        return np.array(values, dtype=object)



def _sniff(path: Path, head: bytes) -> bool:
    if path.is_dir():
        return any(path.glob("*.tree.json"))
    return looks_like_json(head, b"{") and b'"timemory"' in head


FORMAT = FormatInfo(
    name="timemory",
    read=read_timemory,
    sniff=_sniff,
    description="timemory call-tree JSON (*.tree.json, or a directory of them)",
    suffixes=(".json",),
)
