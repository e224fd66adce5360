"""Self weights for the exports that stack frames (folded stacks, speedscope).

A flame graph draws a frame as wide as its own value plus everything drawn
above it, so its input must be *exclusive* (self) values: written with an
inclusive metric, every parent would be counted once per level (a 47 s run
summing to 231 s). :func:`self_weights` therefore picks the values to write:

- an exclusive metric (or one not declared inclusive) as it is;
- an inclusive metric with an exclusive partner in the dataframe: the partner;
- an inclusive metric without one: exclusive values derived from it per row,
  ``exc = inc - sum(inc of direct children)`` (a child without a value counts
  as 0), the rule of :meth:`GraphFrame.generate_exclusive_columns`. For a
  metric combined by ``min``/``max`` (Caliper's ``Min time/rank``) the result
  is an estimate: ``min(a + b)`` is not ``min(a) + min(b)``.

The second and third cases come with an :class:`ExportNote` warning saying
which values were written (``graphframe convert`` prints it as a note).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Optional

import numpy as np
import pandas as pd

from ..model.fields import GraphFrameLike
from ..model.nodevalues import check_metric, node_values
from ..ops.rowmatrix import RowLayout


class ExportNote(UserWarning):
    """What an export chose for the user (self weights, a scale); not a problem."""


@dataclass(frozen=True)
class SelfWeights:
    """Where an export's values come from: ``column`` of ``data`` (``gf`` or a view of it)."""

    data: Any              # the GraphFrame, or a view holding derived values
    column: Any            # the column of ``data`` holding the values
    metric: Any            # the column the user asked for (or the default metric)
    label: str             # what the values are, e.g. "time" or "cycles, made exclusive"
    note: Optional[str]    # why they differ from ``metric``'s own values (None: they do not)

    def values(self, rank: Optional[int] = None, thread: Optional[int] = None,
               aggregate: Optional[str] = None) -> np.ndarray:
        """One value per node (see :func:`graphframe.model.nodevalues.node_values`)."""
        return node_values(self.data, self.column, rank, thread, aggregate)


def self_weights(gf: GraphFrameLike, metric: Any = None, what: str = "export") -> SelfWeights:
    """The exclusive values of ``metric`` (see the module docs); warns when substituted.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Default: ``gf.default_metric``.
    what : str
        The export's name, used in the note.

    Examples
    --------
    >>> import warnings
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi")))
    >>> cycles = gf.dataframe.rename(columns={"time (inc)": "cycles"})[["name", "cycles"]]
    >>> inc_only = GraphFrame(gf.graph, cycles, [], ["cycles"])
    >>> with warnings.catch_warnings(record=True) as notes:
    ...     warnings.simplefilter("always")
    ...     w = self_weights(inc_only, "cycles", what="folded stacks")
    >>> w.values().tolist(), w.label
    ([1.0, 1.0, 1.0], 'cycles, made exclusive')
    >>> print(notes[0].message)
    folded stacks: 'cycles' is inclusive and has no exclusive partner; wrote exclusive values derived from it (a node's value minus its children's, as generate_exclusive_columns does)
    """
    metric = check_metric(gf, metric)
    if metric not in gf.inc_metrics:
        return SelfWeights(gf, metric, metric, str(metric), None)
    partner = exclusive_partner(gf, metric)
    if partner is not None:
        note = (f"{what}: {metric!r} is inclusive; wrote its exclusive partner {partner!r} "
                "(flame graphs add up nested frames)")
        warnings.warn(note, ExportNote, stacklevel=3)
        return SelfWeights(gf, partner, metric, str(partner), note)
    view = SimpleNamespace(graph=gf.graph, dataframe=pd.DataFrame(
        {"exclusive": derived_exclusive(gf, metric)}, index=gf.dataframe.index))
    note = (f"{what}: {metric!r} is inclusive and has no exclusive partner; wrote exclusive "
            "values derived from it (a node's value minus its children's, as "
            "generate_exclusive_columns does)")
    warnings.warn(note, ExportNote, stacklevel=3)
    return SelfWeights(view, "exclusive", metric, f"{metric}, made exclusive", note)


def exclusive_partner(gf: GraphFrameLike, inclusive: Any) -> Any:
    """The numeric exclusive column declared as ``inclusive``'s partner, or None.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> exclusive_partner(GraphFrame.from_lists(("a", "b")), "time (inc)")
    'time'
    """
    df = gf.dataframe
    for exc, inc in gf.inclusive_of.items():
        if inc == inclusive and exc in df.columns and pd.api.types.is_numeric_dtype(df[exc]):
            return exc
    return None


def derived_exclusive(gf: GraphFrameLike, inclusive: Any) -> np.ndarray:
    """Per dataframe row: ``inclusive`` minus the sum of its direct children's values.

    The same arithmetic as :func:`graphframe.ops.inclusive.generate_exclusive_columns`
    (every edge counts, a missing child value counts as 0, a missing own value
    stays NaN), without copying the dataframe.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    >>> derived_exclusive(gf, "time (inc)").tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    df = gf.dataframe
    graph = gf.graph
    layout = RowLayout.of(df, graph.num_nodes)
    mat, present = layout.to_matrix(df[inclusive].to_numpy(dtype=np.float64, na_value=np.nan))
    child_sum = np.zeros_like(mat)
    np.add.at(child_sum, graph.edge_sources(), mat[graph.child_idx])
    return layout.from_matrix(mat - child_sum, present)
