"""Thicket's scores of two column groups: ``score_delta_mean_delta_stdnorm``,
``score_delta_mean_delta_coefficient_of_variation``, ``score_bhattacharyya`` and
``score_hellinger``.

Each compares two columns per node - typically the same metric under two headers
of a column-joined Thicket (``concat_thickets(axis="columns", headers=[...])``),
e.g. ``[("gcc", "time"), ("clang", "time")]`` - from their per-node means
``m1, m2`` and standard deviations ``s1, s2`` (ddof=1, written to the statsframe
too), for all nodes at once, and writes one ``("Scoring", <name>)`` column:

* ``score_delta_mean_delta_stdnorm``: ``(m1 - m2) + (s1 - s2) / |m1 - m2|``;
  default name ``"<h1>_<c1>_<h2>_<c2>__calc_score_delta_mean_delta_stdnorm"``
  (Thicket's, from its internal function's name);
* ``score_delta_mean_delta_coefficient_of_variation``:
  ``(m1 - m2) + s1 / m1 - s2 / m2``; default name ending
  ``__calc_score_delta_mean_delta_coefficient_of_variation``;
* ``score_bhattacharyya`` / ``score_hellinger``: the distance
  (:func:`~graphframe.thicket.stats.bhattacharyya_distance`, also written)
  signed by a characterization: ``-distance`` where
  ``comparison_func(char1, char2)`` holds (default: ``char1 < char2`` of the
  means, i.e. negative when the first group is faster), ``+distance``
  elsewhere; default names ``"bhattacharyya"`` / ``"hellinger"``.

The two delta scores need a column-joined Thicket (tuple columns), as in Thicket.

Differences from Thicket: where a score is undefined (equal means for
``stdnorm``, a zero mean for the coefficient of variation, a zero standard
deviation for the distances, fewer than two values) it is NaN, without a
warning; Thicket gives inf or NaN with RuntimeWarnings. ``comparison_func`` is
called once on the arrays of all nodes when it accepts them (``x < y`` does),
otherwise once per node, as Thicket does.

Examples
--------
>>> import pandas as pd
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> def runs(values, kind):
...     gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": v},
...                                      "children": []}]) for v in values]
...     return th.Thicket.from_graphframes(gfs, metadata=pd.DataFrame({"n": [1, 2, 3]}))
>>> tk = th.Thicket.concat_thickets([runs([1.0, 2, 3], "a"), runs([2.0, 4, 6], "b")],
...                                 axis="columns", headers=["a", "b"], metadata_key="n")
>>> th.stats.score_delta_mean_delta_stdnorm(tk, [("a", "time"), ("b", "time")])
[('Scoring', 'a_time_b_time__calc_score_delta_mean_delta_stdnorm')]
>>> float(tk.statsframe.dataframe.loc[0, th.stats.score_bhattacharyya(
...     tk, [("a", "time"), ("b", "time")])[0]]) < 0     # a is faster: negative
True
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np

from . import _common
from .basic import mean, std
from .inference import bhattacharyya_distance, hellinger_distance

SCORING = "Scoring"


def score_delta_mean_delta_stdnorm(thicket: Any, columns: Any,
                                   output_column_name: Any = None) -> List[Any]:
    """``(m1 - m2) + (s1 - s2) / |m1 - m2|`` per node (see the module docstring)."""
    return _delta(thicket, columns, output_column_name,
                  "_calc_score_delta_mean_delta_stdnorm",
                  lambda m1, m2, s1, s2: (m1 - m2) + (s1 - s2) / np.abs(m1 - m2))


def score_delta_mean_delta_coefficient_of_variation(thicket: Any, columns: Any,
                                                    output_column_name: Any = None
                                                    ) -> List[Any]:
    """``(m1 - m2) + s1 / m1 - s2 / m2`` per node (see the module docstring)."""
    return _delta(thicket, columns, output_column_name,
                  "_calc_score_delta_mean_delta_coefficient_of_variation",
                  lambda m1, m2, s1, s2: (m1 - m2) + s1 / m1 - s2 / m2)


def score_bhattacharyya(thicket: Any, columns: Any, output_column_name: Any = None,
                        characterization_func: Callable[..., List[Any]] = mean,
                        comparison_func: Optional[Callable[[Any, Any], Any]] = None,
                        **kwargs: Any) -> List[Any]:
    """The Bhattacharyya distance per node, negative where ``comparison_func`` of the
    two characterizations holds (see the module docstring)."""
    return _signed(thicket, columns, output_column_name or "bhattacharyya",
                   bhattacharyya_distance, characterization_func, comparison_func, kwargs)


def score_hellinger(thicket: Any, columns: Any, output_column_name: Any = None,
                    characterization_func: Callable[..., List[Any]] = mean,
                    comparison_func: Optional[Callable[[Any, Any], Any]] = None,
                    **kwargs: Any) -> List[Any]:
    """The Hellinger distance per node, negative where ``comparison_func`` of the two
    characterizations holds (see the module docstring)."""
    return _signed(thicket, columns, output_column_name or "hellinger",
                   hellinger_distance, characterization_func, comparison_func, kwargs)


def _pair(thicket: Any, columns: Any) -> List[Any]:
    if not isinstance(columns, list) or len(columns) != 2:
        raise _common.ArgumentError(f"columns={columns!r}: give a list of 2 columns")
    return _common.check_columns(thicket, columns)


def _delta(thicket: Any, columns: Any, output: Any, label: str, formula) -> List[Any]:
    columns = _pair(thicket, columns)
    if not all(isinstance(c, tuple) for c in columns) or thicket.dataframe.columns.nlevels < 2:
        raise _common.ArgumentError(
            f"columns={columns!r}: scores compare two column groups of a column-joined "
            "Thicket (Thicket.concat_thickets(axis='columns', headers=[...])); give "
            "(header, column) tuples")
    table = _common.node_stats(thicket, columns, ["mean", "std"])
    mean(thicket, columns)
    std(thicket, columns)
    m1, m2 = (table[_common.thicket_column(c, "mean")] for c in columns)
    s1, s2 = (table[_common.thicket_column(c, "std")] for c in columns)
    with np.errstate(all="ignore"):
        score = formula(m1, m2, s1, s2)
    if output is None:
        output = f"{columns[0][0]}_{columns[0][1]}_{columns[1][0]}_{columns[1][1]}_{label}"
    name = (SCORING, output)
    thicket.statsframe.dataframe[name] = np.where(np.isfinite(score), score, np.nan)
    return [name]


def _signed(thicket: Any, columns: Any, output: Any, distance, characterization_func,
            comparison_func, kwargs) -> List[Any]:
    columns = _pair(thicket, columns)
    made = distance(thicket, columns)
    characterized = characterization_func(thicket, columns=columns, **kwargs)
    if not isinstance(characterized, list) or len(characterized) < 2:
        raise _common.ArgumentError("characterization_func must return the names of (at "
                                    f"least) 2 statsframe columns, not {characterized!r}")
    frame = thicket.statsframe.dataframe
    first, second = (frame[_common.key(frame, c)].to_numpy() for c in characterized[:2])
    negative = _compare(comparison_func or (lambda x, y: x < y), first, second)
    d = frame[_common.key(frame, made[0])].to_numpy(dtype=np.float64)
    name = (SCORING, output)
    frame[name] = np.where(negative, -d, d)
    return [name]


def _compare(func: Callable[[Any, Any], Any], first: np.ndarray,
             second: np.ndarray) -> np.ndarray:
    """``func`` per node as booleans: on the whole arrays when it answers with one boolean
    per node, else node by node (any function of two values works)."""
    try:
        whole = func(first, second)
    except (TypeError, ValueError):
        whole = None
    if isinstance(whole, np.ndarray) and whole.shape == first.shape \
            and whole.dtype == np.bool_:
        return whole
    return np.array([bool(func(a, b)) for a, b in zip(first.tolist(), second.tolist())],
                    dtype=bool)
