"""Atoms: the single conditions both dialects compile to.

An :class:`Atom` is one condition on a node: a column condition (``name``
matches a regex, ``time (inc) >= 5``, ``file IS NONE`` ...) or a node property
(``depth``, ``node_id``, leaf). Predicates combine atoms (see
``predicates.py``); ``evaluate.py`` evaluates them over whole columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Tuple

import numpy as np
import pandas as pd

from .errors import InvalidMultiIndexMode, InvalidQueryFilter
from .rows import Row

MODES = ("off", "all", "any")

#: operators of column atoms
STRING_OPS = ("str==", "str!=", "startswith", "endswith", "contains", "regex")
NUMBER_OPS = ("==", "!=", "<", "<=", ">", ">=")
MISSING_OPS = ("isnan", "isinf", "isnone")


@dataclass(frozen=True)
class Atom:
    """One condition on a node.

    ``kind`` is ``"column"`` (``key`` names a dataframe column), ``"depth"``,
    ``"node_id"`` or ``"leaf"``. ``op`` is one of :data:`STRING_OPS`,
    :data:`NUMBER_OPS`, :data:`MISSING_OPS`, or ``"object"`` (the object
    dialect's value-typed rule: a regex for string values, a number or a
    comparison string for numeric values). ``value`` is the operand.
    ``source`` is ``(query text, offset)`` for string-dialect conditions, so
    errors found at evaluation point at the condition; it takes no part in
    equality (equal conditions share one evaluation).

    Examples
    --------
    >>> Atom("column", "regex", "name", "MPI_.*")
    Atom(column name regex 'MPI_.*')
    """

    kind: str
    op: str = ""
    key: Any = None
    value: Any = None
    source: Any = field(default=None, compare=False)

    def __repr__(self) -> str:
        if self.kind == "leaf":
            return "Atom(leaf)"
        key = f" {self.key}" if self.kind == "column" else ""
        value = "" if self.op in MISSING_OPS else f" {self.value!r}"
        return f"Atom({self.kind}{key} {self.op}{value})"


Literal = Tuple[Atom, bool]          # (atom, negated)
Term = Tuple[Literal, ...]           # AND of literals


def check_mode(multi_index_mode: str) -> str:
    """Validate ``multi_index_mode`` ("off", "all" or "any").

    Examples
    --------
    >>> check_mode("any")
    'any'
    >>> check_mode("most")
    Traceback (most recent call last):
    ...
    graphframe.query.errors.InvalidMultiIndexMode: multi_index_mode must be one of 'off', 'all', 'any', not 'most'
    """
    if multi_index_mode not in MODES:
        raise InvalidMultiIndexMode(
            f"multi_index_mode must be one of {', '.join(map(repr, MODES))}, "
            f"not {multi_index_mode!r}")
    return multi_index_mode


def row_table(row: Any) -> Tuple[pd.DataFrame, Any, bool]:
    """A single row / one node's rows as ``(table, node or None, multi)``.

    Examples
    --------
    >>> table, node, multi = row_table({"name": "MPI_Send", "time": 2.0})
    >>> table.to_dict("records"), node, multi
    ([{'name': 'MPI_Send', 'time': 2.0}], None, False)
    """
    if isinstance(row, pd.DataFrame):
        node = None
        if "node" in (row.index.names or []) and len(row):
            level = row.index.get_level_values("node")
            node = level[0]
        return row, node, isinstance(row.index, pd.MultiIndex)
    if isinstance(row, Row):
        row = row.series
    if isinstance(row, pd.Series):
        return pd.DataFrame([row.to_dict()]), row.name, False
    if isinstance(row, dict) or hasattr(row, "keys"):
        return pd.DataFrame([{k: row[k] for k in row.keys()}]), None, False
    raise InvalidQueryFilter(f"cannot evaluate a predicate on a {type(row).__name__}")


def node_properties(node: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(depth, node id, is leaf) of one node view as 1-element arrays.

    Examples
    --------
    >>> from graphframe import Graph
    >>> [a.tolist() for a in node_properties(Graph.from_lists(("a", "b")).node(1))]
    [[1], [1], [True]]
    """
    try:
        depth = int(getattr(node, "depth", None) if hasattr(node, "depth") else node._depth)
        nid = int(getattr(node, "_hatchet_nid", node))
        leaf = len(node.children) == 0
    except (AttributeError, TypeError) as exc:
        raise InvalidQueryFilter(
            "this condition needs the node (depth, node_id or leaf), but the row does not "
            "name a node") from exc
    return np.array([depth]), np.array([nid]), np.array([leaf])
