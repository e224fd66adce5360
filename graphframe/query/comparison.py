"""Comparison strings of the object dialect (``">= 2.5"``), parsed, never evaluated.

Hatchet hands ``"<value> <string>"`` to Python's ``eval``; here the string
must be exactly an operator and a number, so ``"> 1 or __import__('os')"`` is
an error, not code.
"""

from __future__ import annotations

import re
from typing import Tuple

import numpy as np

from .errors import QuerySyntaxError

COMPARISON_PREFIXES = ("<", ">", "==", ">=", "<=", "<>", "!=")

_OPERATOR = re.compile(r"\s*(==|!=|<>|<=|>=|<|>)\s*")
_NUMBER = re.compile(
    r"([+-]?)(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)"
    r"|(?:np\.|numpy\.)?(nan|inf|infinity)\b)\s*",
    re.IGNORECASE)


def is_comparison(text: str) -> bool:
    """Whether a filter string is meant as a comparison (Hatchet's test).

    Examples
    --------
    >>> is_comparison(">= 2"), is_comparison("MPI_.*")
    (True, False)
    """
    return text.lstrip().startswith(COMPARISON_PREFIXES)


def parse_comparison(text: str) -> Tuple[str, float]:
    """Split ``"<op> <number>"`` into a normalised operator and a float.

    ``<>`` is read as ``!=``; ``nan``/``np.nan``/``inf``/``np.inf`` (any case,
    optionally signed) are accepted as numbers.

    Examples
    --------
    >>> parse_comparison(">= 2.5")
    ('>=', 2.5)
    >>> parse_comparison("<> np.nan")
    ('!=', nan)
    >>> parse_comparison("> 1 or True")
    Traceback (most recent call last):
    ...
    graphframe.query.errors.QuerySyntaxError: unexpected text after the number of a comparison at line 1, column 5 (expected end of the comparison)
      > 1 or True
          ^
    """
    op_match = _OPERATOR.match(text)
    if op_match is None:
        raise QuerySyntaxError("a comparison starts with an operator", text, 0,
                               ("==", "!=", "<", "<=", ">", ">="))
    op = op_match.group(1)
    op = "!=" if op == "<>" else op
    rest = text[op_match.end():]
    num = _NUMBER.match(rest)
    if num is None:
        raise QuerySyntaxError("a comparison needs a number after the operator", text,
                               op_match.end(), ("a number such as 2, -1.5e3, nan, inf",))
    if num.end() != len(rest):
        raise QuerySyntaxError("unexpected text after the number of a comparison", text,
                               op_match.end() + num.end(), ("end of the comparison",))
    sign, digits, special = num.groups()
    if digits is not None:
        value = float(digits)
    else:
        value = np.nan if special.lower() == "nan" else np.inf
    return op, -value if sign == "-" else value


def compare(values: np.ndarray, op: str, number: float) -> np.ndarray:
    """``values <op> number`` elementwise; ``== nan`` tests for NaN, ``!= nan`` for not-NaN.

    Examples
    --------
    >>> compare(np.array([1.0, np.nan, 3.0]), ">", 1.5).tolist()
    [False, False, True]
    >>> compare(np.array([1.0, np.nan]), "==", np.nan).tolist()
    [False, True]
    """
    if np.isnan(number):
        if op == "==":
            return _isnan(values)
        if op == "!=":
            return ~_isnan(values)
        return np.zeros(len(values), dtype=bool)
    with np.errstate(invalid="ignore"):
        if op == "==":
            return np.asarray(values == number, dtype=bool)
        if op == "!=":
            return np.asarray(values != number, dtype=bool)
        if op == "<":
            return np.asarray(values < number, dtype=bool)
        if op == "<=":
            return np.asarray(values <= number, dtype=bool)
        if op == ">":
            return np.asarray(values > number, dtype=bool)
        if op == ">=":
            return np.asarray(values >= number, dtype=bool)
    raise ValueError(f"unknown comparison operator {op!r}")


def _isnan(values: np.ndarray) -> np.ndarray:
    if values.dtype.kind in "fc":
        return np.isnan(values)
    if values.dtype.kind in "iub":
        return np.zeros(len(values), dtype=bool)
    return np.array([isinstance(v, float) and v != v for v in values], dtype=bool)
