"""Numbers as text: as the text trees print them, and as labels (ticks, key values)."""

from __future__ import annotations

from typing import Any, List

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



def plain_number(value: float) -> str:
    """A label without a power of ten for everyday magnitudes (``60``, not ``6×10^1``).

    Examples
    --------
    >>> [plain_number(v) for v in (60.0, 0.1, 1.0, 250000.0, 2e7, 5e-6)]
    ['60', '0.1', '1', '250000', '2e+07', '5e-06']
    """
    size = abs(value)
    if value == 0 or 1e-4 <= size < 1e6:
        return np.format_float_positional(value, precision=6, trim="-")
    return f"{value:.3g}"


def key_text(value: Any) -> str:
    """A key value (a rank count, a problem size) as a label or column header: whole
    numbers whole, whatever their type (``27``, ``1048576``), others plain, text as is.

    Examples
    --------
    >>> key_text(27.0), key_text(1048576.0), key_text(0.5), key_text(64), key_text("gcc")
    ('27', '1048576', '0.5', '64', 'gcc')
    """
    if isinstance(value, (float, np.floating)) and np.isfinite(value):
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return plain_number(number)
    return str(value)
