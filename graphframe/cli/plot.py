"""``graphframe plot`` and ``graphframe report``: arguments and what they do.

:func:`add_commands` registers both subcommands on the main parser;
:func:`plot_file` and :func:`report_file` take plain values (easy to test).
Figures are made without pyplot, so nothing global changes and nothing is
left open. Nothing is printed on success.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, List, Optional, Sequence

from ..plot import _mpl
from ..plot._sources import ArgumentError, diff
from .common import UsageError, open_profile
from .mono import add_report_options, is_mono, mono_report
from graphframe_readers.traces.mono.handler import run as run_mono
from graphframe_readers.traces.mono.model import ModelBuilder
from graphframe_readers.traces.sources import FileSource
from ..plot.allocations import allocations
from ..plot.bar import bar
from ..plot.distribution import box, hist, violin
from ..plot.flame import flamegraph, icicle
from ..plot.heatmap import heatmap
from ..plot.matrix import STATS
from ..plot.report import write_report
from ..plot.scaling import MODES, scaling, scaling_table
from ..plot.svg import new_figure
from ..plot.timeline import timeline

KINDS = ("flamegraph", "icicle", "heatmap", "bar", "hist", "box", "violin", "scaling",
         "timeline", "allocations")
FORMATS = ("png", "svg", "pdf")

KIND_HELP = {
    "flamegraph": "PATH: width = inclusive value, colour = module or name; BEFORE AFTER: "
                  "coloured by change (red slower, blue faster)",
    "icicle": "as flamegraph, roots at the top",
    "heatmap": "PATH: top call paths x ranks (--imbalance: value / mean over ranks); "
               "--by (or --stat) picks the statistic that ranks call paths; "
               "PATH PATH... or FOLDER: call paths x profiles, or x --by KEY values",
    "bar": "PATH: top call paths by exclusive (--inclusive) value; --stacked rank; "
           "PATH PATH...: stacked by profile (or by --by KEY)",
    "hist": "PATH: one call path's values across ranks (--node, default the largest); "
            "PATH PATH...: across profiles (--by KEY: one histogram per value)",
    "box": "PATH: box plots of call paths across ranks (--node, repeatable); "
           "PATH PATH...: across profiles (--by KEY: one box per value)",
    "violin": "as box, with violins",
    "scaling": "PATH PATH... or FOLDER: time, speedup and efficiency against --by KEY (a "
               "metadata key; default the rank count)",
    "timeline": "TRACE: ranks x time, calls coloured by function (--top N functions "
                "coloured, --rank R for one rank)",
    "allocations": "MLPD: bytes allocated per class of a Mono log (--top N classes)",
}


def output_path(text: str) -> str:
    """argparse type of ``-o``: a path ending in .png, .svg or .pdf (usage error otherwise).

    Examples
    --------
    >>> output_path("out.svg")
    'out.svg'
    >>> output_path("out.gif")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'out.gif': the file name must end in .png, .svg or .pdf
    """
    if _suffix(text) not in FORMATS:
        raise argparse.ArgumentTypeError(f"{text!r}: the file name must end in "
                                         f"{', '.join('.' + f for f in FORMATS[:-1])} or "
                                         f".{FORMATS[-1]}")
    return text


def _suffix(path: str) -> str:
    return os.path.splitext(str(path))[1].lower().lstrip(".")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1")
    return value


def add_commands(sub: Any) -> None:
    """Add ``plot`` and ``report`` to the main parser's subcommands."""
    p = sub.add_parser(
        "plot", help="draw a plot of one or more profiles into a PNG, SVG or PDF file",
        description="Draw a plot of one or more profiles (any readable format or .gfz).",
        epilog="kinds:\n" + "\n".join(f"  {k:11} {v}" for k, v in KIND_HELP.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=KINDS, help="what to draw")
    p.add_argument("paths", nargs="+", metavar="PATH", help="profile(s)")
    p.add_argument("-o", "--output", required=True, type=output_path,
                   help="image file: .png, .svg or .pdf")
    p.add_argument("--metric", "-m", help="metric (default: the profile's default metric)")
    p.add_argument("--top", type=_positive, help="call paths shown (default 20; bar 10; "
                                                 "box/violin 5; scaling 5 regions)")
    p.add_argument("--by", metavar="KEY", help="one profile's heatmap: statistic ranking "
                   f"call paths ({', '.join(STATS)}); several profiles and scaling: a "
                   "metadata key")
    p.add_argument("--stat", choices=STATS, help="heatmap: statistic ranking call paths "
                                                 "(default max)")
    p.add_argument("--node", action="append", metavar="PATH",
                   help="hist/box/violin: a call path ('solve > spmv'), name or node id; "
                        "repeat for several")
    p.add_argument("--rank", type=int, help="draw this rank's values instead of the mean")
    p.add_argument("--aggregate", choices=("mean", "sum", "min", "max"), default="mean",
                   help="how a node's ranks combine (default mean)")
    p.add_argument("--inclusive", action="store_true", help="bar/heatmap/hist/box/violin: "
                                                            "inclusive values")
    p.add_argument("--imbalance", action="store_true", help="heatmap: value / mean over ranks")
    p.add_argument("--over", choices=("rank", "thread"), default="rank",
                   help="heatmap columns (default rank)")
    p.add_argument("--stacked", choices=("rank", "thread"), help="bar: one segment per rank")
    p.add_argument("--color", help="flamegraph: 'name', a text column or a numeric column")
    p.add_argument("--mode", choices=MODES, default="strong", help="scaling: strong or weak")
    p.add_argument("--title", help="title (default: the kind and the file name)")
    p.add_argument("--size", nargs=2, type=float, metavar=("W", "H"),
                   help="figure size in inches")
    p.add_argument("--dpi", type=_positive, default=100, help="PNG resolution (default 100)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a reader option (repeatable); for several profiles given to every "
                        "format that takes it, or FORMAT:KEY=VALUE for one format")
    p.set_defaults(run=_run_plot)
    r = sub.add_parser(
        "report", help="write one self-contained HTML page about a profile or a regression",
        description="Write one HTML file (no network needed to view it) with the profiles' "
                    "summary, the top changes (or call paths), plots as inline SVG and the "
                    "tree; for sharing a regression as a CI artefact.")
    r.add_argument("before", help="the profile (or the reference profile)")
    r.add_argument("after", nargs="?", help="the profile to compare with it")
    r.add_argument("-o", "--output", help="HTML file to write (a Mono log: its text report, "
                                          "on stdout without -o)")
    r.add_argument("--metric", "-m", help="metric (default: the default metric)")
    r.add_argument("--top", type=_positive, default=10, help="rows and bars (default 10)")
    r.add_argument("--threshold", type=float, default=1.0, metavar="PCT",
                   help="noise threshold, percent of the before total (default 1)")
    r.add_argument("--title", help="page title")
    add_report_options(r)   # issue 28: mprof-report's report of a Mono log
    r.set_defaults(run=_run_report)


def _run_plot(args: argparse.Namespace, out: Any) -> str:
    plot_file(args.kind, args.paths, args.output, metric=args.metric, top=args.top, by=args.by,
              stat=args.stat, nodes=args.node, rank=args.rank, aggregate=args.aggregate,
              inclusive=args.inclusive, imbalance=args.imbalance, over=args.over,
              stacked=args.stacked, color=args.color, mode=args.mode, title=args.title,
              size=args.size, dpi=args.dpi, options=args.option)
    return ""


def _run_report(args: argparse.Namespace, out: Any) -> str:
    if args.after is None and is_mono(args.before):   # issue 28: a Mono log's text report
        text = mono_report(args.before, args.sections.split(",") if args.sections else None,
                           method_sort=args.method_sort, alloc_sort=args.alloc_sort,
                           verbose=args.verbose)
        if not args.output:
            return text
        with open(args.output, "w") as fh:
            fh.write(text)
        return ""
    if not args.output:
        raise UsageError("report: -o/--output (the HTML file to write) is required")
    report_file(args.before, args.after, args.output, metric=args.metric, top=args.top,
                threshold=args.threshold, title=args.title)
    return ""


def plot_file(kind: str, paths: Sequence[str], output: str, *, metric: Optional[str] = None,
              top: Optional[int] = None, by: Optional[str] = None,
              stat: Optional[str] = None, nodes: Optional[List[str]] = None, rank: Optional[int] = None,
              aggregate: str = "mean", inclusive: bool = False, imbalance: bool = False,
              over: str = "rank", stacked: Optional[str] = None, color: Optional[str] = None,
              mode: str = "strong", title: Optional[str] = None,
              size: Optional[Sequence[float]] = None, dpi: int = 100,
              options: Sequence[str] = ()) -> str:
    """Draw ``kind`` of the profiles at ``paths`` into ``output``; return ``output``.

    Several profiles (or a folder of them) are drawn as an Ensemble by heatmap,
    bar, hist, box and violin (see :mod:`graphframe.cli.plot_ensemble`).
    """
    if kind not in KINDS:
        raise ArgumentError(f"kind={kind!r} is not a plot; choose one of {', '.join(KINDS)}")
    fmt = _suffix(output)
    if fmt not in FORMATS:
        raise ArgumentError(f"{output!r}: the file name must end in .png, .svg or .pdf")
    if kind == "allocations":   # issue 28: allocations by class of a Mono log
        return _allocations_file(paths, output, fmt, top=top, title=title, size=size, dpi=dpi)
    if kind == "timeline":
        return _timeline_file(paths, output, fmt, rank=rank, top=top, title=title, size=size,
                              dpi=dpi)
    # the Ensemble (and pyarrow) load only when a plot may need them (fast start)
    from .plot_ensemble import draw_ensemble, ensemble_title, is_ensemble, profile_paths

    if kind not in ("flamegraph", "icicle"):
        paths = profile_paths(paths)
    if is_ensemble(kind, paths):
        fig = new_figure(tuple(size) if size else _SIZES[kind])
        ens = draw_ensemble(kind, paths, fig.axes[0], metric=metric, top=top, by=by, stat=stat,
                            nodes=_node_ids(nodes), aggregate=aggregate, rank=rank,
                            imbalance=imbalance, over=over, stacked=stacked,
                            inclusive=inclusive, color=color, options=options)
        fig.axes[0].set_title(title or ensemble_title(kind, paths, ens.num_profiles, by))
        return _save(fig, output, fmt, dpi)
    _check_count(kind, paths)
    profiles = [open_profile(p, options=options) for p in paths]
    default = f"{kind}: " + " → ".join(os.path.basename(os.path.normpath(p)) for p in paths)
    if kind == "scaling":
        fig = _scaling_figure(profiles, metric, by, top, aggregate, mode, size)
        fig.suptitle(title or default)
    else:
        fig = new_figure(tuple(size) if size else _SIZES[kind])
        ax = fig.axes[0]
        _draw(kind, profiles, ax, metric=metric, top=top, by=by or stat, nodes=nodes, rank=rank,
              aggregate=aggregate, inclusive=inclusive, imbalance=imbalance, over=over,
              stacked=stacked, color=color)
        ax.set_title(title or default)
    return _save(fig, output, fmt, dpi)


def _timeline_file(paths: Sequence[str], output: str, fmt: str, *, rank: Optional[int],
                   top: Optional[int], title: Optional[str], size: Any, dpi: int) -> str:
    if len(paths) != 1:
        raise ArgumentError(f"timeline draws one trace; got {len(paths)}")
    from ..traces import read_trace  # the trace layers load only for a timeline

    trace = read_trace(paths[0])
    fig = new_figure(tuple(size) if size else _SIZES["timeline"])
    timeline(trace, ranks=None if rank is None else [rank], colors=top or 12, ax=fig.axes[0])
    fig.axes[0].set_title(title or f"timeline: {os.path.basename(os.path.normpath(paths[0]))}")
    return _save(fig, output, fmt, dpi)


def _allocations_file(paths: Sequence[str], output: str, fmt: str, *, top: Optional[int],
                      title: Optional[str], size: Any, dpi: int) -> str:
    if len(paths) != 1:
        raise ArgumentError(f"allocations draws one Mono log; got {len(paths)}")
    model = run_mono(FileSource(paths[0]), ModelBuilder(traces=False))
    fig = new_figure(tuple(size) if size else (10.0, 7.0))
    allocations(model, top=top or 20, ax=fig.axes[0])
    fig.axes[0].set_title(title or f"allocations: {os.path.basename(paths[0])}")
    return _save(fig, output, fmt, dpi)


def _save(fig: Any, output: str, fmt: str, dpi: int) -> str:
    mpl = _mpl.require("matplotlib")
    with mpl.rc_context({"svg.hashsalt": "graphframe"}):
        fig.savefig(output, format=fmt, dpi=dpi,
                    metadata={"Date": None} if fmt == "svg" else
                    {"CreationDate": None} if fmt == "pdf" else None)
    return output


_SIZES = {"flamegraph": (12.0, 6.0), "icicle": (12.0, 6.0), "heatmap": (10.0, 7.0),
          "bar": (9.0, 5.0), "hist": (8.0, 4.5), "box": (8.0, 4.5), "violin": (8.0, 4.5),
          "timeline": (12.0, 4.5)}


def _check_count(kind: str, paths: Sequence[str]) -> None:
    n = len(paths)
    if kind in ("flamegraph", "icicle") and n not in (1, 2):
        raise ArgumentError(f"{kind} draws one profile, or two (BEFORE AFTER) as a diff; "
                            f"got {n}")
    if kind == "scaling" and n < 2:
        raise ArgumentError(f"scaling needs 2 or more profiles; got {n}")
    if kind not in ("flamegraph", "icicle", "scaling") and n != 1:
        raise ArgumentError(f"{kind} draws one profile; got {n}")


def _draw(kind: str, profiles: List[Any], ax: Any, *, metric: Any, top: Any, by: Any,
          nodes: Any, rank: Any, aggregate: str, inclusive: bool, imbalance: bool, over: str,
          stacked: Any, color: Any) -> None:
    gf = profiles[0]
    if kind in ("flamegraph", "icicle"):
        if len(profiles) == 2:
            gf, metric = diff(profiles[0], profiles[1], metric), None
        draw = flamegraph if kind == "flamegraph" else icicle
        draw(gf, metric, color=color, rank=rank, aggregate=aggregate, ax=ax)
    elif kind == "heatmap":
        heatmap(gf, metric, over=over, imbalance=imbalance, top=top or 20, by=by,
                inclusive=inclusive, aggregate=aggregate, ax=ax)
    elif kind == "bar":
        bar(gf, metric, top=top or 10, inclusive=inclusive, stacked=stacked, rank=rank,
            aggregate=aggregate, ax=ax)
    elif kind == "hist":
        hist(gf, _node_ids(nodes), metric, inclusive=inclusive, ax=ax)
    else:
        draw = box if kind == "box" else violin
        draw(gf, _node_ids(nodes), metric, inclusive=inclusive, top=top or 5, ax=ax)


def _node_ids(nodes: Optional[List[str]]) -> Any:
    """Command-line node names; all-digit ones are node ids."""
    if not nodes:
        return None
    return [int(n) if n.isdigit() else n for n in nodes]


def _scaling_figure(profiles: List[Any], metric: Any, by: Any, top: Any, aggregate: str,
                    mode: str, size: Any) -> Any:
    figure = _mpl.require("matplotlib.figure")
    table = scaling_table(profiles, metric, by=by, top=top or 5, aggregate=aggregate)
    fig = figure.Figure(figsize=tuple(size) if size else (15.0, 4.8), layout="constrained")
    axes = fig.subplots(1, 3)
    scaling(table, mode=mode, ax=list(axes), key_label=by or "ranks")
    return fig


def report_file(before: str, after: Optional[str], output: str, *, metric: Optional[str] = None,
                top: int = 10, threshold: float = 1.0, title: Optional[str] = None) -> str:
    """Write the HTML report of the profile(s) at ``before`` (and ``after``) to ``output``."""
    profiles = [open_profile(before)] + ([open_profile(after)] if after else [])
    labels = [before] + ([after] if after else [])
    return write_report(output, *profiles, metric=metric, top=top, threshold=threshold,
                        title=title, labels=labels)
