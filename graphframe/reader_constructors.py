"""Constructors with Hatchet's names, one per reader (mixed into GraphFrame).

Each is thin: it calls its reader with explicit keyword options and hands the
RawProfile to ``cls.from_raw``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from readers.caliper import read_caliper, read_caliper_any
from readers.cprofile import read_cprofile
from readers.dot import read_dot
from readers.hpctoolkit import read_hpctoolkit
from readers.hpctoolkit_latest import read_hpctoolkit_latest
from readers.jsonfile import loads_json
from readers.pyinstrument import read_pyinstrument
from readers.tau import read_tau
from readers.timemory import parse_timemory, read_timemory


class ReaderConstructors:
    """``from_hpctoolkit``, ``from_caliper``, ``from_gprof_dot``... for GraphFrame."""

    # ---- reader constructors with Hatchet's names: HPCToolkit (issue 4) ----
    @classmethod
    def from_hpctoolkit(cls, dirname: Any, *, metrics: Optional[Sequence[str]] = None,
                        ranks: Optional[Sequence[int]] = None,
                        progress: Any = None) -> Any:
        """Read an HPCToolkit database of the old layout (experiment.xml + metric files).

        See :func:`readers.hpctoolkit.read_hpctoolkit` for the options
        (``metrics``, ``ranks``, ``progress``).
        """
        return cls.from_raw(read_hpctoolkit(dirname, metrics=metrics, ranks=ranks,
                                            progress=progress))

    @classmethod
    def from_hpctoolkit_latest(cls, dirname: Any, *, parallel_profiles_mode: bool = False,
                               metric_names: Optional[Sequence[str]] = None,
                               profile_ranks: Optional[Sequence[int]] = None,
                               label_function_nodes: bool = True,
                               progress: Any = None) -> Any:
        """Read an HPCToolkit database of the current layout (meta.db + profile.db).

        Hatchet's keyword names: ``parallel_profiles_mode`` (one row per node and
        rank/thread instead of the summary), ``metric_names`` (metrics to keep),
        ``profile_ranks`` (ranks to keep), ``label_function_nodes``. See
        :func:`readers.hpctoolkit_latest.read_hpctoolkit_latest`.
        """
        return cls.from_raw(read_hpctoolkit_latest(
            dirname, per_profile=parallel_profiles_mode, metrics=metric_names,
            ranks=profile_ranks, label_function_nodes=label_function_nodes, progress=progress))


    # ---- reader constructors: Caliper (issue 5) ----
    @classmethod
    def from_caliper(cls, filename_or_stream: Any, query: Optional[str] = None,
                     node_ordering: bool = True) -> Any:
        """Read Caliper output: json-split, or a ``.cali`` file (Hatchet's name).

        Parameters
        ----------
        filename_or_stream : path-like, list of path-likes, or file-like
            A json-split file, a ``.cali`` file, a directory or list of
            per-rank ``.cali`` files, or an open stream (text or binary) of
            either format (recognised from its first bytes).
        query : str, optional
            A CalQL query: the ``.cali`` file is run through Caliper's
            ``cali-query -q QUERY`` (which must be installed, and must write
            json-split) instead of being decoded directly.
        node_ordering : bool
            Order siblings by Caliper's node order (``Node order``) when the
            file records one; otherwise siblings are ordered by frame.

        Returns
        -------
        GraphFrame

        See Also
        --------
        readers.caliper.read_caliper_any, readers.caliper_json.read_caliper_json
            The readers, and ``docs/readers/caliper.md`` for the layout.

        Examples
        --------
        >>> import io, json
        >>> doc = {"data": [[0, 2.0], [1, 1.0]], "columns": ["path", "sum#time.duration"],
        ...        "column_metadata": [{"is_value": False}, {"is_value": True}],
        ...        "nodes": [{"label": "main", "column": "path"},
        ...                  {"label": "solve", "column": "path", "parent": 0}]}
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_caliper(io.StringIO(json.dumps(doc))).dataframe["time"].tolist()
        [2.0, 1.0]
        """
        return cls.from_raw(read_caliper_any(filename_or_stream, query,
                                             node_ordering=node_ordering))

    @classmethod
    def from_caliperreader(cls, filename_or_caliperreader: Any, native: bool = False,
                           string_attributes: Union[str, Sequence[str], None] = (),
                           node_ordering: bool = True, progress: Any = None) -> Any:
        """Read ``.cali`` data: a file, per-rank files, a stream or a CaliperReader.

        Parameters
        ----------
        filename_or_caliperreader : path-like, list of path-likes, file-like or CaliperReader
            A ``.cali`` file; a directory or list of per-rank files (one
            profile with a ``rank`` level; a rank in two files is an error);
            an open stream; or a ``caliperreader.CaliperReader`` that has read
            a file.
        native : bool
            Name metric columns by Caliper's attribute names
            (``min#inclusive#sum#time.duration``) instead of their aliases.
        string_attributes : str or sequence of str, optional
            Text attributes to keep as columns (numbers are always kept).
        node_ordering : bool
            Order siblings by Caliper's node order when the file records it.
        progress : bool or callable, optional
            ``True`` draws a progress bar on stderr as the files are decoded;
            a callable receives ``(done, total, what)``.

        Returns
        -------
        GraphFrame

        See Also
        --------
        readers.caliper.read_caliper : the reader, and ``docs/readers/caliper.md``.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p.cali")
        >>> with open(path, "w") as f:
        ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
        ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
        ...                 "__rec=node,id=14,attr=10,data=65,parent=5\\n"
        ...                 "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
        ...                 "__rec=node,id=16,attr=13,data=main\\n"
        ...                 "__rec=ctx,ref=16,attr=15,data=1.5\\n")
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_caliperreader(path)
        >>> gf.dataframe["time"].tolist(), gf.dataframe["name"].tolist()
        ([1.5], ['main'])
        >>> with open(path) as stream:  # streams read too
        ...     GraphFrame.from_caliperreader(stream).dataframe["time"].tolist()
        [1.5]
        """
        return cls.from_raw(read_caliper(filename_or_caliperreader, native=native,
                                         string_attributes=string_attributes or (),
                                         node_ordering=node_ordering, progress=progress))

    # ---- reader constructors: DOT, cProfile, pyinstrument, TAU, timemory (issue 6) ----
    @classmethod
    def from_gprof_dot(cls, filename: Any, *, parser: str = "fast") -> Any:
        """Read a DOT call graph written by gprof2dot (see :mod:`readers.dot`).

        Examples
        --------
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "g.dot")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write('digraph { 1 [label="main\\\\n100.00%\\\\n(100.00%)\\\\n1×"]; }')
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_gprof_dot(p).dataframe["time"].tolist()
        [100.0]
        """
        return cls.from_raw(read_dot(filename, parser=parser))

    @classmethod
    def from_cprofile(cls, filename: Any) -> Any:
        """Read a Python 3 pstats file (``python -m cProfile -o FILE``)."""
        return cls.from_raw(read_cprofile(filename))

    @classmethod
    def from_pyinstrument(cls, filename: Any) -> Any:
        """Read a pyinstrument JSON session (``pyinstrument -r json``)."""
        return cls.from_raw(read_pyinstrument(filename))

    @classmethod
    def from_tau(cls, dirname: Any) -> Any:
        """Read a TAU profile directory (``profile.<node>.<context>.<thread>``)."""
        return cls.from_raw(read_tau(dirname))

    @classmethod
    def from_timemory(cls, input: Any, select: Optional[Sequence[str]] = None) -> Any:
        """Read timemory tree JSON: a file, a directory of ``*.tree.json``, a
        dict already loaded, or an open text stream; ``select`` keeps only the
        named components (e.g. ``["wall_clock"]``)."""
        chosen = None if select is None else [str(s).lower() for s in select]
        if isinstance(input, dict):
            return cls.from_raw(parse_timemory(input, "<dict>", select=chosen))
        if hasattr(input, "read"):
            doc = loads_json(input.read(), getattr(input, "name", "<stream>"))
            return cls.from_raw(parse_timemory(doc, getattr(input, "name", "<stream>"),
                                               select=chosen))
        return cls.from_raw(read_timemory(input, select=chosen))
