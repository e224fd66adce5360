"""Thicket's GroupBy: a dict key -> Thicket, with ``agg`` computed in one pandas groupby."""

from __future__ import annotations

from typing import Any

from ..ensemble import EnsembleGroupBy


class GroupBy(dict):
    """Groups of a Thicket's profiles keyed by metadata values.

    Keys are tuples when ``by`` is a list (as pandas and Thicket give them),
    else plain values. The Thickets are built when the GroupBy is made (as in
    Thicket); :meth:`agg` does not use them.
    """

    @classmethod
    def of(cls, tk: Any, by: Any) -> "GroupBy":
        """Group ``tk``'s profiles by the metadata column(s) ``by``."""
        columns = list(by) if isinstance(by, (list, tuple)) else [by]
        groups = EnsembleGroupBy(tk.ensemble, columns)
        out = cls()
        wrap = type(tk)
        for key in groups:
            label = key if isinstance(by, (list, tuple)) and len(columns) > 1 else \
                ((key,) if isinstance(by, (list, tuple)) else key)
            out[label] = wrap(groups[key])
        out._groups = groups
        out._wrap = wrap
        out._level = columns[0] if len(columns) == 1 else "profile"
        return out

    def agg(self, func: Any, disable_tqdm: bool = False) -> Any:
        """One Thicket with one profile per group (numeric columns aggregated by ``func``);
        the profile level is named after the grouping column when there is one (as
        Thicket names its dataframe level)."""
        ens = self._groups.agg(func)
        if self._level in ens.metadata.columns:   # it is the index now
            ens = ens.replace(metadata=ens.metadata.drop(columns=[self._level]))
        return self._wrap(ens, profile_idx_name=self._level)
