"""Thicket: LLNL Thicket's names and semantics over :class:`graphframe.Ensemble`.

Attributes are plain and assignable as in Thicket (``graph``, ``dataframe``,
``metadata``, ``statsframe`` -- a GraphFrame whose ``dataframe`` holds the
statistics --, ``exc_metrics``, ``inc_metrics``, ``default_metric``,
``profile``, ``profile_mapping``); every method builds an Ensemble from them
(no copy), runs the Ensemble operation and wraps the result. Methods that
Thicket documents as in place (``metadata_columns_to_perfdata``,
``move_metrics_to_statsframe``, ``add_root_node``, ``update_inclusive_columns``)
rebind this object's attributes.

Where Thicket differs, see ``docs/guide/ensembles.md`` ("Coming from Thicket").
"""

from __future__ import annotations

import copy as _copy
import warnings
from collections import OrderedDict
from typing import Any, Dict, List, Sequence

import numpy as np
import pandas as pd

from ..ensemble import Ensemble
from ..ensemble._internal import Graph, GraphFrame, with_node_values
from ..ensemble.build import RUN_COLUMNS_ATTR
from ..ensemble.statsframe import empty_statsframe
from ..errors import ArgumentError, EmptyFilter, GraphframeError, InvalidFilter, MetricError
from .. import options as settings
from ..model.dataframe import private_copy
from ..model.hatchet_types import hatchet_column_types, plain_frame
from .constructors import ThicketConstructors
from .groupby import GroupBy
from ..ensemble.thicket_json import to_thicket_json
from .utils import EmptyMetadataTable
from .values import ensemble_metadata, thicket_dataframe, thicket_metadata
from ..render.unattributed import KEY as UNATTRIBUTED, SHARE_KEY as UNATTRIBUTED_SHARE

INT = np.int64


class NodeNotFound(GraphframeError, KeyError, ValueError):
    """No node has the name given to :meth:`Thicket.get_node` (a ``KeyError``, as in
    Thicket 2026, and a ``ValueError``, as in earlier Thickets)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class Thicket(ThicketConstructors):
    """Many profiles on one call tree, with Thicket's API (see the module docs).

    ``profile_idx_name`` names the dataframe's profile level and the metadata's
    index: ``"profile"``, or the ``metadata_key`` of a column concatenation or
    :meth:`from_statsframes` (``"iteration"`` for :meth:`from_timeseries`), as
    in Thicket.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> tk = Thicket.from_graphframes([GraphFrame.from_lists(("main", "a")),
    ...                                GraphFrame.from_lists(("main", "b"))])
    >>> tk.profile, len(tk.dataframe)
    ([0, 1], 6)
    """

    def __init__(self, ensemble: Ensemble, profile_idx_name: Any = "profile",
                 profile_levels: Any = None) -> None:
        # graphframe's own state (profiles table, declarations, labels' order...) lives in
        # one object per Thicket, so that a Thicket's attributes are Thicket's and none is
        # shared with the Thicket an operation started from (Thicket's tests check both)
        if not isinstance(ensemble, Ensemble):
            raise ValueError(f"a Thicket is made from a graphframe.Ensemble, not "
                             f"{type(ensemble).__name__} (use a constructor: "
                             "Thicket.from_caliperreader, from_graphframes...)")
        self._state = _State()
        self.statsframe_ops_cache: Dict[Any, Any] = {}   # statistics run (Thicket's name)
        self.profile_idx_name = profile_idx_name
        self._state.profile_levels = list(profile_levels) if profile_levels else None
        self._set(ensemble)

    profile_idx_name = property(lambda self: self._state.profile_idx_name,
                                lambda self, v: setattr(self._state, "profile_idx_name", v),
                                doc="The name of the dataframe's profile level and of the "
                                    "metadata's index.")

    def _set(self, ens: Ensemble) -> None:
        ens = _labelled(_without_run_columns(ens))
        name = self.profile_idx_name
        self.graph = ens.graph
        self.dataframe = ens.dataframe if name == "profile" else \
            ens.dataframe.rename_axis(index={"profile": name})
        if self._state.profile_levels:   # tuple labels shown as one level per part
            self.dataframe = _split_level(self.dataframe, name, self._state.profile_levels)
        formats = ens.profiles["format"] if "format" in ens.profiles.columns else None
        self.dataframe = thicket_dataframe(self.dataframe, formats)   # Thicket's nid, channels
        if settings.hatchet_compat:  # Hatchet's column types, as the GraphFrames' (graphframe.options)
            self.dataframe = hatchet_column_types(self.dataframe)
        meta, self._unattributed = _without_unattributed(ens.metadata)
        meta = thicket_metadata(meta)   # Thicket's lists where graphframe holds tuples
        self.metadata = meta if name == "profile" else meta.rename_axis(index=name)
        self.statsframe = _plain(GraphFrame(ens.graph, _two_level_stats(ens), [], [],
                                            default_metric=None))
        self.exc_metrics = list(ens.exc_metrics)
        self.inc_metrics = list(ens.inc_metrics)
        self.default_metric = ens.default_metric
        self._profiles = ens.profiles
        self._errors = ens.errors
        self._inclusive_of = ens.inclusive_of
        self._aggregations = ens.aggregations

    @property
    def ensemble(self) -> Ensemble:
        """This Thicket's tables as a :class:`graphframe.Ensemble` (shared, not copied)."""
        df, meta = self.dataframe, self.metadata
        if self._state.profile_levels:
            df = _joined_level(df, self._state.profile_levels, self.profile_idx_name)
        if self.profile_idx_name != "profile":
            df = df.rename_axis(index={self.profile_idx_name: "profile"})
            meta = meta.rename_axis(index="profile")
        meta = ensemble_metadata(meta)   # Thicket's lists -> graphframe's tuples
        profiles = self._profiles
        if meta.index.nlevels != 1:
            raise TypeError("The metadata index must be single-level.")
        if not meta.index.equals(profiles.index):   # the user assigned another metadata table
            profiles = profiles.reindex(meta.index)
            df = df[df.index.get_level_values("profile").isin(meta.index)]
        left_out = getattr(self, "_unattributed", None)
        if left_out is not None and left_out.columns.nlevels == meta.columns.nlevels \
                and not left_out.columns.isin(meta.columns).any():
            meta = pd.concat([meta, left_out.reindex(meta.index)], axis=1)
        return Ensemble(self.graph, df, profiles, meta,
                        self.statsframe.dataframe, self.exc_metrics, self.inc_metrics,
                        self.default_metric, self._inclusive_of, self._aggregations,
                        self._errors)

    # ---------------------------------------------------------- properties
    @property
    def profile(self) -> List[Any]:
        """The profile labels: for profiles read from files, Thicket's (the hash of the
        path), in the order Thicket's composition leaves them; otherwise the metadata's
        order (``0..P-1`` unless relabelled)."""
        labels = [p.item() if isinstance(p, np.generic) else p for p in self.metadata.index]
        order = getattr(self, "_read_order", None)
        if order is not None:
            present = set(labels)
            if self.metadata.columns.nlevels > 1:   # column-joined: (key, header) pairs
                return [p for p in order if isinstance(p, tuple) and p[0] in present]
            kept = [p for p in order if p in present]
            if len(kept) == len(labels):
                return kept
        return labels

    @property
    def unattributed(self) -> pd.DataFrame:
        """What the Caliper reader left out of the tree (records outside every annotated
        region, which Thicket leaves out without a word): one row per profile, one
        column per metric, the metric's total over those records (NaN: none). Kept
        out of :attr:`metadata`, so that the metadata table is Thicket's.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", "a"))
        >>> gf.metadata["unattributed"] = {"time": 2.0}
        >>> Thicket.from_graphframes([gf]).unattributed
                 time
        profile
        0         2.0
        """
        left_out = self._unattributed
        index = self.metadata.index
        if left_out is None:
            return pd.DataFrame(index=index)
        parts = []
        for column in left_out.columns:
            if (column[-1] if isinstance(column, tuple) else column) != UNATTRIBUTED:
                continue
            rows = [dict(v) if isinstance(v, tuple) else {}
                    for v in left_out[column].reindex(index)]
            part = pd.DataFrame(rows, index=index)
            if isinstance(column, tuple):   # per header after a column concatenation
                part.columns = pd.MultiIndex.from_tuples([column[:-1] + (m,)
                                                          for m in part.columns])
            parts.append(part)
        return pd.concat(parts, axis=1) if parts else pd.DataFrame(index=index)

    @property
    def profile_mapping(self) -> Dict[Any, Any]:
        """Profile label -> the file it was read from (an ``OrderedDict`` sorted by label,
        as Thicket's)."""
        labels = [p.item() if isinstance(p, np.generic) else p for p in self._profiles.index]
        table = self._profiles
        if table.columns.nlevels > 1:   # column-joined: (key, header) -> path
            paths = {}
            for header in dict.fromkeys(table.columns.get_level_values(0)):
                if (header, "path") in table.columns:
                    for label, path in zip(labels, table[(header, "path")]):
                        if isinstance(path, str):
                            paths[(label, header)] = path
            order = [p for p in self.profile if p in paths]
            return OrderedDict((p, paths[p]) for p in order + [p for p in paths
                                                               if p not in set(order)])
        paths = table["path"] if "path" in table.columns else [None] * len(labels)
        return OrderedDict(zip(labels, paths))

    @property
    def profiles(self) -> pd.DataFrame:
        """graphframe's ``profiles`` table (path, content hash, format, counts)."""
        return self._profiles

    @property
    def errors(self) -> pd.DataFrame:
        """Files skipped while reading (with ``on_error="skip"``)."""
        return self._errors

    @property
    def performance_cols(self) -> List[Any]:
        """Numeric columns of the performance data (``nid`` excluded), as Thicket lists them."""
        df = self.dataframe
        return [c for c in df.columns if c != "nid" and pd.api.types.is_numeric_dtype(df[c])
                and not pd.api.types.is_bool_dtype(df[c])]

    # -------------------------------------------------------- operations
    def _wrap(self, ens: Ensemble, own_graph: bool = True) -> "Thicket":
        """A new Thicket of ``ens`` that shares no attribute object with this one (its own
        graph object, as Thicket's, unless ``own_graph`` is False; the arrays underneath
        are immutable and shared)."""
        if own_graph and ens.graph is self.graph:
            ens = ens.replace(graph=ens.graph.copy())
        out = type(self)(ens, self.profile_idx_name, self._state.profile_levels)
        for attr in ("dataframe", "metadata"):
            if getattr(out, attr) is getattr(self, attr):
                setattr(out, attr, getattr(out, attr).copy(deep=False))
        out._read_order = self._read_order  # tk.profile's order carries on
        return out

    def _need_metadata(self) -> None:
        if self.metadata.empty:
            raise EmptyMetadataTable("the metadata table is empty (no rows or no columns)")

    def filter_metadata(self, select_function: Any) -> "Thicket":
        """Profiles whose metadata row satisfies ``select_function`` (a callable)."""
        if not callable(select_function):
            raise InvalidFilter(f"filter_metadata takes a function of a metadata row, not "
                                f"{type(select_function).__name__}")
        if self.metadata.empty:
            raise EmptyMetadataTable("The provided Thicket object has an empty MetadataTable.")
        try:
            return self._wrap(self.ensemble.filter_metadata(select_function))
        except EmptyFilter:
            raise EmptyMetadataTable("The provided filter function resulted in an empty "
                                     "MetadataTable.") from None

    def filter_profile(self, profile_list: Sequence[Any]) -> "Thicket":
        """The listed profiles (labels; after a column concatenation the ``(key, header)``
        pairs of :attr:`profile`, a key's rows kept while one of its pairs is)."""
        wanted = list(profile_list)
        joined = self.metadata.columns.nlevels > 1
        labels = list(dict.fromkeys(p[0] if joined and isinstance(p, tuple) else p
                                    for p in wanted))
        out = self._wrap(self.ensemble.filter_profile(labels))
        if joined:
            keep = set(wanted)
            out._read_order = [p for p in self.profile if p in keep or p[0] in keep]
        return out

    def filter_stats(self, filter_function: Any) -> "Thicket":
        """Nodes whose statsframe row satisfies ``filter_function``."""
        return self._wrap(self.ensemble.filter_stats(filter_function))

    def query(self, query_obj: Any, squash: bool = True, update_inc_cols: bool = True,
              multi_index_mode: str = "off") -> "Thicket":
        """Nodes on call paths matching ``query_obj`` (``"off"`` acts as ``"any"`` when
        nodes have several rows, since every node of a Thicket has one per profile)."""
        mode = "any" if multi_index_mode == "off" else multi_index_mode
        return self._wrap(self.ensemble.query(query_obj, squash, update_inc_cols, mode))

    def query_stats(self, query_obj: Any, squash: bool = True,
                    update_inc_cols: bool = True) -> "Thicket":
        """Nodes on call paths matching ``query_obj`` on the statsframe."""
        return self._wrap(self.ensemble.query_stats(query_obj))

    def squash(self, update_inc_cols: bool = True, new_statsframe: bool = True) -> "Thicket":
        """The graph reduced to the nodes that have rows."""
        return self._wrap(self.ensemble.squash(update_inc_cols))

    def intersection(self) -> "Thicket":
        """Only the call paths every profile has."""
        ens = self.ensemble
        present = ens.dataframe.dropna(how="all", subset=list(self.performance_cols) or None)
        return self._wrap(ens.replace(dataframe=present).intersection())

    def groupby(self, by: Any) -> "GroupBy":
        """Profiles grouped by metadata columns: a dict key -> Thicket (keys are tuples
        when ``by`` is a list)."""
        self._need_metadata()
        return GroupBy.of(self, by)

    def metadata_columns_to_perfdata(self, metadata_columns: Any, overwrite: bool = False,
                                     drop: bool = False, join_key: Any = None) -> None:
        """Copy metadata columns onto the performance data (in place, as in Thicket)."""
        if join_key not in (None, self.profile_idx_name):
            raise ArgumentError("join_key: only the profile index is supported")
        columns = [metadata_columns] if isinstance(metadata_columns, str) \
            else list(metadata_columns)
        present = [c for c in columns if c in self.dataframe.columns]
        if present and not overwrite:   # Thicket warns and leaves the tables as they are
            warnings.warn(f"column {present[0]!r} is already in the performance data; "
                          "overwrite=True replaces it", UserWarning, stacklevel=2)
            return
        self._set(self.ensemble.metadata_columns_to_perfdata(columns, overwrite, drop))

    def move_metrics_to_statsframe(self, metric_columns: Sequence[Any], profile: Any = None,
                                   override: bool = False) -> None:
        """Copy one profile's metric values into statsframe columns (in place).

        ``profile`` may be omitted when there is one profile.
        """
        if profile is None:
            if len(self.profile) != 1:
                raise ArgumentError("move_metrics_to_statsframe: give profile= (there are "
                                    f"{len(self.profile)} profiles)")
            profile = self.profile[0]
        if profile not in self.profile:
            raise ArgumentError(f"profile {profile!r} does not exist (profiles: "
                                f"{self.profile[:10]})")
        rows = self.dataframe.xs(profile, level=self.profile_idx_name)
        if rows.index.nlevels > 1:
            rows = rows.groupby(level="node").first()
        stats = self.statsframe.dataframe
        for metric in ([metric_columns] if isinstance(metric_columns, str) else metric_columns):
            if metric not in rows.columns:
                raise MetricError(f"the performance data has no column {metric!r}")
            if metric in stats.columns and not override:
                raise MetricError(f"the statsframe already has {metric!r} (override=True)")
            stats[metric] = rows[metric].reindex(stats.index)

    def get_unique_metadata(self) -> Any:
        """Every metadata column -> its distinct values in the metadata table's row
        order (pandas ``unique``), columns in case-insensitive alphabetical order, as in
        Thicket; columns holding lists (``libraries``, ``cmdline``) are left out, as
        Thicket leaves them. After a column concatenation, a list of
        ``(header, {column: values})``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> tk = Thicket.from_graphframes([GraphFrame.from_lists(("main", "a")),
        ...                                GraphFrame.from_lists(("main", "b"))])
        >>> tk.metadata["size"] = [8, 4]
        >>> tk.metadata["args"] = [["-n", "8"], ["-n", "4"]]
        >>> tk.get_unique_metadata()["size"], "args" in tk.get_unique_metadata()
        ([8, 4], False)
        """
        meta = self.metadata

        def unique(table: pd.DataFrame) -> Dict[Any, List[Any]]:
            out = {}
            for col in table.columns:
                column = table[col]
                if len(column) and isinstance(column.iloc[0], (list, tuple)):
                    continue
                out[col] = column.unique().tolist()
            return dict(sorted(out.items(), key=lambda kv: str(kv[0]).lower()))

        if meta.columns.nlevels == 1:
            return unique(meta)
        # (Thicket carries the previous headers' columns into each later header's dict;
        # here each header lists its own columns)
        return [(header, unique(meta[header]))
                for header in dict.fromkeys(c[0] for c in meta.columns)]

    def add_root_node(self, attrs: Dict[str, Any]) -> None:
        """Add a root node with the frame ``attrs`` (in place): one row per profile (and
        rank/thread) holding only its ``name``, as in Thicket."""
        g = self.graph
        table = pd.concat([g.attrs, pd.DataFrame([dict(attrs)])], ignore_index=True)
        parent = np.append(np.asarray(g.parent, dtype=INT), -1)
        graph, order = Graph.build(table, parent, ordered=g.ordered,
                                   sibling_key=np.arange(len(parent), dtype=INT)
                                   if g.ordered else None,
                                   keep_root_order=True)   # the new root last, as Thicket
        new_of = np.empty(len(order), dtype=INT)
        new_of[order] = np.arange(len(order), dtype=INT)
        df = self.dataframe
        arrays = [df.index.get_level_values(i) for i in range(df.index.nlevels)]
        arrays[0] = new_of[np.asarray(arrays[0], dtype=INT)]
        moved_df = df.set_axis(pd.MultiIndex.from_arrays(arrays, names=df.index.names), axis=0)
        self.dataframe = with_node_values(
            _with_rows_of(moved_df, int(new_of[len(parent) - 1]), attrs), graph)
        stats = self.statsframe.dataframe
        moved = stats.set_axis(pd.Index(new_of[np.asarray(stats.index, dtype=INT)], name="node"))
        full = moved.reindex(pd.Index(np.arange(graph.num_nodes, dtype=INT), name="node"))
        full["name"] = empty_statsframe(graph)["name"]
        self.graph = graph
        self.statsframe = _plain(GraphFrame(graph, full, [], [], default_metric=None))

    def get_node(self, name: str, which: str = "first") -> Any:
        """The node named ``name`` (``which``: ``"first"``, ``"last"`` or ``"all"``)."""
        ids = np.flatnonzero(self.graph.attr_values("name") == name)
        if not len(ids):
            raise NodeNotFound(f"no node is named {name!r}")
        nodes = [self.graph.node(int(i)) for i in ids]
        if which == "all":
            return nodes
        if which not in ("first", "last"):
            raise ArgumentError(f"which={which!r}: use 'first', 'last' or 'all'")
        return nodes[0] if which == "first" else nodes[-1]

    def tree(self, metric_column: Any = None, indices: Any = None, **options: Any) -> str:
        """The text tree of the rows that ``indices`` selects, as in Thicket: one value per
        index level after ``node`` (a value alone or a list/tuple; default the first
        row's), e.g. a profile label, or ``["Base_Seq", "default"]`` on a dataframe
        re-indexed by ``(node, variant, tuning)``. A selection that leaves a node
        several rows, or names a value a level lacks, is a ``KeyError`` saying so.
        ``metric_column`` naming statsframe columns draws the statsframe."""
        metric = metric_column if metric_column is not None else self.default_metric
        df = self.dataframe
        columns = metric if isinstance(metric, list) else [metric]
        stats = self.statsframe.dataframe
        if all(c in stats.columns for c in columns) and \
                not all(c in df.columns for c in columns):
            ens = self.ensemble
            return ens.tree(metric, profile=None, **options)
        rows = _rows_of(df, indices)
        gf = GraphFrame(self.graph, rows, [c for c in self.exc_metrics if c in rows.columns],
                        [c for c in self.inc_metrics if c in rows.columns],
                        default_metric=metric if not isinstance(metric, list) else metric[0])
        if isinstance(df.columns, pd.MultiIndex) and "name_column" not in options:
            options["name_column"] = ("name", "")
        return gf.tree(metric_column=metric, **options)

    def reapply_stats_operations(self) -> None:
        """Run again every statistic recorded in :attr:`statsframe_ops_cache` (in place),
        e.g. after the statsframe was rebuilt."""
        from .stats.cache import reapply
        reapply(self)

    def metadata_column_to_perfdata(self, metadata_column: Any, overwrite: bool = False,
                                    drop: bool = False) -> None:
        """Thicket 2024's name of :meth:`metadata_columns_to_perfdata` (in place)."""
        self.metadata_columns_to_perfdata(metadata_column, overwrite=overwrite, drop=drop)

    def update_inclusive_columns(self) -> None:
        """Recompute inclusive metrics from exclusive ones (in place)."""
        gf = GraphFrame(self.graph, self.dataframe, self.exc_metrics, self.inc_metrics,
                        self.default_metric, inclusive_of=self._inclusive_of,
                        aggregations=self._aggregations).update_inclusive_columns(inplace=False)
        self.dataframe, self.inc_metrics = gf.dataframe, gf.inc_metrics

    def copy(self) -> "Thicket":
        """A new Thicket sharing the graph; its tables are private copies (lazy under
        pandas 3's copy-on-write, deep on pandas 2), so a write never reaches ``self``."""
        ens = self.ensemble
        return self._keeping_lists(self._wrap(ens.replace(
            dataframe=private_copy(ens.dataframe), metadata=private_copy(ens.metadata),
            statsframe=private_copy(ens.statsframe)), own_graph=False))

    def _keeping_lists(self, other: "Thicket") -> "Thicket":
        """``other`` with copies of this Thicket's metric lists (as assigned, even names
        the dataframe lacks, as Thicket keeps them)."""
        other.exc_metrics, other.inc_metrics = list(self.exc_metrics), list(self.inc_metrics)
        other.statsframe_ops_cache = {f: dict(calls) for f, calls in
                                      self.statsframe_ops_cache.items()}
        other.default_metric = self.default_metric
        return other

    def deepcopy(self) -> "Thicket":
        """A new Thicket with deep copies of every table."""
        ens = self.ensemble
        return self._keeping_lists(self._wrap(ens.replace(
            graph=ens.graph.copy(), dataframe=ens.dataframe.copy(deep=True),
            metadata=_copy.deepcopy(ens.metadata), profiles=ens.profiles.copy(deep=True),
            statsframe=ens.statsframe.copy(deep=True))))

    def to_json(self, ensemble: bool = True, metadata: bool = True, stats: bool = True) -> str:
        """Thicket's JSON layout (see :mod:`graphframe.ensemble.thicket_json`)."""
        return to_thicket_json(self.ensemble, ensemble, metadata, stats,
                               profile_idx_name=not self._state.json_2024)

    def __repr__(self) -> str:
        return f"<Thicket: {len(self.profile)} profiles, {self.graph.num_nodes} nodes>"


def _with_rows_of(df: pd.DataFrame, node: int, attrs: Dict[str, Any]) -> pd.DataFrame:
    """``df`` plus one row of ``node`` per distinct (profile[, rank][, thread]): NaN but
    the ``name``."""
    rest = df.index.droplevel(0).unique() if df.index.nlevels > 1 else pd.Index([])
    tuples = [(node,) + (k if isinstance(k, tuple) else (k,)) for k in rest]
    # the new rows hold NaN: integer columns (nid) become float, as Thicket's
    dtypes = {c: (np.float64 if pd.api.types.is_integer_dtype(t)
                  and not pd.api.types.is_extension_array_dtype(t) else t)
              for c, t in df.dtypes.items()}
    df = df.astype({c: t for c, t in dtypes.items() if t is np.float64})
    new = pd.DataFrame(index=pd.MultiIndex.from_tuples(tuples, names=df.index.names),
                       columns=df.columns).astype(dtypes)
    if "name" in df.columns:
        name = df["name"]
        if isinstance(name.dtype, pd.CategoricalDtype):
            df = df.assign(name=name.cat.add_categories([attrs.get("name")])
                           if attrs.get("name") not in name.cat.categories else name)
            new = new.astype({"name": df["name"].dtype})
        new["name"] = attrs.get("name")
    return pd.concat([df, new]).sort_index()


def _without_run_columns(ens: Ensemble) -> Ensemble:
    """``ens`` without the metadata columns the Ensemble added to every profile (path,
    format, rank and thread counts): Thicket's metadata is the files' own."""
    meta = ens.metadata
    added = [c for c in meta.attrs.get(RUN_COLUMNS_ATTR, ()) if c in meta.columns]
    if not added:
        return ens
    meta = meta.drop(columns=added)
    meta.attrs = {}
    return ens.replace(metadata=meta)


class _State:
    """A Thicket's graphframe-side state (see ``Thicket.__init__``)."""

    def __init__(self) -> None:
        self.profile_idx_name: Any = "profile"
        self.profiles: Any = None
        self.errors: Any = None
        self.inclusive_of: Any = None
        self.aggregations: Any = None
        self.unattributed: Any = None
        self.read_order: Any = None
        self.profile_levels: Any = None
        self.json_2024 = False   # read from a Thicket 2024.2 JSON document


def _split_level(df: pd.DataFrame, level: Any, names: List[Any]) -> pd.DataFrame:
    """``df`` with its ``level`` of tuples shown as one level per part (``names``), as
    Thicket's aggregate by several columns is indexed."""
    position = df.index.names.index(level)
    arrays = [df.index.get_level_values(i) for i in range(df.index.nlevels)]
    parts = list(zip(*arrays[position])) if len(arrays[position]) else [[]] * len(names)
    new = arrays[:position] + [pd.Index(list(p)) for p in parts] + arrays[position + 1:]
    new_names = list(df.index.names[:position]) + list(names) + \
        list(df.index.names[position + 1:])
    return df.set_axis(pd.MultiIndex.from_arrays(new, names=new_names), axis=0)


def _joined_level(df: pd.DataFrame, names: List[Any], level: Any) -> pd.DataFrame:
    """The inverse of :func:`_split_level`."""
    if not all(n in df.index.names for n in names):
        return df
    positions = [df.index.names.index(n) for n in names]
    arrays = [df.index.get_level_values(i) for i in range(df.index.nlevels)]
    joined = pd.Index(list(zip(*[arrays[p] for p in positions])), tupleize_cols=False)
    new = [arrays[0], joined] + [a for i, a in enumerate(arrays) if i and i not in positions]
    new_names = [df.index.names[0], level] + [n for i, n in enumerate(df.index.names)
                                              if i and i not in positions]
    return df.set_axis(pd.MultiIndex.from_arrays(new, names=new_names), axis=0)


def _state_field(name: str) -> property:
    return property(lambda self: getattr(self._state, name),
                    lambda self, value: setattr(self._state, name, value))


for _name in ("profiles", "errors", "inclusive_of", "aggregations", "unattributed",
              "read_order"):
    setattr(Thicket, "_" + _name, _state_field(_name))


def _rows_of(df: pd.DataFrame, indices: Any) -> pd.DataFrame:
    """The rows of ``df`` whose index levels after ``node`` hold ``indices`` (see
    :meth:`Thicket.tree`), indexed by node alone."""
    levels = list(df.index.names[1:])
    if indices is None:
        indices = tuple(df.index[0][1:]) if len(df) else ()
    elif not isinstance(indices, (list, tuple)):
        indices = (indices,)
    indices = tuple(indices)
    if len(indices) != len(levels):
        raise KeyError(f"Either dataframe cannot be represented as a single index or provided "
                       f"slice, {indices}, results in a multi-index: give one value for each "
                       f"of the levels {levels}")
    for level, value in zip(levels, indices):
        if value not in set(df.index.get_level_values(level)):
            raise KeyError(f"The indices, {{{level!r}: {value!r}}}, do not exist in the index "
                           f"'self.dataframe.index'")
    rows = df.xs(indices, level=levels, drop_level=True) if levels else df
    if rows.index.has_duplicates:
        raise KeyError(f"Either dataframe cannot be represented as a single index or provided "
                       f"slice, {indices}, results in a multi-index: several rows per node "
                       f"(index levels {levels})")
    return rows


def _without_unattributed(meta: pd.DataFrame) -> Any:
    """The metadata table without the readers' ``unattributed`` column(s) (one per
    header after a column concatenation), and those columns (None when absent):
    Thicket's metadata has no such column."""
    last = meta.columns.get_level_values(-1) if len(meta.columns) else pd.Index([])
    found = np.asarray(last.isin([UNATTRIBUTED, UNATTRIBUTED_SHARE]), dtype=bool)
    if not found.any():
        return meta, None
    return meta.loc[:, ~found], meta.loc[:, found]


def _labelled(ens: Ensemble) -> Ensemble:
    """``ens`` with its profile numbers as labels: selections keep them (Thicket keeps a
    profile's id in every sub-Thicket) instead of renumbering ``0..k-1``."""
    meta = ens.metadata
    if not isinstance(meta.index, pd.RangeIndex):
        return ens
    labels = pd.Index(np.arange(len(meta), dtype=INT), name=meta.index.name)
    return ens.replace(metadata=meta.set_axis(labels, axis=0),
                       profiles=ens.profiles.set_axis(labels, axis=0))


def _two_level_stats(ens: Ensemble) -> pd.DataFrame:
    """The statsframe, with two column levels (``("name", "")``...) when the performance
    data has them (a column-joined Thicket), as Thicket's.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main",))], metadata={"n": [1]})
    >>> wide = Ensemble.concat([ens, ens], axis="columns", headers=["a", "b"], metadata_key="n")
    >>> _two_level_stats(wide).columns.tolist()
    [('name', '')]
    """
    stats = ens.statsframe
    if not isinstance(ens.dataframe.columns, pd.MultiIndex) or \
            isinstance(stats.columns, pd.MultiIndex):
        return stats
    return stats.set_axis(pd.MultiIndex.from_tuples(
        [c if isinstance(c, tuple) else (c, "") for c in stats.columns]), axis=1)


def _plain(gf: GraphFrame) -> GraphFrame:
    """``gf`` with a plain DataFrame (a Thicket's statsframe; see ``plain_frame``)."""
    if settings.hatchet_compat:
        gf.dataframe = plain_frame(gf.dataframe)
    return gf
