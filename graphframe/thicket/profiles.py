"""Thicket's profile labels: a profile read from a file is known by a number made from
the path as the user wrote it.

Thicket labels each profile with the integer of the first 11 hexadecimal digits of
the MD5 digest of its path string (``"../data/run1.cali"``), sorts its tables by
that label, and refuses a path given twice (:class:`DuplicateIndexError`). The
Thicket layer does the same, so that profile labels, row order and the pairing
of profiles by position (``concat_thickets(axis="columns")`` without a
``metadata_key``) are Thicket's. ``tk.profile`` lists the labels in the order
Thicket's pairwise composition leaves them (:func:`composition_order`).

Examples
--------
>>> profile_hasher("../data/lassen/clang10.0.1_nvcc10.2.89_1048576/1/Base_CUDA-block_128.cali")
7433150982343
"""

from __future__ import annotations

from hashlib import md5
from typing import Any, List, Sequence

import numpy as np
import pandas as pd

from ..ensemble import Ensemble
from ..ensemble.profiles_index import row_positions
from .utils import DuplicateIndexError

INT = np.int64


def profile_hasher(obj: Any, hex_len: int = 11) -> int:
    """Thicket's label of a profile read from ``obj`` (a path string): the first
    ``hex_len`` hexadecimal digits of the MD5 digest of its UTF-8 text, as an integer."""
    return int(md5(str(obj).encode("utf-8")).hexdigest()[:hex_len], 16)


def composition_order(labels: Sequence[Any]) -> List[Any]:
    """The order of ``tk.profile`` after Thicket composes one-profile Thickets pairwise:
    it takes the first two of a queue, joins them (first's profiles, then second's)
    and puts the result at the back, until one is left.

    Examples
    --------
    >>> composition_order(["a", "b", "c", "d", "e"])
    ['c', 'd', 'e', 'a', 'b']
    """
    queue: List[List[Any]] = [[x] for x in labels]
    while len(queue) > 1:
        first, second = queue.pop(0), queue.pop(0)
        queue.append(first + second)
    return queue[0] if queue else []


def label_by_source(ens: Ensemble, names: Sequence[Any]) -> Ensemble:
    """``ens`` with profile ``i`` labelled ``profile_hasher(names[i])`` and its tables
    sorted by label, as Thicket's; two equal labels are a :class:`DuplicateIndexError`.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main",))] * 2)
    >>> label_by_source(ens, ["b.cali", "a.cali"]).metadata.index.tolist()
    [10629311028524, 16504409844774]
    >>> label_by_source(ens, ["a.cali", "a.cali"])
    Traceback (most recent call last):
    ...
    graphframe.thicket.utils.DuplicateIndexError: profiles 0 and 1 have the same label 16504409844774: the same source 'a.cali' was given twice
    """
    labels = [profile_hasher(n) for n in names]
    seen = {}
    for i, (label, name) in enumerate(zip(labels, names)):
        if label in seen:
            raise DuplicateIndexError(f"profiles {seen[label]} and {i} have the same label "
                                      f"{label}: the same source {name!r} was given twice")
        seen[label] = i
    return relabel(ens, labels)


def relabel(ens: Ensemble, labels: Sequence[Any]) -> Ensemble:
    """``ens`` with profile ``i`` labelled ``labels[i]`` (unique) and its tables sorted by
    label.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main",))] * 2)
    >>> relabel(ens, [7, 3]).dataframe.index.get_level_values("profile").tolist()
    [3, 7]
    >>> relabel(ens, [7, 7])
    Traceback (most recent call last):
    ...
    graphframe.thicket.utils.DuplicateIndexError: two profiles have the label 7
    """
    index = pd.Index(list(labels), name="profile")
    if index.has_duplicates:
        dup = index[index.duplicated()][0]
        dup = dup.item() if isinstance(dup, np.generic) else dup
        raise DuplicateIndexError(f"two profiles have the label {dup!r}")
    labels = index.to_numpy()
    pos = row_positions(ens)
    df = ens.dataframe
    arrays = [df.index.get_level_values(i) for i in range(df.index.nlevels)]
    level = df.index.names.index("profile")
    arrays[level] = labels[pos]
    df = df.set_axis(pd.MultiIndex.from_arrays(arrays, names=df.index.names), axis=0)
    order = np.argsort(labels, kind="stable")
    metadata = ens.metadata.set_axis(index, axis=0).iloc[order]
    profiles = ens.profiles.set_axis(index, axis=0).iloc[order]
    return ens.replace(dataframe=df.sort_index(), metadata=metadata, profiles=profiles)
