"""Figures as SVG text to inline in HTML: reproducible, with ids made unique.

Figures are made with :class:`matplotlib.figure.Figure` directly (not
pyplot), so nothing global is registered and nothing needs closing. Text
stays text (``svg.fonttype = "none"``: smaller, searchable, drawn with the
browser's fonts) and the ids matplotlib writes (clip paths) get a per-figure
prefix, so several SVGs can share one HTML page.
"""

from __future__ import annotations

import io
import re
from typing import Any, Tuple

from . import _mpl

_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^)"]+)')
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)


def new_figure(size: Tuple[float, float] = (10.0, 5.0)) -> Any:
    """A matplotlib Figure outside pyplot (constrained layout) with one Axes."""
    figure = _mpl.require("matplotlib.figure")
    fig = figure.Figure(figsize=size, layout="constrained")
    fig.add_subplot()
    return fig


def figure_svg(fig: Any, prefix: str) -> str:
    """The ``<svg>`` element of ``fig``, ids prefixed with ``prefix``.

    Examples
    --------
    >>> fig = new_figure((2, 1))  # doctest: +SKIP
    >>> figure_svg(fig, "p1").startswith("<svg")  # doctest: +SKIP
    True
    """
    mpl = _mpl.require("matplotlib")
    buf = io.StringIO()
    with mpl.rc_context({"svg.hashsalt": "graphframe", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = _METADATA.sub("", text[text.index("<svg"):])  # RDF with links: not needed inline
    text = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', text)
    return _REF.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", text)
