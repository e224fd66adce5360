"""Thicket's ``thicket.stats`` functions on graphframe: ``graphframe.thicket.stats``.

Same names, arguments and statsframe column names as Thicket 2026.1.1; each
function writes into ``tk.statsframe.dataframe`` and returns the new column
names. ``score_*`` compare two column groups of a column-joined Thicket
(:mod:`graphframe.thicket.stats.scoring`). Statistics group a Thicket's rows by node
over every other index level (profiles, ranks). Differences from Thicket are listed in each module and in
``docs/guide/ensembles.md``. ``check_normality`` and ``preference`` need SciPy
(the ``stats`` extra). Thicket's plots ``display_histogram``, ``display_boxplot``,
``display_violinplot``, ``display_violinplot_thicket`` and ``display_heatmap`` are
here too, with Thicket's arguments and returns (:mod:`graphframe.thicket.stats.display`;
matplotlib, and seaborn for all but the histogram). Each statistic records its call
in ``tk.statsframe_ops_cache`` (:mod:`graphframe.thicket.stats.cache`).

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 2)
>>> th.stats.maximum(tk, ["time (inc)"])
['time (inc)_max']
"""

from .basic import maximum, mean, median, minimum, percentiles, std, sum, variance
from .boxplot import calc_boxplot_statistics
from .correlation import correlation_nodewise
from .inference import (bhattacharyya_distance, check_normality, confidence_interval,
                        hellinger_distance, preference)
from .scoring import (score_bhattacharyya, score_delta_mean_delta_coefficient_of_variation,
                      score_delta_mean_delta_stdnorm, score_hellinger)
from .display import (display_boxplot, display_heatmap, display_histogram,
                      display_violinplot, display_violinplot_thicket)
from .cache import recorded as _recorded

# each statistic records its call (tk.statsframe_ops_cache, Thicket's reapply)
(bhattacharyya_distance, calc_boxplot_statistics, check_normality, confidence_interval,
 correlation_nodewise, hellinger_distance, maximum, mean, median, minimum, percentiles,
 preference, score_bhattacharyya, score_delta_mean_delta_coefficient_of_variation,
 score_delta_mean_delta_stdnorm, score_hellinger, std, sum, variance) = map(_recorded, (
    bhattacharyya_distance, calc_boxplot_statistics, check_normality, confidence_interval,
    correlation_nodewise, hellinger_distance, maximum, mean, median, minimum, percentiles,
    preference, score_bhattacharyya, score_delta_mean_delta_coefficient_of_variation,
    score_delta_mean_delta_stdnorm, score_hellinger, std, sum, variance))

__all__ = ["bhattacharyya_distance", "calc_boxplot_statistics", "check_normality",
           "confidence_interval", "correlation_nodewise", "display_boxplot", "display_heatmap",
           "display_histogram", "display_violinplot", "display_violinplot_thicket",
           "hellinger_distance", "maximum",
           "mean", "median", "minimum", "percentiles", "preference", "score_bhattacharyya",
           "score_delta_mean_delta_coefficient_of_variation", "score_delta_mean_delta_stdnorm",
           "score_hellinger", "std", "sum", "variance"]
