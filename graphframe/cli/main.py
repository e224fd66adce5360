"""The ``graphframe`` command line. The only module that looks at the terminal."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Any, Optional, Sequence, TextIO

from ..io import dispatch
from ..io.resolve import format_entries
from . import convert, info
from . import rma as rma_command
from . import stats as stats_command
from . import gc as gc_cli
from . import plot as plot_cli
from .common import (EXIT_INTERRUPTED, EXIT_REGRESSION, FAIL_KINDS, ProgressBar, Report,
                     UsageError, open_profile)
from .._version import __version__
from ..errors import GraphframeError
from ..examples import example_graphframe
from ..model.rowselect import require_levels
from ..render.units import UNITS


DEPTH_HELP = ("print the first N levels only: 1 = the roots, 2 = the roots and their "
              "children, ... (default: every level)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="graphframe",
        description="Analyse calling-context trees and call graphs from HPC and Python profilers.")
    parser.add_argument("--version", action="version", version=f"graphframe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    tree = sub.add_parser("tree", help="print a profile as an annotated call tree",
                          description="Print a profile as an annotated call tree.")
    src = tree.add_mutually_exclusive_group(required=True)
    src.add_argument("path", nargs="?", help="profile file or database directory")
    src.add_argument("--example", action="store_true",
                     help="use the built-in example profile (an MPI solver on 4 ranks)")
    tree.add_argument("--format", choices=dispatch.formats(), help="input format (default: detect)")
    tree.add_argument("--metric", "-m", action="append", metavar="M",
                      help="metric column to show; repeat to show several")
    tree.add_argument("--depth", "-d", type=depth_levels, default=None, metavar="N",
                      help=DEPTH_HELP)
    tree.add_argument("--rank", type=int, help="rank to show (default: the lowest, 0 normally)")
    tree.add_argument("--thread", type=int,
                      help="thread to show (default: the lowest, 0 normally)")
    tree.add_argument("--precision", type=non_negative_int, default=3,
                      help="decimals (default 3)")
    tree.add_argument("--name-column", default="name", help="column used as the node label")
    tree.add_argument("--expand-name", action="store_true", help="do not shorten long names")
    colour = tree.add_mutually_exclusive_group()
    colour.add_argument("--color", dest="color", action="store_true", default=None,
                        help="always colour the output")
    colour.add_argument("--no-color", dest="color", action="store_false",
                        help="never colour the output")
    tree.add_argument("--ascii", action="store_true", help="ASCII glyphs instead of Unicode")
    tree.add_argument("--no-header", action="store_true", help="omit the header line")
    _progress_option(tree)
    tree.set_defaults(run=_run_tree)

    fmts = sub.add_parser("formats", help="list the input formats graphframe reads")
    fmts.set_defaults(run=_run_formats)
    _add_diff(sub)
    _add_convert(sub)
    _add_info(sub)
    stats_command.add_parser(sub)
    rma_command.add_parser(sub)
    plot_cli.add_commands(sub)
    gc_cli.add_parser(sub)  # issue 32: JVM GC logs
    return parser


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0 (a usage error otherwise, never a traceback).

    Examples
    --------
    >>> non_negative_int("3")
    3
    >>> non_negative_int("-2")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-2' is not an integer >= 0
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 0")
    return value


def depth_levels(text: str) -> int:
    """argparse type of ``--depth``: levels printed, 1 or more (0 would print nothing).

    Examples
    --------
    >>> depth_levels("2")
    2
    >>> depth_levels("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' is not a whole number >= 1 (1 = the roots only)
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1 (1 = the roots "
                                         "only)")
    return value


def _add_diff(sub: Any) -> None:
    diff = sub.add_parser(
        "diff", help="compare two profiles: ranked changes and a tree of deltas",
        description="Compare two profiles of the same program. Prints the largest changes "
                    "(inclusive and exclusive) and the tree of changed call paths. With "
                    f"--fail-above, exits with status {EXIT_REGRESSION} when a node "
                    "regressed by more than that percentage, so it can guard performance in CI.",
        epilog="A node regressed by more than PCT when its inclusive value (or, with "
               "--fail-kind exclusive, its own exclusive value) grew by more than PCT percent "
               "of its before value (added nodes: infinitely). Only changes of at least "
               "--threshold percent of the before total count. When the profiles have no "
               "inclusive values, they are summed from the exclusive ones.")
    diff.add_argument("before", help="the reference profile (file, database or .gfz)")
    diff.add_argument("after", help="the profile to compare with it")
    diff.add_argument("--metric", "-m", help="metric to compare (default: the default metric)")
    diff.add_argument("--threshold", type=float, default=1.0, metavar="PCT",
                      help="noise threshold: ignore changes under PCT%% of the before total "
                           "(default 1)")
    diff.add_argument("--top", type=_positive_int, default=10, metavar="N",
                      help="rows in each ranked table (default 10)")
    diff.add_argument("--fail-above", type=float, metavar="PCT",
                      help=f"exit with status {EXIT_REGRESSION} if a node's inclusive "
                           "value (see --fail-kind) grew by more than PCT%%")
    diff.add_argument("--fail-kind", choices=FAIL_KINDS, default="inclusive",
                      help="what --fail-above tests: a node's inclusive value, itself and "
                           "everything it calls (default), or its exclusive value")
    diff.add_argument("--by", choices=("path", "name"), default="path",
                      help="match nodes by call path (default) or by function name (flat)")
    diff.add_argument("--normalize", action="store_true",
                      help="compare percentages of each profile's total")
    diff.add_argument("--aggregate", choices=("mean", "sum", "min", "max"), default="mean",
                      help="combine ranks/threads of a node (default mean)")
    diff.add_argument("--rank", type=int, help="compare this rank's rows instead")
    diff.add_argument("--depth", "-d", type=depth_levels, default=10000, metavar="N",
                      help=DEPTH_HELP)
    diff.add_argument("--no-tree", action="store_true", help="only the ranked tables")
    diff.add_argument("--pair", action="append", default=[], metavar="BEFORE=AFTER",
                      help="compare metric BEFORE of the first profile with AFTER of the "
                           "second (repeatable); 'auto' (what happens without --pair) "
                           "pairs names that differ only in their (E)/(I) spelling, e.g. "
                           "HPCToolkit's two layouts")
    diff.add_argument("--precision", type=int, default=3, help="decimals (default 3)")
    _colour_options(diff)
    _progress_option(diff)
    diff.set_defaults(run=_run_diff)


def _add_convert(sub: Any) -> None:
    conv = sub.add_parser(
        "convert", help="convert a profile to another format",
        description="Convert a profile (any readable format or a .gfz archive) to one of the "
                    "formats graphframe writes. The output format comes from OUT's extension "
                    "or --to; OUT may be - (standard output) for text formats.",
        epilog="Formats: " + "; ".join(convert.writer_help()))
    conv.add_argument("input", metavar="IN", help="profile to read")
    conv.add_argument("output", metavar="OUT", help="file to write, or - for standard output")
    conv.add_argument("--to", choices=convert.output_formats(), help="output format")
    conv.add_argument("--from", dest="in_format", choices=dispatch.formats(),
                      help="input format (default: detect)")
    conv.add_argument("--metric", "-m", help="metric for dot, folded and speedscope")
    conv.add_argument("--rank", type=int, help="rank written by single-rank formats (default 0)")
    conv.add_argument("--thread", type=int, help="thread written (default 0)")
    conv.add_argument("--aggregate", choices=("mean", "sum", "min", "max"),
                      help="combine all ranks instead of picking one (dot, folded, speedscope)")
    conv.add_argument("--separator", help='frame separator of folded stacks (default "; ")')
    conv.add_argument("--scale", type=float,
                      help="multiply folded-stack values before rounding, e.g. 1e6 "
                           "(default: chosen from the data, said in a note)")
    conv.add_argument("--unit", choices=UNITS,
                      help="speedscope's unit (default: the metric's, from its name and "
                           "the input format)")
    _progress_option(conv)
    conv.set_defaults(run=_run_convert)


def _add_info(sub: Any) -> None:
    inf = sub.add_parser("info", help="describe a profile: nodes, ranks, metrics, metadata",
                         description="Describe a profile: its format, graph shape, rows and "
                                     "index levels, metric declarations and metadata.")
    inf.add_argument("path", help="profile file, database directory or .gfz archive")
    inf.add_argument("--format", choices=dispatch.formats(),
                     help="input format (default: detect)")
    _progress_option(inf)
    inf.set_defaults(run=_run_info)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} rows: give 1 or more")
    return value


def _colour_options(parser: argparse.ArgumentParser) -> None:
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument("--color", dest="color", action="store_true", default=None,
                        help="always colour the output")
    colour.add_argument("--no-color", dest="color", action="store_false",
                        help="never colour the output")
    parser.add_argument("--ascii", action="store_true", help="ASCII glyphs instead of Unicode")


def _progress_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", action="store_true",
                        help="show a progress bar on stderr while reading large inputs")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a reader option, e.g. summary_only=true or ranks=0,1 "
                             "(repeatable; `graphframe formats` lists the formats)")


def main(argv: Optional[Sequence[str]] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Entry point; returns the exit status (0 ok, 1 error, 2 usage, 130 interrupted)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        return _main(argv, out, err)
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback
        ProgressBar.clear_all(sys.stderr)
        err.write("graphframe: interrupted\n")
        err.flush()
        return EXIT_INTERRUPTED
    finally:
        ProgressBar.clear_all(sys.stderr)


def _main(argv: Optional[Sequence[str]], out: TextIO, err: TextIO) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse reports usage errors itself
        return int(exc.code or 0)
    try:
        with warnings.catch_warnings(record=True) as notes:
            result = args.run(args, out)
        for note in notes:  # e.g. nodes a flame graph had to leave out
            err.write(f"graphframe: note: {note.message}\n")
        if isinstance(result, Report):
            out.write(result.text)
            out.flush()
            err.write(result.error)
            return result.status
        out.write(result)
        out.flush()
    except UsageError as exc:
        ProgressBar.clear_all(sys.stderr)
        err.write(f"graphframe: error: {exc}\n")
        return 2
    except GraphframeError as exc:
        ProgressBar.clear_all(sys.stderr)
        err.write(f"graphframe: error: {exc}\n")
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 0
    return 0


def _run_tree(args: argparse.Namespace, out: TextIO) -> str:
    gf = example_graphframe() if args.example else open_profile(args.path, args.format,
                                                                             progress=args.progress,
                                                                             options=args.option)
    metric = None
    if args.metric:
        metric = args.metric[0] if len(args.metric) == 1 else list(args.metric)
    unicode = not args.ascii and _can_encode(out, "├─│└◀▶")
    color = _use_color(out) if args.color is None else args.color
    # gf.tree ignores a level the data lacks, as Hatchet; asked for on the command line, it
    # is a mistake worth saying
    require_levels(gf.dataframe.index, rank=args.rank, thread=args.thread)
    return gf.tree(metric_column=metric, depth=args.depth, rank=args.rank, thread=args.thread,
                   precision=args.precision, name_column=args.name_column,
                   expand_name=args.expand_name, color=color, unicode=unicode,
                   render_header=not args.no_header)


def _run_diff(args: argparse.Namespace, out: TextIO) -> Report:
    from .diff import diff_report  # the diff loads when a diff runs (fast start)

    unicode = not args.ascii and _can_encode(out, "├─│└→")
    color = _use_color(out) if args.color is None else args.color
    return diff_report(args.before, args.after, metric=args.metric,
                                threshold=args.threshold, top=args.top,
                                fail_above=args.fail_above, by=args.by,
                                normalize=args.normalize, aggregate=args.aggregate,
                                rank=args.rank, depth=args.depth, tree=not args.no_tree,
                                color=color, unicode=unicode, precision=args.precision,
                                progress=args.progress, fail_kind=args.fail_kind,
                                options=args.option, pairs=args.pair)


def _run_convert(args: argparse.Namespace, out: TextIO) -> str:
    text = convert.convert(args.input, args.output, to=args.to, in_format=args.in_format,
                            metric=args.metric, rank=args.rank, thread=args.thread,
                            aggregate=args.aggregate, separator=args.separator,
                            scale=args.scale, unit=args.unit, progress=args.progress,
                            reader_options=args.option)
    return text if text is not None else ""


def _run_info(args: argparse.Namespace, out: TextIO) -> str:
    if args.format is None and gc_cli.is_gc_log(args.path):  # issue 32: a JVM GC log
        return gc_cli.info_text(args.path)
    return info.info(args.path, args.format, progress=args.progress, options=args.option)


def _run_formats(args: argparse.Namespace, out: TextIO) -> str:
    rows = [(info.name, info.kind, info.description) for info in format_entries()]
    width = max(len(name) for name, _, _ in rows) + 2  # every name whole, two spaces after
    kinds = max(len(kind) for _, kind, _ in rows) + 2
    return "".join(f"{name:{width}}{kind:{kinds}}{description}\n"
                   for name, kind, description in rows)


def _use_color(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def _can_encode(out: TextIO, sample: str) -> bool:
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
