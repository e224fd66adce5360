"""Canonical layout of a graph: pre-order ids and the CSR arrays.

:func:`canonical_layout` is the array work behind :meth:`Graph.build`: it
numbers nodes in pre-order (siblings by frame code, or by source order for
ordered sources), picks each node's first parent (the one it is discovered
from) and builds the parent and child lists. Child lists keep the source's
order: first-parent edges in input order, then the extra edges, unless
``child_order`` gives every edge an explicit place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..kernels import structure as st
from ..kernels.preorder import general_preorder
from .frame_codes import dense_codes, frame_codes

INT = np.int64


@dataclass(frozen=True)
class Layout:
    """Arrays of a canonically numbered graph and ``order[new id] = input position``."""

    roots: np.ndarray
    parent: np.ndarray
    parent_ptr: np.ndarray
    parent_idx: np.ndarray
    child_ptr: np.ndarray
    child_idx: np.ndarray
    depth: np.ndarray
    attrs: pd.DataFrame
    forest: bool
    order: np.ndarray
    codes: Optional[np.ndarray]


def canonical_layout(attrs: pd.DataFrame, parent: Sequence[int],
                     extra_edges: Optional[Tuple[Sequence[int], Sequence[int]]] = None,
                     *, ordered: bool = False, sibling_key: Optional[np.ndarray] = None,
                     codes: Optional[np.ndarray] = None,
                     child_order: Optional[Tuple[np.ndarray, np.ndarray]] = None,
                     depth: Optional[np.ndarray] = None) -> Layout:
    """See :meth:`Graph.build` for the parameters."""
    parent = np.asarray(parent, dtype=INT)
    n = len(parent)
    nonroot = np.flatnonzero(parent >= 0)
    src = parent[nonroot]
    dst = nonroot
    n_extra = 0 if extra_edges is None else len(extra_edges[0])
    key = None
    if child_order is not None:
        key = np.concatenate([np.asarray(child_order[0], dtype=INT)[nonroot],
                              np.asarray(child_order[1], dtype=INT)[:n_extra]])
    if n_extra and key is not None:  # the first occurrence in child order wins
        src = np.concatenate([src, np.asarray(extra_edges[0], dtype=INT)])
        dst = np.concatenate([dst, np.asarray(extra_edges[1], dtype=INT)])
        by_key = np.argsort(key, kind="stable")
        src, dst, keep = dedupe_edges(src[by_key], dst[by_key], n)
        key = key[by_key][keep]
    elif n_extra:  # first-parent edges first: an extra edge repeating one is dropped
        ex_src = np.asarray(extra_edges[0], dtype=INT)
        ex_dst = np.asarray(extra_edges[1], dtype=INT)
        new = parent[ex_dst] != ex_src
        ex_src, ex_dst, _ = dedupe_edges(ex_src[new], ex_dst[new], n)
        src = np.concatenate([src, ex_src])
        dst = np.concatenate([dst, ex_dst])
    forest = len(src) == len(nonroot)
    if codes is None and not ordered and sibling_key is None:
        codes = frame_codes(attrs)
    if sibling_key is None:
        sibling_key = np.arange(n, dtype=INT) if ordered else codes
    roots_in = np.flatnonzero(parent < 0)
    if forest:
        depth_in = st.forest_depth(parent) if depth is None else np.asarray(depth, dtype=INT)
        order = st.forest_preorder(parent, roots_in, sibling_key, depth_in)
        via = parent
    else:
        by_key = st.sort_keys(dst, sibling_key[dst], src)
        ptr = np.zeros(n + 1, dtype=INT)
        np.cumsum(np.bincount(src, minlength=n), out=ptr[1:])
        root_order = roots_in[np.lexsort((roots_in, sibling_key[roots_in]))]
        order, depth_in, via = general_preorder(n, root_order, ptr, dst[by_key])
    inv = st.invert(order, n)
    depth = depth_in[order]
    via_new = via[order]
    new_parent = np.where(via_new >= 0, inv[np.maximum(via_new, 0)], -1)
    nsrc, ndst = inv[src], inv[dst]
    if key is None:  # first-parent edges in input order, then the extra edges
        child_ptr, child_idx = st.csr(nsrc, ndst, n)
    else:
        child_ptr = np.zeros(n + 1, dtype=INT)
        np.cumsum(np.bincount(nsrc, minlength=n), out=child_ptr[1:])
        child_idx = ndst[np.lexsort((key, nsrc))]
    parent_ptr = np.zeros(n + 1, dtype=INT)
    if forest:  # one parent per child: the parent lists are the parents in child order
        has_parent = new_parent >= 0
        np.cumsum(has_parent, out=parent_ptr[1:])
        parent_idx = new_parent[has_parent]
    else:  # by child, the first parent first
        primary = new_parent[ndst] == nsrc
        parent_idx = nsrc[st.sort_keys(nsrc, (~primary).astype(INT), ndst)]
        np.cumsum(np.bincount(ndst, minlength=n), out=parent_ptr[1:])
    return Layout(
        roots=np.sort(inv[roots_in]),
        parent=new_parent.astype(INT, copy=False),
        parent_ptr=parent_ptr,
        parent_idx=parent_idx,
        child_ptr=child_ptr,
        child_idx=child_idx,
        depth=depth.astype(INT, copy=False),
        attrs=_rows(attrs, order),
        forest=forest,
        order=order,
        codes=None if codes is None else dense_codes(np.asarray(codes, dtype=INT)[order]),
    )


def _rows(attrs: pd.DataFrame, order: np.ndarray) -> pd.DataFrame:
    """The rows of ``attrs`` at positions ``order``, indexed 0..n-1 (a new frame)."""
    out = attrs.take(order)
    out.index = pd.RangeIndex(len(order))
    return out


def dedupe_edges(src: np.ndarray, dst: np.ndarray, n: int
                 ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edges without repeats, first occurrences kept in input order (and their positions)."""
    key = dst * max(n, 1) + src
    if len(key) < 2 or bool(np.all(key[1:] >= key[:-1])):  # listed by (child, parent)
        keep = np.flatnonzero(np.r_[True, key[1:] != key[:-1]][:len(key)])
    else:
        _, first = np.unique(key, return_index=True)
        keep = np.sort(first)
    return src[keep], dst[keep], keep
