"""Thicket's static constructors (a mixin :class:`~graphframe.thicket.Thicket` inherits).

They are class methods, so ``Thicket.from_caliperreader(...)`` is called as in
Thicket; each reads or composes an :class:`graphframe.Ensemble` and wraps it.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, List, Optional, Sequence

import pandas as pd

from ..ensemble import Ensemble
from ..ensemble._internal import GraphFrame
from ..ensemble.sources import expand, label
from ..errors import ArgumentError
from ..model.fields import replace
from ..ensemble.thicket_json import thicket_json_parts
from .profiles import composition_order, label_by_source, profile_hasher, relabel
from .utils import DuplicateIndexError, check_duplicate_metadata_key
from .values import TUPLE_COLUMNS, ensemble_metadata


class ThicketConstructors:
    """``from_caliperreader``, ``from_caliper``, ``from_hpctoolkit``... (see Thicket)."""

    @classmethod
    def _read(cls, paths: Any, format: Optional[str], intersection: bool, fill_perfdata: bool,
              disable_tqdm: bool, **options: Any) -> Any:
        progress = None if disable_tqdm else True
        ens = Ensemble.read(paths, format=format, intersection=intersection,
                            fill=fill_perfdata, progress=progress, **options)
        return cls._labelled_by_source(ens, list(ens.profiles["path"]))

    @classmethod
    def _labelled_by_source(cls, ens: Any, names: Sequence[Any]) -> Any:
        """A Thicket of ``ens`` whose profiles are labelled as Thicket labels them: by the
        hash of the source each was read from (:mod:`graphframe.thicket.profiles`)."""
        tk = cls(label_by_source(ens, names))
        tk._read_order = composition_order([profile_hasher(n) for n in names])
        return tk

    @classmethod
    def reader_dispatch(cls, func: Any, intersection: bool, fill_perfdata: bool,
                        disable_tqdm: bool, *args: Any, **kwargs: Any) -> Any:
        """Thicket's constructor dispatch: ``func`` (a GraphFrame reader such as
        ``GraphFrame.from_caliperreader``) reads ``args[0]`` -- a list or tuple of
        files, a folder (its entries) or one file -- with the other arguments, and the
        GraphFrames become one Thicket (profiles labelled by their paths, as Thicket's).

        Raises as Thicket does: ``ValueError`` for an empty list or a path that does
        not exist, ``FileNotFoundError`` for a listed file that does not exist,
        ``TypeError`` for anything else than a list, a tuple or a string; a file
        ``func`` cannot read is an ``Exception`` naming it (the reader's error as its
        cause).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> ThicketConstructors.reader_dispatch(GraphFrame.from_caliperreader, False, True,
        ...                                     True, [])
        Traceback (most recent call last):
        ...
        ValueError: Iterable must contain at least one file
        """
        # (issue 27 will route this through graphframe's one format resolver)
        if not args:
            raise TypeError("reader_dispatch needs the object to read")
        obj, extra = args[0], args[1:]
        if isinstance(obj, (list, tuple)):
            if len(obj) == 0:
                raise ValueError("Iterable must contain at least one file")
            for file in obj:
                if not os.path.isfile(file):
                    raise FileNotFoundError(f"File '{file}' not found")
            files = list(obj)
        elif isinstance(obj, str):
            if not os.path.exists(obj):
                raise ValueError(f"Path '{obj}' not found")
            files = [os.path.join(obj, f) for f in sorted(os.listdir(obj))] \
                if os.path.isdir(obj) else [obj]
        else:
            raise TypeError(f"'{type(obj).__name__}' is not a valid type to be read from")
        gfs = {}
        for file in files:
            try:
                gfs[file] = func(file, *extra, **kwargs)
            except Exception as exc:  # noqa: BLE001 -- Thicket's wrapping, the cause kept
                raise Exception(f"Failed to read file: {file}") from exc
        ens = Ensemble.from_graphframes(gfs, intersection=intersection, fill=fill_perfdata)
        return cls._labelled_by_source(ens, files)

    @classmethod
    def from_caliperreader(cls, filename_or_caliperreader: Any, intersection: bool = False,
                           fill_perfdata: bool = True, disable_tqdm: bool = False,
                           **kwargs: Any) -> Any:
        """Read ``.cali`` files (a file, a folder, a glob or a list), one profile each.

        Records without a call path are left out, as Thicket does
        (``no_path="drop"``; pass ``no_path="keep"`` for graphframe's ``<no path>`` root).
        Siblings follow Caliper's node order where a file records one (Thicket
        2024.2's rows; ``node_ordering="recorded"``), else they are ordered by frame
        (Thicket 2026's default ``node_ordering=False``); ``node_ordering=True`` uses
        Hatchet's creation order for files without one.
        """
        kwargs.setdefault("no_path", "drop")
        kwargs.setdefault("node_ordering", "recorded")
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
        return cls._labelled_by_source(Ensemble.from_graphframes(
            gfs, intersection=intersection, fill=fill_perfdata), list(gfs))

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
        """A one-profile Thicket from Hatchet's literal format (labelled, as in Thicket,
        by the hash of the literal's text)."""
        return cls.thicketize_graphframe(GraphFrame.from_literal(graph_dict), str(graph_dict))

    @classmethod
    def thicketize_graphframe(cls, gf: Any, prf: Any) -> Any:
        """A one-profile Thicket from a GraphFrame read from ``prf`` (a path string: the
        profile is labelled by its hash, as in Thicket; otherwise ``0``)."""
        ens = Ensemble.from_graphframes({str(prf): gf})
        tk = cls._labelled_by_source(ens, [prf]) if isinstance(prf, str) else cls(ens)
        return _with_values_of(tk, gf)

    @classmethod
    def from_json(cls, json_thicket: Any) -> Any:
        """Read Thicket's ``to_json`` layout (metric lists kept as written); ``to_json``
        writes the keys of the layout read (no ``profile_idx_name`` for a Thicket
        2024.2 document)."""
        tk = cls(Ensemble(**thicket_json_parts(json_thicket)))
        if isinstance(json_thicket, str) and '"profile_idx_name"' not in json_thicket:
            tk._state.json_2024 = True
        return tk

    @classmethod
    def from_statsframes(cls, tk_list: Sequence[Any], metadata_key: Any = None,
                         disable_tqdm: bool = False) -> Any:
        """One profile per Thicket: its statsframe becomes that profile's performance data.

        Profiles are labelled by the first value of ``metadata_key`` in each
        Thicket's metadata (else ``0..k-1``); each Thicket's metadata becomes
        one row (a column's value when its profiles agree, else the tuple of
        values). As in Thicket, Thickets sharing a value of ``metadata_key`` are a
        :class:`~graphframe.thicket.utils.DuplicateValueError`, and a Thicket whose
        profiles have several values of it gets a warning (its first value is used).
        """
        tk_list = list(tk_list)
        if metadata_key is not None:
            check_duplicate_metadata_key(tk_list, metadata_key)
        gfs, labels, rows = [], [], []
        for i, tk in enumerate(tk_list):
            stats = tk.statsframe.dataframe
            gfs.append(GraphFrame(tk.graph, stats, [], [], default_metric=None))
            if metadata_key is not None:
                values = tk.metadata[metadata_key].tolist()
                if len(set(values)) > 1:
                    warnings.warn(f"Thicket {i} has several values of metadata column "
                                  f"{metadata_key!r} ({values}); the first labels its profile",
                                  UserWarning, stacklevel=2)
            labels.append(tk.metadata[metadata_key].iloc[0] if metadata_key is not None else i)
            meta = ensemble_metadata(tk.metadata)   # lists as tuples (hashable)
            rows.append({c: _agreed(meta[c]) for c in meta.columns})
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
        ``metadata_key=``); ``calltree`` is ``"union"`` or ``"intersection"``.

        As in Thicket: on ``"index"`` every profile keeps its label (two equal labels
        are a :class:`~graphframe.thicket.utils.DuplicateIndexError`) and
        ``tk.profile`` lists the inputs' profiles in input order. On
        ``"columns"`` the profiles of the inputs are paired by the value of
        ``metadata_key`` in their metadata (which labels the rows and names the
        profile level; a value repeated within one input is a
        ``DuplicateIndexError``), or without it by position in each input's
        label order (a level named ``profile`` holding ``0..k-1``; the inputs
        must have as many profiles); ``tk.profile`` holds ``(key, header)`` pairs.
        """
        fill = kwargs.pop("fill_perfdata", True)
        key = kwargs.pop("metadata_key", None)
        headers = kwargs.pop("headers", None)
        if kwargs:
            raise ArgumentError(f"concat_thickets got unknown keywords {sorted(kwargs)}")
        thickets = list(thickets)
        if axis == "index":
            return _concat_index(cls, thickets, calltree, fill)
        if axis not in ("columns", "column"):
            raise ArgumentError(f"axis={axis!r}: use 'index' or 'columns'")
        return _concat_columns(cls, thickets, headers, key, calltree)

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


def _concat_index(cls: Any, thickets: List[Any], calltree: str, fill: bool) -> Any:
    """Thicket's ``concat_thickets(axis="index")`` (see :meth:`concat_thickets`)."""
    ens = Ensemble.concat([t.ensemble for t in thickets], axis="index", calltree=calltree)
    labels = [p for t in thickets for p in t.metadata.index.tolist()]
    numbered = all(isinstance(t.metadata.index, pd.RangeIndex) for t in thickets)
    if not numbered or len(set(labels)) == len(labels):
        ens = relabel(ens, labels)
    ens = ens.dense() if fill else ens
    out = cls(ens, thickets[0].profile_idx_name)
    if not numbered:
        out._read_order = [p for t in thickets for p in t.profile]
    return out


def _concat_columns(cls: Any, thickets: List[Any], headers: Any, key: Any,
                    calltree: str) -> Any:
    """Thicket's ``concat_thickets(axis="columns")`` (see :meth:`concat_thickets`)."""
    headers = list(headers) if headers is not None else list(range(len(thickets)))
    if len(headers) != len(thickets):
        raise ArgumentError(f"{len(headers)} headers for {len(thickets)} Thickets")
    parts, keys = [], []
    for t in thickets:
        ens = t.ensemble
        if key is None:
            values = list(range(len(ens.metadata)))   # paired by position in label order
        elif key == t.profile_idx_name:
            values = ens.metadata.index.tolist()
        elif key in ens.metadata.columns:
            values = ens.metadata[key].tolist()
        else:
            raise ArgumentError(f"metadata has no column {key!r}")
        if len(set(values)) != len(values):
            raise DuplicateIndexError(f"metadata column {key!r} repeats a value within one "
                                      f"Thicket: it must identify each profile")
        keys.append(dict(zip(ens.metadata.index.tolist(), values)))
        meta = ens.metadata.drop(columns=[key]) if key in ens.metadata.columns else ens.metadata
        parts.append(ens.replace(metadata=meta.assign(**{PAIR_KEY: values})))
    if key is None and len({len(k) for k in keys}) > 1:
        raise ArgumentError("without metadata_key the Thickets must have as many profiles: "
                            + " != ".join(str(len(k)) for k in keys))
    ens = Ensemble.concat(parts, axis="columns", headers=headers, metadata_key=PAIR_KEY,
                          calltree=calltree)
    name = key if key is not None else "profile"
    out = cls(ens, profile_idx_name=name)
    out._read_order = [(k[p], h) for t, k, h in zip(thickets, keys, headers) for p in t.profile]
    return out


#: the temporary metadata column that pairs profiles in a column concatenation
PAIR_KEY = "__pair__"


def _agreed(column: pd.Series) -> Any:
    values = list(dict.fromkeys(column.tolist()))
    return values[0] if len(values) == 1 else tuple(values)


def _with_values_of(tk: Any, gf: Any) -> Any:
    """``tk`` (one profile) holding ``gf``'s own ``nid`` and ``spot.channel`` values
    rather than Thicket's float and tuples: a thicketized GraphFrame equals its source."""
    df, source = tk.dataframe, gf.dataframe
    own = [c for c in TUPLE_COLUMNS + ("nid",) if c in df.columns and c in source.columns]
    if not own or list(source.index.names) != [n for n in df.index.names if n != "profile"]:
        return tk
    rows = df.index.droplevel("profile")
    df = df.copy(deep=False)
    for c in own:
        values = source[c].reindex(rows)
        df[c] = pd.Series(values.array, index=df.index, dtype=values.dtype)
    tk.dataframe = df
    return tk
