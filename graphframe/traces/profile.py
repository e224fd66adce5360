"""Time analyses of an events table: flat profile, imbalance, idle time, time profile.

All work on ENTER rows (``duration`` = inclusive ns, ``exclusive`` = self ns)
with pandas group-bys and numpy; results are in seconds.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd

from graphframe.errors import ArgumentError, MetricError
from graphframe_readers.pandas_text import frame

from .bins import time_bins

#: MPI calls counted as waiting by :func:`idle_time` (plus anything named "Idle").
IDLE_FUNCTIONS = ("MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Recv",
                  "MPI_Barrier", "MPI_Probe", "Idle")


def _enters(events: pd.DataFrame) -> pd.DataFrame:
    return events[events["kind"] == "enter"]


def _per_list(per: Union[None, str, Sequence[str]]) -> list:
    if per is None:
        return []
    per = [per] if isinstance(per, str) else list(per)
    for p in per:
        if p not in ("rank", "thread"):
            raise ArgumentError(f"per={p!r}: use 'rank', 'thread', both or None")
    return per


def flat_profile(events: pd.DataFrame, by: str = "name",
                 per: Union[None, str, Sequence[str]] = "rank") -> pd.DataFrame:
    """Per ``by`` value (and per rank/thread): ``time (inc)``, ``time`` (self) in s, ``count``.

    Inclusive times of recursive calls are summed as recorded (a function
    that calls itself counts its nested calls again).
    """
    if by not in events.columns:
        raise MetricError(f"by={by!r}: no such column; have {', '.join(map(str, events.columns))}")
    keys = _per_list(per) + [by]
    fast = _flat_profile_by_codes(events, keys)
    if fast is not None:
        return fast
    ent = _enters(events)
    grouped = ent.groupby(keys, observed=True, sort=True)
    out = frame({  # pandas' DataFrame with labels built without pyarrow's pandas layer
        "time (inc)": grouped["duration"].sum() / 1e9,
        "time": grouped["exclusive"].sum() / 1e9,
        "count": grouped["duration"].size().astype(np.int64),
    })
    return out.sort_index()


def _flat_profile_by_codes(events: pd.DataFrame, keys: Sequence[str]) -> Optional[pd.DataFrame]:
    """:func:`flat_profile` by integer codes and ``np.bincount``, or None where that is
    not the same result as pandas' group-by (which it is written to equal exactly).

    Taken when every key is a categorical or integer column and the times are whole
    numbers (nanoseconds, as every decoder gives them): their sums are then exact in
    any order, so pandas' compensated sums and these agree to the bit. Costs a tenth
    of the group-by on a small trace, whose first group-by also loads pandas' code.
    """
    kind = events["kind"]
    if not isinstance(kind.dtype, pd.CategoricalDtype) or "enter" not in kind.cat.categories:
        return None
    columns = []
    for key in keys:
        col = events[key]
        if not (isinstance(col.dtype, pd.CategoricalDtype)
                or (isinstance(col.dtype, np.dtype) and col.dtype.kind in "iu")):
            return None
        columns.append(col)
    inclusive = events["duration"].to_numpy()
    exclusive = events["exclusive"].to_numpy()
    if inclusive.dtype.kind != "f" or exclusive.dtype.kind != "f":
        return None
    rows = kind.cat.codes.to_numpy() == kind.cat.categories.get_loc("enter")
    codes = []
    for col in columns:
        c = col.cat.codes.to_numpy() if isinstance(col.dtype, pd.CategoricalDtype) \
            else col.to_numpy()
        codes.append(c)
        if isinstance(col.dtype, pd.CategoricalDtype):
            rows &= c >= 0  # a missing key: no group, as in pandas
    rows = np.flatnonzero(rows)
    inc, exc = inclusive[rows], exclusive[rows]
    if not (np.array_equal(inc, np.round(inc)) and np.array_equal(exc, np.round(exc))):
        return None  # NaN or fractions: pandas' sums
    combined = np.zeros(len(rows), dtype=np.int64)
    levels, level_codes = [], []
    for key, col, c in zip(keys, columns, codes):
        values, inverse = np.unique(c[rows], return_inverse=True)
        if len(values) and combined.max(initial=0) > (np.iinfo(np.int64).max // len(values)):
            return None
        combined = combined * len(values) + inverse
        if isinstance(col.dtype, pd.CategoricalDtype):
            levels.append(pd.CategoricalIndex(pd.Categorical.from_codes(
                values, dtype=col.dtype, validate=False), name=key))
        else:
            levels.append(pd.Index(values, dtype=col.dtype, name=key))
        level_codes.append(inverse)
    groups, first, group_of = np.unique(combined, return_index=True, return_inverse=True)
    n = len(groups)
    if len(keys) == 1:
        index = levels[0][level_codes[0][first]]
    else:
        index = pd.MultiIndex(levels=levels, codes=[lc[first] for lc in level_codes],
                              names=list(keys), verify_integrity=False)
    return frame({
        "time (inc)": pd.Series(np.bincount(group_of, weights=inc, minlength=n) / 1e9,
                                index=index, copy=False),
        "time": pd.Series(np.bincount(group_of, weights=exc, minlength=n) / 1e9,
                          index=index, copy=False),
        "count": pd.Series(np.bincount(group_of, minlength=n).astype(np.int64),
                           index=index, copy=False),
    })


def load_imbalance(events: pd.DataFrame, metric: str = "time", by: str = "name") -> pd.DataFrame:
    """Per ``by`` value: mean and max over ranks of ``metric`` (``time`` or ``time (inc)``),
    ``imbalance`` = max / mean and the rank with the max, sorted by imbalance.

    Ranks that never called a function count as 0 for it.
    """
    prof = flat_profile(events, by=by, per="rank")
    if metric not in prof.columns:
        raise MetricError(f"metric={metric!r}: use 'time', 'time (inc)' or 'count'")
    table = prof[metric].unstack("rank", fill_value=0.0)
    mean = table.mean(axis=1)
    out = pd.DataFrame({"mean": mean, "max": table.max(axis=1),
                        "imbalance": table.max(axis=1) / mean.where(mean != 0),
                        "max rank": table.idxmax(axis=1)})
    return out.sort_values(["imbalance", "max"], ascending=False, kind="stable")


def idle_time(events: pd.DataFrame, idle_functions: Iterable[str] = IDLE_FUNCTIONS) -> pd.DataFrame:
    """Per rank: seconds inside the outermost calls of ``idle_functions``, the rank's span
    (first to last event) and the idle fraction of it."""
    idle = set(idle_functions)
    ent = _enters(events)
    hit = ent[ent["name"].isin(idle)]
    outer_ok = ~hit["parent"].isin(hit.index)
    idle_s = hit[outer_ok].groupby("rank")["duration"].sum() / 1e9
    span = events.groupby("rank")["time"].agg(lambda t: (t.max() - t.min()) / 1e9)
    out = pd.DataFrame({"idle": idle_s.reindex(span.index, fill_value=0.0), "span": span})
    out["idle fraction"] = out["idle"] / out["span"].where(out["span"] > 0)
    return out


def time_profile(events: pd.DataFrame, bins: int = 50, by: str = "name",
                 start: Optional[int] = None, end: Optional[int] = None) -> pd.DataFrame:
    """Self time (s) of each ``by`` value in each of ``bins`` equal time bins.

    Rows: bin start times (ns); columns: the ``by`` values. A call's self
    time in a bin is its interval's overlap with the bin minus its children's.
    """
    ent = _enters(events)
    found = time_bins(events["time"], bins, start, end)
    if found is None:  # no events: no bins, no names
        return pd.DataFrame(index=pd.Index([], dtype=np.int64, name="time"),
                            columns=pd.Index([], name=by))
    t0, edges, bin_start = found
    # subtract the start in int64 before going to float: epoch nanoseconds (~1.7e18)
    # have 256 ns steps in float64
    s = (ent["time"].to_numpy(np.int64) - t0).astype(np.float64)
    e = s + ent["duration"].to_numpy(np.float64)
    labels = ent[by].astype(object).to_numpy()
    par = ent["parent"].to_numpy()
    has = par >= 0
    plabel = events[by].astype(object).to_numpy()[np.maximum(par, 0)]
    # own intervals count +1 for their label, children's intervals -1 for the parent's label
    lab = np.concatenate([labels, plabel[has]])
    ss = np.concatenate([s, s[has]])
    ee = np.concatenate([e, e[has]])
    w = np.concatenate([np.ones(len(s)), -np.ones(int(has.sum()))])
    codes, uniq = pd.factorize(pd.Series(lab), sort=True)
    area = np.zeros((len(uniq), bins + 1))
    for k in range(len(uniq)):  # one pass per distinct name, vectorised over its calls
        sel = codes == k
        area[k] = _covered(ss[sel], ee[sel], w[sel], edges)
    per_bin = np.diff(area, axis=1).T / 1e9
    return pd.DataFrame(per_bin, index=pd.Index(bin_start, name="time"),
                        columns=pd.Index(uniq, name=by))


def _covered(s: np.ndarray, e: np.ndarray, w: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Weighted total length of intervals [s, e) before each edge."""
    def part(points: np.ndarray) -> np.ndarray:
        o = np.argsort(points)
        p, ww = points[o], w[o]
        csum = np.r_[0.0, np.cumsum(ww)]
        cpw = np.r_[0.0, np.cumsum(ww * p)]
        k = np.searchsorted(p, edges, side="right")
        return csum[k] * edges - cpw[k]
    return part(s) - part(e)
