"""The plot registry: every plot kind, what it draws, and how it is drawn from the CLI.

A plot kind is one module of :mod:`graphframe.plot.kinds` defining ``PLOT``, a
:class:`PlotKind`: its name, one line of help, the function that draws it for
each kind of input it takes (a ``"graphframe"``, an ``"ensemble"``, a ``"trace"``,
and other inputs as they come) and, optionally, how the command line draws it
(``cli``). Everything else is driven by the registry:

* ``gf.plot.<kind>(...)``, ``ens.plot.<kind>(...)`` and ``tf.plot.<kind>(...)``
  (:mod:`graphframe.plot.accessor`) call ``PLOT.draw[input](data, ...)``;
* ``graphframe plot KIND PATH...`` lists the kinds with their help and calls
  ``PLOT.cli(request)`` (:class:`PlotRequest`: the paths, the options and how to read
  them; the plot modules never read files themselves).

Adding a plot is one module in ``graphframe/plot/kinds/`` (listed in
:data:`KIND_MODULES`) plus its test; ``register_plot`` adds one at run time. See
``docs/architecture.md`` ("Adding a plot").

Examples
--------
>>> [k.name for k in plot_kinds("ensemble")]
['heatmap', 'bar', 'hist', 'box', 'violin', 'scaling']
>>> plot_kind("timeline").inputs
('trace',)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ._sources import ArgumentError

#: The kinds of data a plot can take (the accessor of each: gf.plot, ens.plot, tf.plot,
#: a GC log's view ``tf.gc.plot`` and a Mono log's view ``tf.mono.plot``).
INPUTS = ("graphframe", "ensemble", "trace", "gc", "mono")

#: Built-in plot kinds (each defines ``PLOT``), in the order the CLI lists them.
KIND_MODULES = (
    "graphframe.plot.kinds.flamegraph",
    "graphframe.plot.kinds.icicle",
    "graphframe.plot.kinds.heatmap",
    "graphframe.plot.kinds.bar",
    "graphframe.plot.kinds.hist",
    "graphframe.plot.kinds.box",
    "graphframe.plot.kinds.violin",
    "graphframe.plot.kinds.scaling",
    "graphframe.plot.kinds.timeline",
    # JVM garbage-collection logs (issue 32): each module is its own kind
    "graphframe.plot.gc.pauses",
    "graphframe.plot.gc.phases",
    "graphframe.plot.gc.heap",
    "graphframe.plot.gc.allocation",
    "graphframe.plot.gc.histogram",
    "graphframe.plot.gc.percentiles",
    "graphframe.plot.gc.latency",
    "graphframe.plot.gc.heatmap",
    "graphframe.plot.gc.causes",
    # the Mono log profiler (issue 28)
    "graphframe.plot.allocations",
)


@dataclass(frozen=True)
class PlotKind:
    """One plot kind (see the module docs).

    Parameters
    ----------
    name : str
        The name: ``gf.plot.<name>``, ``graphframe plot <name>``.
    help : str
        One line for ``graphframe plot --help``.
    draw : mapping
        Input kind (one of :data:`INPUTS`) -> the function drawing it,
        ``function(data, *args, ax=None, **options) -> Axes`` (or a Figure).
    cli : callable, optional
        ``cli(request) -> Figure``: draws from the command line's options
        (:class:`PlotRequest`); kinds without it are not offered by the CLI.
    size : (float, float)
        The figure size the CLI uses, in inches.
    """

    name: str
    help: str
    draw: Mapping[str, Callable[..., Any]]
    cli: Optional[Callable[["PlotRequest"], Any]] = None
    size: Tuple[float, float] = (9.0, 5.0)

    def __post_init__(self) -> None:
        unknown = [k for k in self.draw if k not in INPUTS]
        if unknown:
            raise ValueError(f"plot {self.name!r}: unknown input kind {unknown[0]!r} "
                             f"(expected {', '.join(INPUTS)})")

    @property
    def inputs(self) -> Tuple[str, ...]:
        """The input kinds this plot takes, in :data:`INPUTS` order."""
        return tuple(k for k in INPUTS if k in self.draw)


@dataclass
class PlotRequest:
    """What ``graphframe plot`` asks a kind to draw: the paths, the options, the means.

    The command line builds it; a kind's ``cli`` reads inputs only through the
    callables here, so plot modules never import the CLI or read files.

    Attributes
    ----------
    paths : list of str
        The paths given on the command line.
    options : dict
        The plot options (``metric``, ``top``, ``by``, ``stat``, ``nodes``, ``rank``,
        ``aggregate``, ``inclusive``, ``imbalance``, ``over``, ``stacked``, ``color``,
        ``mode``, ``title``, ``size``).
    read_profile, read_trace : callable
        ``path -> GraphFrame`` / ``path -> TraceFrame``.
    read_ensemble : callable
        ``paths -> Ensemble`` (several profiles, or folders of them).
    expand : callable
        ``paths -> paths``: folders that are not one input stand for the inputs inside.
    figure : callable
        ``(width, height) -> Figure`` with one Axes.
    """

    paths: Sequence[str]
    options: Dict[str, Any] = field(default_factory=dict)
    read_profile: Callable[[str], Any] = lambda path: None
    read_ensemble: Callable[[Sequence[str]], Any] = lambda paths: None
    read_trace: Callable[[str], Any] = lambda path: None
    expand: Callable[[Sequence[str]], List[str]] = lambda paths: list(paths)
    figure: Callable[[Tuple[float, float]], Any] = lambda size: None

    def get(self, name: str, default: Any = None) -> Any:
        """The option ``name`` (``default`` when absent or None)."""
        value = self.options.get(name)
        return default if value is None else value


_KINDS: Dict[str, PlotKind] = {}
_LOADED = [False]


def _table() -> Dict[str, PlotKind]:
    if not _LOADED[0]:
        _LOADED[0] = True
        for module in KIND_MODULES:
            kind = importlib.import_module(module).PLOT
            _KINDS.setdefault(kind.name, kind)
    return _KINDS


def register_plot(kind: PlotKind, replace: bool = False) -> PlotKind:
    """Add a plot kind at run time (the accessors and the CLI offer it at once).

    Examples
    --------
    >>> def dots(gf, ax=None):
    ...     return ax
    >>> _ = register_plot(PlotKind("dots", "a dot per node", {"graphframe": dots}))
    >>> "dots" in [k.name for k in plot_kinds("graphframe")]
    True
    >>> unregister_plot("dots")
    """
    table = _table()
    if kind.name in table and not replace:
        raise ArgumentError(f"a plot named {kind.name!r} exists; pass replace=True")
    table[kind.name] = kind
    return kind


def unregister_plot(name: str) -> None:
    """Remove the plot kind ``name``."""
    _table().pop(name, None)


def plot_kinds(input: Optional[str] = None, cli: bool = False) -> List[PlotKind]:
    """The plot kinds (taking ``input`` when given; with ``cli``, those the CLI draws)."""
    return [k for k in _table().values()
            if (input is None or input in k.draw) and (not cli or k.cli is not None)]


def plot_kind(name: str, input: Optional[str] = None) -> PlotKind:
    """The plot kind ``name`` (that takes ``input`` when given); ArgumentError lists the others.

    Examples
    --------
    >>> plot_kind("pie", "graphframe")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: kind='pie' is not a plot of a GraphFrame; choose one of flamegraph, icicle, heatmap, bar, hist, box, violin
    """
    kind = _table().get(name)
    if kind is None or (input is not None and input not in kind.draw):
        names = [k.name for k in plot_kinds(input)]
        what = {"graphframe": " of a GraphFrame", "ensemble": " of an Ensemble",
                "trace": " of a TraceFrame", "gc": " of a GC view",
                "mono": " of a Mono view"}.get(input or "", "")
        raise ArgumentError(f"kind={name!r} is not a plot{what}; choose one of "
                            f"{', '.join(names)}")
    return kind
