"""Selecting profiles and nodes of an Ensemble (each returns a new Ensemble).

Profile selections (``filter_metadata``, ``filter_profile``) keep the graph,
take the rows of the kept profiles and renumber them ``0..k-1`` in their
previous order (``profiles`` keeps each one's path and hash). Node selections
(``filter_stats``, ``query``, ``intersection``, ``squash``) keep the rows of
the kept nodes and squash the graph as :meth:`graphframe.GraphFrame.squash`
does (nearest kept ancestor, equal siblings merged by each column's
aggregation, inclusive metrics recomputed from exclusive ones; non-additive
columns are never summed). The statsframe keeps its rows for the nodes kept
by ``filter_stats``/``query_stats`` and is reset (``name`` only) after other
structural changes and after profile selections, whose statistics no
longer hold.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence, Union

import numpy as np
import pandas as pd

from ..errors import ArgumentError, EmptyFilter
from ._internal import GraphFrame, as_text
from .columns import index_from_arrays
from .profiles_index import positions_of, row_positions
from .statsframe import empty_statsframe
from ._internal import plain_values

INT = np.int64
_OLD = "__ensemble_old_node__"


def node_ids(df: pd.DataFrame) -> np.ndarray:
    """The ``node`` level of ``df``'s index as int64."""
    return np.asarray(df.index.get_level_values("node"), dtype=INT)


# ------------------------------------------------------------------ profiles
def select_profiles(ens: Any, keep: np.ndarray) -> Any:
    """The profiles at positions ``keep`` (sorted), renumbered ``0..k-1`` unless labelled."""
    keep = np.unique(np.asarray(keep, dtype=INT))
    if len(keep) == 0:
        raise EmptyFilter("the selection keeps no profile")
    p = ens.num_profiles
    if keep[0] < 0 or keep[-1] >= p:
        raise ArgumentError(f"profile {keep[-1] if keep[-1] >= p else keep[0]} does not exist "
                            f"(profiles are 0..{p - 1})")
    new_of = np.full(p, -1, dtype=INT)
    new_of[keep] = np.arange(len(keep), dtype=INT)
    df = ens.dataframe
    rows = new_of[row_positions(ens)] >= 0
    sub = df[rows]
    if _numbered(ens):
        arrays = [plain_values(sub.index.get_level_values(i)) for i in range(sub.index.nlevels)]
        arrays[1] = new_of[arrays[1].astype(INT)]
        sub = sub.set_axis(index_from_arrays(arrays, list(df.index.names)), axis=0)
        profiles = _renumber(ens.profiles.iloc[keep])
        metadata = _renumber(ens.metadata.iloc[keep])
    else:
        profiles, metadata = ens.profiles.iloc[keep], ens.metadata.iloc[keep]
    return ens.replace(dataframe=sub, profiles=profiles, metadata=metadata,
                       statsframe=_names_only(ens))


def _numbered(ens: Any) -> bool:
    labels = ens.metadata.index
    return isinstance(labels, pd.RangeIndex) and labels.start == 0 and labels.step == 1


def _renumber(table: pd.DataFrame) -> pd.DataFrame:
    out = table.copy(deep=False)
    out.index = pd.RangeIndex(len(out), name="profile")
    return out


def filter_metadata(ens: Any, select: Union[str, Callable[[pd.Series], bool], Any]) -> Any:
    """Profiles whose metadata row satisfies ``select``.

    ``select`` is a callable on one metadata row (a Series, as Thicket
    passes it), a boolean mask over the profiles, or an expression string
    for :meth:`pandas.DataFrame.query` (``"compiler == 'gcc' and size > 4"``;
    backquote names with spaces or dots).
    """
    meta = ens.metadata
    if isinstance(select, str):
        try:
            mask = meta.eval(select)
        except Exception as exc:  # noqa: BLE001 -- pandas raises many kinds
            raise ArgumentError(f"cannot evaluate the metadata expression {select!r}: "
                                f"{exc}") from exc
        mask = np.asarray(mask, dtype=bool) if np.ndim(mask) else np.full(len(meta), bool(mask))
    elif callable(select):
        mask = np.array([bool(select(row)) for _, row in meta.iterrows()], dtype=bool)
    else:
        mask = np.asarray(select)
        if mask.dtype != bool or mask.shape != (len(meta),):
            raise ArgumentError("filter_metadata needs a callable, an expression string or "
                                f"a boolean mask of {len(meta)} values")
    return select_profiles(ens, np.flatnonzero(mask))


def filter_profile(ens: Any, profiles: Sequence[int]) -> Any:
    """The listed profiles (their labels: ``0..P-1`` unless :meth:`set_profile_index` was used)."""
    if np.ndim(profiles) == 0 or isinstance(profiles, tuple):
        profiles = [profiles]
    return select_profiles(ens, positions_of(ens, list(profiles)))


# --------------------------------------------------------------------- nodes
def keep_nodes(ens: Any, keep: np.ndarray, keep_stats: bool = False,
               update_inc_cols: bool = True) -> Any:
    """Rows of the nodes where ``keep`` is True, graph squashed (see the module docs)."""
    df = ens.dataframe
    rows = keep[node_ids(df)]
    if not rows.any():
        raise EmptyFilter("the selection keeps no node that has data")
    # a full-length key when the columns have several levels (after a column concat)
    old = _OLD if df.columns.nlevels == 1 else (_OLD,) + ("",) * (df.columns.nlevels - 1)
    sub = df[rows].copy(deep=False)
    sub[old] = node_ids(df)[rows]
    gf = GraphFrame(ens.graph, sub, ens.exc_metrics, ens.inc_metrics, ens.default_metric,
                    inclusive_of=ens.inclusive_of,
                    aggregations={**ens.aggregations, old: "first"})
    out = gf.squash(update_inc_cols=update_inc_cols)
    new_df = out.dataframe
    old_of_new = pd.Series(np.asarray(new_df[old], dtype=INT),
                           index=node_ids(new_df)).groupby(level=0).first()
    new_df = new_df.drop(columns=[old])
    stats = _carried_stats(ens, out.graph, old_of_new) if keep_stats else \
        empty_statsframe(out.graph)
    return ens.replace(graph=out.graph, dataframe=new_df, statsframe=stats)


def _carried_stats(ens: Any, graph: Any, old_of_new: pd.Series) -> pd.DataFrame:
    stats = ens.statsframe
    taken = stats.reindex(old_of_new.to_numpy())
    taken.index = pd.Index(old_of_new.index.to_numpy(dtype=INT), name="node")
    full = taken.reindex(pd.Index(np.arange(graph.num_nodes, dtype=INT), name="node"))
    if "name" in full.columns and "name" in graph.attr_names():
        full["name"] = as_text(pd.Series(graph.attr_values("name"), index=full.index,
                                         dtype=object))
    return full


def _names_only(ens: Any) -> pd.DataFrame:
    return empty_statsframe(ens.graph)


def filter_stats(ens: Any, select: Callable[[pd.Series], bool]) -> Any:
    """Nodes whose statsframe row satisfies ``select`` (a callable on one row)."""
    stats = ens.statsframe
    mask = np.array([bool(select(row)) for _, row in stats.iterrows()], dtype=bool)
    keep = np.zeros(ens.graph.num_nodes, dtype=bool)
    keep[np.asarray(stats.index, dtype=INT)[mask]] = True
    return keep_nodes(ens, keep, keep_stats=True)


def query(ens: Any, query_obj: Any, squash: bool = True, update_inc_cols: bool = True,
          multi_index_mode: str = "any") -> Any:
    """Nodes on call paths matching ``query_obj`` (our query language, on the perfdata)."""
    gf = GraphFrame(ens.graph, ens.dataframe, ens.exc_metrics, ens.inc_metrics,
                    ens.default_metric, inclusive_of=ens.inclusive_of,
                    aggregations=ens.aggregations)
    matched = [int(n) for n in gf.query(query_obj, multi_index_mode=multi_index_mode)]
    keep = np.zeros(ens.graph.num_nodes, dtype=bool)
    keep[matched] = True
    if not squash:
        return ens.replace(dataframe=ens.dataframe[keep[node_ids(ens.dataframe)]])
    return keep_nodes(ens, keep, keep_stats=True, update_inc_cols=update_inc_cols)


def query_stats(ens: Any, query_obj: Any) -> Any:
    """Nodes on call paths matching ``query_obj`` evaluated on the statsframe."""
    gf = GraphFrame(ens.graph, ens.statsframe, [], [], None)
    matched = [int(n) for n in gf.query(query_obj)]
    keep = np.zeros(ens.graph.num_nodes, dtype=bool)
    keep[matched] = True
    return keep_nodes(ens, keep, keep_stats=True)


def intersection(ens: Any) -> Any:
    """Only the call paths every profile has data for (then squashed)."""
    df = ens.dataframe
    pairs = pd.unique(node_ids(df) * max(ens.num_profiles, 1) + row_positions(ens))
    count = np.bincount(pairs // max(ens.num_profiles, 1), minlength=ens.graph.num_nodes)
    return keep_nodes(ens, count == ens.num_profiles)


def squash(ens: Any, update_inc_cols: bool = True) -> Any:
    """The graph reduced to the nodes that have rows (see the module docs)."""
    keep = np.zeros(ens.graph.num_nodes, dtype=bool)
    keep[node_ids(ens.dataframe)] = True
    return keep_nodes(ens, keep, keep_stats=True, update_inc_cols=update_inc_cols)
