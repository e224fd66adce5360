"""Pieces shared by the HPCToolkit readers (old XML layout and the current .db layout).

* :func:`metric_display_name`: Hatchet's metric names (``CPUTIME (usec) (E)``
  -> ``time``, ``... (I)`` -> ``time (inc)``).
* :func:`select_names`: the ``metrics=``/``metric_names=`` options (keep some metrics, by our
  name or the file's name), with a clear error listing what exists.
* :func:`assemble`: a validated RawProfile over the readers' arrays, without copies.

Examples
--------
>>> metric_display_name("CPUTIME (usec) (E)"), metric_display_name("cycles (I)")
('time', 'cycles (I)')
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..common.units import unit_in_name
from ..errors import ReadError
from ..pandas_text import text_column
from ..profile import NODE, PARENT, RawProfile

#: Metric names Hatchet renames to ``time`` / ``time (inc)``.
TIME_NAMES = {
    "CPUTIME (usec) (E)": "time", "CPUTIME (sec) (E)": "time",
    "CPUTIME (usec) (I)": "time (inc)", "CPUTIME (sec) (I)": "time (inc)",
}



def metric_display_name(name: str) -> str:
    """The column name Hatchet gives a MetricDB metric of the old layout."""
    return TIME_NAMES.get(name, name)


def metric_units(file_names: Dict[str, str]) -> Dict[str, str]:
    """``metadata["units"]``: column -> the unit its file name states (``CPUTIME (usec)``
    renamed ``time`` is in microseconds, ``GKER (sec)`` in seconds, ``GMEM (B)`` in bytes);
    columns whose names state none (``cycles``) are left out.

    Examples
    --------
    >>> metric_units({"time": "CPUTIME (usec) (E)", "cycles": "cycles (E)",
    ...               "GKER (sec) (inc)": "GKER (sec)"})
    {'time': 'microseconds', 'GKER (sec) (inc)': 'seconds'}
    """
    out = {}
    for column, file_name in file_names.items():
        unit = unit_in_name(file_name)
        if unit is not None:
            out[column] = unit
    return out


def is_inclusive_name(name: str) -> bool:
    """Hatchet's rule for the old layout: ``(inc)`` or ``(I)`` in the name."""
    return "(inc)" in name or "(I)" in name


def select_names(source: Any, available: Sequence[str], wanted: Optional[Iterable[str]],
                 aliases: Optional[Dict[str, str]] = None, what: str = "metric",
                 option: str = "metrics") -> List[str]:
    """The subset of ``available`` named in ``wanted`` (all when ``wanted`` is None).

    ``aliases`` maps other accepted spellings (the file's own names) to names
    in ``available``. Order follows ``available``. An unknown name raises
    :class:`ReadError` listing what the file has.

    Examples
    --------
    >>> select_names("db", ["time (inc)", "time"], ["time"])
    ['time']
    """
    if wanted is None:
        return list(available)
    if isinstance(wanted, str):
        wanted = [wanted]
    aliases = aliases or {}
    chosen = set()
    for name in wanted:
        key = aliases.get(name, name)
        if key not in available:
            raise ReadError(source, f"no {what} named {name!r}",
                            position=f"{option} option",
                            expected="one of " + ", ".join(repr(a) for a in available))
        chosen.add(key)
    return [a for a in available if a in chosen]


def rank_selection(source: Any, ranks: Any, option: str = "ranks") -> Optional[List[int]]:
    """The ``ranks`` option as a sorted list of distinct ints (None: every rank).

    One int or an iterable of ints; anything else (a string, a float such as
    ``1.5``, a bool) raises :class:`ReadError` naming the option.

    Examples
    --------
    >>> rank_selection("db", [3, 1, 3]), rank_selection("db", 2), rank_selection("db", None)
    ([1, 3], [2], None)
    >>> rank_selection("db", "12")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: db: ranks option: the ranks option is a string ('12'), not a list of ranks (expected an int or a list of ints, e.g. [0, 3])
    """
    if ranks is None:
        return None
    where = f"{option} option"
    expected = "an int or a list of ints, e.g. [0, 3]"
    if isinstance(ranks, (str, bytes)):
        raise ReadError(source, f"the {option} option is a string ({ranks!r}), not a list of ranks",
                        position=where, expected=expected)
    if _is_int(ranks):
        items = [ranks]
    else:
        try:
            items = list(ranks)
        except TypeError as exc:
            raise ReadError(source, f"the {option} option is a {type(ranks).__name__}, not a "
                            "list of ranks", position=where, expected=expected) from exc
    bad = [r for r in items if not _is_int(r)]
    if bad:
        raise ReadError(source, f"rank {bad[0]!r} in the {option} option is not an integer",
                        position=where, expected=expected)
    if not items:
        raise ReadError(source, f"the {option} option selects no rank", position=where,
                        expected="at least one rank")
    return sorted({int(r) for r in items})


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def basename(path: str) -> str:
    """The last component of a path (``os.path.basename`` without importing os.path rules)."""
    return path.rsplit("/", 1)[-1]


#: relative error of a double after a few additions (metric files, profile.db)
FLOAT_ERROR = 1e-12
#: relative error of experiment.xml's summary values: printed with 6 significant digits
SUMMARY_ERROR = 5e-6


def own_cost(inc: np.ndarray, child: np.ndarray, into: np.ndarray,
             relative_error: float = FLOAT_ERROR) -> np.ndarray:
    """Each row's own cost: its inclusive value minus its children's, never negative by error.

    ``inc[child[k]]`` is subtracted from ``inc[into[k]]``. Inclusive values
    that carry a rounding error (``relative_error`` of each value) can make a
    node's children add up to a little more than the node itself (hpcprof's
    summary values are printed with 6 significant digits: ``1.57221e+10``
    minus children adding up to ``1.572213e+10``). A difference that is
    negative by no more than the error of the values it came from is that
    error, and is 0; a larger negative difference is the data's own and is
    kept.

    Examples
    --------
    >>> inc = np.array([1.57221e10, 9.69935e9, 6.02278e9])
    >>> own_cost(inc, np.array([1, 2]), np.array([0, 0]), SUMMARY_ERROR).tolist()
    [0.0, 9699350000.0, 6022780000.0]
    >>> own_cost(np.array([5.0, 7.0]), np.array([1]), np.array([0])).tolist()  # not rounding
    [-2.0, 7.0]
    """
    size = len(inc)
    children = np.bincount(into, weights=inc[child], minlength=size)
    own = inc - children
    negative = own < 0
    if negative.any():
        spread = np.abs(inc) + np.bincount(into, weights=np.abs(inc[child]), minlength=size)
        own[negative & (-own <= relative_error * spread)] = 0.0
    return own


def row_index(count: int, blocks: int) -> np.ndarray:
    """Node positions ``0..count-1`` repeated for each block (int32 when it fits)."""
    dtype = np.int32 if count < 2**31 else np.int64
    return np.tile(np.arange(count, dtype=dtype), blocks)


def level_column(values: Sequence[int], count: int) -> np.ndarray:
    """One rank/thread value per block repeated ``count`` times, in the smallest int type."""
    values = np.asarray(values, dtype=np.int64)
    dtype = np.int16 if not len(values) or (values.min() >= -2**15 and values.max() < 2**15) \
        else np.int32 if values.max() < 2**31 else np.int64
    return np.repeat(values.astype(dtype), count)


def narrow_int(values: np.ndarray) -> np.ndarray:
    """An integer column as int32 when every value fits, else int64.

    ``nid`` and ``line`` are repeated on every row of the dataframe (one row
    per node and rank): at a million nodes x 16 ranks int32 saves 64 MB per
    column. The values are the same; only the dtype differs from Hatchet's.

    Examples
    --------
    >>> narrow_int(np.array([1, 70000])).dtype, narrow_int(np.array([2**40])).dtype
    (dtype('int32'), dtype('int64'))
    """
    values = np.asarray(values, dtype=np.int64)
    if not len(values) or (values.min() >= -2**31 and values.max() < 2**31):
        return values.astype(np.int32)
    return values


def assemble(source: Any, parent: np.ndarray, frames: Dict[str, Any], columns: Dict[str, Any],
             rows: Dict[str, Any], levels: Sequence[str], *, exc: Sequence[str],
             inc: Sequence[str], pairs: Dict[str, str], default: Optional[str],
             metadata: Dict[str, Any], order: Sequence[str]) -> RawProfile:
    """A validated RawProfile whose tables wrap the given arrays without copying them.

    ``rows`` holds ``node``, the index levels and the metric columns (one
    entry per row). Building the tables directly (instead of through
    ProfileBuilder's concatenating path) keeps a large read at one copy of
    the metric values.
    """
    count = len(parent)
    frames = {k: text_column(v) for k, v in frames.items()}
    nodes = pd.DataFrame({NODE: np.arange(count, dtype=np.int64), PARENT: parent, **frames},
                         copy=False)
    node_columns = pd.DataFrame({k: text_column(v) for k, v in columns.items()}, copy=False)
    metrics = pd.DataFrame(rows, copy=False)
    meta = {"source": str(source)}
    meta.update(metadata)
    raw = RawProfile(nodes=nodes, metrics=metrics, index_levels=tuple(levels),
                     node_columns=node_columns, exc_metrics=tuple(exc), inc_metrics=tuple(inc),
                     inclusive_of=dict(pairs), default_metric=default, metadata=meta,
                     columns=tuple(order))
    return raw.validate(source)
