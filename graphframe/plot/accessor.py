"""``gf.plot.<kind>(...)``: the plots of one GraphFrame, pandas style.

Each method passes the GraphFrame to the function of the same name in
:mod:`graphframe.plot` and returns what it returns (an Axes, or a Figure for
multi-panel plots). Creating the accessor imports nothing heavy; matplotlib
is imported when a plot is drawn.
"""

from __future__ import annotations

from typing import Any

from . import bar, distribution, flame, heatmap
from ._sources import ArgumentError

KINDS = ("flamegraph", "icicle", "heatmap", "bar", "hist", "box", "violin")


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
    readers.errors.ArgumentError: kind='pie' is not a plot of a GraphFrame; choose one of flamegraph, icicle, heatmap, bar, hist, box, violin
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
