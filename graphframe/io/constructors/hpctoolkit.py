"""HPCToolkit databases: ``from_hpctoolkit`` (experiment.xml) and
``from_hpctoolkit_latest`` (meta.db + profile.db), issue 4.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..build import parts_from_raw


class HPCToolkitConstructors:
    """``from_hpctoolkit`` and ``from_hpctoolkit_latest`` for GraphFrame."""

    @classmethod
    def from_hpctoolkit(cls, dirname: Any, *, metrics: Optional[Sequence[str]] = None,
                        ranks: Optional[Sequence[int]] = None, summary_only: bool = False,
                        progress: Any = None) -> Any:
        """Read an HPCToolkit database of the old layout (experiment.xml + metric files).

        Parameters
        ----------
        dirname : path
            The database directory: ``experiment.xml`` with one ``*.metric-db``
            file per rank and thread (hpcprof-mpi) or ``experiment*.mdb``
            (hpcprof 2020), or ``experiment.xml`` alone when its
            ``MetricDBTable`` is empty.
        metrics : list of str, optional
            Metrics to keep, by our names (``time``, ``time (inc)``) or the
            file's (``CPUTIME (usec) (E)``). Default: all.
        ranks : int or list of int, optional
            Read only these MPI ranks (every file is still checked against
            the totals ``experiment.xml`` records).
        summary_only : bool
            Read the per-node values ``experiment.xml`` holds (summed over
            ranks and threads, 6 significant digits; index ``node``) instead
            of the metric files; needed when the files are gone.
        progress : bool or callable, optional
            ``True`` draws a progress bar on stderr; a callable receives
            ``(done, total, what)``.

        Notes
        -----
        Missing or inconsistent metric files, malformed XML and out-of-range
        numbers raise :class:`~graphframe_readers.errors.ReadError` naming the file and
        position. See :func:`graphframe_readers.hpctoolkit.read_hpctoolkit` and
        ``docs/readers/hpctoolkit.md``.

        Examples
        --------
        >>> import tempfile
        >>> from graphframe_readers.testing import write_example_database
        >>> from graphframe import GraphFrame
        >>> db = write_example_database(tempfile.mkdtemp())
        >>> gf = GraphFrame.from_hpctoolkit(db)
        >>> gf.dataframe.xs(0, level="rank")[["name", "type", "time", "time (inc)"]]
                                                                     name  ...  time (inc)
        node                                                               ...
        {'name': 'main', 'type': 'function'}                         main  ...        10.0
        {'file': './src/app.c', 'line': '15', 'type': '...  Loop@app.c:15  ...         3.0
        {'file': './src/app.c', 'line': '16', 'type': '...       app.c:16  ...         3.0
        {'name': '12:foo', 'type': 'function'}                     12:foo  ...         6.0
        {'file': './src/app.c', 'line': '31', 'type': '...       app.c:31  ...         5.0
        <BLANKLINE>
        [5 rows x 4 columns]
        >>> one = GraphFrame.from_hpctoolkit(db, ranks=[1]).dataframe
        >>> one.index.get_level_values("rank").unique().tolist()
        [1]
        """
        from graphframe_readers.hpctoolkit import read_hpctoolkit  # on first use: fast start
        return cls(**parts_from_raw(read_hpctoolkit(dirname, metrics=metrics, ranks=ranks,
                                                    summary_only=summary_only,
                                                    progress=progress), consume=True))

    @classmethod
    def from_hpctoolkit_latest(cls, dirname: Any, *, parallel_profiles_mode: bool = False,
                               metric_names: Optional[Sequence[str]] = None,
                               profile_ranks: Optional[Sequence[int]] = None,
                               label_function_nodes: bool = True,
                               max_depth: Optional[int] = None,
                               min_percentage_of_application_time: Optional[float] = None,
                               min_percentage_of_parent_time: Optional[float] = None,
                               progress: Any = None) -> Any:
        """Read an HPCToolkit database of the current layout (meta.db + profile.db).

        Parameters
        ----------
        dirname : path
            The database directory (HPCToolkit >= 2022.10: ``meta.db`` and
            ``profile.db``; ``cct.db`` and ``trace.db`` are not needed).
        parallel_profiles_mode : bool
            False (default): the summary profile, one row per node (index
            ``node``). True: one row per node and measured profile (index
            ``node, rank[, thread]``).
        metric_names : list of str, optional
            Metrics to keep, by our column names (``time``, ``time (inc)``)
            or the database's (``CPUTIME (sec)`` keeps both of its columns).
        profile_ranks : int or list of int, optional
            With ``parallel_profiles_mode=True``, read only these MPI ranks.
            Without it this raises :class:`~graphframe_readers.errors.ReadError` (the
            summary profile has no ranks to select; Hatchet ignores the option).
        label_function_nodes : bool
            Prefix function names with ``function: `` (Hatchet's default).
        max_depth : int, optional
            Keep nodes at most this deep (entry points are depth 0), as Hatchet.
        min_percentage_of_application_time : float, optional
            Keep nodes whose summary inclusive time is at least this
            percentage of the main thread's, with their ancestors (Hatchet's
            meaning); entry points are always kept.
        min_percentage_of_parent_time : float, optional
            Keep nodes whose summary inclusive time is at least this
            percentage of their parent's (Hatchet 2024.1.3's option).
        progress : bool or callable, optional
            ``True`` draws a progress bar on stderr; a callable receives
            ``(done, total, what)`` after each profile.

        Notes
        -----
        Hatchet's other options (``exclude_*_function_details``,
        ``directory_mapping``, ``metric_scopes``, ``summary_metrics``...) are
        not supported; filter the GraphFrame instead. See
        :func:`graphframe_readers.hpctoolkit.read_hpctoolkit_latest` and
        ``docs/readers/hpctoolkit.md``.

        Examples
        --------
        >>> import tempfile
        >>> from graphframe_readers.testing import write_hpctoolkit_latest
        >>> from graphframe_readers.testing import sample_profile
        >>> db = write_hpctoolkit_latest(sample_profile(), tempfile.mkdtemp())
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_hpctoolkit_latest(db, max_depth=1)
        >>> gf.dataframe[["name", "type", "time (inc)", "time"]]
                                                                  name  ...     time
        node                                                            ...
        {'name': 'main thread', 'type': 'entry'}           main thread  ...      0.0
        {'name': 'function: main', 'type': 'function'}  function: main  ...  12320.0
        <BLANKLINE>
        [2 rows x 4 columns]
        >>> gf = GraphFrame.from_hpctoolkit_latest(db, parallel_profiles_mode=True,
        ...                                        profile_ranks=[1])
        >>> gf.dataframe.loc[1, "time (inc)"]
        rank  thread
        1     0          605.0
              1         6105.0
        Name: time (inc), dtype: float64
        """
        from graphframe_readers.hpctoolkit import read_hpctoolkit_latest  # on first use: fast start
        return cls(**parts_from_raw(read_hpctoolkit_latest(
            dirname, parallel_profiles_mode=parallel_profiles_mode, metric_names=metric_names,
            profile_ranks=profile_ranks, label_function_nodes=label_function_nodes,
            max_depth=max_depth,
            min_percentage_of_application_time=min_percentage_of_application_time,
            min_percentage_of_parent_time=min_percentage_of_parent_time,
            progress=progress), consume=True))
