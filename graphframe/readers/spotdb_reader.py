"""Hatchet's ``hatchet.readers.spotdb_reader`` path: :class:`SpotDBReader` and
:class:`SpotDatasetReader`."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..graphframe import GraphFrame

DEFAULT_METRIC = "Total time (inc)"


class SpotDBReader:
    """Hatchet's reader class for SpotDB runs: ``SpotDBReader(db_key, list_of_ids=None,
    default_metric="Total time (inc)").read()`` is a list of GraphFrames, one per run with
    a region profile (:meth:`GraphFrame.from_spotdb`, same result and errors).

    ``default_metric`` becomes each GraphFrame's default metric when it has that column.

    Examples
    --------
    >>> class Db:
    ...     def get_all_run_ids(self): return ["r1"]
    ...     def get_regionprofiles(self, runs):
    ...         return {"r1": {"main": {"time": 5.0}, "main/solve": {"time": 3.0}}}
    ...     def get_global_data(self, runs): return {"r1": {}}
    ...     def get_metric_attribute_metadata(self): return {"time": {"type": "double"}}
    >>> [gf] = SpotDBReader(Db(), default_metric="time").read()
    >>> gf.default_metric, gf.dataframe["time"].tolist()
    ('time', [5.0, 3.0])
    """

    def __init__(self, db_key: Any, list_of_ids: Optional[Sequence[Any]] = None,
                 default_metric: Any = DEFAULT_METRIC) -> None:
        self.db_key = db_key
        self.list_of_ids = list_of_ids
        self.default_metric = default_metric

    def read(self) -> List[GraphFrame]:
        """One GraphFrame per run (see :meth:`GraphFrame.from_spotdb`)."""
        return [_with_default(gf, self.default_metric)
                for gf in GraphFrame.from_spotdb(self.db_key, self.list_of_ids)]


class SpotDatasetReader:
    """Hatchet's reader class for one SpotDB run given as data:
    ``SpotDatasetReader(regionprofile, metadata, attr_info).read()``.

    ``regionprofile`` maps region paths (``"main/solve"``) to their metrics,
    ``metadata`` is the run's global data and ``attr_info`` each metric's ``type``
    and ``alias`` (optional), as SpotDB returns them.

    Examples
    --------
    >>> gf = SpotDatasetReader({"main": {"t": 2.0}}, {"user": "me"},
    ...                        {"t": {"type": "double", "alias": "T"}}).read("T")
    >>> gf.default_metric, gf.dataframe["T"].tolist(), gf.metadata["user"]
    ('T', [2.0], 'me')
    """

    def __init__(self, regionprofile: Mapping[str, Any], metadata: Mapping[str, Any],
                 attr_info: Optional[Mapping[str, Any]]) -> None:
        self.regionprofile = regionprofile
        self.metadata = metadata
        self.attr_info = attr_info

    def read(self, default_metric: Any = DEFAULT_METRIC) -> GraphFrame:
        """The run's GraphFrame."""
        [gf] = GraphFrame.from_spotdb(_OneRun(self.regionprofile, self.metadata,
                                              self.attr_info))
        return _with_default(gf, default_metric)


class _OneRun:
    """SpotDB's four methods over one run held in memory."""

    def __init__(self, regionprofile: Any, metadata: Any, attr_info: Any) -> None:
        self.profile, self.metadata, self.attr_info = regionprofile, metadata, attr_info

    def get_all_run_ids(self) -> List[int]:
        return [0]

    def get_regionprofiles(self, runs: Sequence[Any]) -> Dict[Any, Any]:
        return {0: self.profile}

    def get_global_data(self, runs: Sequence[Any]) -> Dict[Any, Any]:
        return {0: self.metadata}

    def get_metric_attribute_metadata(self) -> Any:
        return self.attr_info or {}


def _with_default(gf: GraphFrame, metric: Any) -> GraphFrame:
    if metric in gf.dataframe.columns:
        gf.default_metric = metric
    return gf
