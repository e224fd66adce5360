"""How one call path's values spread over ranks (threads): histogram, box, violin.

:func:`node_samples` gathers the values (one per dataframe row of the node:
every rank, and every thread of it); :func:`distribution` draws any named
samples, so an ensemble passes one call path's values across profiles the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Mapping, Sequence, Union

import numpy as np

from . import _mpl
from ._sources import ArgumentError, level_ids
from .bar import top_values
from .common import call_path, fit_labels, resolve_node, row_metric, short_labels

KINDS = ("hist", "box", "violin")

#: Longest category (call path) label under a box or violin, in characters.
CATEGORY_WIDTH = 32

NodeSpec = Union[int, str]


@dataclass(frozen=True)
class Samples:
    """Named value samples.

    Attributes
    ----------
    labels : list of str
    values : list of numpy.ndarray
        NaN already removed.
    nodes : numpy.ndarray
        Node ids (empty when the samples did not come from nodes).
    value_label : str
    count_label : str
        What one value is (``"ranks"``, ``"ranks x threads"``...), for the
        histogram's count axis.
    """

    labels: List[str]
    values: List[np.ndarray]
    nodes: np.ndarray
    value_label: str
    count_label: str = "count"


def node_samples(gf: Any, nodes: Union[None, NodeSpec, Sequence[NodeSpec]] = None,
                 metric: Any = None, *, inclusive: bool = False, top: int = 1) -> Samples:
    """Values of each node's rows (ranks, threads), NaN left out.

    Parameters
    ----------
    gf : GraphFrame
    nodes : node id, name, call path (``"solve > spmv"``) or a list of them
        Default: the ``top`` call paths by mean value.
    metric : str, optional
        Default: the default metric, exclusive form (``inclusive=True``: inclusive).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> s = node_samples(example_graphframe(), "spmv", "time")
    >>> s.labels, s.values[0].tolist()
    (['spmv'], [8.0, 8.5, 9.0, 9.5])
    """
    values, name = row_metric(gf, metric, inclusive)
    if nodes is None:
        chosen = top_values(gf, metric, top=top, inclusive=inclusive).nodes
    else:
        listed = list(nodes) if isinstance(nodes, (list, tuple, np.ndarray)) else [nodes]
        if not listed:
            raise ArgumentError("nodes=[]: name at least one call path")
        chosen = np.array([resolve_node(gf, spec) for spec in listed], dtype=np.int64)
    row_node = level_ids(gf.dataframe.index)
    out = []
    for v in chosen.tolist():
        picked = values[row_node == v]
        picked = picked[~np.isnan(picked)]
        if not len(picked):
            raise ArgumentError(f"call path {call_path(gf, v)!r} (node {v}) has no {name} "
                                "value on any rank")
        out.append(picked)
    levels = [str(lv) + "s" for lv in gf.dataframe.index.names[1:]]
    return Samples(short_labels(gf, chosen), out, chosen, name,
                   " x ".join(levels) if levels else "values")


def distribution(samples: Union[Mapping[str, Any], Samples], kind: str = "hist", *,
                 ax: Any = None, bins: Any = 20, value_label: str = "") -> Any:
    """Draw named samples as overlaid histograms, box plots or violins.

    Parameters
    ----------
    samples : mapping of label -> values, or :class:`Samples`
    kind : {"hist", "box", "violin"}
    ax : matplotlib.axes.Axes, optional
    bins : int or sequence
        Histogram bins, shared by all samples (``numpy.histogram_bin_edges``).
    value_label : str
        Title of the value axis (default: the samples' own).

    Returns
    -------
    matplotlib.axes.Axes
        hist: one ``BarContainer`` per sample in ``ax.containers``; box: the
        boxes as lines; violin: one ``PolyCollection`` per sample.

    Examples
    --------
    >>> ax = distribution({"solve": [1.0, 2.0, 2.5]}, "box")  # doctest: +SKIP
    """
    if kind not in KINDS:
        raise ArgumentError(f"kind={kind!r} is not a distribution plot; choose one of "
                            f"{', '.join(KINDS)}")
    if not isinstance(samples, Samples):
        labels = [str(k) for k in samples]
        values = [np.asarray(v, dtype=np.float64) for v in samples.values()]
        values = [v[~np.isnan(v)] for v in values]
        samples = Samples(labels, values, np.zeros(0, dtype=np.int64), value_label)
    if not samples.values or any(not len(v) for v in samples.values):
        raise ArgumentError("nothing to draw: give at least one sample with values")
    label = value_label or samples.value_label
    draw = {"hist": _hist, "box": _box, "violin": _violin}[kind]
    with _mpl.axes(ax, figsize=(8.0, 4.5)) as a:
        draw(a, samples, bins)
        if kind == "hist":
            a.set_xlabel(label)
            a.set_ylabel(samples.count_label)
        else:
            a.set_ylabel(label)
        return a


def _hist(a: Any, s: Samples, bins: Any) -> None:
    edges = np.histogram_bin_edges(np.concatenate(s.values), bins=bins)
    alpha = 1.0 if len(s.values) == 1 else 0.55
    for label, values in zip(s.labels, s.values):
        a.hist(values, bins=edges, alpha=alpha, label=label)
    a.legend(fontsize=8)


def _box(a: Any, s: Samples, bins: Any) -> None:
    positions = np.arange(1, len(s.values) + 1)
    a.boxplot(s.values, positions=positions)
    _category_ticks(a, positions, s.labels)


def _violin(a: Any, s: Samples, bins: Any) -> None:
    positions = np.arange(1, len(s.values) + 1)
    a.violinplot(s.values, positions=positions, showmedians=True)
    _category_ticks(a, positions, s.labels)


def _category_ticks(a: Any, positions: np.ndarray, labels: List[str]) -> None:
    a.set_xticks(positions)
    labels = fit_labels(labels, CATEGORY_WIDTH)
    long = max(len(t) for t in labels) > 12
    a.set_xticklabels(labels, fontsize=8, rotation=30 if long else 0,
                      ha="right" if long else "center")


def hist(gf: Any, node: Union[None, NodeSpec, Sequence[NodeSpec]] = None, metric: Any = None,
         *, inclusive: bool = False, bins: Any = 20, ax: Any = None) -> Any:
    """Histogram of one call path's values across ranks (several: overlaid).

    ``node``: an id, a name, a call path ``"solve > spmv"`` or a list; default
    the call path with the largest mean value. See :func:`node_samples`.

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = hist(example_graphframe(), "MPI_Allreduce")  # doctest: +SKIP
    """
    s = node_samples(gf, node, metric, inclusive=inclusive, top=1)
    return distribution(s, "hist", ax=ax, bins=bins)


def box(gf: Any, nodes: Union[None, NodeSpec, Sequence[NodeSpec]] = None, metric: Any = None,
        *, inclusive: bool = False, top: int = 5, ax: Any = None) -> Any:
    """Box plots of call paths' values across ranks (default: the ``top`` by mean).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = box(example_graphframe(), ["spmv", "MPI_Allreduce"])  # doctest: +SKIP
    """
    s = node_samples(gf, nodes, metric, inclusive=inclusive, top=top)
    return distribution(s, "box", ax=ax)


def violin(gf: Any, nodes: Union[None, NodeSpec, Sequence[NodeSpec]] = None,
           metric: Any = None, *, inclusive: bool = False, top: int = 5,
           ax: Any = None) -> Any:
    """Violin plots of call paths' values across ranks (default: the ``top`` by mean).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = violin(example_graphframe(), top=3)  # doctest: +SKIP
    """
    s = node_samples(gf, nodes, metric, inclusive=inclusive, top=top)
    return distribution(s, "violin", ax=ax)

