"""Thicket's ``display_*`` plots with Thicket's arguments, checks, returns and labels.

``display_histogram`` draws with pandas' ``DataFrame.hist`` and returns its array
of Axes; ``display_heatmap``, ``display_boxplot``, ``display_violinplot`` and
``display_violinplot_thicket`` draw with seaborn (the plots Thicket draws) and
return the Axes. Every extra keyword goes to the drawing function (``bins``,
``grid``, ``edgecolor``, ``cmap``, ``palette``...). Boxes and violins are
placed by node name (x label ``node``; ``thicket`` for
``display_violinplot_thicket``), heatmap rows are labelled by each node's frame
(``{'name': 'RAJAPerf', 'type': 'function'}``). Bad arguments raise Thicket's
``ValueError``/``RuntimeError`` with Thicket's words. seaborn is needed for the
four seaborn plots (:class:`~graphframe.plot.PlotDependencyError` otherwise);
``graphframe.plot`` has seaborn-free plots of the same data.

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 3)
>>> node = tk.dataframe.reset_index()["node"].iloc[0]
>>> axes = display_histogram(tk, node=node, column="time", bins=3)
>>> axes.shape, axes[0][0].get_title()
((1, 1), 'time')
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ...node import Node
from ...plot import PlotDependencyError
from ..utils import verify_thicket_structures

__all__ = ["display_boxplot", "display_heatmap", "display_histogram", "display_violinplot",
           "display_violinplot_thicket"]

_BOTH = ("Both 'nodes' and 'columns' must be provided. To see a list of valid columns, run "
         "'Thicket.performance_cols'.")


def _seaborn() -> Any:
    try:
        import seaborn
    except ImportError:
        raise PlotDependencyError("Thicket's box, violin and heat map plots are seaborn's: "
                                  "pip install seaborn (graphframe.plot draws the same data "
                                  "without it)") from None
    return seaborn


def _check_thicket(thicket: Any) -> None:
    from ..thicket import Thicket
    if not isinstance(thicket, Thicket):
        raise ValueError("Value passed to 'thicket' argument must be of type thicket.Thicket.")


def _melted(thicket: Any, nodes: Sequence[Any], columns: List[Any]) -> pd.DataFrame:
    """One row per (row of one of ``nodes``, column): the node's name under ``node`` and
    the value under ``" "`` (Thicket's layout for seaborn)."""
    df = thicket.dataframe
    ids = np.asarray(df.index.get_level_values("node").to_numpy(dtype=np.int64))
    wanted = np.isin(ids, np.asarray([int(n) for n in nodes], dtype=np.int64))
    names = np.asarray([thicket.graph.frame(int(i)).get("name") for i in ids[wanted]],
                       dtype=object)
    parts = []
    for c in columns:
        parts.append(pd.DataFrame({"node": names, "Performance counter": str(c),
                                   " ": df[c].to_numpy()[wanted]}))
    return pd.concat(parts, ignore_index=True)


def display_histogram(thicket: Any, node: Any = None, column: Any = None,
                      **kwargs: Any) -> Any:
    """Histogram of ``column`` over ``node``'s rows (every profile); returns the array of
    Axes of ``DataFrame.hist`` (title: the column)."""
    if node is None or column is None:
        raise ValueError("Both 'node' and 'column' must be provided. To see a list of valid "
                         "columns, run 'Thicket.performance_cols'.")
    _check_thicket(thicket)
    if not isinstance(node, Node):
        raise ValueError("Value passed to 'node' argument must be of type hatchet.node.Node.")
    if not isinstance(column, (str, tuple)):
        raise ValueError("Value passed to column argument must be of type str (or tuple(str) "
                         "for column thickets).")
    verify_thicket_structures(thicket.dataframe, index=["node"], columns=[column])
    df = thicket.dataframe
    rows = df.index.get_level_values("node").to_numpy(dtype=np.int64) == int(node)
    title = column if isinstance(column, str) else str(column)
    frame = pd.DataFrame({title: df[column].to_numpy()[rows]})
    return frame.hist(column=title, **kwargs)


def display_heatmap(thicket: Any, columns: Any = None, **kwargs: Any) -> Any:
    """Heat map of statsframe ``columns`` (rows: every node, labelled by its frame; after
    a column concatenation, the columns of one header, which titles the plot)."""
    if columns is None:
        raise ValueError("Chosen columns must be from the thicket.statsframe.dataframe.")
    _check_thicket(thicket)
    if not isinstance(columns, list):
        raise ValueError("Value passed to 'columns' argument must be of type list.")
    stats = thicket.statsframe.dataframe
    verify_thicket_structures(stats, index=["node"], columns=columns)
    sns = _seaborn()
    labels = [str(thicket.graph.frame(int(i))) for i in  # (rows named "node", as Thicket)
              stats.index.get_level_values("node").to_numpy(dtype=np.int64)]
    if stats.columns.nlevels > 1:
        headers = list(dict.fromkeys(c[0] for c in columns))
        if len(headers) != 1:
            raise ValueError("Columns must come from one header of a column-joined Thicket.")
        data = pd.DataFrame({c[1]: stats[c].to_numpy(dtype=np.float64) for c in columns},
                            index=pd.Index(labels, name="node"))
        ax = sns.heatmap(data, **kwargs)
        ax.set_title(headers[0])
        return ax
    data = pd.DataFrame({c: stats[c].to_numpy(dtype=np.float64) for c in columns},
                        index=pd.Index(labels, name="node"))
    return sns.heatmap(data, **kwargs)


def _check_nodes_columns(thicket: Any, nodes: Any, columns: Any, node_words: str) -> None:
    if columns is None or nodes is None:
        raise ValueError(_BOTH)
    _check_thicket(thicket)
    if not isinstance(nodes, list):
        raise ValueError("Value passed to 'nodes' argument must be of type list.")
    if not isinstance(columns, list):
        raise ValueError("Value passed to 'columns' argument must be of type list.")
    if not all(isinstance(n, Node) for n in nodes):
        raise ValueError(node_words)
    verify_thicket_structures(thicket.dataframe, index=["node"], columns=columns)


def display_boxplot(thicket: Any, nodes: Any = None, columns: Any = None,
                    **kwargs: Any) -> Any:
    """Box plots of ``columns`` over each of ``nodes``' rows (seaborn's ``boxplot``;
    one hue per column when there are several); returns the Axes."""
    _check_nodes_columns(thicket, nodes, columns, "Value(s) passed to node argument must be "
                                                  "of type hatchet.node.Node.")
    data = _melted(thicket, nodes, columns)
    hue = {"hue": "Performance counter"} if len(columns) > 1 else {}
    return _seaborn().boxplot(data=data, x="node", y=" ", **hue, **kwargs)


def _percentile_lines(ax: Any, thicket_values: List[np.ndarray], qs: Sequence[float],
                      styles: Sequence[Any], colors: Sequence[Any]) -> None:
    """A short horizontal line at each percentile of each violin (x = 0, 1, ...)."""
    styles = list(styles) if isinstance(styles, (list, tuple)) else [styles] * len(qs)
    colors = list(colors) if isinstance(colors, (list, tuple)) else [colors] * len(qs)
    if styles and len(styles) != len(qs):
        raise ValueError("Length of line styles does not match length of percentiles")
    if colors and len(colors) != len(qs):
        raise ValueError("Length of line colors does not match length of percentiles")
    styles = styles or ["--"] * len(qs)
    colors = colors or ["black"] * len(qs)
    for x, values in enumerate(thicket_values):
        values = values[~np.isnan(values)]
        if not len(values):
            continue
        for q, style, color in zip(qs, styles, colors):
            y = float(np.quantile(values, q))
            ax.hlines(y, x - 0.4, x + 0.4, linestyles=style, colors=color)


def display_violinplot(thicket: Any, nodes: Any = None, columns: Any = None,
                       percentiles: Optional[Sequence[float]] = None,
                       percentile_linestyles: Any = None, percentile_colors: Any = None,
                       **kwargs: Any) -> Any:
    """Violins of ``columns`` over each of ``nodes``' rows (seaborn's ``violinplot``),
    with a line at each of ``percentiles`` (in [0, 1]; ``"--"``, black unless given);
    returns the Axes."""
    _check_nodes_columns(thicket, nodes, columns, "Value passed to 'node' argument must be "
                                                  "of type hatchet.node.Node.")
    data = _melted(thicket, nodes, columns)
    hue = {"hue": "Performance counter"} if len(columns) > 1 else {}
    ax = _seaborn().violinplot(data=data, x="node", y=" ", **hue, **kwargs)
    if percentiles:
        groups = [data.loc[data["node"] == n, " "].to_numpy(dtype=np.float64)
                  for n in dict.fromkeys(data["node"])]
        _percentile_lines(ax, groups, percentiles, percentile_linestyles or [],
                          percentile_colors or [])
    return ax


def display_violinplot_thicket(thickets: Any, nodes: Any = None, columns: Any = None,
                               x_order: Any = None, percentiles: Sequence[float] = (),
                               percentile_linestyles: Any = (), percentile_colors: Any = (),
                               **kwargs: Any) -> Any:
    """One violin per Thicket (``thickets``: name -> Thicket) of its ``columns[name]``
    at its ``nodes[name]`` (nodes of one frame), placed by name (``x_order``) under the
    x label ``thicket``; returns the Axes."""
    if not isinstance(thickets, dict):
        raise ValueError("'thickets' argument must be a dictionary of thickets.")
    if not isinstance(nodes, dict):
        raise ValueError("'nodes' argument must be a dictionary, specifying a node for each "
                         "Thicket passed in.")
    if not isinstance(columns, dict):
        raise ValueError("'columns' argument must be a dictionary, specifying columns for "
                         "each Thicket passed in.")
    if not all(isinstance(c, list) for c in columns.values()):
        raise ValueError("'columns' argument dictionary must have list of columns as values.")
    if x_order is not None and not isinstance(x_order, list):
        raise ValueError("'x_order' argument must be a list of keys.")
    if len(thickets) != len(nodes):
        raise ValueError("Length of 'nodes' argument must match length of 'thickets' "
                         "argument.")
    if len(thickets) != len(columns):
        raise ValueError("Length of 'columns' argument must match length of 'thickets' "
                         "argument.")
    if not all(isinstance(n, Node) for n in nodes.values()):
        raise ValueError("Value(s) passed to 'nodes' argument must be of type "
                         "hatchet.node.Node.")
    if len({repr(n.frame) for n in nodes.values()}) != 1:
        raise ValueError("Value(s) passed to 'nodes' argument must be of same type and name.")
    if set(thickets) != set(nodes):
        raise ValueError("Keys in 'nodes' argument dictionary do not match keys in 'thickets' "
                         "argument dictionary.")
    if set(thickets) != set(columns):
        raise ValueError("Keys in 'columns' argument dictionary do not match keys in "
                         "'thickets' argument dictionary.")
    if x_order is not None and set(thickets) != set(x_order):
        raise ValueError("Keys listed in 'x_order' argument do not match keys in 'thickets' "
                         "argument dictionary.")
    if len({t.dataframe.columns.nlevels for t in thickets.values()}) > 1:
        raise ValueError("'thickets' argument dictionary can not contain both columnar "
                         "joined thickets and non-columnar joined thickets.")
    for key, tk in thickets.items():
        verify_thicket_structures(tk.dataframe, index=["node"], columns=columns[key])
    order = list(thickets) if x_order is None else list(x_order)
    parts: List[pd.DataFrame] = []
    for key in order:
        part = _melted(thickets[key], [nodes[key]], columns[key])
        part["node"] = str(key)
        parts.append(part)
    data = pd.concat(parts, ignore_index=True).rename(columns={"node": "thicket"})
    multi = any(len(c) > 1 for c in columns.values())
    hue = {"hue": "Performance counter"} if multi else {}
    ax = _seaborn().violinplot(data=data, x="thicket", y=" ", **hue, **kwargs)
    if percentiles:
        groups = [data.loc[data["thicket"] == str(k), " "].to_numpy(dtype=np.float64)
                  for k in order]
        _percentile_lines(ax, groups, percentiles, percentile_linestyles,
                          percentile_colors)
    return ax

