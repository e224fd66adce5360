"""Numbers as the text trees print them."""

from __future__ import annotations

import math
from typing import List

import numpy as np
import pandas as pd


def format_numbers(values: np.ndarray, precision: int, integer: bool = False,
                   sign: bool = False) -> List[str]:
    """Each value with ``precision`` decimals (whole numbers for ``integer`` columns).

    A value that rounds to zero prints as zero, never ``-0.000``; NaN prints
    as ``nan``. ``sign`` writes ``+`` before positive values and zero.

    Examples
    --------
    >>> format_numbers(np.array([1.5, -0.0001, -0.0, np.nan]), 3)
    ['1.500', '0.000', '0.000', 'nan']
    >>> format_numbers(np.array([14.0, np.nan]), 3, integer=True)
    ['14', 'nan']
    >>> format_numbers(np.array([-0.0004, 2.0, np.nan]), 2, sign=True)
    ['+0.00', '+2.00', 'nan']
    """
    plus = "+" if sign else ""
    if integer:
        return [f"{int(v):{plus}d}" if math.isfinite(v) else f"{v}" for v in values.tolist()]
    fmt = f"{{:{plus}.{int(precision)}f}}".format
    negative_zero, zero = fmt(-0.0), fmt(0.0)
    out = [fmt(v) for v in values.tolist()]
    return [zero if s == negative_zero else "nan" if s == "+nan" else s for s in out]


def is_integer_column(series: pd.Series) -> bool:
    """True for integer (not boolean) columns: counts print without decimals.

    Examples
    --------
    >>> is_integer_column(pd.Series([14, 2])), is_integer_column(pd.Series([1.0]))
    (True, False)
    >>> is_integer_column(pd.Series([True]))
    False
    """
    dtype = series.dtype
    return pd.api.types.is_integer_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
