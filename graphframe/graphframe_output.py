"""GraphFrame's outputs: text tree, literal/dict/JSON, diffs, DOT, flame graphs, archives.

Mixed into :class:`~graphframe.graphframe.GraphFrame` (which keeps ``load``
and ``__repr__``). Each method is thin: it calls ``render/``, ``export``,
``diffing`` or ``persist``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union

import pandas as pd

from . import diffing
from .io.json import export
from .io import archive as persist
from .render.diff_tree import render_diff_tree
from .render.dot import render_dot
from .render.flamegraph import render_flamegraph
from .render.html import render_html
from .render.speedscope import render_speedscope
from .render.tree import render_tree

if TYPE_CHECKING:
    from .graphframe import GraphFrame


class OutputMethods:
    """``tree``, ``to_literal``, ``to_json``, ``diff``, ``to_dot``, ``save``... for GraphFrame."""

    def tree(self, metric_column: Union[None, str, Sequence[str]] = None,
             annotation_column: Optional[str] = None, precision: int = 3,
             name_column: str = "name", expand_name: bool = False,
             context_column: Optional[str] = "file", rank: Optional[int] = None,
             thread: Optional[int] = None, depth: Optional[int] = 10000,
             highlight_name: bool = False,
             colormap: str = "RdYlGn", invert_colormap: bool = False,
             colormap_annotations: Any = None, render_header: bool = True,
             min_value: Optional[float] = None, max_value: Optional[float] = None,
             color: bool = False, unicode: bool = True, legend: Optional[bool] = None,
             **hatchet_names: Any) -> str:
        """Render the graph as an indented text tree, Hatchet's layout.

        Each line is ``<value>[ <more values>][ [<annotation>]] <name>[ ◀|▶][ <context>]``.
        Roots and children appear in ascending id order; a node with several
        parents is printed under each, its subtree only the first time.

        Parameters
        ----------
        metric_column : str or list, optional
            Metric to print (default: :attr:`default_metric`, else the first
            declared metric; a profile without metrics prints names only). A
            list prints several: the first colours the line.
        annotation_column : str, optional
            A column printed in brackets before the name (``_pattern``
            columns as arrows).
        precision : int
            Decimals of the values (>= 0).
        name_column : str
            Column (or frame attribute) used as the label.
        expand_name : bool
            Print long names in full instead of ``first...last``.
        context_column : str, optional
            Column printed after the name when the dataframe has it.
        rank, thread : int, optional
            The row shown for each node (default: the lowest the data has,
            0 normally; Hatchet's default is 0); a value the data does not
            have is an error listing the ones it has.
        depth : int, optional
            Print nodes with depth below this (None: everything).
        highlight_name : bool
            Highlight user code names (colour only).
        colormap : str
            One of ``RdYlGn, BrBG, PiYG, PRGn, PuOr, RdBu, RdGy, RdYlBu, Spectral``.
        invert_colormap : bool
            Reverse the colormap.
        colormap_annotations : str, list or dict, optional
            Colours of the annotation values (colour only).
        render_header : bool
            Start with a header line naming the metrics and rank.
        min_value, max_value : float, optional
            Colour range (default: the finite values shown; 0 is honoured).
        color : bool
            ANSI colours (the caller decides; the CLI checks the terminal).
        unicode : bool
            Box-drawing glyphs, or ASCII when False.
        legend : bool, optional
            Append the colour legend (default: when ``color``).
        **hatchet_names
            Hatchet's old keyword names ``metric``, ``name``, ``expand_names``,
            ``context``, ``invert_colors`` (a ``DeprecationWarning`` each).

        Raises
        ------
        MetricError
            A named column does not exist.
        ArgumentError
            Any other bad value (negative precision or depth, unknown
            colormap, missing rank or thread).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> print(gf.tree(metric_column=["time (inc)", "time"], render_header=False), end="")
        4.000 1.000 main
        ├─ 1.000 1.000 io
        └─ 2.000 1.000 solve
           └─ 1.000 1.000 mpi
        >>> print(gf.tree(depth=1, precision=1, unicode=False), end="")
        graphframe v0.1.0 - time
        <BLANKLINE>
        1.0 main
        """
        return render_tree(
            self, metric_column=metric_column, annotation_column=annotation_column,
            precision=precision, name_column=name_column, expand_name=expand_name,
            context_column=context_column, rank=rank, thread=thread, depth=depth,
            highlight_name=highlight_name, colormap=colormap, invert_colormap=invert_colormap,
            colormap_annotations=colormap_annotations, render_header=render_header,
            min_value=min_value, max_value=max_value, color=color, unicode=unicode,
            legend=legend, **hatchet_names)

    def to_literal(self, name: str = "name", rank: Optional[int] = None,
                   thread: Optional[int] = None,
                   cat_columns: Sequence[str] = (), include_nid: Optional[bool] = None
                   ) -> List[Dict[str, Any]]:
        """Hatchet's literal format: a list of nested ``{frame, metrics, children}`` dicts.

        Children keep the graph's child order; a node with several parents
        is written once and referenced elsewhere through ``_hatchet_nid``
        (graphframe's node ids); ``rank``/``thread`` pick the row exported
        (default: the lowest the data has, 0 normally).
        :meth:`from_literal` reads it back (declarations included). See
        :func:`graphframe.io.json.export.to_literal`; write it as JSON text of any
        depth with :func:`graphframe.io.json.export.literal_json`.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> gf.to_literal()
        [{'frame': {'name': 'main', 'type': 'None'}, 'metrics': {'time': 1.0, 'time (inc)': 2.0}, 'children': [{'frame': {'name': 'solve', 'type': 'None'}, 'metrics': {'time': 1.0, 'time (inc)': 1.0}}]}]
        >>> GraphFrame.from_literal(gf.to_literal()).graph == gf.graph
        True
        """
        return export.to_literal(self, name=name, rank=rank, thread=thread,
                                 cat_columns=cat_columns, include_nid=include_nid)

    def to_dict(self) -> Dict[str, Any]:
        """Hatchet's ``to_dict`` layout plus a ``"graphframe"`` key Hatchet ignores.

        ``graph`` (one ``{id: {"data": frame, "children": [ids]}}`` table per
        root), ``dataframe_indices``, ``dataframe`` (one record per row),
        ``exclusive_metrics``, ``inclusive_metrics``; the extra key holds
        what makes :meth:`from_json` exact (dtypes, ``ordered``, declarations,
        tagged metadata). See :func:`graphframe.io.json.export.to_dict`.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> d = GraphFrame.from_lists(("main", "solve")).to_dict()
        >>> d["dataframe_indices"], d["dataframe"][0]
        (['node'], {'node': 0, 'time': 1.0, 'name': 'main', 'time (inc)': 2.0})
        """
        return export.to_dict(self)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (NaN written as ``null``).

        Returns
        -------
        str
            Hatchet's ``to_json`` layout plus a ``"graphframe"`` key (which
            Hatchet ignores). Lossless: :meth:`from_json` (and
            :func:`graphframe.read` of the file) gives back an equal
            GraphFrame; Hatchet's ``from_json`` reads it too.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> text = gf.to_json()
        >>> text[:26]
        '{"graph": [{"0": {"data": '
        >>> GraphFrame.from_json(text).dataframe.equals(gf.dataframe)
        True
        """
        return export.to_json(self)

    def diff(self, after: "GraphFrame", metric: Union[None, str, Sequence[str]] = None,
             **options: Any) -> "GraphFrame":
        """Changes from ``self`` (before) to ``after``; see :func:`graphframe.diff`.

        Parameters
        ----------
        after : GraphFrame
            The profile compared with this one.
        metric : str or list of str, optional
            Metrics to compare (default: every declared metric both have).
            An exclusive metric brings its inclusive partner, computed from
            the exclusive values when a profile has none (``inclusive=False``
            turns that off).
        **options
            ``by`` ("path" or "name"), ``normalize``, ``threshold`` (noise,
            percent of the before total), ``aggregate``, ``rank``,
            ``thread``, ``inclusive``: see :func:`graphframe.diff`.

        Returns
        -------
        GraphFrame
            Over the union of both graphs, one row per node: ``m before``,
            ``m after``, ``m delta``, ``m ratio`` per metric, ``status``
            (common, added, removed) and ``significant``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "io"))
        >>> d = a.diff(b)
        >>> d.dataframe["status"].tolist()
        ['common', 'added', 'common']
        >>> d.dataframe["time (inc) delta"].tolist()
        [1.0, 1.0, 0.0]
        """
        return diffing.diff(self, after, metric, **options)

    def ranked_changes(self, metric: Any = None, kind: str = "inclusive",
                       top: Optional[int] = 20, significant_only: bool = True) -> pd.DataFrame:
        """Largest changes of a diff result, biggest ``|delta|`` first.

        See :func:`graphframe.diffing.ranked_changes`.

        Parameters
        ----------
        metric : str, optional
            A diffed metric (default: the diff's primary metric).
        kind : {"inclusive", "exclusive", "as-is"}
            Rank by the metric's inclusive (default) or exclusive form.
        top : int, optional
            Keep this many rows (0 or more; None: all).
        significant_only : bool
            Leave out unchanged nodes and changes under the noise threshold.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``node``: ``name``, ``path``, ``status``, ``before``,
            ``after``, ``delta``, ``change %``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve", "io"))
        >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
        >>> a.diff(b).ranked_changes(kind="exclusive")[["path", "status", "delta"]]
                   path   status  delta
        node
        1     main > io  removed   -1.0
        2    main > mpi    added    1.0
        """
        return diffing.ranked_changes(self, metric, kind, top, significant_only)

    def diff_tree(self, metric: Any = None, **options: Any) -> str:
        """A diff result as a tree of deltas; see :func:`render_diff_tree`.

        Parameters
        ----------
        metric : str, optional
            A diffed metric (default: the primary one).
        **options
            ``kind`` ("inclusive", "exclusive", "as-is"), ``precision``,
            ``depth``, ``name_column``, ``expand_name``, ``changed_only``,
            ``color``, ``unicode``, ``render_header``.

        Returns
        -------
        str
            One line per node: signed delta, name, ``(before → after,
            change)`` and an ``[added]``/``[removed]`` tag.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "solve", "mpi"))
        >>> print(a.diff(b).diff_tree(render_header=False, unicode=False), end="")
        +1.000 main (2.000 -> 3.000, +50.0%)
        |- +1.000 mpi (0.000 -> 1.000, new) [added]
        `- +0.000 solve (1.000 -> 1.000, +0.0%)
        """
        return render_diff_tree(self, metric, **options)

    def to_dot(self, metric: Optional[str] = None, name: str = "name",
               rank: Optional[int] = None, thread: Optional[int] = None, threshold: float = 0.0, aggregate: Optional[str] = None) -> str:
        """Graphviz DOT text, Hatchet's layout; see :func:`render_dot`.

        Parameters
        ----------
        metric : str, optional
            Column that colours the nodes (default: the default metric).
        name : str
            Column labelling the nodes.
        rank, thread : int
            Row used per node when ``aggregate`` is None.
        threshold : float
            Leave out nodes below ``threshold`` times the largest value.
        aggregate : {"sum", "mean", "min", "max"}, optional
            Combine all ranks/threads of a node instead of picking one row.

        Returns
        -------
        str
            A ``digraph``; a node with several parents is written once.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> dot = GraphFrame.from_lists(("main", "solve")).to_dot()
        >>> dot.splitlines()[0], dot.count("->")
        ('strict digraph {', 1)
        """
        return render_dot(self, metric, name, rank, thread, threshold, aggregate)

    def to_flamegraph(self, metric: Optional[str] = None, name: str = "name",
                      rank: Optional[int] = None, thread: Optional[int] = None, threshold: float = 0.0, separator: str = "; ",
                      aggregate: Optional[str] = None, scale: float = 1.0) -> str:
        """Folded stacks (``a; b; c 12``) for flame graph tools; see :func:`render_flamegraph`.

        Parameters
        ----------
        metric : str, optional
            Column written (default: the default metric); use an exclusive one.
        name : str
            Column labelling the frames.
        rank, thread : int
            Row used per node when ``aggregate`` is None.
        threshold : float
            Leave out lines below ``threshold`` times the largest value.
        separator : str
            Between frames (Hatchet's ``"; "``); inside names its non-blank
            part becomes ``_``.
        aggregate : {"sum", "mean", "min", "max"}, optional
            Combine all ranks/threads of a node instead of picking one row.
        scale : float
            Multiply values before rounding to integers.

        Returns
        -------
        str
            One ``path value`` line per node in pre-order; negative values
            are left out with a ``FlameGraphWarning``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> print(GraphFrame.from_lists(("main", "solve")).to_flamegraph(scale=10), end="")
        main 10
        main; solve 10
        """
        return render_flamegraph(self, metric, name, rank, thread, threshold, separator,
                                 aggregate, scale)

    def to_speedscope(self, metric: Optional[str] = None, **options: Any) -> str:
        """speedscope JSON; see :func:`render_speedscope`."""
        return render_speedscope(self, metric, **options)

    def save(self, path: Any, compression: str = "snappy") -> Any:
        """Write a lossless archive (Parquet tables); read it back with ``graphframe.load``.

        See :mod:`graphframe.io.archive` and ``docs/guide/archive-format.md``
        for the file layout.

        Parameters
        ----------
        path : str or path-like
            Conventionally ends in ``.gfz``; replaced atomically.
        compression : str
            Parquet compression: ``"snappy"``, ``"zstd"``, ``"gzip"`` or ``"none"``.

        Returns
        -------
        pathlib.Path
            The path written. The same GraphFrame always gives the same bytes.

        Raises
        ------
        SaveError
            The metadata holds a value the format cannot store.
        WriteError
            The file cannot be written there (missing folder, a directory...).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> import os, tempfile
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> path = gf.save(os.path.join(tempfile.mkdtemp(), "run.gfz"))
        >>> GraphFrame.load(path).dataframe.equals(gf.dataframe)
        True
        """
        return persist.save(self, path, compression)

    def _repr_html_(self) -> str:
        return render_html(self)
