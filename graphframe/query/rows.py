"""What a callable predicate sees: one row per call, as Hatchet passes it.

Hatchet calls a predicate with ``dataframe.loc[node]``: a Series indexed by
the column names whose ``name`` is the Node. Building a real Series per row
costs tens of microseconds, so per-row callables get a :class:`Row`: a small
read-only view of one row of a :class:`RowTable` that answers the common
Series operations (``row["time"]``, ``row.name``, ``row.get``, ``in``,
``keys``, ``items``, ``to_dict``, ``index``, ``len``) from per-column arrays
decoded once, with the same values a Series row holds. Anything else
(``row.loc[...]``, ``row.time``, ``row.sum()``, operators, a list of keys,
a partial key of MultiIndex columns) is answered by the real Series, built
on first use (``row.series``).

:class:`Row` is not a ``pandas.Series`` subclass: ``isinstance(row,
pandas.Series)`` is false; use ``row.series`` where a real Series is needed.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from .errors import InvalidQueryFilter

__all__ = ["Row", "RowTable", "as_bool_rows"]


class RowTable:
    """Columns of one dataframe, decoded once, for per-row callables.

    Parameters
    ----------
    dataframe : pandas.DataFrame
        One row per node (a single index level).
    labels : list or range
        Row labels as plain Python values (node ids, or row positions).
    node_view : callable, optional
        ``node_view(label)`` -> what ``row.name`` is (the Node); without it,
        ``row.name`` is the row label.
    python_scalars : bool
        Values as Python objects (``float``, ``int``, ``str``), as the rows of
        ``DataFrame.apply(func, axis=1)`` hold them (Hatchet's ``filter``);
        by default, as ``dataframe.loc[label]`` holds them (Hatchet's queries).

    Examples
    --------
    >>> df = pd.DataFrame({"name": ["a", "b"], "time": [1.5, 2.0]},
    ...                   index=pd.Index([0, 1], name="node"))
    >>> table = RowTable(df, [0, 1])
    >>> row = table.row(1)
    >>> row["name"], float(row["time"]), row.name, "time" in row
    ('b', 2.0, 1, True)
    """

    def __init__(self, dataframe: pd.DataFrame, labels: Sequence[Any],
                 node_view: Optional[Callable[[Any], Any]] = None,
                 python_scalars: bool = False) -> None:
        self.df = dataframe
        self.python_scalars = python_scalars
        self.labels = labels
        self.node_view = node_view
        self.columns = dataframe.columns
        self._position: Dict[Any, int] = {}
        duplicated = set()
        for j, key in enumerate(self.columns.tolist()):
            try:
                if key in self._position:
                    duplicated.add(key)
                self._position[key] = j
            except TypeError:  # an unhashable column label: the Series answers
                continue
        for key in duplicated:  # row[key] is a Series then: the Series answers
            del self._position[key]
        self._values: List[Optional[Any]] = [None] * len(self.columns)
        #: column -> its decoded values, for the columns decoded so far (``row[key]``)
        self.decoded: Dict[Any, Any] = {}
        # a row Series has pandas' common dtype of the columns; under object
        # it holds each column's own scalars
        # (as Python scalars the values do not depend on it: not worked out then)
        self._dtype = dataframe.iloc[0].dtype if len(dataframe) and len(self.columns) \
            and not python_scalars else np.dtype(object)

    def column(self, j: int) -> Any:
        """Values of column ``j`` as a row holds them (Python objects or numpy scalars)."""
        values = self._values[j]
        if values is None:
            column = self.df.iloc[:, j]
            values = column.tolist() if self.python_scalars else _scalars(column, self._dtype)
            self._values[j] = values
            key = self.columns[j]
            if self.position(key) == j:
                self.decoded[key] = values
        return values

    def position(self, key: Any) -> Optional[int]:
        """Column position of ``key``, or None when the Series must answer."""
        try:
            return self._position.get(key)
        except TypeError:  # unhashable key (a list of columns, a slice)
            return None

    def row(self, i: int) -> "Row":
        """The view of row ``i``."""
        return Row(self, i)

    def series(self, i: int) -> pd.Series:
        """Row ``i`` as the Series Hatchet passes (``name`` is the node)."""
        row = self.df.iloc[i]
        label = self.labels[i]
        row.name = self.node_view(label) if self.node_view is not None else label
        return row


def _scalars(series: pd.Series, row_dtype: Any) -> Any:
    """Indexable values of a column, ``values[i]`` being what ``row[column]`` holds."""
    if row_dtype != object:
        series = series.astype(row_dtype, copy=False)
    if isinstance(series.dtype, np.dtype) and series.dtype.kind not in "mM":
        return series.to_numpy()
    if isinstance(series.dtype, pd.StringDtype) and series.dtype.na_value is not pd.NA:
        return series.to_numpy(dtype=object)  # str / NaN, as the array gives them
    return series.array


class Row:
    """One dataframe row as a predicate sees it; behaves like Hatchet's row Series.

    ``row[key]`` returns the value of a column (``KeyError`` for a missing
    one), ``row.name`` is the node; see the module docstring for the rest.

    Examples
    --------
    >>> df = pd.DataFrame({"name": ["main"], "time": [3.0]}, index=pd.Index([0], name="node"))
    >>> row = RowTable(df, [0], node_view=lambda i: f"node {i}").row(0)
    >>> bool(row["time"] > 1), row.name, row.get("missing", "-"), row.to_dict()
    (True, 'node 0', '-', {'name': 'main', 'time': 3.0})
    >>> row.loc["name"], float(row.time)
    ('main', 3.0)
    """

    __slots__ = ("_table", "_i", "_series")
    __hash__ = None  # type: ignore[assignment]  # like a Series

    def __init__(self, table: RowTable, i: int) -> None:
        self._table = table
        self._i = i
        self._series: Optional[pd.Series] = None

    @property
    def series(self) -> pd.Series:
        """The real Series of this row (built on first use)."""
        if self._series is None:
            self._series = self._table.series(self._i)
        return self._series

    @property
    def name(self) -> Any:
        """The node of this row (Hatchet's ``row.name``)."""
        table = self._table
        label = table.labels[self._i]
        return table.node_view(label) if table.node_view is not None else label

    @property
    def index(self) -> pd.Index:
        """The column names (a row Series is indexed by them)."""
        return self._table.columns

    def __getitem__(self, key: Any) -> Any:
        try:  # called once per row: a decoded column is one dict lookup away
            return self._table.decoded[key][self._i]
        except (KeyError, TypeError):  # not decoded yet, not a column, unhashable
            j = self._table.position(key)
        if j is None:
            return self.series[key]
        return self._table.column(j)[self._i]

    def get(self, key: Any, default: Any = None) -> Any:
        """``row[key]``, or ``default`` when there is no such column."""
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: Any) -> bool:
        return self._table.position(key) is not None or key in self._table.columns

    def keys(self) -> pd.Index:
        """The column names."""
        return self._table.columns

    def __iter__(self) -> Iterator[Any]:  # a Series iterates over its values
        return iter(self.series)

    def __len__(self) -> int:
        return len(self._table.columns)

    def items(self) -> Iterator[Tuple[Any, Any]]:
        """(column, value) pairs."""
        return self.series.items()

    def to_dict(self) -> Dict[Any, Any]:
        """{column: value}."""
        return self.series.to_dict()

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") or attr in Row.__slots__:
            raise AttributeError(attr)
        return getattr(self.series, attr)

    def __repr__(self) -> str:
        return repr(self.series)


def _delegate(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[..., Any]:
    if reflected:
        return lambda self, other: op(other, self.series)
    return lambda self, other: op(self.series, other)


for _name, _op in (("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt),
                   ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge),
                   ("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("and", operator.and_),
                   ("or", operator.or_)):
    setattr(Row, f"__{_name}__", _delegate(_op))
    if _name in ("add", "sub", "mul", "truediv", "and", "or"):
        setattr(Row, f"__r{_name}__", _delegate(_op, reflected=True))
del _name, _op


def as_bool_rows(result: Any, dataframe: pd.DataFrame) -> np.ndarray:
    """A vectorised function's result as one boolean per row of ``dataframe``.

    Examples
    --------
    >>> df = pd.DataFrame({"t": [1.0, None, 3.0]})
    >>> as_bool_rows(df["t"] > 2, df).tolist(), as_bool_rows([1, None, 1], df).tolist()
    ([False, False, True], [True, False, True])
    """
    if isinstance(result, pd.DataFrame):
        raise InvalidQueryFilter("a vectorised predicate returned a DataFrame; return one "
                                 "boolean per row (a Series or an array)")
    if isinstance(result, pd.Series):
        if not result.index.equals(dataframe.index):
            raise InvalidQueryFilter("a vectorised predicate returned a Series whose index is "
                                     "not the dataframe's index")
        result = result.to_numpy(dtype=object)
    values = np.asarray(result)
    if values.shape != (len(dataframe),):
        raise InvalidQueryFilter(
            f"a vectorised predicate must return one boolean per row ({len(dataframe)}), "
            f"got a result of shape {values.shape}")
    if values.dtype == bool:
        return values
    try:
        return np.where(pd.isna(values), False, values).astype(bool)
    except (TypeError, ValueError) as exc:
        raise InvalidQueryFilter(f"a vectorised predicate returned values that are not "
                                 f"booleans ({values.dtype}): {exc}") from exc
