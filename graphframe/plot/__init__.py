"""Plots of profiles, ranks and runs (matplotlib, the ``plot`` extra).

Importing this package does not import matplotlib; drawing does. Every
function takes ``ax=`` and returns the Axes it drew on (a Figure for the
multi-panel :func:`scaling`), so callers can label and save it. Each plot has
a data function that computes what it shows without matplotlib (tests and
users can check the numbers) and a drawing function for plain data (so an
ensemble can feed its own matrices).

==================  ==================================  ===========================
plot                of a GraphFrame                     of plain data
==================  ==================================  ===========================
flame graph         :func:`flamegraph`, :func:`icicle`  :func:`draw_flame`
heatmap             :func:`heatmap`                     :func:`heatmap_matrix`
top-N bars          :func:`bar`                         :func:`bar_chart`
distributions       :func:`hist`, :func:`box`,          :func:`distribution`
                    :func:`violin`
scaling             :func:`scaling_table`               :func:`scaling`
trace timeline      :func:`timeline` (a TraceFrame)     :func:`timeline_data`
==================  ==================================  ===========================

``gf.plot.<kind>(...)`` is the same as ``graphframe.plot.<kind>(gf, ...)``;
``ens.plot.<kind>(...)`` (heatmap, bar, hist, box, violin, scaling of an
Ensemble: call paths x profiles or x a metadata key) is
``graphframe.plot.ensemble.<kind>(ens, ...)``.
See ``docs/guide/plots.md``.
"""

from ._mpl import PlotDependencyError
from .accessor import EnsemblePlotAccessor, PlotAccessor
from .bar import TopValues, bar, bar_chart, top_values
from .distribution import Samples, box, distribution, hist, node_samples, violin
from .flame import FlameData, draw_flame, flame_data, flamegraph, icicle
from .flame_layout import FlameLayout, flame_boxes
from .heatmap import heatmap, heatmap_matrix
from .matrix import STATS, NodeMatrix, rank_matrix
from .scaling import scaling, scaling_data, scaling_table
from .timeline import Timeline, timeline, timeline_data

__all__ = [
    "STATS", "EnsemblePlotAccessor", "FlameData", "FlameLayout", "NodeMatrix", "PlotAccessor", "PlotDependencyError",
    "Samples", "TopValues", "bar", "bar_chart", "box", "distribution", "draw_flame",
    "flame_boxes", "flame_data", "flamegraph", "heatmap", "heatmap_matrix", "hist", "icicle",
    "node_samples", "rank_matrix", "scaling", "scaling_data", "scaling_table", "top_values",
    "violin", "Timeline", "timeline", "timeline_data",
]
