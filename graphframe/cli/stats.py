"""``graphframe stats PATH``: the most imbalanced call paths of one profile.

For one metric (by default the inclusive partner of the default metric, so
a call path's cost includes what it calls) every node's values across the
ranks (or threads, or both) give its load imbalance, max / mean (see
:mod:`graphframe.ops.stats`). Nodes whose largest value is under
``--threshold`` percent of the metric's largest value anywhere are left
out: a node that ran for one sample on one rank is "imbalanced" but costs
nothing. The rest are ranked by imbalance (then by their max) and the top
``K`` printed with their max, mean and min and the rank holding the max.

The text is built here from plain values; :func:`add_parser` registers the
command with the CLI, which only decides where the text goes.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, List, Optional, Sequence, TextIO, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.errors import ReadError, UnknownFormatError

from .common import open_profile
from ..errors import ArgumentError, MetricError
from ..io.dispatch import formats
from ..io.resolve import resolve
from ..model.dataframe import plain_values
from ..ops.stats import IMBALANCE_THRESHOLD, imbalance_order, significant_nodes

#: Longest call path printed; longer ones keep their end ("... > a > b").
PATH_WIDTH = 72


def add_parser(sub: Any) -> None:
    """Register ``stats`` with the CLI's sub-command parsers."""
    p = sub.add_parser(
        "stats", help="statistics across ranks: the most imbalanced call paths",
        description="Print the call paths whose metric differs most between ranks (or "
                    "threads): imbalance = max / mean across them, 1 = balanced.",
        epilog="Nodes whose max is under --threshold percent of the metric's largest value "
               "are left out. Threads (or ranks, with --over thread) are added up first.")
    p.add_argument("path", help="profile file, database directory or .gfz archive; with "
                   "--by, a folder or glob of profiles (an ensemble)")
    p.add_argument("--format", choices=formats(),
                   help="input format (default: detect)")
    p.add_argument("--over", default=None, type=_levels, metavar="LEVELS",
                   help="rank, thread, or rank,thread (default: rank, or thread when the "
                        "profile has threads and no ranks)")
    p.add_argument("--metric", "-m",
                   help="metric (default: the inclusive form of the default metric)")
    p.add_argument("--top", type=_positive_int, default=10, metavar="K",
                   help="call paths listed (default 10)")
    p.add_argument("--threshold", type=float, default=IMBALANCE_THRESHOLD, metavar="PCT",
                   help="leave out nodes whose max is under PCT%% of the largest value "
                        "(default 1)")
    p.add_argument("--by", metavar="KEY", nargs="?", const="ranks",
                   help="ensemble mode: tabulate the metric per call path and per value of "
                        "the metadata column KEY (e.g. mpi.world.size; default, and for a "
                        "folder or glob of profiles: ranks, the rank count, as plot scaling)")
    p.add_argument("--base", metavar="VALUE",
                   help="with --by: the KEY value ratios are relative to (default: smallest)")
    ratio = p.add_mutually_exclusive_group()
    ratio.add_argument("--speedup", dest="mode", action="store_const", const="speedup",
                       default="value", help="with --by: speedup relative to --base")
    ratio.add_argument("--efficiency", dest="mode", action="store_const", const="efficiency",
                       help="with --by: parallel efficiency relative to --base")
    p.add_argument("--weak", action="store_true",
                   help="with --speedup/--efficiency: weak scaling (work grows with KEY)")
    p.add_argument("--progress", action="store_true",
                   help="show a progress bar on stderr while reading large inputs")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                   help="a reader option, e.g. summary_only=true (repeatable); with --by, "
                        "given to every format that takes it, or FORMAT:KEY=VALUE for one "
                        "format, e.g. caliper:no_path=drop")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace, out: TextIO) -> str:
    if args.by is None and many_profiles(args.path, args.format):
        args.by = "ranks"   # a folder or glob of profiles: by rank count, as plot scaling
    if args.by is not None:
        from .ensemble_stats import scaling_report  # the Ensemble loads only for --by

        return scaling_report(args.path, args.by, metric=args.metric, top=args.top,
                              base=args.base, mode=args.mode, weak=args.weak,
                              format=args.format, progress=args.progress,
                              options=args.option)
    if args.base is not None or args.mode != "value" or args.weak:
        raise ArgumentError("--base, --speedup, --efficiency and --weak need --by KEY")
    return stats_report(args.path, over=args.over, metric=args.metric, top=args.top,
                        threshold=args.threshold, format=args.format, progress=args.progress,
                        options=args.option)


def many_profiles(path: str, format: Optional[str] = None) -> bool:
    """True when ``path`` is a glob or a folder that is not one profile (no reader
    recognises it as a whole): an ensemble for ``stats --by``.

    Examples
    --------
    >>> many_profiles("runs/*.json"), many_profiles("profile.json")
    (True, False)
    """
    if any(ch in str(path) for ch in "*?[") and not os.path.exists(path):
        return True
    if format is not None or not os.path.isdir(path):
        return False
    try:
        return resolve(path).kind == "ensemble"
    except (ReadError, UnknownFormatError):
        return False


def stats_report(path: str, over: Optional[Sequence[str]] = None, metric: Optional[str] = None,
                 top: int = 10, threshold: float = 1.0, format: Optional[str] = None,
                 progress: bool = False, options: Sequence[str] = ()) -> str:
    """The text ``graphframe stats`` prints for the profile at ``path`` (``options``:
    ``--option KEY=VALUE`` texts)."""
    gf = open_profile(path, format, progress=progress, options=options)
    return imbalance_report(gf, over=over, metric=metric, top=top, threshold=threshold,
                            title=str(path).rstrip("/").split("/")[-1])


def imbalance_report(gf: Any, over: Optional[Sequence[str]] = None, metric: Optional[str] = None,
                     top: int = 10, threshold: float = 1.0, title: str = "profile") -> str:
    """Text of the ``top`` most imbalanced call paths of ``gf`` (see the module docstring).

    ``over`` (index levels) defaults to ``rank``, or ``thread`` for a profile with
    threads and no ranks (TAU pthreads).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> print(imbalance_report(example_graphframe(), top=3, title="example"), end="")
    example: 20 nodes, 4 ranks; time (inc) across ranks, imbalance = max / mean
    18 of 20 nodes have a max of at least 1% of the largest value (30.62)
    <BLANKLINE>
    imbalance        max       mean        min  max rank  call path
        1.429       1.75      1.225        0.7         3  main > timestep_loop > cg_solve > dot_product > MPI_Allreduce
        1.333        1.8       1.35        0.9         3  main > timestep_loop > exchange_halos > MPI_Waitall
        1.333        0.6       0.45        0.3         3  main > write_output > MPI_Gather
    """
    over = default_levels(gf) if over is None else tuple(over)
    metric = _metric(gf, metric)
    if not (threshold >= 0):
        raise ArgumentError(f"--threshold {threshold} is not a percentage >= 0")
    table, largest, kept, total = ranked_nodes(gf, metric, over, threshold)
    counts = [len(gf.dataframe.index.unique(level=lv)) for lv in over]
    spread = " x ".join(f"{c} {lv}{'s' if c != 1 else ''}" for c, lv in zip(counts, over))
    lines = [f"{title}: {gf.graph.num_nodes} nodes, {spread}; {metric} across "
             f"{' and '.join(lv + 's' for lv in over)}, imbalance = max / mean\n",
             f"{kept} of {total} nodes have a max of at least "
             f"{threshold:g}% of the largest value ({_num(largest)})\n", "\n"]
    shown = table.head(top)
    if not len(shown):
        lines.append("no node has a value to compare\n")
        return "".join(lines)
    label = "max " + ",".join(over)
    where = [_label(v) for v in shown["argmax"].tolist()]
    w = max([len(label)] + [len(x) for x in where])
    lines.append(f"{'imbalance':>9} {'max':>10} {'mean':>10} {'min':>10}  {label:>{w}}  "
                 "call path\n")
    paths = call_paths(gf, plain_values(shown.index))
    rows = zip(shown["imbalance"].tolist(), shown["max"].tolist(), shown["mean"].tolist(),
               shown["min"].tolist(), where, paths)
    for imbalance, high, mean, low, at, path in rows:
        lines.append(f"{imbalance:>9.3f} {_num(high):>10} {_num(mean):>10} {_num(low):>10}  "
                     f"{at:>{w}}  {path}\n")
    return "".join(lines)


def ranked_nodes(gf: Any, metric: Any, over: Tuple[str, ...], threshold: float
                 ) -> Tuple[pd.DataFrame, float, int, int]:
    """``(table, largest, significant, nodes)``: the significant nodes with an imbalance,
    most imbalanced first (then larger max, then lower id); the metric's largest value;
    how many nodes reach the threshold; how many nodes have statistics."""
    st = gf.rank_stats(metric, stats=("min", "max", "mean", "imbalance", "argmax"), over=over)
    st.columns = [c if c == "name" else str(c).rsplit(".", 1)[-1] for c in st.columns]
    maxima = st["max"].to_numpy()
    largest = float(np.nanmax(maxima)) if np.isfinite(maxima).any() else float("nan")
    significant = significant_nodes(maxima, threshold)  # the rule the heatmaps use too
    imbalance = st["imbalance"].to_numpy()
    keep = significant & ~np.isnan(imbalance)
    picked = st[keep]
    order = imbalance_order(picked["imbalance"].to_numpy(), picked["max"].to_numpy(),
                            plain_values(picked.index))
    return picked.iloc[order], largest, int(significant.sum()), len(st)


def call_paths(gf: Any, nodes: Sequence[int], width: int = PATH_WIDTH) -> List[str]:
    """``"main > solve > MPI_Wait"`` for each node (first-parent path), shortened from the left.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi")))
    >>> call_paths(gf, [2]), call_paths(gf, [2], width=10)
    (['main > solve > mpi'], ['... > mpi'])
    """
    names = _node_names(gf)
    parent = gf.graph.parent
    out = []
    for node in nodes:
        parts = []
        v = int(node)
        while v >= 0 and len(parts) <= gf.graph.num_nodes:
            parts.append(str(names[v]))
            v = int(parent[v])
        parts.reverse()
        text = " > ".join(parts)
        while len(text) > width and len(parts) > 1:
            parts = parts[1:]
            text = "... > " + " > ".join(parts)
        out.append(text)
    return out


def _node_names(gf: Any) -> np.ndarray:
    graph = gf.graph
    names = (graph.attr_values("name") if "name" in graph.attr_names()
             else np.full(graph.num_nodes, None, dtype=object))
    df = gf.dataframe
    if "name" in df.columns and len(df):
        node = plain_values(df.index.get_level_values("node"))
        first = np.unique(node, return_index=True)
        names[first[0]] = df["name"].to_numpy(dtype=object)[first[1]]
    return np.where(pd.isna(names), "<no name>", names)


def _metric(gf: Any, metric: Optional[str]) -> Any:
    columns = gf.dataframe.columns
    if metric is not None:
        if metric not in columns:
            raise MetricError(f"no metric {metric!r}; the profile's metrics are "
                              f"{', '.join(map(str, gf.show_metric_columns())) or 'none'}")
        return metric
    base = gf.default_metric
    if base is None or base not in columns:
        declared = [m for m in gf.show_metric_columns() if m in columns]
        if not declared:
            raise MetricError("the profile has no metric to compare; give one with --metric")
        base = declared[0]
    inc = gf.inclusive_of.get(base)
    return inc if inc in columns else base


def _num(value: float) -> str:
    return "nan" if value != value else format(float(value), ".4g")


def _label(value: Any) -> str:
    if value is None or value is pd.NA:
        return "-"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def default_levels(gf: Any) -> Tuple[str, ...]:
    """``("rank",)``, or ``("thread",)`` when ``gf`` has threads and no ranks; a profile
    with neither has nothing to compare (an ``ArgumentError`` saying so).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> default_levels(example_graphframe())
    ('rank',)
    """
    names = list(gf.dataframe.index.names)
    if "rank" in names:
        return ("rank",)
    if "thread" in names:
        return ("thread",)
    raise ArgumentError("the profile has one process and one thread (index levels "
                        f"{', '.join(map(str, names))}): there is nothing to compare across")


def _levels(text: str) -> Tuple[str, ...]:
    levels = tuple(t.strip() for t in text.split(",") if t.strip())
    if not levels:
        raise argparse.ArgumentTypeError(f"{text!r} names no level; use rank, thread or "
                                         "rank,thread")
    return levels


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} rows: give 1 or more")
    return value
