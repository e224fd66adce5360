"""Printing helpers for the compatibility scripts: output that does not depend on versions.

numpy 2 prints scalars as ``np.float64(1.0)`` and pandas 3 lays frames out
differently from pandas 2, so the scripts print plain Python values through
these helpers: floats rounded to 6 decimals (``-0.0`` shown as ``0.0``),
everything else with ``str``.
"""

import math


def num(x):
    """A number as text: ints as ints, floats rounded to 6 decimals."""
    if x is None:
        return "None"
    if isinstance(x, bool):
        return str(x)
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(f) or math.isinf(f):
        return str(f)
    if isinstance(x, int) or (hasattr(x, "dtype") and x.dtype.kind in "iu"):
        return str(int(x))
    return repr(round(f, 6) + 0.0)


def nums(values):
    """A list of numbers as text (see :func:`num`)."""
    return "[" + ", ".join(num(v) for v in values) + "]"


def cell(value):
    """One dataframe value as text: numbers through :func:`num`, the rest with ``str``."""
    if isinstance(value, str):
        return value
    if value is None:
        return "None"
    if isinstance(value, float) or hasattr(value, "dtype"):
        return num(value)
    return str(value)


def show(df, columns, sort_by=None, limit=None):
    """Print the given columns (and rank/thread levels) of a frame, one row per line.

    The ``node`` level is left out: rows are identified by the columns asked for.
    """
    flat = df.reset_index()
    levels = [n for n in df.index.names if n not in (None, "node")]
    cols = levels + [c for c in columns if c not in levels]
    if sort_by is not None:
        flat = flat.sort_values(sort_by, kind="stable")
    rows = flat[cols].itertuples(index=False, name=None)
    print(" | ".join(str(c) for c in cols))
    for k, row in enumerate(rows):
        if limit is not None and k >= limit:
            print("...")
            break
        print(" | ".join(cell(v) for v in row))


def summary(gf):
    """Shape, index levels, columns, metric lists and the sums of the metric columns."""
    df = gf.dataframe
    print("rows:", len(df), "index:", list(df.index.names))
    print("columns:", [str(c) for c in df.columns])
    print("exc_metrics:", sorted(gf.exc_metrics), "inc_metrics:", sorted(gf.inc_metrics))
    print("default_metric:", gf.default_metric)
    for m in sorted(set(gf.exc_metrics) | set(gf.inc_metrics)):
        if m in df.columns:
            print(f"  sum {m}:", num(df[m].sum()))
