"""How Caliper's ``avg#`` columns merge: the one place averages are combined.

Records of one (node, rank) merge when a file holds several of them (timeseries
snapshots, event traces, entries that differ only in a secondary key). Sums add
and ``min#``/``max#`` keep their extreme, but an average cannot be averaged
blindly: ``avg#X`` is ``sum of X / number of X values`` over the entries Caliper
aggregated, so the average of the merged records is ``sum of their sums /
sum of their numbers of values``. Each record's weight (its number of values):

1. ``round(sum#X / avg#X)`` when the record has the matching ``sum#X`` (same
   operator chain after ``avg#``) and a nonzero average: exactly the number
   of values Caliper averaged, and the record contributes ``sum#X`` itself;
2. else the record's ``count`` (Caliper's number of snapshots in the entry):
   the number of values whenever every snapshot carried ``X``, as time
   measurements do; the record contributes ``avg#X * count``;
3. else 1: no weight exists, so the records' averages are averaged
   unweighted, and an :class:`UnweightedAverageWarning` names the column.

A record without an ``avg#X`` value contributes nothing; a (node, rank) none of
whose records has one gets 0 (every metric's "no value").
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from .names import METRIC, ColumnSpec

#: Caliper's names of the per-entry snapshot count.
COUNT_NAMES = ("count", "aggregate.count")


class UnweightedAverageWarning(UserWarning):
    """An ``avg#`` column was merged without a ``sum#`` or ``count`` to weigh it by."""


@dataclass
class AverageParts:
    """Per record of one ``avg#`` column: its ``numerator`` (contribution to the
    sum), ``weight`` (number of values, 0 without a value) and whether the
    weight is the fallback 1 (``unweighted``)."""

    numerator: np.ndarray
    weight: np.ndarray
    unweighted: np.ndarray

    def take(self, order: np.ndarray) -> "AverageParts":
        return AverageParts(self.numerator[order], self.weight[order], self.unweighted[order])


def is_average(spec: ColumnSpec) -> bool:
    """True for a metric that merges as an average (an ``avg#`` column)."""
    return spec.role == METRIC and spec.combine == "mean"


def average_parts(columns: Sequence[Tuple[ColumnSpec, np.ndarray]]
                  ) -> Dict[str, AverageParts]:
    """Per ``avg#`` column: each record's contribution and weight (see the module docs).

    ``columns`` are a table's record columns, all of one length. Records
    without a value have weight 0.

    Examples
    --------
    >>> from graphframe_readers.caliper.names import classify
    >>> cols = [(classify("avg#t"), np.array([2.0, 4.0])),
    ...         (classify("sum#t"), np.array([6.0, 4.0]))]
    >>> parts = average_parts(cols)["avg#t"]
    >>> parts.numerator.tolist(), parts.weight.tolist()
    ([6.0, 4.0], [3.0, 1.0])
    """
    by_native = {spec.native: values for spec, values in columns
                 if spec.role == METRIC and values.dtype != object}
    count = next((by_native[n] for n in COUNT_NAMES if n in by_native), None)
    out: Dict[str, AverageParts] = {}
    for spec, values in columns:
        if not is_average(spec) or values.dtype == object:
            continue
        avg = values.astype(np.float64)
        have = ~np.isnan(avg)
        numerator = np.where(have, avg, 0.0)
        weight = have.astype(np.float64)
        unweighted = have.copy()
        if count is not None:
            n = count.astype(np.float64)
            use = unweighted & ~np.isnan(n) & (n > 0)
            numerator[use] = avg[use] * n[use]
            weight[use] = n[use]
            unweighted &= ~use
        partner = _sum_partner(spec.native, by_native)
        if partner is not None:
            total = partner.astype(np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                n = np.rint(total / avg)
            use = have & ~np.isnan(total) & (avg != 0) & np.isfinite(n) & (n > 0)
            numerator[use] = total[use]
            weight[use] = n[use]
            unweighted &= ~use
        out[spec.name] = AverageParts(numerator, weight, unweighted)
    return out


def merge_averages(name: str, parts: AverageParts, starts: np.ndarray, counts: np.ndarray,
                   source: object) -> np.ndarray:
    """The weighted average of each group of records, sorted by group (groups of
    ``counts`` records start at ``starts``); warns if a merged record had no weight.

    Examples
    --------
    >>> parts = AverageParts(np.array([6.0, 4.0, 5.0]), np.array([3.0, 1.0, 1.0]),
    ...                      np.zeros(3, dtype=bool))
    >>> merge_averages("avg#t", parts, np.array([0, 2]), np.array([2, 1]), "f").tolist()
    [2.5, 5.0]
    """
    total = np.add.reduceat(parts.numerator, starts)
    n = np.add.reduceat(parts.weight, starts)
    valued = np.add.reduceat((parts.weight > 0).astype(np.int64), starts)
    guessed = np.add.reduceat(parts.unweighted.astype(np.int64), starts)
    if bool(((guessed > 0) & (valued > 1)).any()):
        warnings.warn(f"{source}: column {name!r} is an average, but some of the records "
                      f"merged into one row have neither the matching sum# column nor a "
                      f"count: their averages were averaged unweighted",
                      UnweightedAverageWarning, stacklevel=2)
    return np.divide(total, n, out=np.zeros(len(total)), where=n > 0)


def _sum_partner(native: str, by_native: Dict[str, np.ndarray]) -> Optional[np.ndarray]:
    ops = native.split("#")
    if not ops or ops[0] != "avg":
        return None
    return by_native.get("#".join(["sum"] + ops[1:]))
