"""Caliper attribute names: what a column is, what it is called, how it combines.

Caliper names aggregated attributes by their operator chain: ``sum#time.duration``
is the sum of ``time.duration``, ``min#inclusive#sum#time.duration`` the minimum
over ranks of the inclusive sum, ``any#any#max#BlockSize`` "some value of" a
per-region constant. Both Caliper readers (``.cali`` and json-split) classify
their value columns with the rules here, so the two formats describe the same
data the same way:

* ``mpi.rank`` becomes the ``rank`` index level;
* ``aggregate.slot`` (usually aliased ``Node order``) is Caliper's first-seen
  order of the node: it orders siblings and is never a column;
* a metric is additive; it is *inclusive* when its operator chain contains
  ``inclusive`` (``inclusive#sum#time.duration``, ``min#inclusive#...``), when
  its base attribute says so (``time.inclusive.duration``) or when its name or
  alias carries Hatchet's ``(inc)`` marker;
* every other numeric value (timestamps, snapshot numbers, loop iteration
  numbers, ``any#`` constants) is a non-additive attribute: kept as a column,
  never summed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..common.units import unit_from_text, unit_in_name
from ..errors import ArgumentError

#: Caliper's aggregation operators as they appear in attribute names.
AGGREGATION_OPS = frozenset({
    "sum", "min", "max", "avg", "count", "inclusive", "scale", "inclusive_scale",
    "ratio", "inclusive_ratio", "percent_total", "inclusive_percent_total",
    "variance", "any",
})

#: Hatchet's fixed renames, applied after aliases (§4.3/§4.4 of the spec).
RENAMES = {
    "mpi.rank": "rank",
    "module#cali.sampler.pc": "module",
    "sum#time.duration": "time",
    "sum#avg#sum#time.duration": "time",
    "inclusive#sum#time.duration": "time (inc)",
    "sum#avg#inclusive#sum#time.duration": "time (inc)",
}

#: Numeric value attributes that are bookkeeping, not measurements.
NON_ADDITIVE = frozenset({
    "loop.start_iteration", "timeseries.starttime", "timeseries.snapshot",
    "time.offset", "time.offset.ns", "time.timestamp", "mpi.world.size",
    "cali.snapshot.event.attr.level",
})

RANK_ATTRIBUTE = "mpi.rank"
#: The largest rank accepted (MPI ranks are C ints).
MAX_RANK = 2 ** 31 - 1
ORDER_ALIAS = "Node order"
ORDER_BASE = "aggregate.slot"
CALLPATH_ATTRIBUTE = "source.function#callpath.address"
SOURCELOC_ATTRIBUTE = "sourceloc#cali.sampler.pc"
MODULE_ATTRIBUTE = "module#cali.sampler.pc"

# roles of a record column
RANK, ORDER, METRIC, ATTRIBUTE, LABEL = "rank", "order", "metric", "attribute", "label"

#: The root node of the records that have no call path (time outside every
#: annotated region), kept when they hold a metric value (``no_path="keep"``; the
#: default ``"drop"`` leaves them out, as Hatchet and Thicket do).
NO_PATH = "<no path>"
NO_PATH_CHOICES = ("keep", "drop")
#: The metadata key of what ``no_path="drop"`` leaves out of the tree: metric column
#: -> the sum of its values over the records without a call path (as Hatchet and
#: Thicket, which leave those records out without saying so).
UNATTRIBUTED = "unattributed"
#: Metric -> the share of the profile's whole (as read) that :data:`UNATTRIBUTED` is.
UNATTRIBUTED_SHARE = "unattributed share"


def metric_total(values: np.ndarray) -> Optional[float]:
    """The sum of a metric's values (``None`` and NaN: no value), or None when no
    value is there or they are not numbers.

    Examples
    --------
    >>> metric_total(np.array([1.5, None, 2.0], dtype=object))
    3.5
    >>> metric_total(np.array([np.nan])) is None
    True
    """
    if values.dtype == object:
        values = values[~np.equal(values, None)]
    try:
        numbers = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    numbers = numbers[~np.isnan(numbers)]
    return float(numbers.sum()) if len(numbers) else None


def check_no_path(no_path: Any) -> str:
    """The reader option ``no_path``: ``"drop"`` (the default: records without a call
    path are left out, as Hatchet and Thicket do, their totals in :data:`UNATTRIBUTED`)
    or ``"keep"`` (those that hold a metric value go under a :data:`NO_PATH` root).

    Examples
    --------
    >>> check_no_path("drop")
    'drop'
    >>> check_no_path("skip")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: no_path='skip': use 'keep' (records without a call path go under a '<no path>' root) or 'drop' (they are left out, as in Hatchet)
    """
    if isinstance(no_path, str) and no_path in NO_PATH_CHOICES:
        return no_path
    raise ArgumentError(f"no_path={no_path!r}: use 'keep' (records without a call path go "
                        f"under a {NO_PATH!r} root) or 'drop' (they are left out, as in Hatchet)")


def split_ops(native: str) -> Tuple[Tuple[str, ...], str]:
    """Split a Caliper attribute name into its operator chain and base attribute.

    Examples
    --------
    >>> split_ops("min#inclusive#sum#time.duration")
    (('min', 'inclusive', 'sum'), 'time.duration')
    >>> split_ops("iteration#mainloop")
    ((), 'iteration#mainloop')
    """
    parts = native.split("#")
    ops: List[str] = []
    for part in parts[:-1]:
        if part not in AGGREGATION_OPS:
            break
        ops.append(part)
    return tuple(ops), "#".join(parts[len(ops):])


@dataclass(frozen=True)
class ColumnSpec:
    """What one record column is.

    ``name`` is the output column name, ``native`` Caliper's attribute name,
    ``role`` one of ``rank``, ``order``, ``metric``, ``attribute`` (numeric,
    non-additive) or ``label`` (text), ``inclusive`` applies to metrics, and
    ``combine`` says how duplicate records of one (node, rank) merge:
    ``sum``, ``min``, ``max``, ``mean`` (``avg#`` columns: a weighted
    average, see :mod:`graphframe_readers.caliper.averages`) or ``first``.
    """

    name: str
    native: str
    role: str
    inclusive: bool = False
    combine: str = "first"


@functools.lru_cache(maxsize=4096)  # a pure function of its arguments; specs are frozen
def classify(native: str, alias: Optional[str] = None, *, numeric: bool = True,
             aggregatable: bool = False, native_names: bool = False) -> ColumnSpec:
    """Classify one value column of a Caliper profile.

    Parameters
    ----------
    native : str
        Caliper's attribute name (or the json-split column title).
    alias : str, optional
        ``attribute.alias`` from the attribute's metadata.
    numeric : bool
        False for text values (they are labels, never metrics).
    aggregatable : bool
        Caliper's ``aggregatable`` property (raw measurements in traces).
    native_names : bool
        Keep Caliper's names instead of aliases (Hatchet's ``native=True``).

    Examples
    --------
    >>> classify("min#inclusive#sum#time.duration", "Min time/rank")
    ColumnSpec(name='Min time/rank', native='min#inclusive#sum#time.duration', role='metric', inclusive=True, combine='min')
    >>> classify("sum#time.duration").name
    'time'
    >>> classify("timeseries.starttime").role
    'attribute'
    """
    shown = native if (native_names or not alias) else alias
    name = RENAMES.get(shown, shown)
    ops, base = split_ops(native)
    if native == RANK_ATTRIBUTE or name == "rank":
        return ColumnSpec("rank", native, RANK)
    if base == ORDER_BASE or alias == ORDER_ALIAS or native == ORDER_ALIAS:
        return ColumnSpec(ORDER_ALIAS, native, ORDER, combine="min")
    if not numeric:
        return ColumnSpec(name, native, LABEL)
    if not _is_metric(native, ops, base, aggregatable):
        return ColumnSpec(name, native, ATTRIBUTE)
    inclusive = ("inclusive" in ops or "inclusive_scale" in ops
                 or "inclusive" in base.split(".")
                 or any("(inc)" in n for n in (native, alias or "", name)))
    return ColumnSpec(name, native, METRIC, inclusive, _combine(ops, base))


def _is_metric(native: str, ops: Tuple[str, ...], base: str, aggregatable: bool) -> bool:
    if aggregatable:
        return True
    if ops:
        return ops[0] != "any"
    if native in NON_ADDITIVE or native.startswith(("iteration#", "cali.")):
        return False
    return True


#: Base attributes that are maxima over the run (a high-water mark): they merge as a
#: maximum, never as a sum.
MAXIMA_SUFFIXES = ("highwatermark",)


def _combine(ops: Tuple[str, ...], base: str = "") -> str:
    if not ops and base.endswith(MAXIMA_SUFFIXES):
        return "max"
    first = ops[0] if ops else "sum"
    return {"min": "min", "max": "max", "avg": "mean"}.get(first, "sum")


#: Operators whose result has no unit of its input (ratios, percentages, counts...).
UNITLESS_OPS = frozenset({"count", "ratio", "inclusive_ratio", "percent_total",
                          "inclusive_percent_total", "scale", "inclusive_scale", "variance"})
#: Caliper's timer attributes and their units (``time.duration`` is microseconds).
TIMER_UNITS = {"time.duration": "microseconds", "time.inclusive.duration": "microseconds",
               "time.duration.ns": "nanoseconds", "time.inclusive.duration.ns": "nanoseconds"}


def column_unit(spec: ColumnSpec, declared: Optional[str] = None) -> Optional[str]:
    """The unit of a metric column (one of ``graphframe_readers.common.units.UNITS``),
    or None: the attribute's ``attribute.unit`` (``declared``: ``sec``, ``usec``...)
    when it names a unit, else that of Caliper's timer attributes through ``sum``,
    ``min``, ``max``, ``avg`` and ``inclusive`` (``sum#time.duration`` is in
    microseconds), else a unit the name states.

    Examples
    --------
    >>> column_unit(classify("sum#time.duration")), column_unit(classify("count"))
    ('microseconds', None)
    >>> column_unit(classify("min#inclusive#sum#time.duration", "Min time/rank"), "sec")
    'seconds'
    >>> column_unit(classify("percent_total#sum#time.duration"))
    """
    if declared is not None:
        unit = unit_from_text(declared)
        if unit is not None:
            return unit
    ops, base = split_ops(spec.native)
    if UNITLESS_OPS.intersection(ops):
        return None
    if base in TIMER_UNITS:
        return TIMER_UNITS[base]
    return unit_in_name(spec.native) or unit_in_name(spec.name)


def declare(specs: Sequence[ColumnSpec], present: Iterable[str]) -> Dict[str, Any]:
    """Metric declarations for the columns ``present`` in the output.

    Returns ``exc_metrics``, ``inc_metrics``, ``inclusive_of``,
    ``default_metric`` and ``aggregations`` (keywords of
    ``ProfileBuilder.build``): columns whose Caliper aggregation is ``min#``,
    ``max#`` or ``avg#`` combine as a minimum, maximum or mean when rows merge.

    The default metric is ``time`` when there is one, else ``time (inc)``, else
    Hatchet's ``avg#inclusive#sum#time.duration``, else the first inclusive,
    else the first exclusive metric.

    Examples
    --------
    >>> specs = [classify("inclusive#sum#time.duration"), classify("sum#time.duration")]
    >>> d = declare(specs, ["time (inc)", "time"])
    >>> d["exc_metrics"], d["inc_metrics"], d["inclusive_of"], d["default_metric"]
    (['time'], ['time (inc)'], {'time': 'time (inc)'}, 'time')
    >>> declare([classify("max#sum#time.duration", "Max time/rank")],
    ...         ["Max time/rank"])["aggregations"]
    {'Max time/rank': 'max'}
    """
    present = set(present)
    metrics = [s for s in specs if s.role == METRIC and s.name in present]
    exc = _unique(s.name for s in metrics if not s.inclusive)
    inc = _unique(s.name for s in metrics if s.inclusive)
    pairs: Dict[str, str] = {}
    by_native = {s.native: s.name for s in metrics if s.inclusive}
    for s in metrics:
        if s.inclusive:
            continue
        partner = by_native.get("inclusive#" + s.native)
        if partner is None and s.name + " (inc)" in inc:
            partner = s.name + " (inc)"
        if partner is not None and s.name not in pairs:
            pairs[s.name] = partner
    default = None
    for candidate in ("time", "time (inc)", "avg#inclusive#sum#time.duration"):
        if candidate in exc or candidate in inc:
            default = candidate
            break
    if default is None:
        default = (inc + exc + [None])[0]
    # Caliper names its aggregation in the attribute (min#, max#, avg#): rows that
    # merge later (squash, unify) combine such columns the same way, never by a sum
    aggregations = {s.name: s.combine for s in metrics if s.combine in ("min", "max", "mean")}
    return dict(exc_metrics=exc, inc_metrics=inc, inclusive_of=pairs, default_metric=default,
                aggregations=aggregations)


def _unique(names: Iterable[str]) -> List[str]:
    out: List[str] = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


def parse_metadata_value(value: Any) -> Any:
    """Convert one Caliper global (always text in the file) like Hatchet does.

    Integers and floats become numbers; ``[a,b]`` and ``(a,b)`` become lists of
    strings; anything else stays as it is.

    Examples
    --------
    >>> [parse_metadata_value(v) for v in ["4", "1.5", "[a, b]", "quartz"]]
    [4, 1.5, ['a', 'b'], 'quartz']
    """
    if not isinstance(value, str):
        return value
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        pass
    for opener, closer in (("[", "]"), ("(", ")")):
        if value.startswith(opener) and value.endswith(closer):
            return [item.strip() for item in value[1:-1].split(",")]
    return value


def parse_metadata(globals_: Mapping[str, Any]) -> Dict[str, Any]:
    """:func:`parse_metadata_value` applied to every entry."""
    return {str(k): parse_metadata_value(v) for k, v in globals_.items()}
