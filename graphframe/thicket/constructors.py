"""Thicket's static constructors (a mixin :class:`~graphframe.thicket.Thicket` inherits).

They are class methods, so ``Thicket.from_caliperreader(...)`` is called as in
Thicket; each reads or composes an :class:`graphframe.Ensemble` and wraps it.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import pandas as pd

from ..ensemble import Ensemble
from ..ensemble._internal import GraphFrame
from ..ensemble.sources import expand, label
from ..errors import ArgumentError
from ..model.fields import replace
from ..ensemble.thicket_json import thicket_json_parts


class ThicketConstructors:
    """``from_caliperreader``, ``from_caliper``, ``from_hpctoolkit``... (see Thicket)."""

    @classmethod
    def _read(cls, paths: Any, format: Optional[str], intersection: bool, fill_perfdata: bool,
              disable_tqdm: bool, **options: Any) -> Any:
        progress = None if disable_tqdm else True
        ens = Ensemble.read(paths, format=format, intersection=intersection,
                            fill=fill_perfdata, progress=progress, **options)
        return cls(ens)

    @classmethod
    def from_caliperreader(cls, filename_or_caliperreader: Any, intersection: bool = False,
                           fill_perfdata: bool = True, disable_tqdm: bool = False,
                           **kwargs: Any) -> Any:
        """Read ``.cali`` files (a file, a folder, a glob or a list), one profile each.

        Records without a call path are left out, as Thicket does
        (``no_path="drop"``; pass ``no_path="keep"`` for graphframe's ``<no path>`` root),
        and siblings are ordered by frame, Thicket's default ``node_ordering=False``
        (``GraphFrame.from_caliperreader`` defaults to True, as in Hatchet).
        """
        kwargs.setdefault("no_path", "drop")
        kwargs.setdefault("node_ordering", False)
        return cls._read(filename_or_caliperreader, "caliper", intersection, fill_perfdata,
                             disable_tqdm, **kwargs)

    @classmethod
    def from_caliper(cls, filename_or_stream: Any, query: Any = None, intersection: bool = False,
                     fill_perfdata: bool = True, disable_tqdm: bool = False) -> Any:
        """Read Caliper json-split or ``.cali`` files (format sniffed per file); records
        without a call path are left out, as Thicket does. With ``query``, each ``.cali``
        file goes through Caliper's ``cali-query -q QUERY`` (which must be installed and
        write json-split), as :meth:`GraphFrame.from_caliper` does."""
        if query is None:  # keyed: another format among the files takes no no_path
            drop = {"no_path": "drop"}
            return cls._read(filename_or_stream, None, intersection, fill_perfdata,
                                 disable_tqdm, options={"caliper": drop, "caliper-json": drop})
        gfs = {label(m): GraphFrame.from_caliper(m, query, no_path="drop")
               for m in expand(filename_or_stream)}
        return cls(Ensemble.from_graphframes(gfs, intersection=intersection,
                                                 fill=fill_perfdata))

    @classmethod
    def from_hpctoolkit(cls, dirname: Any, intersection: bool = False, fill_perfdata: bool = True,
                        disable_tqdm: bool = False, **kwargs: Any) -> Any:
        """Read HPCToolkit databases: one database, a folder of them, or a list."""
        return cls._read(dirname, "hpctoolkit", intersection, fill_perfdata, disable_tqdm,
                             **kwargs)

    @classmethod
    def from_hpctoolkit_latest(cls, dirname: Any, intersection: bool = False,
                               disable_tqdm: bool = False, fill_perfdata: bool = True,
                               **kwargs: Any) -> Any:
        """Read HPCToolkit 2023+ databases (``meta.db``), nodes named as Hatchet names
        them (``function: main``), as Thicket does."""
        kwargs.setdefault("names", "hatchet")
        return cls._read(dirname, "hpctoolkit-latest", intersection, fill_perfdata,
                             disable_tqdm, **kwargs)

    @classmethod
    def from_timemory(cls, filename: Any, intersection: bool = False, fill_perfdata: bool = True,
                      disable_tqdm: bool = False, **kwargs: Any) -> Any:
        """Read timemory JSON files (a file, a folder, a glob or a list), one profile each."""
        return cls._read(filename, "timemory", intersection, fill_perfdata, disable_tqdm,
                         **kwargs)

    @classmethod
    def from_graphframes(cls, gfs: Any, metadata: Any = None, fill_perfdata: bool = True
                         ) -> Any:
        """A Thicket of GraphFrames (a list, or a dict name -> GraphFrame)."""
        return cls(Ensemble.from_graphframes(gfs, metadata, fill=fill_perfdata))

    @classmethod
    def from_literal(cls, graph_dict: Any) -> Any:
        """A one-profile Thicket from Hatchet's literal format."""
        return cls.thicketize_graphframe(GraphFrame.from_literal(graph_dict), "<literal>")

    @classmethod
    def thicketize_graphframe(cls, gf: Any, prf: Any) -> Any:
        """A one-profile Thicket from a GraphFrame read from ``prf``."""
        ens = Ensemble.from_graphframes({str(prf): gf})
        return cls(ens)

    @classmethod
    def from_json(cls, json_thicket: Any) -> Any:
        """Read Thicket's ``to_json`` layout (metric lists kept as written)."""
        return cls(Ensemble(**thicket_json_parts(json_thicket)))

    @classmethod
    def from_statsframes(cls, tk_list: Sequence[Any], metadata_key: Any = None,
                         disable_tqdm: bool = False) -> Any:
        """One profile per Thicket: its statsframe becomes that profile's performance data.

        Profiles are labelled by the first value of ``metadata_key`` in each
        Thicket's metadata (else ``0..k-1``); each Thicket's metadata becomes
        one row (a column's value when its profiles agree, else the tuple of
        values).
        """
        gfs, labels, rows = [], [], []
        for i, tk in enumerate(tk_list):
            stats = tk.statsframe.dataframe
            gfs.append(GraphFrame(tk.graph, stats, [], [], default_metric=None))
            labels.append(tk.metadata[metadata_key].iloc[0] if metadata_key is not None else i)
            rows.append({c: _agreed(tk.metadata[c]) for c in tk.metadata.columns})
        ens = Ensemble.from_graphframes(gfs, metadata=pd.DataFrame(rows))
        if metadata_key is None:
            return cls(ens)
        ens = ens.replace(metadata=ens.metadata.assign(**{metadata_key: labels}))
        ens = ens.set_profile_index(metadata_key)
        return cls(ens.replace(metadata=ens.metadata.drop(columns=[metadata_key])),
                   profile_idx_name=metadata_key)

    @classmethod
    def concat_thickets(cls, thickets: Sequence[Any], axis: str = "index",
                        calltree: str = "union", disable_tqdm: bool = False,
                        **kwargs: Any) -> Any:
        """Concatenate on ``"index"`` (more profiles) or ``"columns"`` (``headers=``,
        ``metadata_key=``); ``calltree`` is ``"union"`` or ``"intersection"``."""
        fill = kwargs.pop("fill_perfdata", True)
        key = kwargs.pop("metadata_key", None)
        ens = Ensemble.concat([t.ensemble for t in thickets], axis=axis,
                              headers=kwargs.pop("headers", None),
                              metadata_key=key, calltree=calltree)
        if kwargs:
            raise ArgumentError(f"concat_thickets got unknown keywords {sorted(kwargs)}")
        if axis == "index":
            return cls(ens.dense() if fill else ens, thickets[0].profile_idx_name)
        return cls(ens, profile_idx_name=key if key is not None else "profile")

    @classmethod
    def from_timeseries(cls, filename_or_caliperreader: Any,
                        level: str = "loop.start_iteration", intersection: bool = False,
                        **kwargs: Any) -> Any:
        """A Caliper timeseries ``.cali`` file: one profile per iteration block, labelled
        by its iteration (the largest ``level`` value of the block) in an ``iteration``
        index level, as Thicket does (``level`` itself is dropped from the columns).
        ``kwargs`` go to :meth:`GraphFrame.from_timeseries` (``no_path`` defaults to
        ``"drop"``, as in Thicket).
        """
        kwargs.setdefault("no_path", "drop")
        gfs = GraphFrame.from_timeseries(filename_or_caliperreader, level, **kwargs)
        iterations = [int(gf.dataframe[level].max()) for gf in gfs]
        gfs = [replace(gf, dataframe=gf.dataframe.drop(columns=[level]),
                       exc_metrics=[m for m in gf.exc_metrics if m != level],
                       inc_metrics=[m for m in gf.inc_metrics if m != level]) for gf in gfs]
        ens = Ensemble.from_graphframes(gfs, metadata={"iteration": iterations},
                                        intersection=intersection, fill=True)
        ens = ens.set_profile_index("iteration")
        return cls(ens.replace(metadata=ens.metadata.drop(columns=["iteration"])),
                   profile_idx_name="iteration")


def _agreed(column: pd.Series) -> Any:
    values = list(dict.fromkeys(column.tolist()))
    return values[0] if len(values) == 1 else tuple(values)
