"""SpotDB runs as RawProfiles, with Hatchet's ``from_spotdb`` layout.

A SpotDB database (a directory of ``.cali`` files, a SQLite file or a SQL server)
holds one *region profile* per run: a dict from region paths (``"main/solve"``,
levels separated by ``/``) to that region's metrics, plus the run's global
metadata and each metric attribute's ``type`` and ``alias``. The ``spotdb``
package (LLNL, not on PyPI) opens a locator; any object with its four methods
(``get_all_run_ids``, ``get_regionprofiles``, ``get_global_data``,
``get_metric_attribute_metadata``) can be given instead.

Per run, as Hatchet: one node per path prefix (frames ``{"name": ...}``, siblings
by frame), one row per region; a metric is named by its attribute's alias (else
its name) plus `` (inc)`` when the attribute name contains ``inclusive``, and is
inclusive exactly when its column name says ``(inc)``; ``double`` values are floats,
``int``/``uint`` integers, anything else stays as SpotDB gives it (a number without a
type is a metric, text is a text column). The default metric is
``Total time (inc)`` when present, else the first inclusive, else the first
exclusive metric. Differences from Hatchet: text values are columns, not
metrics; a path prefix without a region of its own gets a row whose metrics are 0
(Hatchet gives it no row); metric lists keep first-seen order (Hatchet's come from
a set).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..builder import ProfileBuilder
from ..errors import ReadError
from ..profile import RawProfile

DEFAULT_METRIC = "Total time (inc)"
METHODS = ("get_all_run_ids", "get_regionprofiles", "get_global_data",
           "get_metric_attribute_metadata")


def read_spotdb(db_key: Any, list_of_ids: Optional[Sequence[Any]] = None) -> List[RawProfile]:
    """The region profile of each requested run (see the module docs).

    Parameters
    ----------
    db_key : str, path-like or SpotDB object
        A SpotDB locator, opened with ``spotdb.connect``, or a SpotDB object.
    list_of_ids : sequence, optional
        The runs to read; default every run of the database.

    Returns
    -------
    list of RawProfile
        In the order of the runs, skipping runs without a region profile.

    Raises
    ------
    ReadError
        The ``spotdb`` package is missing for a locator; the database's answers are
        not what SpotDB returns.

    Examples
    --------
    >>> class Db:
    ...     def get_all_run_ids(self): return [1]
    ...     def get_regionprofiles(self, runs): return {1: {"main": {"count": "4"}}}
    ...     def get_global_data(self, runs): return {1: {}}
    ...     def get_metric_attribute_metadata(self): return {"count": {"type": "int"}}
    >>> raw, = read_spotdb(Db())
    >>> raw.metrics["count"].tolist(), raw.exc_metrics
    ([4], ('count',))
    >>> read_spotdb("runs.sqlite")  # doctest: +SKIP
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: runs.sqlite: opening a SpotDB database needs the optional 'spotdb' package, which is not installed (expected LLNL's spotdb package, installed from its source: it is not on PyPI; or pass a SpotDB object)
    """
    db = _connect(db_key)
    runs = list(list_of_ids) if list_of_ids else list(db.get_all_run_ids())
    profiles = db.get_regionprofiles(runs)
    metadata = db.get_global_data(runs)
    attr_info = db.get_metric_attribute_metadata() or {}
    for what, value in (("get_regionprofiles", profiles), ("get_global_data", metadata),
                        ("get_metric_attribute_metadata", attr_info)):
        if not isinstance(value, Mapping):
            raise ReadError(_name(db_key), f"{what}() returned a {type(value).__name__}",
                            expected="a dict, as SpotDB returns")
    out = []
    for run in runs:
        if run in profiles:
            out.append(parse_regionprofile(profiles[run], metadata.get(run) or {}, attr_info,
                                           source=f"{_name(db_key)} run {run}"))
    return out


def parse_regionprofile(regionprofile: Mapping[str, Any], metadata: Mapping[str, Any],
                        attr_info: Mapping[str, Any], source: Any = None) -> RawProfile:
    """One run's region profile as a RawProfile (see the module docs).

    Examples
    --------
    >>> raw = parse_regionprofile({"main": {"t": 2.0}, "main/a": {"t": 1.0}},
    ...                           {"launchdate": 1}, {"t": {"type": "double"}})
    >>> raw.nodes[["parent", "name"]].values.tolist(), raw.metrics["t"].tolist()
    ([[-1, 'main'], [0, 'a']], [2.0, 1.0])
    """
    if not isinstance(regionprofile, Mapping):
        raise ReadError(source, f"the region profile is a {type(regionprofile).__name__}",
                        expected="a dict from region paths to metric dicts")
    builder = ProfileBuilder(source)
    nodes: Dict[Tuple[str, ...], int] = {}
    columns: Dict[str, bool] = {}  # column -> holds text
    own_row: Dict[int, Dict[str, Any]] = {}
    for path_text, values in regionprofile.items():
        if not isinstance(path_text, str):
            raise ReadError(source, f"region path {path_text!r} is not a string",
                            position=f"region {path_text!r}", expected="'a/b/c' paths")
        if not path_text:
            continue  # Hatchet skips the empty path
        if not isinstance(values, Mapping):
            raise ReadError(source, f"the metrics of {path_text!r} are a "
                            f"{type(values).__name__}", position=f"region {path_text!r}",
                            expected="a dict of metric values")
        path = tuple(path_text.split("/"))
        for depth in range(len(path)):
            key = path[:depth + 1]
            if key not in nodes:
                parent = nodes[key[:-1]] if depth else -1
                nodes[key] = builder.add_node({"name": key[-1]}, parent,
                                              columns={"name": key[-1]})
        row = own_row.setdefault(nodes[path], {})
        for attribute, value in values.items():
            column, converted = _metric(attribute, value, attr_info, source, path_text)
            columns[column] = columns.get(column, False) or isinstance(converted, str)
            row[column] = converted
    metrics = [c for c, text in columns.items() if not text]
    for node in nodes.values():
        row = own_row.get(node)
        if row is None:  # a prefix without a region: metrics 0 (Hatchet: no row)
            row = {c: 0 for c in metrics}
        builder.add_row(node, row)
    inc = [m for m in metrics if "(inc)" in m]
    exc = [m for m in metrics if "(inc)" not in m]
    default = DEFAULT_METRIC if DEFAULT_METRIC in metrics else (inc or exc or [None])[0]
    meta = {"format": "spotdb"}
    meta.update(metadata)
    return builder.build(exc_metrics=exc, inc_metrics=inc, default_metric=default,
                         metadata=meta, columns=["name", *columns])


def _metric(attribute: Any, value: Any, attr_info: Mapping[str, Any], source: Any,
            region: str) -> Tuple[str, Any]:
    info = attr_info.get(attribute) or {}
    column = str(info.get("alias", attribute))
    if "inclusive" in str(attribute):
        column += " (inc)"
    kind = info.get("type", "string")
    try:
        if kind == "double":
            return column, float(value)
        if kind in ("int", "uint"):
            return column, int(value)
    except (TypeError, ValueError) as exc:
        raise ReadError(source, f"{attribute!r} is {value!r}", position=f"region {region!r}",
                        expected=f"a {kind} value (the attribute's type)") from exc
    return column, value  # Hatchet keeps other values as they are


def _connect(db_key: Any) -> Any:
    if all(hasattr(db_key, m) for m in METHODS):
        return db_key
    if not isinstance(db_key, (str, bytes)) and not hasattr(db_key, "__fspath__"):
        raise ReadError(_name(db_key), f"{type(db_key).__name__} is not a SpotDB locator",
                        expected="a directory, .sqlite file or SQL URL, or a SpotDB object "
                                 f"(with {', '.join(METHODS)})")
    try:
        import spotdb  # optional, not on PyPI
    except ImportError as exc:
        raise ReadError(_name(db_key), "opening a SpotDB database needs the optional "
                        "'spotdb' package, which is not installed",
                        expected="LLNL's spotdb package, installed from its source: it is "
                                 "not on PyPI; or pass a SpotDB object") from exc
    return spotdb.connect(str(db_key))


def _name(db_key: Any) -> str:
    if isinstance(db_key, (str, bytes)) or hasattr(db_key, "__fspath__"):
        return str(db_key)
    return f"<{type(db_key).__name__}>"
