"""``thicket.utils``: the exceptions and structure checks Thicket code imports.

The exceptions are Thicket's names with Thicket's base classes (so ``except
IndexError`` catches :class:`DuplicateIndexError`, as in Thicket) and
graphframe's :class:`~graphframe.errors.GraphframeError`. The checks take a
Thicket's tables and raise what Thicket raises.

Examples
--------
>>> import pandas as pd
>>> from graphframe.thicket.utils import DuplicateIndexError, verify_sorted_profile
>>> issubclass(DuplicateIndexError, IndexError)
True
>>> verify_sorted_profile(pd.DataFrame(index=pd.Index([3, 1], name="profile")))
Traceback (most recent call last):
...
ValueError: The profiles in this dataframe must be sorted. Try 'pandas.DataFrame.sort_index'.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Sequence

import pandas as pd

from ..errors import GraphframeError

__all__ = ["DuplicateIndexError", "DuplicateValueError", "EmptyMetadataTable",
           "InvalidNameError", "MissingHNIDError", "check_duplicate_metadata_key",
           "check_same_frame", "validate_dataframe", "validate_nodes", "validate_profile",
           "verify_sorted_profile", "verify_thicket_structures"]


class EmptyMetadataTable(GraphframeError):
    """An operation needs metadata and the metadata table is empty (or a filter of it
    keeps no profile)."""


class DuplicateIndexError(GraphframeError, IndexError):
    """Two profiles have the same label (a file read twice: Thicket labels a profile
    by its path), or a table has a repeated (node, profile) row."""


class DuplicateValueError(GraphframeError, ValueError):
    """Thickets to be keyed by a metadata column share a value of it."""


class MissingHNIDError(GraphframeError, ValueError):
    """The dataframe's nodes are not the graph's ``0..n-1`` in order."""


class InvalidNameError(GraphframeError, ValueError):
    """A row's ``name`` is not its node's name."""


def check_same_frame(n1: Any, n2: Any) -> None:
    """Raise ``ValueError`` unless the two nodes have equal frames.

    Examples
    --------
    >>> from graphframe import Frame, Node
    >>> check_same_frame(Node(Frame(name="a")), Node(Frame(name="a")))
    """
    if n1.frame != n2.frame:
        raise ValueError(f"the nodes' frames differ: {n1.frame} != {n2.frame}")


def check_duplicate_metadata_key(thickets: Sequence[Any], metadata_key: Any) -> None:
    """Raise :class:`DuplicateValueError` when two of the Thickets share a value of the
    metadata column ``metadata_key`` (each pair that does is named).

    Examples
    --------
    >>> import pandas as pd
    >>> class T:  # anything with a metadata table
    ...     def __init__(self, sizes): self.metadata = pd.DataFrame({"size": sizes})
    >>> check_duplicate_metadata_key([T([1]), T([2])], "size")
    >>> check_duplicate_metadata_key([T([1]), T([1, 2])], "size")
    Traceback (most recent call last):
    ...
    graphframe.thicket.utils.DuplicateValueError: metadata column 'size' must not share values between Thickets: thickets[0] and thickets[1] both have [1]
    """
    values = [set(t.metadata[metadata_key].tolist()) for t in thickets]
    clashes: List[str] = []
    for i in range(len(values)):
        for j in range(i + 1, len(values)):
            shared = values[i] & values[j]
            if shared:
                clashes.append(f"thickets[{i}] and thickets[{j}] both have "
                               f"{sorted(shared, key=repr)}")
    if clashes:
        raise DuplicateValueError(f"metadata column {metadata_key!r} must not share values "
                                  f"between Thickets: " + "; ".join(clashes))


def verify_sorted_profile(thicket_component: pd.DataFrame) -> None:
    """Raise ``ValueError`` unless the innermost index level's values appear sorted."""
    values = list(dict.fromkeys(
        thicket_component.index.get_level_values(thicket_component.index.nlevels - 1)))
    if values != sorted(values):
        raise ValueError("The profiles in this dataframe must be sorted. Try "
                         "'pandas.DataFrame.sort_index'.")


def verify_thicket_structures(thicket_component: pd.DataFrame, columns: Iterable[Any] = (),
                              index: Iterable[Any] = ()) -> None:
    """Raise ``RuntimeError`` naming the ``columns`` and ``index`` levels the table lacks.

    Examples
    --------
    >>> verify_thicket_structures(pd.DataFrame({"a": [1]}), columns=["b"])
    Traceback (most recent call last):
    ...
    RuntimeError: Specified column(s) not found: ['b']
    """
    if not isinstance(columns, (list, tuple)) or not isinstance(index, (list, tuple)):
        raise RuntimeError("columns= and index= must be given as lists")
    have_columns = thicket_component.columns.tolist()
    have_index = list(thicket_component.index.names)
    missing_columns = [c for c in columns if c not in have_columns]
    missing_index = [i for i in index if i not in have_index]
    parts = []
    if missing_columns:
        parts.append(f"Specified column(s) not found: {missing_columns}")
    if missing_index:
        parts.append(f"Missing index level(s): {missing_index} required for the function")
    if parts:
        raise RuntimeError("\n".join(parts))


def validate_dataframe(df: pd.DataFrame) -> None:
    """Raise :class:`DuplicateIndexError` for a repeated row key, :class:`InvalidNameError`
    for a ``name`` that is not its node's."""
    if df.index.has_duplicates:
        dup = df.index[df.index.duplicated()][0]
        raise DuplicateIndexError(f"Duplicate indices found in DataFrame index: {dup!r}")
    if "name" in df.columns and df.columns.nlevels == 1:
        nodes = df.index.get_level_values("node")
        expected = [n.frame.get("name") if hasattr(n, "frame") else None for n in nodes]
        for node, have, want in zip(nodes, df["name"].tolist(), expected):
            if have is not None and have == have and want is not None and have != want:
                raise InvalidNameError(f"row of node {int(node)}: name {have!r} is not the "
                                       f"node's name {want!r}")


def validate_profile(tk: Any) -> None:
    """Raise ``ValueError`` unless the dataframe, metadata, ``profile`` and
    ``profile_mapping`` name the same profiles, once each."""
    profiles = list(tk.profile)
    if len(profiles) != len(set(profiles)) or tk.metadata.index.has_duplicates:
        raise ValueError("profiles must be unique")
    in_df = set(tk.dataframe.index.get_level_values(1))
    if not (set(profiles) == set(tk.metadata.index) == set(tk.profile_mapping)) or \
            not in_df <= set(tk.metadata.index):
        raise ValueError("the dataframe, metadata, profile and profile_mapping do not name "
                         "the same profiles")


def validate_nodes(tk: Any) -> None:
    """Raise ``ValueError`` unless the graph, the dataframe and the statsframe hold the
    same nodes."""
    graph = set(range(tk.graph.num_nodes))
    frame = {int(n) for n in tk.dataframe.index.get_level_values("node")}
    stats = {int(n) for n in tk.statsframe.dataframe.index.get_level_values("node")}
    if not frame <= graph or not stats <= graph or frame != stats:
        raise ValueError("the nodes of the graph, the dataframe and the statsframe differ")
