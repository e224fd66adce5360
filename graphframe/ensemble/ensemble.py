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
    without a column has NaN); text columns are object columns of Python strings
    (``None`` where missing), as in a GraphFrame.
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

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError, GraphMismatchError
from ..io.resolve import ENSEMBLE_ARCHIVE, THICKET_JSON, resolve
from ..plot.accessor import EnsemblePlotAccessor
from ._internal import Graph, with_node_values
from . import archive
from . import build as _build
from . import reading, sources
from .analysis import EnsembleAnalysis
from .operations import EnsembleOperations
from .options import ReaderOptions
from .statsframe import empty_statsframe
from .tables import tables_from_graphframe
from .thicket_json import thicket_json_parts

INT = np.int64


class Ensemble(EnsembleOperations, EnsembleAnalysis):
    """Many profiles composed on one union call tree (see the module docs for the fields).

    Build one with :meth:`Ensemble.read` or :meth:`Ensemble.from_graphframes`.
    The operations (:class:`~.operations.EnsembleOperations`) and statistics
    (:class:`~.analysis.EnsembleAnalysis`) are inherited from mixins, one
    module per concept.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "solve")),
    ...                                  GraphFrame.from_lists(("main", "io"))])
    >>> ens.graph.num_nodes, len(ens.profiles)
    (3, 2)
    >>> ens.dataframe["time (inc)"]
    node                               profile
    {'name': 'main', 'type': 'None'}   0          2.0
                                       1          2.0
    {'name': 'io', 'type': 'None'}     1          1.0
    {'name': 'solve', 'type': 'None'}  0          1.0
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
             options: Optional[Mapping[str, Mapping[str, Any]]] = None,
             **reader_options: Any) -> "Ensemble":
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
        options : dict, optional
            Reader options by format, ``{"caliper": {...}, "hpctoolkit":
            {...}}`` (format names as :func:`graphframe.formats` lists them):
            each applies to the files of its format only, checked against
            that reader before any file is read.
        **reader_options
            Reader options for every profile whose format accepts them (a
            folder may mix formats); an option that none of the formats read
            accepts is an ``ArgumentError`` naming it and the formats (see
            :mod:`graphframe.ensemble.options`). With ``format=``, checked
            strictly against that reader.

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
        >>> try:
        ...     Ensemble.read(d, no_path="drop")   # a Caliper option, and no Caliper file
        ... except ArgumentError as exc:
        ...     print(exc)
        option 'no_path' applies to none of the formats read (literal); it is an option of the formats: caliper-json, caliper
        """
        reading.check_policy(on_error)
        _build.check_fill(fill, intersection)
        document = _ensemble_document(paths, format)
        if document is not None:  # an Ensemble archive or a Thicket document: many profiles
            return cls(**document)._finish(intersection, fill)
        opts = ReaderOptions.resolve(format, reader_options, options)
        members = sources.expand(paths)
        outcomes = reading.read_all(members, format, opts, jobs=jobs, client=client,
                                    progress=progress)
        opts.check_used(o.info["format"] for o in outcomes if o.info is not None)
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


def _ensemble_document(paths: Any, format: Optional[str]) -> Optional[Dict[str, Any]]:
    """The fields of the Ensemble stored in ``paths`` when it is one document of many
    profiles (an Ensemble archive, a Thicket ``to_json`` file); else None."""
    if isinstance(paths, (list, tuple)) or format not in (None, ENSEMBLE_ARCHIVE, THICKET_JSON):
        return None
    if not os.path.isfile(os.fspath(paths)):
        return None
    what = resolve(paths, format)
    if what.format == ENSEMBLE_ARCHIVE:
        return archive.load(paths)
    if what.format == THICKET_JSON:
        with open(paths, "rb") as fh:
            return thicket_json_parts(fh.read(), str(paths))
    return None
