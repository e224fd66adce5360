"""Ensemble: many profiles on one union call tree.

Fields (every operation returns a new Ensemble; unchanged tables are shared,
with pandas' copy-on-write, never deep-copied):

``graph`` : :class:`graphframe.Graph`
    The union of every profile's call tree: one node per distinct call path
    (frames compared as in Hatchet), ids ``0..n-1`` in pre-order. Immutable.
``dataframe`` : pandas.DataFrame
    Performance data indexed by ``(node, profile[, rank][, thread])``, sorted.
    Sparse by default: a row only where a profile has the node (``fill=True``
    or :meth:`Ensemble.dense` gives one row per node and profile). A profile that
    lacks a level other profiles have (a serial run among MPI runs) has 0 there.
    Columns are
    the union of the profiles' metric and attribute columns (a profile
    without a column has NaN); text columns are pandas Categoricals.
``profiles`` : pandas.DataFrame
    Indexed by ``profile`` (``0..P-1`` in input order): ``path``, ``hash``
    (BLAKE2b of the file's bytes: the identity), ``format``, ``options``
    (reader options as JSON), ``nodes`` and ``rows`` (of that profile).
``metadata`` : pandas.DataFrame
    Indexed by ``profile``: Caliper globals / Adiak values and other run
    information, plus user columns; lists stored as tuples.
``statsframe`` : pandas.DataFrame
    Indexed by ``node`` (every node of ``graph``) with a ``name`` column: the
    place for per-node statistics over profiles.
``exc_metrics``, ``inc_metrics``, ``default_metric``, ``inclusive_of``, ``aggregations``
    Metric declarations, merged over the profiles (see GraphFrame).
``errors`` : pandas.DataFrame
    Profiles that could not be read with ``on_error="skip"``/``"warn"``:
    ``path``, ``error_type``, ``error``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError, GraphMismatchError
from ..plot.accessor import EnsemblePlotAccessor
from ._internal import Graph, with_node_values
from . import archive
from . import build as _build
from . import concat as _concat
from . import dense as _dense
from . import grouping, meta_ops, profiles_index, reading, scaling, selection, sources, views
from . import stats as _stats
from .statsframe import empty_statsframe
from .tables import tables_from_graphframe

INT = np.int64


class Ensemble:
    """Many profiles composed on one union call tree (see the module docs for the fields).

    Build one with :meth:`Ensemble.read` or :meth:`Ensemble.from_graphframes`.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "solve")),
    ...                                  GraphFrame.from_lists(("main", "io"))])
    >>> ens.graph.num_nodes, len(ens.profiles)
    (3, 2)
    >>> ens.dataframe["time (inc)"]
    node  profile
    0     0          2.0
          1          2.0
    1     1          1.0
    2     0          1.0
    Name: time (inc), dtype: float64
    """

    def __init__(self, graph: Graph, dataframe: pd.DataFrame, profiles: pd.DataFrame,
                 metadata: pd.DataFrame, statsframe: Optional[pd.DataFrame] = None,
                 exc_metrics: Sequence[str] = (), inc_metrics: Sequence[str] = (),
                 default_metric: Optional[str] = None,
                 inclusive_of: Optional[Mapping[str, str]] = None,
                 aggregations: Optional[Mapping[str, str]] = None,
                 errors: Optional[pd.DataFrame] = None) -> None:
        names = list(dataframe.index.names)
        if names[:2] != ["node", "profile"]:
            raise GraphMismatchError(f"an Ensemble's dataframe is indexed by (node, profile, "
                                     f"...), not {names}")
        if len(profiles) != len(metadata):
            raise GraphMismatchError(f"{len(profiles)} profiles but {len(metadata)} "
                                     "metadata rows")
        self._graph = graph
        self._dataframe = with_node_values(dataframe, graph)
        self._profiles = profiles
        self._metadata = metadata
        self._statsframe = with_node_values(
            statsframe if statsframe is not None else empty_statsframe(graph), graph)
        self._exc = list(exc_metrics)
        self._inc = list(inc_metrics)
        self._default = default_metric
        self._inclusive_of = dict(inclusive_of or {})
        self._aggregations = dict(aggregations or {})
        self._errors = errors if errors is not None else _build.errors_table([])

    # ------------------------------------------------------------ fields
    graph = property(lambda self: self._graph, doc="The union call tree (immutable).")
    dataframe = property(lambda self: self._dataframe,
                         doc="Performance data indexed by (node, profile[, rank][, thread]).")
    profiles = property(lambda self: self._profiles, doc="One row per profile: path, hash...")
    metadata = property(lambda self: self._metadata, doc="Run information, one row per profile.")
    statsframe = property(lambda self: self._statsframe, doc="Per-node statistics (node index).")
    exc_metrics = property(lambda self: list(self._exc), doc="Exclusive metric columns.")
    inc_metrics = property(lambda self: list(self._inc), doc="Inclusive metric columns.")
    default_metric = property(lambda self: self._default, doc="The metric shown by default.")
    inclusive_of = property(lambda self: dict(self._inclusive_of),
                            doc="Exclusive metric -> its inclusive partner.")
    aggregations = property(lambda self: dict(self._aggregations),
                            doc="Column -> how its values combine when rows merge.")
    errors = property(lambda self: self._errors,
                      doc="Profiles skipped by on_error='skip'/'warn': path, error_type, error.")

    @property
    def plot(self) -> EnsemblePlotAccessor:
        """Plots of this ensemble: ``ens.plot.heatmap(by=KEY)``, ``.scaling(by=KEY)``... (see
        :mod:`graphframe.plot.ensemble`; needs matplotlib, the ``plot`` extra)."""
        return EnsemblePlotAccessor(self)

    @property
    def num_profiles(self) -> int:
        """Number of profiles."""
        return len(self._profiles)

    @property
    def index_levels(self) -> List[str]:
        """The dataframe's index levels after ``node`` and ``profile``."""
        return list(self._dataframe.index.names[2:])

    @property
    def metric_columns(self) -> List[str]:
        """Exclusive then inclusive metrics."""
        return self._exc + [m for m in self._inc if m not in self._exc]

    def _fields(self) -> Dict[str, Any]:
        return dict(graph=self._graph, dataframe=self._dataframe, profiles=self._profiles,
                    metadata=self._metadata, statsframe=self._statsframe,
                    exc_metrics=self._exc, inc_metrics=self._inc,
                    default_metric=self._default, inclusive_of=self._inclusive_of,
                    aggregations=self._aggregations, errors=self._errors)

    def replace(self, **changes: Any) -> "Ensemble":
        """A new Ensemble with some fields replaced; the others are shared (shallow copies).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "solve"))])
        >>> other = ens.replace(default_metric="time")
        >>> other.graph is ens.graph, other.default_metric
        (True, 'time')
        """
        fields = self._fields()
        for key in ("dataframe", "profiles", "metadata", "statsframe", "errors"):
            fields[key] = fields[key].copy(deep=False)
        fields.update(changes)
        columns = set(fields["dataframe"].columns)
        fields["aggregations"] = {c: k for c, k in dict(fields["aggregations"]).items()
                                  if c in columns}
        fields["exc_metrics"] = [m for m in fields["exc_metrics"] if m in columns]
        fields["inc_metrics"] = [m for m in fields["inc_metrics"] if m in columns]
        return Ensemble(**fields)

    # ------------------------------------------------------- construction
    @classmethod
    def read(cls, paths: Any, format: Optional[str] = None, *, intersection: bool = False,
             fill: bool = False, metadata: Any = None, jobs: Optional[int] = None,
             client: Any = None, progress: Any = None, on_error: str = "raise",
             **options: Any) -> "Ensemble":
        """Read many profiles into one Ensemble.

        Parameters
        ----------
        paths : path, glob, directory or list
            See :mod:`graphframe.ensemble.sources`: a folder is searched for
            profile files, a glob's matches are profiles, a list names each
            profile exactly (a per-rank folder or an HPCToolkit database is
            one profile).
        format : str, optional
            Reader name (:func:`graphframe.formats`); sniffed per file when
            omitted.
        intersection : bool
            Keep only the call paths every profile has (then squash).
        fill : bool
            One row per (node, profile[, ranks of that profile]): missing
            rows get NaN metrics (see :meth:`dense`).
        metadata : DataFrame, mapping or callable, optional
            Extra metadata columns (see :func:`~.metadata.metadata_table`).
        jobs : int, optional
            Read in this many worker processes (``-1``: one per core).
        client : distributed.Client, optional
            Read on a Dask cluster instead (needs the ``dask`` extra).
        progress : bool, str or callable, optional
            As for :func:`graphframe.read`; counts profiles.
        on_error : {"raise", "warn", "skip"}
            A profile that cannot be read raises a ``ReadError`` naming the
            file (default), or is skipped and listed in :attr:`errors`
            (``"warn"`` also warns).
        **options
            Passed to the reader of every profile.

        Examples
        --------
        >>> import json, os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> for i, names in enumerate((["main", "a"], ["main", "b"])):
        ...     doc = [{"frame": {"name": names[0]}, "metrics": {"time": 1.0},
        ...             "children": [{"frame": {"name": names[1]}, "metrics": {"time": 2.0}}]}]
        ...     with open(os.path.join(d, f"run{i}.json"), "w") as f:
        ...         json.dump(doc, f)
        >>> ens = Ensemble.read(d)
        >>> ens.graph.num_nodes, len(ens.dataframe), ens.profiles["path"].map(os.path.basename).tolist()
        (3, 4, ['run0.json', 'run1.json'])
        >>> Ensemble.read(d, intersection=True).graph.num_nodes
        1
        """
        reading.check_policy(on_error)
        _build.check_fill(fill, intersection)
        members = sources.expand(paths)
        outcomes = reading.read_all(members, format, options, jobs=jobs, client=client,
                                    progress=progress)
        ens = cls(**_build.parts_from_outcomes(outcomes, on_error, metadata))
        return ens._finish(intersection, fill)

    @classmethod
    def from_graphframes(cls, graphframes: Any, metadata: Any = None, *,
                         intersection: bool = False, fill: bool = False) -> "Ensemble":
        """An Ensemble of GraphFrames (a list, or a dict name -> GraphFrame).

        Each GraphFrame's own ``metadata`` becomes its metadata row; a dict's
        keys become the ``path`` column of :attr:`profiles`.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes({"a": GraphFrame.from_lists(("main", "x")),
        ...                                  "b": GraphFrame.from_lists(("main", "x"))},
        ...                                 metadata={"size": [1, 2]})
        >>> ens.graph.num_nodes, ens.metadata["size"].tolist(), ens.profiles["path"].tolist()
        (2, [1, 2], ['a', 'b'])
        """
        _build.check_fill(fill, intersection)
        if isinstance(graphframes, Mapping):
            names = [str(k) for k in graphframes]
            gfs = list(graphframes.values())
        else:
            gfs = list(graphframes)
            names = [f"<graphframe {i}>" for i in range(len(gfs))]
        if not gfs:
            raise ArgumentError("from_graphframes needs at least one GraphFrame")
        tables = [tables_from_graphframe(gf) for gf in gfs]
        parts = _build.parts_from_tables(tables, names, metadata)
        parts["profiles"] = _build.profiles_table(_build.graphframe_infos(gfs, names, tables))
        return cls(**parts)._finish(intersection, fill)

    @classmethod
    def load(cls, path: Any) -> "Ensemble":
        """Read an archive written by :meth:`save`.

        Examples
        --------
        >>> import os, tempfile
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a"))],
        ...                                 metadata={"flags": [("-O2", "-g")]})
        >>> back = Ensemble.load(ens.save(os.path.join(tempfile.mkdtemp(), "e.gfe")))
        >>> back.graph == ens.graph, back.dataframe.equals(ens.dataframe)
        (True, True)
        >>> back.metadata.equals(ens.metadata), back.profiles.equals(ens.profiles)
        (True, True)
        """
        return cls(**archive.load(path))

    def save(self, path: Any, compression: str = "snappy") -> Any:
        """Write a lossless, byte-reproducible archive (see :mod:`.archive`); return the path."""
        return archive.save(self, path, compression)

    def _finish(self, intersection: bool, fill: bool) -> "Ensemble":
        ens = self
        if intersection:
            ens = ens.intersection()
        if fill:
            ens = ens.dense()
        return ens


    # --------------------------------------------------------- operations
    def dense(self) -> "Ensemble":
        """One row per (node, profile[, ranks/threads of that profile]); missing rows NaN.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a")),
        ...                                  GraphFrame.from_lists(("main", "b"))])
        >>> len(ens.dataframe), len(ens.dense().dataframe)
        (4, 6)
        """
        return _dense.dense(self)

    def filter_metadata(self, select: Any) -> "Ensemble":
        """Profiles whose metadata satisfies ``select``: a callable on a metadata row, a
        boolean mask, or a :meth:`pandas.DataFrame.query` expression.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main",))
        >>> ens = Ensemble.from_graphframes([gf, gf, gf], metadata={"size": [1, 2, 4]})
        >>> ens.filter_metadata("size > 1").metadata["size"].tolist()
        [2, 4]
        >>> ens.filter_metadata(lambda row: row["size"] == 4).profiles.index.tolist()
        [0]
        """
        return selection.filter_metadata(self, select)

    def filter_profile(self, profiles: Any) -> "Ensemble":
        """The listed profiles (labels), renumbered ``0..k-1`` when unlabelled.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main",))
        >>> Ensemble.from_graphframes([gf, gf, gf]).filter_profile([0, 2]).num_profiles
        2
        """
        return selection.filter_profile(self, profiles)

    def filter_stats(self, select: Any) -> "Ensemble":
        """Nodes whose statsframe row satisfies the callable ``select``; graph squashed."""
        return selection.filter_stats(self, select)

    def query(self, query: Any, squash: bool = True, update_inc_cols: bool = True,
              multi_index_mode: str = "any") -> "Ensemble":
        """Nodes on call paths matching ``query`` (see ``docs/query.md``); graph squashed.

        A condition on columns holds for a node when it holds for any of its rows
        (``multi_index_mode="any"``, the default) or for all of them (``"all"``).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", ("MPI_Send",), "x"))])
        >>> ens.query([{"name": "MPI_.*"}]).graph.num_nodes
        1
        """
        return selection.query(self, query, squash, update_inc_cols, multi_index_mode)

    def query_stats(self, query: Any) -> "Ensemble":
        """Nodes on call paths matching ``query`` evaluated on the statsframe."""
        return selection.query_stats(self, query)

    def squash(self, update_inc_cols: bool = True) -> "Ensemble":
        """The graph reduced to the nodes that have rows (see :meth:`GraphFrame.squash`)."""
        return selection.squash(self, update_inc_cols)

    def intersection(self) -> "Ensemble":
        """Only the call paths that every profile has (graph squashed).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a")),
        ...                                  GraphFrame.from_lists(("main", "b"))])
        >>> ens.intersection().graph.num_nodes
        1
        """
        return selection.intersection(self)

    def groupby(self, columns: Any) -> "grouping.EnsembleGroupBy":
        """Profiles grouped by metadata columns: a mapping key -> Ensemble with ``.agg``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main",))
        >>> ens = Ensemble.from_graphframes([gf, gf, gf], metadata={"cc": ["gcc", "icc", "gcc"]})
        >>> groups = ens.groupby("cc")
        >>> list(groups), groups["gcc"].num_profiles
        (['gcc', 'icc'], 2)
        >>> groups.agg("sum").dataframe["time"].tolist()
        [2.0, 1.0]
        """
        cols = [columns] if isinstance(columns, str) or not isinstance(columns, (list, tuple)) \
            else list(columns)
        return grouping.EnsembleGroupBy(self, cols)

    def set_profile_index(self, column: Any) -> "Ensemble":
        """Label the profiles with a metadata column (unique values), e.g. a problem size.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main",))
        >>> ens = Ensemble.from_graphframes([gf, gf], metadata={"size": [8, 16]})
        >>> ens.set_profile_index("size").dataframe.index.get_level_values("profile").tolist()
        [8, 16]
        """
        return profiles_index.set_profile_index(self, column)

    def metadata_columns_to_perfdata(self, columns: Any, overwrite: bool = False,
                                     drop: bool = False) -> "Ensemble":
        """Metadata columns copied onto every row of the dataframe (by profile).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main",))
        >>> ens = Ensemble.from_graphframes([gf, gf], metadata={"size": [8, 16]})
        >>> ens.metadata_columns_to_perfdata("size").dataframe["size"].tolist()
        [8, 16]
        """
        return meta_ops.metadata_columns_to_perfdata(self, columns, overwrite, drop)

    def get_unique_metadata(self) -> Dict[Any, List[Any]]:
        """Every metadata column -> its distinct values (sorted when comparable)."""
        return meta_ops.get_unique_metadata(self)

    def to_graphframe(self, profile: Any = None, agg: Optional[str] = "mean",
                      squash: bool = True) -> Any:
        """One profile as a GraphFrame, or all profiles aggregated with ``agg``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a")),
        ...                                  GraphFrame.from_lists(("main", "b"))])
        >>> ens.to_graphframe(profile=1).dataframe["name"].tolist()
        ['main', 'b']
        >>> ens.to_graphframe(agg="sum").dataframe["time (inc)"].tolist()
        [4.0, 1.0, 1.0]
        """
        return views.to_graphframe(self, profile, agg, squash)

    def tree(self, metric_column: Any = None, profile: Any = None, **options: Any) -> str:
        """Hatchet's text tree of one profile (default: the first) or of statsframe columns."""
        return views.tree(self, metric_column, profile, **options)

    @staticmethod
    def concat(ensembles: Sequence["Ensemble"], axis: str = "index", headers: Any = None,
               metadata_key: Any = None, calltree: str = "union") -> "Ensemble":
        """Stack ensembles' profiles (``axis="index"``) or put their columns side by side
        under ``headers``, matching profiles by ``metadata_key`` (``axis="columns"``);
        see :mod:`graphframe.ensemble.concat`."""
        return _concat.concat(ensembles, axis, headers, metadata_key, calltree)

    def diff(self, other: "Ensemble", metric: Any = None, agg: str = "mean",
             **options: Any) -> Any:
        """:func:`graphframe.diff` of this ensemble (before) and ``other`` (after), each
        aggregated over its profiles with ``agg``; use ``ranked_changes`` on the result."""
        return views.diff(self, other, metric, agg, **options)

    # --------------------------------------------------------- statistics
    def stats(self, metrics: Any = None, stats: Sequence[str] = _stats.DEFAULT_STATS,
              over: Any = "profile", percentiles: Sequence[float] = (),
              ddof: int = 1) -> pd.DataFrame:
        """Per-node statistics over profiles (or ``("profile", "rank")``) as
        ``<metric>_<stat>`` columns of :attr:`statsframe` (written in place, returned);
        see :mod:`graphframe.ensemble.stats` for the definitions.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 3)
        >>> ens.stats("time", stats=["mean", "std"])["time_std"].tolist()
        [0.0, 0.0]
        """
        return _stats.ensemble_stats(self, metrics, stats, over, percentiles, ddof)

    def pivot(self, index: Any, metric: Any = None, by: str = "name",
              agg: str = "mean", ranks: str = "mean") -> pd.DataFrame:
        """One table: a row per value of the metadata column ``index`` (e.g. the rank
        count), a column per region (``by="name"``) or call path (``by="path"``); see
        :mod:`graphframe.ensemble.scaling`."""
        return scaling.pivot(self, index, metric, by, agg, ranks)

    def speedup(self, key: Any, base: Any = None, weak: bool = False,
                efficiency: bool = False, metric: Any = None, by: str = "name",
                agg: str = "mean", ranks: str = "mean") -> pd.DataFrame:
        """Strong (or ``weak``) scaling speedup, or parallel ``efficiency``, of every
        region relative to the profiles whose ``key`` is ``base`` (default: the smallest);
        see :mod:`graphframe.ensemble.scaling`."""
        return scaling.speedup(self, key, base, weak, efficiency, metric, by, agg, ranks)

    # --------------------------------------------------------------- misc
    def __repr__(self) -> str:
        levels = ", ".join(self._dataframe.index.names)
        return (f"<Ensemble: {self.num_profiles} profiles, {self._graph.num_nodes} nodes, "
                f"{len(self._dataframe)} rows indexed by ({levels})"
                + (f", {len(self._errors)} skipped" if len(self._errors) else "") + ">")

    def summary(self) -> str:
        """A few lines describing the ensemble (profiles, nodes, rows, skipped files).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> print(Ensemble.from_graphframes([GraphFrame.from_lists(("main",))]).summary())
        1 profiles, 1 nodes, 1 rows indexed by (node, profile); 0 skipped
        """
        lines = [f"{self.num_profiles} profiles, {self._graph.num_nodes} nodes, "
                 f"{len(self._dataframe)} rows indexed by "
                 f"({', '.join(self._dataframe.index.names)}); {len(self._errors)} skipped"]
        for row in self._errors.itertuples(index=False):
            lines.append(f"  skipped {row.path}: {row.error_type}: {row.error}")
        return "\n".join(lines)

