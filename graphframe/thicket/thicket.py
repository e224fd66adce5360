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
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..ensemble import Ensemble
from ..ensemble._internal import Graph, GraphFrame, with_node_values
from ..ensemble.sources import expand, label
from ..ensemble.statsframe import empty_statsframe
from ..errors import ArgumentError, GraphframeError
from .groupby import GroupBy
from .json_layout import from_thicket_json, to_thicket_json

INT = np.int64


class EmptyMetadataTable(GraphframeError):
    """An operation needs metadata and the metadata table is empty."""


class Thicket:
    """Many profiles on one call tree, with Thicket's API (see the module docs).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> tk = Thicket.from_graphframes([GraphFrame.from_lists(("main", "a")),
    ...                                GraphFrame.from_lists(("main", "b"))])
    >>> tk.profile, len(tk.dataframe)
    ([0, 1], 6)
    """

    def __init__(self, ensemble: Ensemble) -> None:
        self._set(ensemble)

    def _set(self, ens: Ensemble) -> None:
        self.graph = ens.graph
        self.dataframe = ens.dataframe
        self.metadata = ens.metadata
        self.statsframe = GraphFrame(ens.graph, ens.statsframe, [], [], default_metric=None)
        self.exc_metrics = ens.exc_metrics
        self.inc_metrics = ens.inc_metrics
        self.default_metric = ens.default_metric
        self._profiles = ens.profiles
        self._errors = ens.errors
        self._inclusive_of = ens.inclusive_of
        self._aggregations = ens.aggregations
        self.profile_idx_name = "profile"

    @property
    def ensemble(self) -> Ensemble:
        """This Thicket's tables as a :class:`graphframe.Ensemble` (shared, not copied)."""
        return Ensemble(self.graph, self.dataframe, self._profiles, self.metadata,
                        self.statsframe.dataframe, self.exc_metrics, self.inc_metrics,
                        self.default_metric, self._inclusive_of, self._aggregations,
                        self._errors)

    # ---------------------------------------------------------- properties
    @property
    def profile(self) -> List[Any]:
        """The profile labels (``0..P-1`` unless relabelled)."""
        return [p.item() if isinstance(p, np.generic) else p for p in self.metadata.index]

    @property
    def profile_mapping(self) -> Dict[Any, Any]:
        """Profile label -> the file it was read from."""
        return dict(zip(self.profile, self._profiles["path"])) \
            if "path" in self._profiles.columns else {p: None for p in self.profile}

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

    # ------------------------------------------------------ constructors
    @staticmethod
    def _read(paths: Any, format: Optional[str], intersection: bool, fill_perfdata: bool,
              disable_tqdm: bool, **options: Any) -> "Thicket":
        progress = None if disable_tqdm else True
        ens = Ensemble.read(paths, format=format, intersection=intersection,
                            fill=fill_perfdata, progress=progress, **options)
        return Thicket(ens)

    @staticmethod
    def from_caliperreader(filename_or_caliperreader: Any, intersection: bool = False,
                           fill_perfdata: bool = True, disable_tqdm: bool = False,
                           **kwargs: Any) -> "Thicket":
        """Read ``.cali`` files (a file, a folder, a glob or a list), one profile each.

        Records without a call path are left out, as Thicket does
        (``no_path="drop"``; pass ``no_path="keep"`` for graphframe's ``<no path>`` root).
        """
        kwargs.setdefault("no_path", "drop")
        return Thicket._read(filename_or_caliperreader, "caliper", intersection, fill_perfdata,
                             disable_tqdm, **kwargs)

    @staticmethod
    def from_caliper(filename_or_stream: Any, query: Any = None, intersection: bool = False,
                     fill_perfdata: bool = True, disable_tqdm: bool = False) -> "Thicket":
        """Read Caliper json-split or ``.cali`` files (format sniffed per file); records
        without a call path are left out, as Thicket does. With ``query``, each ``.cali``
        file goes through Caliper's ``cali-query -q QUERY`` (which must be installed and
        write json-split), as :meth:`GraphFrame.from_caliper` does."""
        if query is None:
            return Thicket._read(filename_or_stream, None, intersection, fill_perfdata,
                                 disable_tqdm, no_path="drop")
        gfs = {label(m): GraphFrame.from_caliper(m, query, no_path="drop")
               for m in expand(filename_or_stream)}
        return Thicket(Ensemble.from_graphframes(gfs, intersection=intersection,
                                                 fill=fill_perfdata))

    @staticmethod
    def from_hpctoolkit(dirname: Any, intersection: bool = False, fill_perfdata: bool = True,
                        disable_tqdm: bool = False, **kwargs: Any) -> "Thicket":
        """Read HPCToolkit databases: one database, a folder of them, or a list."""
        return Thicket._read(dirname, "hpctoolkit", intersection, fill_perfdata, disable_tqdm,
                             **kwargs)

    @staticmethod
    def from_hpctoolkit_latest(dirname: Any, intersection: bool = False,
                               disable_tqdm: bool = False, fill_perfdata: bool = True,
                               **kwargs: Any) -> "Thicket":
        """Read HPCToolkit 2023+ databases (``meta.db``)."""
        return Thicket._read(dirname, "hpctoolkit-latest", intersection, fill_perfdata,
                             disable_tqdm, **kwargs)

    @staticmethod
    def from_graphframes(gfs: Any, metadata: Any = None, fill_perfdata: bool = True
                         ) -> "Thicket":
        """A Thicket of GraphFrames (a list, or a dict name -> GraphFrame)."""
        return Thicket(Ensemble.from_graphframes(gfs, metadata, fill=fill_perfdata))

    @staticmethod
    def from_literal(graph_dict: Any) -> "Thicket":
        """A one-profile Thicket from Hatchet's literal format."""
        return Thicket.thicketize_graphframe(GraphFrame.from_literal(graph_dict), "<literal>")

    @staticmethod
    def thicketize_graphframe(gf: Any, prf: Any) -> "Thicket":
        """A one-profile Thicket from a GraphFrame read from ``prf``."""
        ens = Ensemble.from_graphframes({str(prf): gf})
        return Thicket(ens)

    @staticmethod
    def from_json(json_thicket: Any) -> "Thicket":
        """Read Thicket's ``to_json`` layout (metric lists kept as written)."""
        return Thicket(from_thicket_json(json_thicket))

    @staticmethod
    def from_statsframes(tk_list: Sequence["Thicket"], metadata_key: Any = None,
                         disable_tqdm: bool = False) -> "Thicket":
        """One profile per Thicket: its statsframe becomes that profile's performance data.

        Profiles are labelled by the first value of ``metadata_key`` in each
        Thicket's metadata (else ``0..k-1``); each Thicket's metadata becomes
        one row (a column's value when its profiles agree, else the tuple of
        values).
        """
        gfs, labels, rows = [], [], []
        for i, tk in enumerate(tk_list):
            stats = tk.statsframe.dataframe
            gfs.append(GraphFrame(tk.graph, stats, [], [], default_metric=None))
            labels.append(tk.metadata[metadata_key].iloc[0] if metadata_key is not None else i)
            rows.append({c: _agreed(tk.metadata[c]) for c in tk.metadata.columns})
        ens = Ensemble.from_graphframes(gfs, metadata=pd.DataFrame(rows))
        if metadata_key is not None:
            ens = ens.replace(metadata=ens.metadata.assign(**{metadata_key: labels}))
            ens = ens.set_profile_index(metadata_key)
        return Thicket(ens)

    @staticmethod
    def concat_thickets(thickets: Sequence["Thicket"], axis: str = "index",
                        calltree: str = "union", disable_tqdm: bool = False,
                        **kwargs: Any) -> "Thicket":
        """Concatenate on ``"index"`` (more profiles) or ``"columns"`` (``headers=``,
        ``metadata_key=``); ``calltree`` is ``"union"`` or ``"intersection"``."""
        fill = kwargs.pop("fill_perfdata", True)
        ens = Ensemble.concat([t.ensemble for t in thickets], axis=axis,
                              headers=kwargs.pop("headers", None),
                              metadata_key=kwargs.pop("metadata_key", None), calltree=calltree)
        if kwargs:
            raise ArgumentError(f"concat_thickets got unknown keywords {sorted(kwargs)}")
        return Thicket(ens.dense() if fill and axis == "index" else ens)

    # -------------------------------------------------------- operations
    def _wrap(self, ens: Ensemble) -> "Thicket":
        return Thicket(ens)

    def filter_metadata(self, select_function: Any) -> "Thicket":
        """Profiles whose metadata row satisfies ``select_function``."""
        if not len(self.metadata.columns):
            raise EmptyMetadataTable("the metadata table is empty")
        return self._wrap(self.ensemble.filter_metadata(select_function))

    def filter_profile(self, profile_list: Sequence[Any]) -> "Thicket":
        """The listed profiles."""
        return self._wrap(self.ensemble.filter_profile(list(profile_list)))

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
        return GroupBy.of(self, by)

    def metadata_columns_to_perfdata(self, metadata_columns: Any, overwrite: bool = False,
                                     drop: bool = False, join_key: Any = None) -> None:
        """Copy metadata columns onto the performance data (in place, as in Thicket)."""
        if join_key not in (None, "profile"):
            raise ArgumentError("join_key: only the profile index is supported")
        self._set(self.ensemble.metadata_columns_to_perfdata(metadata_columns, overwrite, drop))

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
        rows = self.dataframe.xs(profile, level="profile")
        if rows.index.nlevels > 1:
            rows = rows.groupby(level="node").first()
        stats = self.statsframe.dataframe
        for metric in ([metric_columns] if isinstance(metric_columns, str) else metric_columns):
            if metric not in rows.columns:
                raise ArgumentError(f"the performance data has no column {metric!r}")
            if metric in stats.columns and not override:
                raise ArgumentError(f"the statsframe already has {metric!r} (override=True)")
            stats[metric] = rows[metric].reindex(stats.index)

    def get_unique_metadata(self) -> Dict[Any, List[Any]]:
        """Every metadata column -> its distinct values."""
        return self.ensemble.get_unique_metadata()

    def add_root_node(self, attrs: Dict[str, Any]) -> None:
        """Add a root node (no rows) with the frame ``attrs`` (in place)."""
        g = self.graph
        table = pd.concat([g.attrs, pd.DataFrame([dict(attrs)])], ignore_index=True)
        parent = np.append(np.asarray(g.parent, dtype=INT), -1)
        graph, order = Graph.build(table, parent, ordered=g.ordered,
                                   sibling_key=np.arange(len(parent), dtype=INT)
                                   if g.ordered else None)
        new_of = np.empty(len(order), dtype=INT)
        new_of[order] = np.arange(len(order), dtype=INT)
        df = self.dataframe
        arrays = [df.index.get_level_values(i) for i in range(df.index.nlevels)]
        arrays[0] = new_of[np.asarray(arrays[0], dtype=INT)]
        self.dataframe = with_node_values(
            df.set_axis(pd.MultiIndex.from_arrays(arrays, names=df.index.names),
                        axis=0).sort_index(), graph)
        stats = self.statsframe.dataframe
        moved = stats.set_axis(pd.Index(new_of[np.asarray(stats.index, dtype=INT)], name="node"))
        full = moved.reindex(pd.Index(np.arange(graph.num_nodes, dtype=INT), name="node"))
        full["name"] = empty_statsframe(graph)["name"]
        self.graph = graph
        self.statsframe = GraphFrame(graph, full, [], [], default_metric=None)

    def get_node(self, name: str, which: str = "first") -> Any:
        """The node named ``name`` (``which``: ``"first"``, ``"last"`` or ``"all"``)."""
        ids = np.flatnonzero(self.graph.attr_values("name") == name)
        if not len(ids):
            raise ArgumentError(f"no node is named {name!r}")
        nodes = [self.graph.node(int(i)) for i in ids]
        if which == "all":
            return nodes
        if which not in ("first", "last"):
            raise ArgumentError(f"which={which!r}: use 'first', 'last' or 'all'")
        return nodes[0] if which == "first" else nodes[-1]

    def tree(self, metric_column: Any = None, indices: Any = None, **options: Any) -> str:
        """The text tree of one profile (``indices``; default the first) or of statsframe
        columns."""
        metric = metric_column if metric_column is not None else self.default_metric
        if isinstance(indices, (list, tuple)) and len(indices) == 1:
            indices = indices[0]
        return self.ensemble.tree(metric, profile=indices, **options)

    def update_inclusive_columns(self) -> None:
        """Recompute inclusive metrics from exclusive ones (in place)."""
        gf = GraphFrame(self.graph, self.dataframe, self.exc_metrics, self.inc_metrics,
                        self.default_metric, inclusive_of=self._inclusive_of,
                        aggregations=self._aggregations).update_inclusive_columns(inplace=False)
        self.dataframe, self.inc_metrics = gf.dataframe, gf.inc_metrics

    def copy(self) -> "Thicket":
        """A new Thicket sharing the graph; tables copied lazily (copy-on-write)."""
        return Thicket(self.ensemble.replace())

    def deepcopy(self) -> "Thicket":
        """A new Thicket with deep copies of every table."""
        ens = self.ensemble
        return Thicket(ens.replace(graph=ens.graph.copy(), dataframe=ens.dataframe.copy(deep=True),
                                   metadata=_copy.deepcopy(ens.metadata),
                                   profiles=ens.profiles.copy(deep=True),
                                   statsframe=ens.statsframe.copy(deep=True)))

    def to_json(self, ensemble: bool = True, metadata: bool = True, stats: bool = True) -> str:
        """Thicket's JSON layout (see :mod:`graphframe.thicket.json_layout`)."""
        return to_thicket_json(self.ensemble, ensemble, metadata, stats)

    def __repr__(self) -> str:
        return f"<Thicket: {len(self.profile)} profiles, {self.graph.num_nodes} nodes>"


def _agreed(column: pd.Series) -> Any:
    values = list(dict.fromkeys(column.tolist()))
    return values[0] if len(values) == 1 else tuple(values)

