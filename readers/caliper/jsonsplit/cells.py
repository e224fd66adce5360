"""json-split cells -> typed arrays, every bad cell a located :class:`ReadError`.

A column of ``data`` arrives as a sequence of cells: a float array from the fast
path (:mod:`graphframe_readers.caliper.jsonsplit.fast`, nulls as NaN), or the json module's
values. Numbers follow Python's ``float``: ``1e400`` is infinity; an integer
literal too large for a float (``float(10**400)`` raises) is an error, as are
``true``/``false`` (Caliper writes no JSON booleans), a column mixing numbers
and text, and lists or objects in a cell. Positions are ``data[i]``, the row
in the file.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

from ...errors import ReadError
from ..names import MAX_RANK, METRIC, classify

INT = np.int64
_NUMBER_TYPES = (int, float)


def short(value: Any) -> str:
    """A cell for an error message (containers are named, not printed: they may
    be nested too deeply to print).

    Examples
    --------
    >>> short(3.0), short("x" * 70)[-4:], short([1]), short(10 ** 80)[-3:]
    ('3', 'x...', 'a list', '...')
    """
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        value = int(value)
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(cell: Any) -> str:
    t = type(cell)
    if cell is None:
        return "null"
    if t is bool:
        return "boolean"
    if t in _NUMBER_TYPES:
        return "number"
    if t is str:
        return "text"
    return "container"


def _floats(cells: Sequence[Any], title: str, source: Any) -> np.ndarray:
    """Numbers and nulls -> float64 (NaN for null); a too-large integer is located."""
    try:
        return np.array(cells, dtype=np.float64)
    except OverflowError as exc:
        i = next(i for i, c in enumerate(cells) if type(c) is int and not _fits(c))
        raise ReadError(source, f"column {title!r} holds an integer with {len(str(cells[i]))} "
                        f"digits, too large for a floating-point number",
                        position=f"data[{i}]",
                        expected="a number within the range of a double") from exc


def _fits(value: int) -> bool:
    try:
        float(value)
        return True
    except OverflowError:
        return False


def _mixed(cells: Sequence[Any], title: str, source: Any) -> ReadError:
    """The error for a column whose cells are not all numbers or all text: a
    boolean or container, else the first cell of the minority kind."""
    kinds = [_kind(c) for c in cells]
    for i, kind in enumerate(kinds):
        if kind in ("boolean", "container"):
            shown = str(cells[i]).lower() if kind == "boolean" else short(cells[i])
            return ReadError(source, f"column {title!r} holds {shown}", position=f"data[{i}]",
                             expected="a number, a string or null")
    usual = "number" if kinds.count("number") >= kinds.count("text") else "text"
    other = "text" if usual == "number" else "number"
    first, odd = kinds.index(usual), kinds.index(other)
    return ReadError(source, f"column {title!r} holds {short(cells[odd])}, but data[{first}] "
                     f"holds {'a number' if usual == 'number' else 'text'}",
                     position=f"data[{odd}]",
                     expected=f"{'numbers' if usual == 'number' else 'text'} (or null) in "
                              f"every row of a column")


def values(cells: Sequence[Any], title: str, keep: np.ndarray, source: Any
           ) -> Tuple[np.ndarray, bool]:
    """A value column's kept rows: ``(float64 array, True)`` for numbers,
    ``(object array, False)`` for text (None for null).

    Examples
    --------
    >>> values([1, None, 2.5], "t", np.arange(3), "f")[0].tolist()
    [1.0, nan, 2.5]
    >>> values(["a", None], "t", np.arange(2), "f")
    (array(['a', None], dtype=object), False)
    >>> values([1, "a"], "t", np.arange(2), "f")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: f: data[1]: column 't' holds 'a', but data[0] holds a number (expected numbers (or null) in every row of a column)
    """
    if isinstance(cells, np.ndarray) and cells.dtype.kind == "f":
        # the fast path's floats: a view when every row is kept (the usual case)
        return (cells if len(keep) == len(cells) else cells[keep]), True
    types = set(map(type, cells))
    if types <= {int, float, type(None)}:
        return _floats(cells, title, source)[keep], True
    if types <= {str, type(None)}:
        return np.array(cells, dtype=object)[keep], False
    raise _mixed(cells, title, source)


def node_refs(cells: Sequence[Any], title: str, node_cols: np.ndarray, source: Any
              ) -> np.ndarray:
    """Cells that index ``nodes`` (null -> -1), checked against the column.

    Examples
    --------
    >>> node_refs([0, None, 1], "path", np.array(["path", "path"]), "f").tolist()
    [0, -1, 1]
    """
    if not (isinstance(cells, np.ndarray) and cells.dtype.kind == "f"):
        if not set(map(type, cells)) <= {int, float, type(None)}:
            i = next(i for i, c in enumerate(cells) if _kind(c) not in ("number", "null"))
            raise ReadError(source, f"column {title!r} holds {short(cells[i])}",
                            position=f"data[{i}]", expected="the index of a node or null")
    try:
        numbers = np.asarray(cells, dtype=np.float64)  # the fast path's floats: no copy
    except OverflowError:
        numbers = np.array([c if c is None or _fits(c) else np.inf for c in cells],
                           dtype=np.float64)
    null = np.isnan(numbers)
    n = len(node_cols)
    ok = ~null & (numbers >= 0) & (numbers < n) & (numbers == np.floor(numbers))
    idx = np.where(ok, numbers, -1).astype(INT)
    if ok.any():
        ok[ok] = node_cols[idx[ok]] == title
    bad = ~null & ~ok
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ReadError(source, f"column {title!r} refers to node {short(cells[i])}, which is "
                        f"not a '{title}' entry of 'nodes'", position=f"data[{i}]",
                        expected=f"the index of a '{title}' node")
    return idx


def ranks(column: np.ndarray, numeric: bool, title: str, keep: np.ndarray, source: Any
          ) -> np.ndarray:
    """The ``mpi.rank`` column: integers from 0 to :data:`MAX_RANK` in every kept row."""
    arr = np.asarray(column, dtype=np.float64) if numeric else np.full(len(column), np.nan)
    bad = np.isnan(arr) | (arr != np.floor(arr)) | (arr < 0) | (arr > MAX_RANK)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ReadError(source, f"column {title!r} holds {short(column[i])}, not a rank",
                        position=f"data[{int(keep[i])}]",
                        expected=f"an MPI rank: an integer from 0 to {MAX_RANK}")
    return arr.astype(INT)


def order(column: np.ndarray, numeric: bool, title: str, keep: np.ndarray, source: Any
          ) -> np.ndarray:
    """Caliper's node order (``Node order``): numbers or null."""
    if not numeric:
        i = int(np.flatnonzero(~np.equal(column, None))[0])
        raise ReadError(source, f"column {title!r} holds {short(column[i])}",
                        position=f"data[{int(keep[i])}]",
                        expected="a number (Caliper's node order) or null")
    return np.asarray(column, dtype=np.float64)


def pathless_with_metrics(cells: List[Sequence[Any]], columns: List[str], metadata: Any,
                          is_value: Callable[[int], bool], row_node: np.ndarray, source: Any
                          ) -> np.ndarray:
    """The rows without a call path (``row_node`` -1) that hold a value of a metric
    column (``is_value(j)``: column ``j`` holds values, not node references).

    Examples
    --------
    >>> cells = [[None, 0, None], [1.0, 2.0, None], [5, 6, 7]]
    >>> pathless_with_metrics(cells, ["path", "time", "time.offset"], [{}, {}, {}],
    ...                       lambda j: j > 0, np.array([-1, 0, -1]), "f").tolist()
    [0]
    """
    rows = np.flatnonzero(row_node < 0)
    if not len(rows):
        return rows
    holds = np.zeros(len(rows), dtype=bool)
    for j, title in enumerate(columns):
        if not is_value(j):
            continue
        column, numeric = values(cells[j], title, rows, source)
        alias = metadata[j].get("attribute.alias")
        if numeric and classify(title, alias if isinstance(alias, str) else None).role == METRIC:
            holds |= ~np.isnan(column)
    return rows[holds]


def pathless_totals(cells: List[Sequence[Any]], columns: List[str], metadata: Any,
                    is_value: Callable[[int], bool], row_node: np.ndarray, source: Any
                    ) -> Dict[str, float]:
    """Metric column -> the sum of its values over the rows without a call path
    (``row_node`` -1): what ``no_path="drop"`` leaves out of the tree.

    Examples
    --------
    >>> cells = [[None, 0, None], [1.5, 2.0, 0.5], [5, 6, 7]]
    >>> pathless_totals(cells, ["path", "time", "count"], [{}, {}, {}],
    ...                 lambda j: j > 0, np.array([-1, 0, -1]), "f")
    {'time': 2.0, 'count': 12.0}
    """
    rows = np.flatnonzero(row_node < 0)
    totals: Dict[str, float] = {}
    if not len(rows):
        return totals
    for j, title in enumerate(columns):
        if not is_value(j):
            continue
        column, numeric = values(cells[j], title, rows, source)
        alias = metadata[j].get("attribute.alias")
        spec = classify(title, alias if isinstance(alias, str) else None, numeric=numeric)
        if numeric and spec.role == METRIC:
            present = column[~np.isnan(column)]
            if len(present):
                totals[spec.name] = totals.get(spec.name, 0.0) + float(present.sum())
    return totals
