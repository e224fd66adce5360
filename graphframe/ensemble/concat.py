"""Concatenating Ensembles: more profiles (``axis="index"``) or more columns (``"columns"``).

Both compose the union of the inputs' graphs in one pass (each input is one
part, its profiles an index level), exactly as profiles are composed.

``axis="index"``
    The profiles of all inputs, renumbered ``0..P-1`` in input order; columns
    are the union (NaN where an input lacks one); metadata rows concatenated.
``axis="columns"``
    Inputs describe the *same* profiles measured differently (e.g. a CPU and a
    GPU run per problem size): rows are matched on ``(node, key[, rank])``
    where ``key`` is the value of ``metadata_key`` in each input's metadata
    (the profile label when omitted), and every column becomes
    ``(header, column)`` but the node's ``name``, which is the same under every
    header and kept once as ``("name", "")`` (as Thicket does). Metadata and
    profiles tables get the same two-level columns, indexed by the key (the
    ``metadata_key`` column itself becomes that index).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..errors import ArgumentError
from ._internal import GraphFrame
from .columns import index_from_arrays
from .compose import compose
from .profiles_index import row_positions
from .statsframe import empty_statsframe
from .tables import merged_declarations, tables_from_graphframe
from ._internal import plain_values

INT = np.int64
_LEVEL = "__profile_position__"


def concat(ensembles: Sequence[Any], axis: str = "index", headers: Optional[Sequence[Any]] = None,
           metadata_key: Any = None, calltree: str = "union") -> Any:
    """Concatenate ``ensembles`` (see the module docs); returns a new Ensemble.

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> a = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "x"))], metadata={"n": [1]})
    >>> b = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "y"))], metadata={"n": [1]})
    >>> both = concat([a, b])
    >>> both.num_profiles, both.graph.num_nodes
    (2, 3)
    >>> wide = concat([a, b], axis="columns", headers=["cpu", "gpu"], metadata_key="n")
    >>> wide.dataframe[("gpu", "time")].tolist()
    [1.0, nan, 1.0]
    """
    ensembles = list(ensembles)
    if not ensembles:
        raise ArgumentError("concat needs at least one Ensemble")
    if calltree not in ("union", "intersection"):
        raise ArgumentError(f"calltree={calltree!r}: use 'union' or 'intersection'")
    tables = [tables_from_graphframe(_positional(e)) for e in ensembles]
    composed = compose(tables)
    if axis == "index":
        out = _by_index(ensembles, composed, tables)
    elif axis in ("columns", "column"):
        out = _by_columns(ensembles, composed, headers, metadata_key)
    else:
        raise ArgumentError(f"axis={axis!r}: use 'index' or 'columns'")
    return out.intersection() if calltree == "intersection" else out


def _positional(ens: Any) -> GraphFrame:
    """The ensemble as a GraphFrame whose profile level holds positions (named apart)."""
    df = ens.dataframe
    arrays = [plain_values(df.index.get_level_values(i)) for i in range(df.index.nlevels)]
    arrays[1] = row_positions(ens)
    names = ["node", _LEVEL] + list(df.index.names[2:])
    frame = df.set_axis(index_from_arrays([a.astype(INT) for a in arrays], names), axis=0)
    return GraphFrame(ens.graph, frame, ens.exc_metrics, ens.inc_metrics, ens.default_metric,
                      inclusive_of=ens.inclusive_of, aggregations=ens.aggregations)


def _by_index(ensembles: List[Any], composed: dict, tables: list) -> Any:
    df = composed["dataframe"]
    offsets = np.concatenate([[0], np.cumsum([e.num_profiles for e in ensembles])])
    part = np.asarray(df.index.get_level_values("profile"), dtype=INT)
    pos = np.asarray(df.index.get_level_values(_LEVEL), dtype=INT)
    rest = [lv for lv in df.index.names if lv not in ("node", "profile", _LEVEL)]
    arrays = [np.asarray(df.index.get_level_values("node"), dtype=INT), offsets[part] + pos] + \
        [np.asarray(df.index.get_level_values(lv), dtype=INT) for lv in rest]
    order = np.lexsort(tuple(reversed(arrays)))
    frame = df.iloc[order]
    frame = frame.set_axis(index_from_arrays([a[order] for a in arrays],
                                             ["node", "profile"] + rest), axis=0)
    numbered = pd.RangeIndex(int(offsets[-1]), name="profile")
    metadata = pd.concat([e.metadata for e in ensembles], ignore_index=True)
    metadata.index = numbered
    profiles = pd.concat([e.profiles for e in ensembles], ignore_index=True)
    profiles.index = numbered
    errors = pd.concat([e.errors for e in ensembles], ignore_index=True)
    first = ensembles[0]
    return first.replace(graph=composed["graph"], dataframe=frame, metadata=metadata,
                         profiles=profiles, statsframe=empty_statsframe(composed["graph"]),
                         errors=errors, **merged_declarations(tables))


def _by_columns(ensembles: List[Any], composed: dict, headers: Optional[Sequence[Any]],
                metadata_key: Any) -> Any:
    headers = list(headers) if headers is not None else list(range(len(ensembles)))
    if len(headers) != len(ensembles):
        raise ArgumentError(f"{len(headers)} headers for {len(ensembles)} ensembles")
    df = composed["dataframe"]
    part = np.asarray(df.index.get_level_values("profile"), dtype=INT)
    pos = np.asarray(df.index.get_level_values(_LEVEL), dtype=INT)
    rest = [lv for lv in df.index.names if lv not in ("node", "profile", _LEVEL)]
    pieces, metas, profs = [], [], []
    for i, (ens, header) in enumerate(zip(ensembles, headers)):
        keys = _keys(ens, metadata_key)
        rows = part == i
        sub = df[rows]
        arrays = [sub.index.get_level_values("node"), keys.take(pos[rows])] + \
            [sub.index.get_level_values(lv) for lv in rest]
        sub = sub.set_axis(pd.MultiIndex.from_arrays(arrays, names=["node", "profile"] + rest),
                           axis=0)
        sub = sub[[c for c in sub.columns if c != "name" and sub[c].notna().any()]]
        sub.columns = pd.MultiIndex.from_tuples([(header, c) for c in sub.columns])
        pieces.append(sub)
        meta = ens.metadata.drop(columns=[metadata_key]) if metadata_key is not None \
            else ens.metadata
        metas.append(_prefixed(meta, keys, header))
        profs.append(_prefixed(ens.profiles, keys, header))
    frame = pd.concat(pieces, axis=1, join="outer").sort_index()
    if "name" in df.columns:   # a node's name is the same under every header: once
        frame[("name", "")] = _names(composed["graph"], frame)
    metadata = pd.concat(metas, axis=1, join="outer").sort_index()
    profiles = pd.concat(profs, axis=1, join="outer").sort_index()
    first = ensembles[0]
    declared = dict(
        exc_metrics=[(h, m) for h, e in zip(headers, ensembles) for m in e.exc_metrics],
        inc_metrics=[(h, m) for h, e in zip(headers, ensembles) for m in e.inc_metrics],
        default_metric=(headers[0], first.default_metric) if first.default_metric else None,
        inclusive_of={(h, a): (h, b) for h, e in zip(headers, ensembles)
                      for a, b in e.inclusive_of.items()},
        aggregations={(h, c): k for h, e in zip(headers, ensembles)
                      for c, k in e.aggregations.items()})
    return first.replace(graph=composed["graph"], dataframe=frame, metadata=metadata,
                         profiles=profiles, statsframe=empty_statsframe(composed["graph"]),
                         **declared)


def _names(graph: Any, frame: pd.DataFrame) -> pd.Categorical:
    names = np.asarray(graph.attr_values("name"), dtype=object)
    return pd.Categorical(names[np.asarray(frame.index.get_level_values("node"), dtype=INT)])


def _keys(ens: Any, metadata_key: Any) -> pd.Index:
    if metadata_key is None:
        return pd.Index(ens.metadata.index, name="profile")
    if metadata_key not in ens.metadata.columns:
        raise ArgumentError(f"metadata has no column {metadata_key!r}")
    keys = pd.Index(ens.metadata[metadata_key].to_numpy(), name="profile")
    if keys.has_duplicates:
        raise ArgumentError(f"metadata column {metadata_key!r} repeats a value; it must "
                            "identify each profile")
    return keys


def _prefixed(table: pd.DataFrame, keys: pd.Index, header: Any) -> pd.DataFrame:
    out = table.copy(deep=False)
    out.index = keys
    out.columns = pd.MultiIndex.from_tuples([(header, c) for c in out.columns]) \
        if len(out.columns) else pd.MultiIndex.from_tuples([], names=[None, None])
    return out
