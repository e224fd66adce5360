"""matplotlib, imported only when a plot is drawn.

Every plot function takes ``ax=``. When it is None a new figure is made
with :mod:`matplotlib.pyplot` (so notebooks show it); if drawing then fails,
that figure is closed again, so no half-drawn figure stays open. Figures the
caller passed in are never closed. Nothing here changes matplotlib's global
settings (backend, rcParams).
"""

from __future__ import annotations

import contextlib
import importlib
import textwrap
from typing import Any, Iterator, Optional, Sequence, Tuple

from ..errors import ArgumentError, GraphframeError
from ._sources import plain_number


class PlotDependencyError(GraphframeError, ImportError):
    """matplotlib is not installed (``pip install "graphframe[plot]"``)."""


def require(module: str = "matplotlib") -> Any:
    """Import ``module`` (a matplotlib module) or raise :class:`PlotDependencyError`.

    Examples
    --------
    >>> require("matplotlib.colors").to_hex("red")  # doctest: +SKIP
    '#ff0000'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise PlotDependencyError(
            'plots need matplotlib, which is not installed: pip install "graphframe[plot]"'
        ) from exc


def check_ax(ax: Any) -> None:
    """Raise :class:`ArgumentError` unless ``ax`` is None or a matplotlib Axes."""
    if ax is None:
        return
    axes_cls = require("matplotlib.axes").Axes
    if not isinstance(ax, axes_cls):
        raise ArgumentError(f"ax={ax!r} is not a matplotlib Axes; pass one (for example "
                            "from plt.subplots()) or leave it out")


@contextlib.contextmanager
def axes(ax: Any = None, figsize: Optional[Tuple[float, float]] = None) -> Iterator[Any]:
    """The Axes to draw on: ``ax``, or a new pyplot figure's, closed again on error."""
    check_ax(ax)
    if ax is not None:
        yield ax
        return
    plt = require("matplotlib.pyplot")
    fig, new = plt.subplots(figsize=figsize, layout="constrained")
    try:
        yield new
    except BaseException:
        plt.close(fig)
        raise


@contextlib.contextmanager
def panels(count: int, ax: Any = None,
           figsize: Optional[Tuple[float, float]] = None) -> Iterator[Sequence[Any]]:
    """``count`` Axes side by side: the caller's (a sequence of ``count`` Axes) or a
    new pyplot figure's, closed again on error."""
    if ax is not None:
        if hasattr(ax, "flat"):  # a numpy array of Axes, as plt.subplots returns
            listed = list(ax.flat)
        else:
            listed = list(ax) if isinstance(ax, (list, tuple)) else [ax]
        if len(listed) != count:
            raise ArgumentError(f"ax: give {count} Axes (one per panel), got {len(listed)}")
        for one in listed:
            check_ax(one)
        yield listed
        return
    plt = require("matplotlib.pyplot")
    fig, new = plt.subplots(1, count, figsize=figsize, squeeze=False, layout="constrained")
    try:
        yield list(new.flat)
    except BaseException:
        plt.close(fig)
        raise


def plain_log_labels(axis: Any) -> None:
    """Label a log-scaled ``axis`` (``ax.xaxis``, ``ax.yaxis``, a colour bar's) with plain
    numbers (``60``, ``0.5``), not ``6×10^1``: matplotlib still chooses which ticks to label."""
    ticker = require("matplotlib.ticker")

    class PlainLogFormatter(ticker.LogFormatter):
        def __call__(self, x: float, pos: Any = None) -> str:
            return plain_number(x) if super().__call__(x, pos) else ""

    axis.set_major_formatter(PlainLogFormatter())
    axis.set_minor_formatter(PlainLogFormatter(labelOnlyBase=False))


def fit_title(target: Any, text: str, fraction: float = 0.8) -> Any:
    """Set ``text`` as a Figure's title (``suptitle``: centred on the figure, above
    everything) or an Axes' title, wrapped onto lines no wider than ``fraction`` of
    the figure, so a long title stays inside it. The command line titles figures so.

    Returns the title's Text.
    """
    mpl = require("matplotlib")
    is_axes = hasattr(target, "set_title")
    fig = target.figure if is_axes else target
    key = "axes.titlesize" if is_axes else "figure.titlesize"
    size = mpl.font_manager.FontProperties(size=mpl.rcParams[key]).get_size_in_points()
    chars = max(16, int(fig.get_figwidth() * 72.0 * fraction / (0.6 * size)))
    wrapped = "\n".join(textwrap.wrap(str(text), chars, break_long_words=True,
                                      break_on_hyphens=False)) or str(text)
    return target.set_title(wrapped) if is_axes else target.suptitle(wrapped)
