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
from ..plot._sources import ArgumentError
from ..plot.matrix import STATS
from ..plot.registry import PlotRequest, plot_kind, plot_kinds
from ..plot.report import write_report
from ..plot.scaling import MODES
from ..plot.svg import new_figure
from .common import UsageError, check_output, open_profile, output_error
from .gc import is_gc_log, parse_filters, report_gc_file
from .mono import add_report_options, is_mono, mono_report

FORMATS = ("png", "svg", "pdf")

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
        epilog="kinds:\n" + "\n".join(f"  {k.name:11} {k.help}" for k in plot_kinds(cli=True)),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=[k.name for k in plot_kinds(cli=True)], help="what to draw")
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
                   help="hist/box/violin: a name (whole, '>' and all, e.g. '<no path>'), "
                        "a call path ('solve > spmv'; a '>' inside one of its names may be "
                        "written \\>) or a node id; repeat for several")
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
    p.add_argument("--filter", action="append", metavar="KEY=VALUE",
                   help="gc-* kinds: keep GC events with KEY equal to VALUE (repeatable)")
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
              size=args.size, dpi=args.dpi, options=args.option, filters=args.filter)
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
              options: Sequence[str] = (), filters: Optional[Sequence[str]] = None) -> str:
    """Draw ``kind`` of the inputs at ``paths`` into ``output``; return ``output``.

    The kind comes from the plot registry (:mod:`graphframe.plot.registry`), which
    draws it from a :class:`~graphframe.plot.registry.PlotRequest`; several profiles
    (or a folder of them) are read as one Ensemble (see :mod:`graphframe.cli.plot_ensemble`).
    """
    names = [k.name for k in plot_kinds(cli=True)]
    if kind not in names:
        raise ArgumentError(f"kind={kind!r} is not a plot; choose one of {', '.join(names)}")
    fmt = _suffix(output)
    if fmt not in FORMATS:
        raise ArgumentError(f"{output!r}: the file name must end in .png, .svg or .pdf")
    check_output(output)  # before reading: a wrong folder is said at once
    # the Ensemble (and pyarrow) load only when a plot may need them (fast start)
    from . import plot_ensemble

    request = PlotRequest(
        paths=list(paths),
        options=dict(metric=metric, top=top, by=by, stat=stat, nodes=nodes, rank=rank,
                     aggregate=aggregate, inclusive=inclusive, imbalance=imbalance, over=over,
                     stacked=stacked, color=color, mode=mode, title=title,
                     size=tuple(size) if size else None,
                     filter=parse_filters(filters) or None),
        read_profile=lambda path: open_profile(path, options=options),
        read_ensemble=lambda found: plot_ensemble.read_ensemble(found, options),
        read_trace=_read_trace,
        expand=plot_ensemble.profile_paths,
        figure=new_figure)
    fig = plot_kind(kind).cli(request)
    return _save(fig, output, fmt, dpi)


def _read_trace(path: str) -> Any:
    from ..traces import read_trace  # the trace layers load only for a trace plot

    return read_trace(path)


def _save(fig: Any, output: str, fmt: str, dpi: int) -> str:
    mpl = _mpl.require("matplotlib")
    try:
        with mpl.rc_context({"svg.hashsalt": "graphframe"}):
            fig.savefig(output, format=fmt, dpi=dpi,
                        metadata={"Date": None} if fmt == "svg" else
                        {"CreationDate": None} if fmt == "pdf" else None)
    except OSError as exc:
        raise output_error(output, exc) from exc
    return output


def report_file(before: str, after: Optional[str], output: str, *, metric: Optional[str] = None,
                top: int = 10, threshold: float = 1.0, title: Optional[str] = None) -> str:
    """Write the HTML report of the profile(s) at ``before`` (and ``after``) to ``output``."""
    check_output(output)  # before reading: a wrong folder is said at once
    if is_gc_log(before):  # issue 32: JVM GC logs get the GC report
        return report_gc_file([before] + ([after] if after else []), output, title=title)
    profiles = [open_profile(before)] + ([open_profile(after)] if after else [])
    labels = [before] + ([after] if after else [])
    try:
        return write_report(output, *profiles, metric=metric, top=top, threshold=threshold,
                            title=title, labels=labels)
    except OSError as exc:
        raise output_error(output, exc) from exc
