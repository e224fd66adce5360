"""The operations of :class:`~graphframe.ensemble.Ensemble` (a mixin it inherits).

Each returns a new Ensemble that shares the unchanged tables of its input
and never modifies it; the work is done by the modules named in each
method (selection, grouping, concat...).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from . import concat as _concat
from . import dense as _dense
from . import grouping, meta_ops, profiles_index, selection, views


class EnsembleOperations:
    """Filtering, grouping, relabelling, views and concatenation of an Ensemble."""

    def dense(self) -> "Ensemble":
        """One row per (node, profile[, ranks/threads of that profile]); missing rows NaN.

        Examples
        --------
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
        >>> from graphframe import Ensemble, GraphFrame
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
