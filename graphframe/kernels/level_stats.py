"""Statistics over index levels of a ``(node, level...)`` indexed dataframe.

``level_stats(df, metrics, over=("rank",))`` treats every combination of the
``over`` levels' labels (every rank, every (rank, thread), every profile...)
as one *sample* and every ``node`` (with the ``keep`` levels, if any) as one
*group*, and computes per group statistics of each metric over its samples
(see :mod:`graphframe.kernels.block_stats` for the definitions). It is the
one core behind ``GraphFrame.rank_stats`` / ``load_imbalance`` and is meant
for statistics over runs too (``over=("profile",)``).

How it works: the index's integer codes give each row a group and a sample
position (:class:`LevelPlan`, built once and reusable). Groups are processed
a block at a time as a ``(groups, samples)`` float64 matrix: when the rows
are the full grid in (group, sample) order (every node on every rank, the
usual layout) a block is a reshaped view of the column, with no copy and no
scatter; otherwise the block is scattered from the rows of its groups.
Blocks hold about :data:`BLOCK_CELLS` cells, so the memory needed above the
input is a few blocks plus the result, whatever the profile's size.

Missing rows and NaN values mean "no value" (never 0). Rows that differ
only in levels that are neither ``over`` nor ``keep`` (threads, when the
statistics are over ranks) fall into one cell and are combined by the
metric's ``merge`` rule first (``"sum"`` by default, NaN skipped).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..errors import ArgumentError, MetricError
from .block_stats import POSITION_STATS, STATS, block_stats

INT = np.int64
#: The statistics of ``GraphFrame.rank_stats`` by default.
DEFAULT_STATS = ("sum", "min", "max", "mean", "median", "std", "imbalance", "argmax", "argmin")
#: Target size of one (groups x samples) block: 4 Mi cells, 32 MiB of float64.
BLOCK_CELLS = 1 << 22
#: How rows sharing a (group, sample) cell combine.
MERGE_RULES = ("sum", "min", "max", "mean", "first")


def stat_column(metric: Any, stat: str) -> Any:
    """The result column of ``stat`` of ``metric``: ``"time.max"``.

    A tuple column name (an ensemble's ``(profile, "time")``) gets the
    suffix on its last part.

    Examples
    --------
    >>> stat_column("time (inc)", "imbalance"), stat_column(("a", "time"), "p90")
    ('time (inc).imbalance', ('a', 'time.p90'))
    """
    if isinstance(metric, tuple):
        return metric[:-1] + (f"{metric[-1]}.{stat}",)
    return f"{metric}.{stat}"


def percentile_name(p: float) -> str:
    """``"p50"``, ``"p99.9"``: the stat name of a percentile.

    Examples
    --------
    >>> percentile_name(50), percentile_name(99.9), percentile_name(2.5)
    ('p50', 'p99.9', 'p2.5')
    """
    return "p" + format(float(p), "g")


@dataclass(frozen=True)
class LevelPlan:
    """Where each dataframe row goes: its group (output row) and sample position.

    Build it with :meth:`of`; pass it to :func:`level_stats` to reuse it
    across calls on the same index.
    """

    index: pd.Index              # one entry per group: node (+ keep levels), sorted
    labels: pd.Index             # one label per sample position (tuples for several levels)
    group: np.ndarray            # group of each row, frame order
    sample: np.ndarray           # sample position of each row, frame order
    order: Optional[np.ndarray]  # rows sorted by group (stable); None: already sorted
    starts: np.ndarray           # sorted rows starts[g]:starts[g + 1] belong to group g
    dense: bool                  # rows are exactly the (group, sample) grid in order
    over: Tuple[Any, ...]

    @property
    def n_groups(self) -> int:
        return len(self.index)

    @property
    def n_samples(self) -> int:
        return len(self.labels)

    @property
    def first_row(self) -> np.ndarray:
        """Position (frame order) of each group's first row."""
        first = self.starts[:-1]
        return first if self.order is None else self.order[first]

    @classmethod
    def of(cls, index: pd.Index, over: Sequence[Any], keep: Sequence[Any] = ()) -> "LevelPlan":
        """The plan for ``index`` with samples over ``over`` and groups ``node`` + ``keep``.

        Examples
        --------
        >>> idx = pd.MultiIndex.from_product([[0, 1], [0, 1, 2]], names=["node", "rank"])
        >>> plan = LevelPlan.of(idx, ["rank"])
        >>> plan.n_groups, plan.n_samples, plan.dense, plan.labels.tolist()
        (2, 3, True, [0, 1, 2])
        """
        over, keep = _check_levels(index, over, keep)
        grid = cls._grid(index, over, keep)
        if grid is not None:
            return grid
        names = list(index.names)
        node_codes, node_labels = _codes(index, names.index("node"))
        group_parts = [(node_codes, node_labels)] + [_codes(index, names.index(k)) for k in keep]
        group, group_labels = _combine(group_parts)
        sample, labels = _combine([_codes(index, names.index(o)) for o in over])
        g, s = len(group_labels[0]), len(labels[0])
        ordered = len(group) < 2 or bool(np.all(group[1:] >= group[:-1]))
        order = None if ordered else np.argsort(group, kind="stable")
        counts = _bincount(group, g)
        starts = np.zeros(g + 1, dtype=INT)
        np.cumsum(counts, out=starts[1:])
        dense = (ordered and len(group) == g * s and (not g or int(counts.min()) == s)
                 and bool(np.all(sample.reshape(g, s) == np.arange(s))))
        out_index = (pd.MultiIndex.from_arrays(group_labels, names=["node", *keep]) if keep
                     else pd.Index(group_labels[0], name="node"))
        sample_labels = (pd.Index(labels[0], name=over[0]) if len(over) == 1
                         else pd.MultiIndex.from_arrays(labels, names=list(over)))
        return cls(out_index, sample_labels, group, sample, order, starts, dense, over)

    @classmethod
    def _grid(cls, index: pd.MultiIndex, over: Tuple[Any, ...],
              keep: Tuple[Any, ...]) -> Optional["LevelPlan"]:
        """The plan of a (node, level) index that is exactly the full grid in order, from the
        codes alone (two comparisons; no counting, no copies); None for any other index."""
        if keep or len(over) != 1 or index.nlevels != 2:
            return None
        names = list(index.names)
        npos, spos = names.index("node"), names.index(over[0])
        nodes, samples = index.levels[npos], index.levels[spos]
        g, s = len(nodes), len(samples)
        nc, sc = np.asarray(index.codes[npos]), np.asarray(index.codes[spos])
        if not (g and s and g * s == len(nc) and nodes.is_monotonic_increasing
                and samples.is_monotonic_increasing):
            return None
        if not (np.all(nc.reshape(g, s) == np.arange(g).astype(nc.dtype)[:, None])
                and np.all(sc.reshape(g, s) == np.arange(s).astype(sc.dtype))):
            return None
        return cls(pd.Index(plain(nodes), name="node"),
                   pd.Index(np.asarray(samples), name=over[0]), nc, sc, None,
                   np.arange(g + 1, dtype=INT) * s, True, over)

    def blocks(self, cells: Optional[int] = None) -> Iterator[Tuple[int, int]]:
        """``(g0, g1)`` ranges of groups of about ``cells`` (:data:`BLOCK_CELLS`) cells each."""
        step = max(1, (cells or BLOCK_CELLS) // max(self.n_samples, 1))
        for g0 in range(0, self.n_groups, step):
            yield g0, min(g0 + step, self.n_groups)

    def block(self, values: np.ndarray, g0: int, g1: int, merge: str = "sum") -> np.ndarray:
        """The ``(g1 - g0, samples)`` matrix of ``values`` (float64, NaN = no value)."""
        s = self.n_samples
        if self.dense:
            return values[g0 * s:g1 * s].reshape(g1 - g0, s)
        r0, r1 = int(self.starts[g0]), int(self.starts[g1])
        rows = slice(r0, r1) if self.order is None else self.order[r0:r1]
        cell = (self.group[rows].astype(INT) - g0) * s + self.sample[rows]
        return _scatter(cell, values[rows], (g1 - g0) * s, merge).reshape(g1 - g0, s)


def level_stats(dataframe: pd.DataFrame, metrics: Sequence[Any], over: Sequence[Any] = ("rank",),
                *, keep: Sequence[Any] = (), stats: Sequence[str] = DEFAULT_STATS,
                percentiles: Sequence[float] = (), top: int = 0, ddof: int = 0,
                merge: Optional[Mapping[Any, str]] = None,
                name: Callable[[Any, str], Any] = stat_column,
                plan: Optional[LevelPlan] = None) -> pd.DataFrame:
    """Per-group statistics of ``metrics`` over the samples of the ``over`` levels.

    Parameters
    ----------
    dataframe : pandas.DataFrame
        Indexed by ``node`` and the ``over`` (and ``keep``) levels.
    metrics : sequence
        Numeric columns.
    over : sequence of str
        Index levels whose label combinations are the samples.
    keep : sequence of str
        Index levels kept in the result's index beside ``node``; any other
        level is merged away (see ``merge``).
    stats : sequence of str
        From ``count sum min max mean median std var imbalance argmax argmin``.
    percentiles : sequence of float
        Percentiles (0-100) added as ``<metric>.p<q>`` columns.
    top : int
        Add ``<metric>.top1`` ... ``top<k>``: the labels of the ``top``
        samples with the largest values, largest first.
    ddof : int
        Delta degrees of freedom of ``std`` and ``var`` (0: population).
    merge : mapping, optional
        Metric -> how rows of one (group, sample) cell combine: ``sum``
        (default), ``min``, ``max``, ``mean`` or ``first``.
    name : callable
        ``name(metric, stat)`` -> result column (default :func:`stat_column`).
    plan : LevelPlan, optional
        A plan of this dataframe's index for the same ``over``/``keep``.

    Returns
    -------
    pandas.DataFrame
        One row per group that has rows, sorted by node (then ``keep``);
        values are float64, ``count`` int64, sample labels (``argmax``,
        ``argmin``, ``top<i>``) nullable ``Int64`` for one integer level, else
        objects (tuples for several levels), missing when there is no value.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_product([[0, 1], [0, 1, 2]], names=["node", "rank"])
    >>> df = pd.DataFrame({"time": [1.0, 2.0, 6.0, 5.0, np.nan, 5.0]}, index=idx)
    >>> level_stats(df, ["time"], stats=["mean", "max", "imbalance", "argmax"])
          time.mean  time.max  time.imbalance  time.argmax
    node
    0           3.0       6.0             2.0            2
    1           5.0       5.0             1.0            0
    """
    stats, percentiles, top, ddof = _check_options(stats, percentiles, top, ddof)
    _check_metrics(dataframe, metrics)
    if plan is None:
        plan = LevelPlan.of(dataframe.index, over, keep)
    merge = dict(merge or {})
    columns: Dict[Any, Any] = {}
    for metric in metrics:
        rule = merge.get(metric, "sum")
        if rule not in MERGE_RULES:
            raise ArgumentError(f"merge rule {rule!r} for {metric!r}: use one of "
                                f"{', '.join(MERGE_RULES)}")
        parts = _metric_stats(plan, _float_values(dataframe[metric]), stats, percentiles,
                              top, ddof, rule)
        for key, values in parts.items():
            columns[name(metric, key)] = _as_column(plan, key, values)
    return pd.DataFrame(columns, index=plan.index)


def group_arrays(plan: LevelPlan, values: np.ndarray, stats: Sequence[str],
                 percentiles: Sequence[float] = (), ddof: int = 0, top: int = 0,
                 merge: str = "sum") -> Dict[str, np.ndarray]:
    """:func:`level_stats` of one column's values (frame order) as plain arrays.

    The arrays hold one value per group of ``plan`` (``plan.index``), keyed by
    statistic (``"mean"``), :func:`percentile_name` (``"p25"``) and ``"top<i>"``;
    positions stay positions (-1: none). No frame is built: the fast path for
    callers that write the results somewhere else.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_product([[0, 1], [0, 1, 2]], names=["node", "profile"])
    >>> plan = LevelPlan.of(idx, ["profile"])
    >>> out = group_arrays(plan, np.array([1.0, 2, 6, 5, np.nan, 5]), ["mean"], [50])
    >>> out["mean"].tolist(), out["p50"].tolist()
    ([3.0, 5.0], [2.0, 5.0])
    """
    stats, percentiles, top, ddof = _check_options(stats, percentiles, top, ddof)
    if merge not in MERGE_RULES:
        raise ArgumentError(f"merge rule {merge!r}: use one of {', '.join(MERGE_RULES)}")
    return _metric_stats(plan, np.asarray(values, dtype=np.float64), stats, percentiles,
                         top, ddof, merge)


def _metric_stats(plan: LevelPlan, values: np.ndarray, stats: Sequence[str],
                  percentiles: Sequence[float], top: int, ddof: int,
                  rule: str) -> Dict[str, np.ndarray]:
    g = plan.n_groups
    out: Dict[str, np.ndarray] = {}
    for st in stats:
        out[st] = np.empty(g, dtype=INT if st in POSITION_STATS or st == "count" else np.float64)
    for p in percentiles:
        out[percentile_name(p)] = np.empty(g)
    for i in range(top):
        out[f"top{i + 1}"] = np.empty(g, dtype=INT)
    for g0, g1 in plan.blocks():
        part = block_stats(plan.block(values, g0, g1, rule), stats, percentiles, top, ddof)
        for st in stats:
            out[st][g0:g1] = part[st]
        for j, p in enumerate(percentiles):
            out[percentile_name(p)][g0:g1] = part["percentiles"][:, j]
        for i in range(top):
            out[f"top{i + 1}"][g0:g1] = part["top"][:, i]
    return out


def _as_column(plan: LevelPlan, key: str, values: np.ndarray) -> Any:
    """Sample positions become labels (missing where -1); other values stay."""
    if key not in POSITION_STATS and not (key.startswith("top") and key[3:].isdigit()):
        return values
    return sample_labels(plan.labels, values)


def sample_labels(labels: pd.Index, positions: np.ndarray) -> Any:
    """The labels at ``positions`` (-1: missing): nullable ``Int64`` for integer labels.

    Examples
    --------
    >>> sample_labels(pd.Index([4, 8]), np.array([1, -1, 0]))
    <IntegerArray>
    [8, <NA>, 4]
    Length: 3, dtype: Int64
    """
    none = positions < 0
    taken = np.maximum(positions, 0)
    if not isinstance(labels, pd.MultiIndex) and pd.api.types.is_integer_dtype(labels.dtype):
        values = (np.asarray(labels, dtype=INT)[taken] if len(labels)
                  else np.zeros(len(positions), dtype=INT))
        return pd.arrays.IntegerArray(values, none)
    if not len(labels):
        return np.full(len(positions), None, dtype=object)
    out = np.asarray(labels, dtype=object)[taken]
    out[none] = None
    return out


# ----------------------------------------------------------------- codes
def plain(values: Any) -> np.ndarray:
    """``np.asarray(values)``, but a pandas masked integer array (the ``node`` level
    stores its ids as one) without missing values gives its int data: converting a
    node level with ``np.asarray`` hands out one Node object per value.

    Examples
    --------
    >>> plain(pd.Index(pd.array([3, 5], dtype="Int64"))).dtype
    dtype('int64')
    """
    array = getattr(values, "array", values)
    data, mask = getattr(array, "_data", None), getattr(array, "_mask", None)
    if isinstance(data, np.ndarray) and isinstance(mask, np.ndarray) and not mask.any():
        return data
    return np.asarray(values)


def _codes(index: pd.MultiIndex, pos: int) -> Tuple[np.ndarray, np.ndarray]:
    """Codes of one level, renumbered so that they follow the sorted labels actually used."""
    codes = np.asarray(index.codes[pos])
    labels = index.levels[pos]
    if len(codes) and codes.min() < 0:
        raise ArgumentError(f"index level {index.names[pos]!r} has missing labels; statistics "
                            "need a label on every row")
    if not labels.is_monotonic_increasing:
        perm = np.asarray(labels.argsort(), dtype=INT)
        rank = np.empty(len(perm), dtype=INT)
        rank[perm] = np.arange(len(perm))
        codes, labels = rank[codes], labels[perm]
    used = _bincount(codes, len(labels)) > 0
    if not used.all():
        lut = np.cumsum(used) - 1
        codes, labels = lut[codes], labels[used]
    return codes, plain(labels)


def _combine(parts: List[Tuple[np.ndarray, np.ndarray]]) -> Tuple[np.ndarray, List[np.ndarray]]:
    """One code per row for several levels (lexicographic label order) and each level's
    label per combined code."""
    if len(parts) == 1:
        return parts[0][0], [parts[0][1]]
    code = np.zeros(len(parts[0][0]), dtype=INT)
    for codes, labels in parts:
        code = code * len(labels) + codes
    uniq, code = np.unique(code, return_inverse=True)
    out_labels: List[np.ndarray] = []
    rest = uniq
    for codes, labels in reversed(parts):
        out_labels.append(labels[rest % len(labels)])
        rest = rest // len(labels)
    return code.astype(INT), out_labels[::-1]


def _bincount(codes: np.ndarray, n: int) -> np.ndarray:
    """``np.bincount(codes, minlength=n)`` a block at a time: bincount converts small
    integer codes to intp, which would be 8 bytes per row at once."""
    out = np.zeros(n, dtype=INT)
    for start in range(0, len(codes), BLOCK_CELLS):
        out += np.bincount(codes[start:start + BLOCK_CELLS], minlength=n)
    return out


def _check_levels(index: pd.Index, over: Sequence[Any], keep: Sequence[Any]):
    over = (over,) if isinstance(over, str) else tuple(over)
    keep = (keep,) if isinstance(keep, str) else tuple(keep)
    names = list(index.names)
    levels = [n for n in names if n != "node"]
    if "node" not in names:
        raise ArgumentError(f"the dataframe index has no 'node' level (levels: {names})")
    if not over:
        raise ArgumentError("statistics need at least one index level to go over")
    for level in over + keep:
        if level == "node" or level not in levels:
            raise ArgumentError(f"no index level {level!r} to compute statistics over; the "
                                f"dataframe's levels besides node are {levels or 'none'}")
    if len(set(over + keep)) != len(over) + len(keep):
        raise ArgumentError(f"over={over} and keep={keep} must name different levels")
    return over, keep


def _check_options(stats, percentiles, top, ddof):
    stats = (stats,) if isinstance(stats, str) else tuple(stats)
    unknown = [s for s in stats if s not in STATS]
    if unknown:
        raise ArgumentError(f"unknown statistic {unknown[0]!r}; use any of {', '.join(STATS)}")
    if len(set(stats)) != len(stats):
        raise ArgumentError(f"stats lists a statistic twice: {list(stats)}")
    percentiles = (percentiles,) if np.isscalar(percentiles) else tuple(percentiles)
    for p in percentiles:
        if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) \
                or not 0 <= p <= 100:
            raise ArgumentError(f"percentile {p!r} is not a number from 0 to 100")
    for value, what in ((top, "top"), (ddof, "ddof")):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ArgumentError(f"{what}={value!r} is not allowed (expected an integer >= 0)")
    return stats, percentiles, int(top), int(ddof)


def _check_metrics(dataframe: pd.DataFrame, metrics: Sequence[Any]) -> None:
    for m in metrics:
        if m not in dataframe.columns:
            raise MetricError(f"no column {m!r} to compute statistics of; columns: "
                              f"{', '.join(map(str, dataframe.columns))}")
        if not pd.api.types.is_numeric_dtype(dataframe[m]):
            raise MetricError(f"column {m!r} holds {dataframe[m].dtype} values, not numbers; "
                              "statistics need a numeric metric")


def _float_values(column: pd.Series) -> np.ndarray:
    return column.to_numpy(dtype=np.float64, na_value=np.nan)


def _scatter(cell: np.ndarray, values: np.ndarray, size: int, rule: str) -> np.ndarray:
    """A flat matrix of ``size`` cells: each cell's values combined by ``rule``; NaN if none."""
    ok = ~np.isnan(values)
    cell, values = cell[ok], values[ok]
    if rule in ("sum", "mean"):
        total = np.bincount(cell, weights=values, minlength=size)
        count = np.bincount(cell, minlength=size)
        if rule == "mean":
            with np.errstate(all="ignore"):
                total = total / count
        return np.where(count > 0, total, np.nan)
    out = np.full(size, np.nan)
    if rule == "first":
        out[cell[::-1]] = values[::-1]
    else:
        (np.fmin if rule == "min" else np.fmax).at(out, cell, values)
    return out
