"""Folded stacks for flame graphs (Brendan Gregg's ``flamegraph.pl``, speedscope, inferno).

One line per node that has a value: the names along its call path joined by
``separator``, a space, and the node's *self* weight as an integer::

    main 1
    main; solve 8
    main; solve; mpi 2

Paths are built once per node from its parent's path (ids are a pre-order,
so every parent comes before its children): linear in the output size, no
per-node path search. A node with several parents (a call graph) is written
once, under the path it was first discovered by (the path ``tree()`` expands
it under), so no value is counted twice; cycles are therefore harmless.

Deliberate differences from Hatchet, which writes the chosen column's values
as they are, rounded:

- flame graph tools add up nested frames, so the weights are exclusive
  values: an inclusive metric is replaced by its exclusive partner, or by
  exclusive values derived from it (:mod:`graphframe.render.weights`), with
  an :class:`~graphframe.render.weights.ExportNote` saying so;
- by default the values are multiplied by a scale chosen from the data
  (:func:`choose_scale`) before rounding, so that seconds do not round to 0;
  the choice comes with an ``ExportNote`` (give ``scale=1`` for Hatchet's
  rounding);
- a name that contains the separator's non-blank part (``;`` for the
  default ``"; "``) has each occurrence replaced by ``_``, so ``"a; b"``
  stays one frame (``a_ b``) instead of becoming two; line breaks become
  spaces;
- nodes whose rounded value is negative (a diff's deltas, for example) are
  left out, with a :class:`FlameGraphWarning` saying how many: flame graph
  tools reject negative weights. Zero values are written, as Hatchet does.
"""

from __future__ import annotations

import warnings
from typing import List, Optional

import numpy as np

from ..model.fields import GraphFrameLike
from ..model.nodevalues import display_names
from .units import scaled_unit, unit_of
from .weights import ExportNote, self_weights

#: What replaces the separator inside a name.
SEPARATOR_STANDIN = "_"

#: The scales :func:`choose_scale` picks from (units: x1, milli, micro, nano).
SCALES = (1.0, 1e3, 1e6, 1e9)

#: The share of the total that must still weigh at least 1 after scaling.
RESOLUTION = 1e-6


class FlameGraphWarning(UserWarning):
    """Nodes were left out of folded stacks (negative values cannot be drawn)."""


def render_flamegraph(gf: GraphFrameLike, metric: Optional[str] = None, name: str = "name",
                      rank: Optional[int] = None, thread: Optional[int] = None, threshold: float = 0.0,
                      separator: str = "; ", aggregate: Optional[str] = None,
                      scale: Optional[float] = None) -> str:
    """Folded-stack text of ``gf``.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Column to write (default ``gf.default_metric``). Flame graphs add
        the values of nested frames, so an inclusive metric is replaced by
        its exclusive partner or by exclusive values derived from it, with
        an :class:`~graphframe.render.weights.ExportNote`.
    name : str
        Column holding each frame's label (Hatchet ignores this argument).
    rank, thread : int, optional
        Row used per node when ``aggregate`` is None.
        Default: the lowest the data has (a file of rank 1 alone shows rank 1).
    threshold : float
        Leave out lines whose value is below ``threshold * max`` (the
        largest written value), as ``to_dot`` does (Hatchet ignores it).
    separator : str
        Between frames; Hatchet writes ``"; "``, most tools also read ``";"``.
        Its non-blank part is replaced by ``_`` inside names.
    aggregate : {"sum", "mean", "min", "max"}, optional
        Combine all ranks/threads of a node instead of picking one row.
    scale : float, optional
        Multiply values before rounding (e.g. ``1e6`` for seconds to
        microseconds, so short functions do not round to 0). Default: chosen
        from the data by :func:`choose_scale`, with an ``ExportNote`` when
        it is not 1.

    Returns
    -------
    str
        Lines in pre-order; rounding is half-to-even, like Python's
        ``round``. Nodes without a finite value (no row, NaN, inf) are left out; line
        breaks inside names become spaces. Nodes whose rounded value is
        negative are left out with a :class:`FlameGraphWarning`.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    >>> print(render_flamegraph(gf), end="")
    main 1
    main; io 1
    main; solve 1
    main; solve; mpi 1
    >>> print(render_flamegraph(gf, scale=10, separator=";").splitlines()[0])
    main 10
    >>> odd = GraphFrame.from_lists(("main", "a; b"))
    >>> print(render_flamegraph(odd), end="")
    main 1
    main; a_ b 1
    """
    if not isinstance(separator, str) or not separator or "\n" in separator \
            or "\r" in separator:
        raise ValueError(f"separator={separator!r}: give a non-empty string without line breaks")
    weights = self_weights(gf, metric, what="folded stacks")
    metric = weights.metric
    values = weights.values(rank, thread, aggregate)
    if scale is None:
        scale = choose_scale(values)
        if scale != 1:
            _scale_note(weights.label, scale, unit_of(gf, metric))
    values = values * scale
    keep = np.isfinite(values)
    if threshold and keep.any():
        keep &= values >= threshold * np.max(values[keep])
    rounded = np.rint(np.where(keep, values, 0.0))
    negative = keep & (rounded < 0)
    if negative.any():
        warnings.warn(f"to_flamegraph left out {int(negative.sum())} node(s) whose {weights.label} "
                      "value is negative: flame graph tools cannot draw negative weights",
                      FlameGraphWarning, stacklevel=3)
        keep &= ~negative
    integers = rounded.astype(np.int64).tolist()
    core = separator.strip() or separator
    names = [_clean(s, core) for s in display_names(gf, name)]
    paths = call_paths(gf.graph.parent, names, separator)
    return "".join([f"{p} {w}\n" for p, w, k in zip(paths, integers, keep.tolist()) if k])


def choose_scale(values: np.ndarray) -> float:
    """The smallest of :data:`SCALES` at which a millionth of the total weighs at least 1.

    Values that are all whole numbers (counts, cycles, samples) keep scale 1.
    Rounding then moves each weight by at most half a millionth of the
    total, so no visible frame vanishes; seconds usually become microseconds.

    Examples
    --------
    >>> choose_scale(np.array([3.0, 14.0, np.nan])), choose_scale(np.array([47.2, 0.003]))
    (1.0, 1000000.0)
    >>> choose_scale(np.array([2500.5, 1508.0]))
    1000.0
    """
    finite = values[np.isfinite(values)]
    if not len(finite) or np.array_equal(finite, np.round(finite)):
        return 1.0
    total = float(np.abs(finite).sum())
    for scale in SCALES:
        if total * scale * RESOLUTION >= 1:
            return scale
    return SCALES[-1]


def _scale_note(label: str, scale: float, unit: str) -> None:
    shown = scaled_unit(unit, scale)
    unit_text = f" ({unit} to {shown})" if unit != "none" and shown else ""
    warnings.warn(f"folded stacks: weights are {label} x {scale:,.0f}{unit_text} so that a "
                  "millionth of the total still weighs 1; give --scale (scale=) to choose "
                  "another", ExportNote, stacklevel=3)


def call_paths(parent: np.ndarray, names: List[str], separator: str) -> List[str]:
    """Path string of every node along first parents (parents precede children).

    Examples
    --------
    >>> call_paths(np.array([-1, 0, 1, 0]), ["a", "b", "c", "d"], ";")
    ['a', 'a;b', 'a;b;c', 'a;d']
    """
    paths: List[str] = [""] * len(names)
    for v, (p, label) in enumerate(zip(parent.tolist(), names)):
        paths[v] = label if p < 0 else paths[p] + separator + label
    return paths


def _clean(label: str, core: str) -> str:
    if "\n" in label or "\r" in label:
        label = label.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    if core in label:
        label = label.replace(core, SEPARATOR_STANDIN)
    return label
