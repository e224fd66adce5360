"""``gf.plot.<kind>(...)`` and ``ens.plot.<kind>(...)``: plots, pandas style.

Each method passes the GraphFrame to the function of the same name in
:mod:`graphframe.plot` and returns what it returns (an Axes, or a Figure for
multi-panel plots). Creating the accessor imports nothing heavy; matplotlib
is imported when a plot is drawn.
"""

from __future__ import annotations

from typing import Any

from . import bar, distribution, flame, heatmap
from . import ensemble as ensemble_plots
from ._sources import ArgumentError

KINDS = ("flamegraph", "icicle", "heatmap", "bar", "hist", "box", "violin")
ENSEMBLE_KINDS = ("heatmap", "bar", "hist", "box", "violin", "scaling")


class PlotAccessor:
    """Plots of a GraphFrame: ``gf.plot.flamegraph()``, ``gf.plot.heatmap(...)``...

    ``gf.plot(kind, ...)`` calls the method named ``kind``.

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> gf = example_graphframe()
    >>> sorted(k for k in dir(gf.plot) if not k.startswith("_"))
    ['bar', 'box', 'flamegraph', 'heatmap', 'hist', 'icicle', 'violin']
    >>> gf.plot("pie")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: kind='pie' is not a plot of a GraphFrame; choose one of flamegraph, icicle, heatmap, bar, hist, box, violin
    """

    def __init__(self, gf: Any) -> None:
        self._gf = gf

    def __call__(self, kind: str, *args: Any, **options: Any) -> Any:
        if kind not in KINDS:
            raise ArgumentError(f"kind={kind!r} is not a plot of a GraphFrame; choose one of "
                                f"{', '.join(KINDS)}")
        return getattr(self, kind)(*args, **options)

    def flamegraph(self, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.flamegraph` (a diff result is coloured by delta)."""
        return flame.flamegraph(self._gf, metric, **options)

    def icicle(self, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.icicle`."""
        return flame.icicle(self._gf, metric, **options)

    def heatmap(self, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.heatmap`."""
        return heatmap.heatmap(self._gf, metric, **options)

    def bar(self, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.bar`."""
        return bar.bar(self._gf, metric, **options)

    def hist(self, node: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.hist`."""
        return distribution.hist(self._gf, node, metric, **options)

    def box(self, nodes: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.box`."""
        return distribution.box(self._gf, nodes, metric, **options)

    def violin(self, nodes: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.violin`."""
        return distribution.violin(self._gf, nodes, metric, **options)


class EnsemblePlotAccessor:
    """Plots of an Ensemble: ``ens.plot.heatmap(by="ranks")``, ``ens.plot.scaling(...)``...

    Each method passes the Ensemble to the function of the same name in
    :mod:`graphframe.plot.ensemble`; ``ens.plot(kind, ...)`` calls the method
    named ``kind``.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble import Ensemble
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "solve"))] * 2)
    >>> sorted(k for k in dir(ens.plot) if not k.startswith("_"))
    ['bar', 'box', 'heatmap', 'hist', 'scaling', 'violin']
    >>> ens.plot("flamegraph")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: kind='flamegraph' is not a plot of an Ensemble; choose one of heatmap, bar, hist, box, violin, scaling
    """

    def __init__(self, ens: Any) -> None:
        self._ens = ens

    def __call__(self, kind: str, *args: Any, **options: Any) -> Any:
        if kind not in ENSEMBLE_KINDS:
            raise ArgumentError(f"kind={kind!r} is not a plot of an Ensemble; choose one of "
                                f"{', '.join(ENSEMBLE_KINDS)}")
        return getattr(self, kind)(*args, **options)

    def heatmap(self, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.ensemble.heatmap` (call paths x profiles or x ``by``)."""
        return ensemble_plots.heatmap(self._ens, metric, **options)

    def bar(self, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.ensemble.bar` (stacked by profile or by ``by``)."""
        return ensemble_plots.bar(self._ens, metric, **options)

    def hist(self, node: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.ensemble.hist`."""
        return ensemble_plots.hist(self._ens, node, metric, **options)

    def box(self, nodes: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.ensemble.box`."""
        return ensemble_plots.box(self._ens, nodes, metric, **options)

    def violin(self, nodes: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.ensemble.violin`."""
        return ensemble_plots.violin(self._ens, nodes, metric, **options)

    def scaling(self, *args: Any, by: Any = None, metric: Any = None, **options: Any) -> Any:
        """See :func:`graphframe.plot.ensemble.scaling` (returns a Figure).

        The key comes first: ``ens.plot.scaling("mpi.world.size")``,
        ``ens.plot.scaling("mpi.world.size", "time (inc)")``; as keywords,
        ``by=`` and ``metric=`` (``ens.plot.scaling("time (inc)", by=KEY)``
        still reads a positional name as the metric).
        """
        if len(args) > 2 or (by is not None and len(args) > 1):
            raise ArgumentError(f"scaling takes the key and the metric ({len(args)} given "
                                "positionally); e.g. ens.plot.scaling('mpi.world.size', "
                                "'time (inc)')")
        if by is None:
            if not args:
                raise ArgumentError("scaling needs a key: a metadata column such as "
                                    "ens.plot.scaling('mpi.world.size')")
            by, args = args[0], args[1:]
        if args:
            if metric is not None:
                raise ArgumentError("scaling: the metric is given twice (positionally and "
                                    "as metric=)")
            metric = args[0]
        return ensemble_plots.scaling(self._ens, metric, by=by, **options)
