"""``gf.plot.<kind>(...)``, ``ens.plot.<kind>(...)``, ``tf.plot.<kind>(...)``, ``tf.gc.plot.<kind>(...)``.

The methods come from the plot registry (:mod:`graphframe.plot.registry`): for every
kind that takes the accessor's input, ``acc.<kind>(*args, **options)`` calls
``PLOT.draw[input](data, *args, **options)`` and returns what it returns (an Axes, or
a Figure for multi-panel plots); ``acc(kind, ...)`` does the same by name. Creating
an accessor imports nothing heavy; matplotlib is imported when a plot is drawn.
"""

from __future__ import annotations

import functools
from typing import Any, List

from .registry import plot_kind, plot_kinds


class _Accessor:
    """Plots of one object, one method per registered kind that takes its input."""

    _input = ""

    def __init__(self, data: Any) -> None:
        self._data = data

    def __call__(self, kind: str, *args: Any, **options: Any) -> Any:
        return getattr(self, plot_kind(kind, self._input).name)(*args, **options)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:  # a kind's name as an attribute: "gc-pauses" is gc_pauses
            kind = plot_kind(name if name in self._names() else name.replace("_", "-"),
                             self._input)
        except Exception:  # noqa: BLE001 -- an unknown attribute is an AttributeError
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}; "
                                 f"its plots are: {', '.join(self._kinds())}") from None
        draw = kind.draw[self._input]
        method = functools.partial(draw, self._data)
        functools.update_wrapper(method, draw)
        return method

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._kinds()))

    def _kinds(self) -> List[str]:
        return [k.name.replace("-", "_") for k in plot_kinds(self._input)]

    def _names(self) -> List[str]:
        return [k.name for k in plot_kinds(self._input)]


class PlotAccessor(_Accessor):
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

    _input = "graphframe"


class EnsemblePlotAccessor(_Accessor):
    """Plots of an Ensemble: ``ens.plot.heatmap(by="ranks")``, ``ens.plot.scaling(...)``...

    ``ens.plot(kind, ...)`` calls the method named ``kind``.

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

    _input = "ensemble"


class GcPlotAccessor(_Accessor):
    """Plots of a JVM GC log's view: ``tf.gc.plot.gc_pauses(by="cause")``...

    Examples
    --------
    >>> sorted(k for k in dir(GcPlotAccessor(None)) if not k.startswith("_"))[:3]
    ['gc_allocation', 'gc_causes', 'gc_heap']
    """

    _input = "gc"


class MonoPlotAccessor(_Accessor):
    """Plots of a Mono log's view: ``tf.mono.plot.allocations(top=10)``.

    Examples
    --------
    >>> sorted(k for k in dir(MonoPlotAccessor(None)) if not k.startswith("_"))
    ['allocations']
    """

    _input = "mono"


class TracePlotAccessor(_Accessor):
    """Plots of a TraceFrame: ``tf.plot.timeline(ranks=[0, 1])``...

    Examples
    --------
    >>> sorted(k for k in dir(TracePlotAccessor(None)) if not k.startswith("_"))
    ['timeline']
    """

    _input = "trace"
