"""Per-rank ``.cali`` file sets: each file's rank, and one table for the set.

A directory or list of ``.cali`` files reads as one profile
(:func:`graphframe_readers.caliper.read_caliper`): each file's rank is its records'
``mpi.rank`` when they have one, else the rank its name encodes through
Caliper's ``output`` pattern, else the global ``mpi.rank``, else its position
in the sorted list. A rank in two files is an error. The files' call paths are
unified by label, one depth level at a time.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from ..errors import ReadError
from .names import UNATTRIBUTED, UNATTRIBUTED_SHARE
from .records import Hierarchy, RecordTable, forest_depth

INT = np.int64


def file_rank(path: str, globals_: Dict[str, Any], position: int) -> int:
    """Rank of a per-rank file without ``mpi.rank`` records (see the module docs).

    Parameters
    ----------
    path : str
        The file.
    globals_ : dict
        Its globals as text (``opts:output`` holds Caliper's output pattern).
    position : int
        Its position in the sorted set: the rank when nothing else says.

    Examples
    --------
    >>> file_rank("/x/rp-rank12.cali", {"opts:output": "rp-rank%mpi.rank%.cali"}, 0)
    12
    >>> file_rank("/x/a.cali", {}, 3)
    3
    """
    pattern = globals_.get("opts:output")
    if isinstance(pattern, str) and "%mpi.rank%" in pattern:
        parts = [re.escape(part) for part in os.path.basename(pattern).split("%mpi.rank%")]
        expr = r"(\d+)".join(_wildcards(part) for part in parts)
        match = re.fullmatch(expr, os.path.basename(path))
        if match:
            return int(match.group(1))
    value = globals_.get("mpi.rank")
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return position


def _wildcards(escaped: str) -> str:
    """Other ``%attr%`` placeholders of an output pattern match anything."""
    return re.sub(r"%[^%]*%", ".*?", escaped.replace(r"\%", "%"))


def merge_rank_tables(decoded: List[Tuple[RecordTable, Dict[str, Any]]], files: List[str],
                      source: Any) -> RecordTable:
    """One table for a set of per-rank files: unified call paths, a rank per record.

    Parameters
    ----------
    decoded : list of (RecordTable, dict)
        Each file's table and its raw (text) globals, in ``files`` order.
    files : list of str
        The files (for ranks taken from names, and for errors).
    source : path-like or list
        What the merged table is called in errors.

    Returns
    -------
    RecordTable
        A rank per record. A rank found in two files (from their records'
        ``mpi.rank`` or from their names) is a :class:`ReadError` naming both
        files: summing them would double that rank's values.
    """
    tables = [t for t, _ in decoded]
    file_ranks = []
    for position, (table, path) in enumerate(zip(tables, files)):
        if table.rank is None:
            rank = file_rank(path, decoded[position][1], position)
            table.rank = np.full(len(table.node), rank, dtype=INT)
            file_ranks.append(np.array([rank], dtype=INT))
        else:
            file_ranks.append(np.unique(table.rank))
    _check_distinct_ranks(file_ranks, files)
    hierarchy, mappings = unify_hierarchies([t.hierarchy for t in tables], source)
    merged = RecordTable(source=source, hierarchy=hierarchy,
                         node=np.concatenate([m[t.node] for m, t in zip(mappings, tables)]),
                         rank=np.concatenate([t.rank for t in tables]))
    del mappings
    if any(t.order is not None for t in tables):
        merged.order = np.concatenate([t.order if t.order is not None
                                       else np.full(len(t.node), np.nan) for t in tables])
    if any(t.sourceloc is not None for t in tables):
        merged.sourceloc = np.concatenate([t.sourceloc if t.sourceloc is not None
                                           else np.full(len(t.node), None, dtype=object)
                                           for t in tables])
    merged.columns, merged.layout = _merge_columns(tables)
    merged.metadata = _merge_metadata([t.metadata for t in tables])
    for t in tables:  # the first file that declares an attribute's unit says it
        merged.units.update({k: v for k, v in t.units.items() if k not in merged.units})
    return merged


def _check_distinct_ranks(file_ranks: List[np.ndarray], files: List[str]) -> None:
    """Each rank in one file only; else a ReadError naming the two files."""
    ranks = np.concatenate(file_ranks)
    owner = np.repeat(np.arange(len(files), dtype=INT), [len(r) for r in file_ranks])
    order = np.lexsort((owner, ranks))
    ranks, owner = ranks[order], owner[order]
    again = np.flatnonzero(ranks[1:] == ranks[:-1]) + 1
    if not len(again):
        return
    i = int(again[np.argmin(owner[again])])  # the first file that repeats a rank
    raise ReadError(files[int(owner[i])], f"rank {int(ranks[i])} is also the rank of "
                    f"{files[int(owner[i - 1])]}",
                    expected="each rank in exactly one file of a per-rank set")


def unify_hierarchies(hierarchies: Sequence[Hierarchy], source: Any
                      ) -> Tuple[Hierarchy, List[np.ndarray]]:
    """The union of several call-path hierarchies and each one's node mapping.

    Nodes are equal when their parents are equal and their labels and kinds
    match. Unified nodes are numbered in first-seen order (hierarchies in
    order, nodes by index; every parent precedes its children), and keep the
    creation key of their first occurrence when every input has one. Computed one
    depth level at a time with array keys, without a loop over nodes.

    Parameters
    ----------
    hierarchies : sequence of Hierarchy
        The call paths of each file.
    source : path-like or list
        What to name in errors (a parent cycle).

    Returns
    -------
    (Hierarchy, list of numpy.ndarray)
        The union, and for each input the union node of each of its nodes.

    Examples
    --------
    >>> def h(parent, label):
    ...     return Hierarchy(parent=np.array(parent), label=np.array(label, dtype=object),
    ...                      kind=np.array(["region"] * len(parent), dtype=object),
    ...                      nid=np.arange(len(parent)))
    >>> u, maps = unify_hierarchies([h([-1, 0], ["main", "a"]), h([-1, 0], ["main", "b"])], "x")
    >>> u.parent.tolist(), u.label.tolist(), [m.tolist() for m in maps]
    ([-1, 0, 0], ['main', 'a', 'b'], [[0, 1], [0, 2]])
    """
    sizes = [len(h) for h in hierarchies]
    offsets = np.r_[0, np.cumsum(sizes)].astype(INT)
    n = int(offsets[-1])
    parent = np.concatenate([np.where(h.parent >= 0, h.parent + off, -1)
                             for h, off in zip(hierarchies, offsets)]).astype(INT)
    labels = np.concatenate([np.asarray(h.label, dtype=object) for h in hierarchies])
    kinds = np.concatenate([np.asarray(h.kind, dtype=object) for h in hierarchies])
    depth = np.concatenate([h.depth if h.depth is not None else
                            forest_depth(h.parent, source, lambda i: f"node {i}")
                            for h in hierarchies])
    label_code, _ = pd.factorize(labels, use_na_sentinel=False)
    kind_code, kind_names = pd.factorize(kinds, use_na_sentinel=False)
    code = label_code.astype(INT) * max(len(kind_names), 1) + kind_code
    width = int(code.max()) + 1 if n else 1
    canon = np.full(n, -1, dtype=INT)
    group_parent, next_id = [], 0
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(depth[by_depth]) != 0, True]) if n else []
    for a, b in zip(bounds[:-1], bounds[1:]):
        members = by_depth[a:b]
        above = parent[members]
        key = (np.where(above >= 0, canon[np.maximum(above, 0)], -1) + 1) * width + code[members]
        unique_keys, inverse = np.unique(key, return_inverse=True)
        canon[members] = next_id + inverse.ravel()
        group_parent.append(unique_keys // width - 1)
        next_id += len(unique_keys)
    first = np.full(next_id, n, dtype=INT)
    np.minimum.at(first, canon, np.arange(n, dtype=INT))
    order = np.argsort(first, kind="stable")
    new = np.empty(next_id, dtype=INT)
    new[order] = np.arange(next_id, dtype=INT)
    gp = np.concatenate(group_parent)[order] if group_parent else np.zeros(0, dtype=INT)
    nid = np.arange(next_id, dtype=INT)
    creation = None
    if all(h.creation is not None for h in hierarchies):
        # as if the files' records were one stream: a node keeps the kind of
        # creation (own record or ancestor) of its first occurrence
        own = np.concatenate([h.creation >= 0 for h in hierarchies])
        creation = np.where(own[first[order]], nid, -1) if n else nid
    hierarchy = Hierarchy(parent=np.where(gp >= 0, new[np.maximum(gp, 0)], -1),
                          label=labels[first[order]], kind=kinds[first[order]],
                          nid=nid, creation=creation)
    mapping = new[canon]
    return hierarchy, [mapping[a:b] for a, b in zip(offsets[:-1], offsets[1:])]


def _merge_columns(tables: List[RecordTable]) -> Tuple[list, list]:
    specs: Dict[str, Any] = {}
    layout: List[str] = []
    for t in tables:
        for name in t.layout:
            if name not in layout:
                layout.append(name)
        for spec, values in t.columns:
            specs.setdefault(spec.name, (spec, values.dtype))
    columns = []
    for name, (spec, dtype) in specs.items():
        parts = []
        for t in tables:
            found = [v for s, v in t.columns if s.name == name]
            if found:
                parts.append(found[0])
            elif dtype == object:
                parts.append(np.full(len(t.node), None, dtype=object))
            else:
                parts.append(np.full(len(t.node), np.nan))
        if any(p.dtype == object for p in parts) and dtype != object:
            parts = [p.astype(object) for p in parts]
        columns.append((spec, np.concatenate(parts)))
    return columns, layout


def _merge_metadata(metas: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Globals equal in every file stay single values; others become per-file lists;
    the totals without a call path (:data:`~graphframe_readers.caliper.names.UNATTRIBUTED`)
    add up over the files."""
    keys: List[str] = []
    for m in metas:
        keys.extend(k for k in m if k not in keys)
    out: Dict[str, Any] = {}
    for k in keys:
        values = [m.get(k) for m in metas]
        if k == UNATTRIBUTED_SHARE:
            continue   # computed again for the merged records
        if k == UNATTRIBUTED:
            totals: Dict[str, float] = {}
            for v in values:
                for metric, total in (v or {}).items():
                    totals[metric] = totals.get(metric, 0.0) + total
            out[k] = totals
            continue
        out[k] = values[0] if all(v == values[0] for v in values) else values
    return out
