"""Numbers as the text trees print them."""

from __future__ import annotations

from typing import List

import numpy as np


def format_numbers(values: np.ndarray, precision: int, sign: bool = False) -> List[str]:
    """Each value with ``precision`` decimals, integers included (as Hatchet prints them).

    A value that rounds to zero prints as zero, never ``-0.000``; NaN prints
    as ``nan``. ``sign`` writes ``+`` before positive values and zero.

    Examples
    --------
    >>> format_numbers(np.array([1.5, -0.0001, -0.0, np.nan]), 3)
    ['1.500', '0.000', '0.000', 'nan']
    >>> format_numbers(np.array([14, 2]), 3)
    ['14.000', '2.000']
    >>> format_numbers(np.array([-0.0004, 2.0, np.nan]), 2, sign=True)
    ['+0.00', '+2.00', 'nan']
    """
    plus = "+" if sign else ""
    fmt = f"{{:{plus}.{int(precision)}f}}".format
    negative_zero, zero = fmt(-0.0), fmt(0.0)
    out = [fmt(v) for v in values.tolist()]
    return [zero if s == negative_zero else "nan" if s == "+nan" else s for s in out]

