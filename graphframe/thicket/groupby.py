"""Thicket's GroupBy: a dict key -> Thicket, with ``agg`` computed in one pandas groupby.

As in Thicket: keys follow pandas' ``groupby`` (a value for one column, a tuple
for a list of columns); each sub-Thicket keeps its profiles' labels and has its
own graph object. ``agg(func)`` names every aggregated column
``<column>_<function name>`` (``Min time/rank_mean``; for a list of functions,
all columns of the first function, then of the next; for a dict, per column
in the dict's order) and indexes the rows by ``(node, *groupby columns)``; text
columns keep their first value. ``aggregate_thicket(tk, func)`` does the same
for one Thicket of the groups.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple

from ..ensemble import EnsembleGroupBy
from ..errors import ArgumentError


class GroupBy(dict):
    """Groups of a Thicket's profiles keyed by metadata values (see the module docs).

    Examples
    --------
    >>> import numpy as np
    >>> import graphframe.thicket as th
    >>> from graphframe import GraphFrame
    >>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 4,
    ...                                  metadata={"size": [1, 1, 2, 2]})
    >>> gb = tk.groupby("size")
    >>> sorted(gb), [len(t.profile) for t in gb.values()]
    ([1, 2], [2, 2])
    >>> agg = gb.agg(np.mean)
    >>> agg.dataframe.index.names, list(agg.dataframe.columns[:2])
    (FrozenList(['node', 'size']), ['time_mean', 'time (inc)_mean'])
    """

    by: Any = None

    @classmethod
    def of(cls, tk: Any, by: Any) -> "GroupBy":
        """Group ``tk``'s profiles by the metadata column(s) ``by``."""
        columns = list(by) if isinstance(by, (list, tuple)) else [by]
        groups = EnsembleGroupBy(tk.ensemble, columns)
        out = cls()
        for key in groups:
            label = key if isinstance(by, (list, tuple)) and len(columns) > 1 else \
                ((key,) if isinstance(by, (list, tuple)) else key)
            sub = tk._wrap(groups[key])
            sub._read_order = None   # a group lists its profiles in label order, as Thicket's
            out[label] = sub
        out.by = by
        out._groups = groups
        out._source = tk
        out._columns = columns
        return out

    def agg(self, func: Any, disable_tqdm: bool = False) -> Any:
        """One Thicket with one profile per group (see the module docs)."""
        return self._aggregate(self._groups, func)

    def aggregate_thicket(self, tk: Any, func: Any) -> Any:
        """``tk`` (one of the groups) aggregated as :meth:`agg` aggregates each group."""
        missing = [c for c in self._columns if c not in tk.metadata.columns]
        if missing:
            raise KeyError(f'"{missing[0]}" is not in the PerfData or MetaData.')
        return self._aggregate(EnsembleGroupBy(tk.ensemble, self._columns), func, tk)

    def _aggregate(self, groups: EnsembleGroupBy, func: Any, source: Any = None) -> Any:
        source = self._source if source is None else source
        spec, names = thicket_agg_spec(func)
        ens = groups.agg(spec)
        df = ens.dataframe
        order = [c for c in names(df.columns) if c in df.columns]
        rest = [c for c in df.columns if c not in set(order)]
        ens = ens.replace(dataframe=df[order + rest])
        if len(self._columns) == 1 and self._columns[0] in ens.metadata.columns:
            ens = ens.replace(metadata=ens.metadata.drop(columns=self._columns))
        name = self._columns[0] if len(self._columns) == 1 else "profile"
        out = type(source)(ens, profile_idx_name=name,
                           profile_levels=self._columns if len(self._columns) > 1 else None)
        return out


def thicket_agg_spec(func: Any) -> Tuple[Any, Callable[[Sequence[Any]], List[Any]]]:
    """The pandas spec that gives every column ``<column>_<function>``, and the function
    putting the result's columns in Thicket's order.

    Examples
    --------
    >>> import numpy as np
    >>> spec, order = thicket_agg_spec([np.mean, np.var])
    >>> order(["a_mean", "a_var", "b_mean", "b_var"])
    ['a_mean', 'b_mean', 'a_var', 'b_var']
    """
    if isinstance(func, dict):
        spec = {c: list(f) if isinstance(f, (list, tuple)) else [f] for c, f in func.items()}

        def order(columns: Sequence[Any]) -> List[Any]:
            return [f"{c}_{_name(f)}" for c, fs in spec.items() for f in fs]
        return spec, order
    funcs = list(func) if isinstance(func, (list, tuple)) else [func]
    if not funcs:
        raise ArgumentError("agg needs at least one function")
    suffixes = [_name(f) for f in funcs]

    def order(columns: Sequence[Any]) -> List[Any]:
        base: Dict[Any, None] = {}
        for c in columns:
            for s in suffixes:
                if isinstance(c, str) and c.endswith("_" + s):
                    base[c[:-len(s) - 1]] = None
        return [f"{b}_{s}" for s in suffixes for b in base]
    return funcs, order


def _name(f: Any) -> str:
    return f if isinstance(f, str) else getattr(f, "__name__", str(f))
